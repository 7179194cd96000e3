/* A sold-out tournament's waiting list (templates/tournament/waiting_list.html), for the desk and the floor.
 *
 * The buttons go through the JSON API (web/tournament/waiting_api.py) with the one client: a row's "Sat down", "Pass
 * over" (the floor's) and "Take off the list" (with a reason), and the floor's "Seat the next n". Their questions and
 * answers are the forms' sentences (static/js/form-words.js, data-says). Left open, the page follows the tournament's
 * live stream (the floor's socket, or the public one for the cashier): when an event may change the list (a bust that
 * offered a seat, the sweep passing someone over, another desk's press) or the socket (re)connects, the list is read
 * again from the API, and the offered alternates' tables and seats from the public board's calls (numbers, no
 * names: /api/public/tournaments/<id>/waiting/). Never while a reason is being typed: then once the person is done. An offer whose minutes ran out (by the server's clock) says so.
 */
import * as Util from "./util.js";
import * as api from "./api.js";
import * as apiForms from "./api-forms.js";
import * as Live from "./live.js";
import {SAYS} from "./form-words.js";

const root = document.getElementById("waiting");
const conf = root.dataset;
const list = document.getElementById("places");
const canPass = conf.canPass !== undefined;
// The events after which the list may read differently: the list's own, an entry registered (an offer), bust or
// voided (a seat opens, the next is offered), a seat moved, a table opened or broken, the settings (the minutes).
const TOUCHES = /^(waiting\.|entry\.|purchase\.|move\.|seat\.|seating\.|table\.(opened|in_play|breaking)|tournament\.)/;
const time = new Intl.DateTimeFormat(document.documentElement.lang || undefined,
                                     {hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: conf.zone});

function form(action, says, place, extra) {
  const f = Util.el("form", action === "cancel" ? null : "wl-press");
  f.method = "post";
  f.dataset.action = conf.list + place.number + "/" + action + "/";
  f.dataset.says = says;
  f.dataset.number = place.number;
  f.dataset.name = place.name;
  Object.assign(f.dataset, extra || {});
  return f;
}

function button(text, cls, id) {
  const b = Util.el("button", cls, text);
  b.type = "submit";
  b.id = id;
  return b;
}

function facts(place) {
  const p = Util.el("p", "wl-facts");
  p.append(Util.el("span", "wl-tag wl-tag-" + place.state, place.state === "offered" ? gettext("Seat offered") : gettext("Waiting")));
  if (place.position === 1) p.append(" ", Util.el("span", "wl-position", gettext("next in line")));
  else if (place.position) p.append(" ", Util.el("span", "wl-position", Util.fmt(gettext("position {n}"), {n: place.position})));
  const paid = place.paid ? Util.fmt(gettext("paid {amount}"), {amount: Util.money(place.paid, conf.currency)})
    : gettext("pays when he sits down");
  p.append(" ", Util.el("span", "wl-paid", paid));
  return p;
}

function seatLine(place, call) {
  const p = Util.el("p", "wl-seat");
  const a = Util.el("a", null, Util.fmt(gettext("entry #{n}"), {n: place.entry}));
  a.href = conf.entries + place.entry + "/";
  const where = call && call.table ? Util.fmt(gettext("Table {table}, seat {seat}"), call) : gettext("no seat yet");
  p.append(a, " ", Util.el("b", "wl-where", where));
  if (place.sitBy) p.append(" ", Util.el("span", "wl-sit-by", Util.fmt(gettext("sit down by {at}"), {at: time.format(place.sitBy)})));
  return p;
}

function actions(place) {
  const box = Util.el("div", "wl-actions");
  if (place.state === "offered") {
    const seat = form("seat", "waiting-seat", place);
    seat.append(button(gettext("Sat down"), "primary", "seat-" + place.number));
    box.append(seat);
    if (canPass) {
      const pass = form("pass", "waiting-pass", place);
      pass.append(button(gettext("Pass over"), null, "pass-" + place.number));
      box.append(pass);
    }
  }
  const details = Util.el("details", "wl-cancel");
  const summary = Util.el("summary", null, gettext("Take off the list…"));
  summary.id = "cancel-open-" + place.number;
  const cancel = form("cancel", "waiting-cancel", place, {currency: conf.currency});
  const label = Util.el("label", null, gettext("Why"));
  const reason = Util.el("input");
  Object.assign(reason, {type: "text", id: "cancel-reason-" + place.number, name: "reason", maxLength: 300, required: true,
                         autocomplete: "off"});
  label.htmlFor = reason.id;
  cancel.append(label, reason, button(Util.fmt(gettext("Take alternate {n} off the list"), {n: place.number}), "danger",
                                      "cancel-" + place.number));
  details.append(summary, cancel);
  box.append(details);
  return box;
}

function row(place, call) {
  const li = Util.el("li", "wl-row wl-" + place.state);
  li.id = "place-" + place.number;
  li.dataset.number = place.number;
  li.dataset.state = place.state;
  if (place.sitBy) li.dataset.sitBy = place.sitBy.toISOString();
  const num = Util.el("div", "wl-num");
  num.append(Util.el("small", null, gettext("Alternate")), Util.el("b", null, String(place.number)));
  const name = Util.el("p", "wl-name");
  name.append(Util.el("span", "wl-player", place.name));
  if (place.reentry) name.append(" ", Util.el("span", "wl-tag wl-re", gettext("re-entry")));
  const who = Util.el("div", "wl-who");
  who.append(name, facts(place));
  if (place.state === "offered") who.append(seatLine(place, call));
  li.append(num, who, actions(place));
  return li;
}

// When an offer's minutes run out: the server's (the board's call, the list's place), else from the list's times.
function sitBy(place, call) {
  const at = (call && call.sit_by) || place.sit_by;
  if (at) return new Date(at);
  return place.offered_at ? new Date(Date.parse(place.offered_at) + Number(conf.minutes) * 60000) : null;
}

function capacity(c) {
  const state = document.getElementById("cap-state");
  state.textContent = c.sold_out ? gettext("Sold out: new players join the waiting list.") : gettext("Seats open: register new players as usual.");
  state.className = "wl-state " + (c.sold_out ? "wl-sold-out" : "wl-open");
  document.getElementById("cap-entries").textContent = Util.count(c.entries);
  document.getElementById("cap-max").textContent = c.max_entries === null ? gettext("no maximum")
    : Util.fmt(gettext("of {max}"), {max: Util.count(c.max_entries)});
  document.getElementById("cap-seats").textContent = c.seats === null ? gettext("no limit") : Util.count(c.seats);
  document.getElementById("cap-in-play").textContent = Util.count(c.in_play);
  document.getElementById("cap-waiting").textContent = Util.count(c.waiting);
  document.getElementById("cap-offered").textContent = Util.count(c.offered);
}

// Time is up for an offer whose minutes ran out (the server's clock): the sweep passes him over within a minute.
let conn = null;
function late() {
  const now = (conn && conn.sync ? conn.sync.now() : Date.now() / 1000) * 1000;
  list.querySelectorAll("li[data-sit-by]").forEach(function (li) {
    const over = Date.parse(li.dataset.sitBy) <= now;
    li.classList.toggle("wl-late", over);
    let said = li.querySelector(".wl-late-words");
    if (over && !said) {
      said = Util.el("span", "wl-late-words", gettext("time is up"));
      li.querySelector(".wl-seat").append(" ", said);
    } else if (!over && said) said.remove();
  });
}

function render(data, calls) {
  capacity(data.capacity);
  const rows = data.places.map(function (place) {
    const call = calls[place.number] || null;
    return row(Object.assign({}, place, {sitBy: place.state === "offered" ? sitBy(place, call) : null}), call);
  });
  list.replaceChildren(...rows);
  document.getElementById("no-places").hidden = rows.length > 0;
  late();
}

// A reason being typed, or a question asked: the list is not rebuilt under the person's hands (read once done).
function busy() {
  const active = document.activeElement;
  return !!list.querySelector("details[open]") || !!(active && list.contains(active) && active.tagName === "INPUT");
}

let stale = false, timer = null, reading = null;
function refresh() {
  clearTimeout(timer);
  timer = null;
  if (busy() || reading) { stale = true; return; }
  stale = false;
  // The list (names, states) and the public board's calls to a seat (table, seat, sit down by; by alternate number).
  reading = Promise.all([api.get(conf.list), api.get(conf.board)]).then(function (both) {
    if (busy()) { stale = true; return; }
    const calls = {};
    both[1].calls.forEach(function (call) { calls[call.number] = call; });
    render(both[0], calls);
  }).catch(function () { stale = true; }).finally(function () {
    reading = null;
    if (stale && !busy()) soon();
  });
}
function soon() { if (timer === null) timer = setTimeout(refresh, 250); }  // a burst of events: one read

document.addEventListener("toggle", function () { if (stale) soon(); }, true);
document.addEventListener("focusout", function () { if (stale) soon(); });

// The forms: through the API, then the list read again at once (the stream's event follows).
root.addEventListener("submit", function (ev) {
  const f = ev.target;
  if (!f.dataset || !f.dataset.action) return;
  ev.preventDefault();
  const options = {button: ev.submitter || undefined, path: f.dataset.action, next: ""};
  if (f.dataset.says === "waiting-offer") options.done = function (answer) { return SAYS["waiting-offer"].done(answer); };
  apiForms.send(f, options).then(function (answer) {
    if (!answer) return;
    const open = f.closest("details");
    if (open) open.open = false;
    if (document.activeElement && f.contains(document.activeElement)) document.activeElement.blur();
    refresh();
  });
});

let figures = null;
conn = Live.connect({
  path: document.getElementById("live").dataset.socket, badge: "#live", sync: true,
  onSnapshot: refresh,  // the first connect, and every reconnect: read again
  onEvent: function (m) {
    const type = m.event ? m.event.type : m.type;
    const now = m.stats ? [m.stats.sold_out, m.stats.waiting].join() : figures;
    if (TOUCHES.test(type || "") || now !== figures) soon();
    figures = now;
  }
});
setInterval(late, 15000);
document.addEventListener("visibilitychange", function () { if (!document.hidden) late(); });
