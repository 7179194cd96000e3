/* The dealer tablet's two panels of a whole table typed on the number pad (numpad.js), one row per seated player:
 *  - the table's stacks counted (#stacks; tables/services/counting.py): every player's chips. The players come from the API
 *    (GET counts/, with each one's last count); Save sends the whole table at once (POST counts/).
 *  - bag-and-tag at the end of a day (#bags; days/services/bags.py): every player's chips, on the pad, and the number
 *    written on his bag, in a text field (the tablet's keyboard). The players come from the API (GET bags/: today's
 *    bag of each, and his last count, the chips' starting value); Save sends the whole table at once (POST bags/).
 *    A table already bagged shows its bags: saved again, they are corrected.
 * What is typed is kept by entry number, so a table read again after a refusal (a player busted or moved meanwhile)
 * keeps the others'. Both are one TablePanel; StacksPanel and BagsPanel say what differs.
 */
import * as Util from "../util.js";
import * as api from "../api.js";
import * as Live from "../live.js";
import {NumberPad} from "./numpad.js";

const $ = (id) => document.getElementById(id);
const fmt = Util.fmt, el = Util.el, num = Live.number;

/* A whole table typed on the pad, in the panel #<id> (its rows, pad, buttons and the line by them: #<id>-...): its
 * button opens it with the API's read of the table (what was typed starts afresh) and closes it again, as do Cancel
 * and Escape. The panel's own part (o):
 *   url: its API (GET the players, POST the table); max: the largest count; words
 *   read(f), write(f, text): a player's chips typed (`panel.typed` holds what is typed, by entry)
 *   row(p, entry, id): a player's row (id: his row's ids start with it); rendered(answer): after the rows
 *   body(): {payload} to send, or {missing: {entry, text, then()}}: the first gap, said and selected
 *   said(answer): the message of a save; next(f): the pad's Next on a player's chips; closed(); offline: the words
 *   of a panel that cannot open without the connection
 */
function TablePanel(id, o) {
  const panel = {players: [], typed: {}};
  const pad = NumberPad({
    box: $(id), rows: $(id + "-rows"), pad: $(id + "-pad"), target: $(id + "-target"), max: o.max,
    open: () => !$(id).hidden, read: o.read, write: o.write, show: num,
    targetText: (f) => fmt(o.words.stacksTarget, {seat: f.dataset.seat, name: f.dataset.name}),
    pick: o.words.stacksPick, next: o.next,
    end: () => { $(id + "-save").scrollIntoView({block: "nearest"}); }
  });
  panel.pad = pad;  // the bags' own keys select on it

  function render(answer) {
    const box = $(id + "-rows"), seated = {}, focused = document.activeElement;
    // A text field of the rows that had the focus (a bag number) has it again once they are made again.
    const again = focused && box.contains(focused) && focused.tagName === "INPUT" ? focused.id : null;
    panel.players = answer.players;
    box.textContent = "";
    panel.players.forEach((p) => {
      const entry = String(p.entry);
      seated[entry] = true;
      box.appendChild(o.row(p, entry, id + "-" + entry));
    });
    if (again && $(again)) $(again).focus({preventScroll: true});
    Object.keys(panel.typed).forEach((entry) => { if (!seated[entry]) delete panel.typed[entry]; });
    if (!panel.players.length) box.appendChild(el("p", "r-help", o.words.raceNoPlayers));
    $(id + "-save").disabled = !panel.players.length;
    if (o.rendered) o.rendered(answer);
    if (!pad.field(pad.sel)) {
      const all = pad.fields();
      pad.select(all.find((f) => !o.read(f)) || all[0] || null);
    }
    pad.paint();
  }

  function close() {
    const inside = $(id).contains(document.activeElement) || document.activeElement === document.body;
    $(id).hidden = true;
    $(id + "-open").setAttribute("aria-expanded", "false");
    pad.sel = null;
    if (o.closed) o.closed();
    if (inside && !$(id + "-open").hidden) $(id + "-open").focus();
  }
  $(id + "-open").addEventListener("click", () => {
    if (!$(id).hidden) { close(); return; }
    // Offline (and no copy of the table's players kept by the service worker): the panel cannot open, and says why.
    api.press($(id + "-open"), () => api.get(o.url).catch((error) => {
      if (error && error.code === "network" && o.offline) error.message = o.offline;
      throw error;
    }), null).then((answer) => {
      if (!answer || !answer.players) return;
      panel.typed = {};
      pad.sel = null;
      $(id + "-say").hidden = true;
      $(id).hidden = false;
      $(id + "-open").setAttribute("aria-expanded", "true");
      render(answer);
      $(id).scrollIntoView({block: "start"});
      const first = pad.field(pad.sel);
      if (first) first.focus({preventScroll: true});
    });
  });
  $(id + "-cancel").addEventListener("click", close);
  $(id).addEventListener("keydown", (e) => { if (e.key === "Escape") { e.preventDefault(); close(); } });

  $(id + "-save").addEventListener("click", () => {
    const body = o.body();
    if (body.missing) {  // every seated player is saved at once: the first gap is said and selected
      pad.select(pad.field(body.missing.entry));
      pad.paint(true);
      api.say(body.missing.text, false);
      if (body.missing.then) body.missing.then();
      return;
    }
    api.press($(id + "-save"), (k) => api.post(o.url, body.payload, {key: k}), o.said).then((answer) => {
      if (answer && answer.players) { close(); return; }
      // Refused (the message stays said): the table as it is now, what was typed kept for the players still here.
      api.get(o.url).then((now) => { if (!$(id).hidden && now && now.players) render(now); }, () => {});
    });
  });
  return panel;
}

/* A player's row: his seat, his name with a line under it (`note`: his last count, his bag), and the button of his
   chips, whose name is the seat, the name and the note, and the chips typed. */
function playerRow(p, entry, id, cls, note, words) {
  const row = el("div", cls);
  row.dataset.seat = p.seat;
  const seat = el("span", "r-seat", String(p.seat)), name = el("span", "r-name", p.name);
  seat.id = id + "-seat";
  name.id = id + "-name";
  name.appendChild(el("small", "s-last", note));
  const f = el("button", "r-field s-stack");
  f.type = "button";
  f.id = id;
  Object.assign(f.dataset, {field: entry, seat: p.seat, name: p.name});
  f.setAttribute("aria-labelledby", seat.id + " " + name.id + " " + id);
  f.append(el("small", null, words.stacksChips), el("b"));
  row.append(seat, name, f);
  return row;
}

function lastCount(chips, words) {
  return chips === null ? words.stacksNever : fmt(words.stacksLast, {chips: num(chips)});
}

export function StacksPanel({words, urls}) {
  const stacks = TablePanel("stacks", {
    url: urls.counts, max: urls.maxChips, words: words, offline: words.stacksOffline,
    read: (f) => stacks.typed[f.dataset.field] || "",
    write: (f, v) => { if (v === "") delete stacks.typed[f.dataset.field]; else stacks.typed[f.dataset.field] = v; },
    row: (p, entry, id) => playerRow(p, entry, id, "r-row", lastCount(p.chips, words), words),
    body: () => {
      const seats = {};
      let missing = null;
      stacks.players.forEach((p) => {
        const v = stacks.typed[String(p.entry)];
        if (!v) { missing = missing || p; return; }
        seats[String(p.seat)] = Number(v);
      });
      return missing ? {missing: {entry: missing.entry, text: fmt(words.stacksMissing, {seat: missing.seat})}}
        : {payload: {seats: seats}};
    },
    said: (a) => fmt(words.stacksCounted(a.counted), {n: a.counted, total: num(a.total)})
  });
  return stacks;
}

// closed(): the panel closed (the button "Bag stacks" stays only while the day is over).
export function BagsPanel({words, urls, closed}) {
  const bagOf = (entry) => (bags.typed[entry] = bags.typed[entry] || {chips: "", bag: ""});
  const bags = TablePanel("bags", {
    url: urls.bags, max: urls.maxChips, words: words, closed: closed,
    read: (f) => bagOf(f.dataset.field).chips,
    write: (f, v) => { bagOf(f.dataset.field).chips = v; },
    // Next on the chips: the same seat's bag number, typed on the keyboard (Enter there: the next seat's chips).
    next: (f) => {
      const input = f.closest(".r-row").querySelector(".b-bag input");
      input.focus();
      input.select();
      return true;
    },
    row: bagRow,
    rendered: (answer) => {
      const n = answer.players.length;
      $("bags-state").textContent = fmt(words.bagsDay, {day: answer.day}) + " · " + (answer.bagged
        ? fmt(words.bagsTally(n), {n: answer.bagged, of: n, total: num(answer.total)}) : words.bagsNone);
    },
    body: () => {
      const rows = [];
      let missing = null;
      bags.players.forEach((p) => {
        const typed = bagOf(String(p.entry));
        if (!missing && !typed.chips) missing = {p: p, what: "chips"};
        else if (!missing && !typed.bag.trim()) missing = {p: p, what: "bag"};
        rows.push({seat: p.seat, chips: Number(typed.chips), bag: typed.bag});
      });
      if (!missing) return {payload: {bags: rows}};
      const chips = missing.what === "chips", entry = missing.p.entry;
      return {missing: {entry: entry, text: fmt(chips ? words.bagsMissingChips : words.bagsMissingBag, {seat: missing.p.seat}),
                        then: () => { if (!chips) $("bags-" + entry + "-bag").focus(); }}};
    },
    said: (a) => fmt(words.bagsSaved(a.bagged), {n: a.bagged, total: num(a.total)})
  });
  function bagRow(p, entry, id) {
    if (!bags.typed[entry]) {  // what the tablet starts from: today's bag, else the chips of his last count
      const chips = p.chips !== null ? p.chips : p.last_count;
      bags.typed[entry] = {chips: chips === null || chips === undefined ? "" : String(chips), bag: p.bag || ""};
    }
    const row = playerRow(p, entry, id, "r-row b-row" + (p.bag ? " bagged" : ""),
                          p.bag ? fmt(words.bagsBagged, {bag: p.bag, chips: num(p.chips)}) : lastCount(p.last_count, words), words);
    row.dataset.entry = entry;
    const label = el("label", "b-bag"), input = el("input");
    label.htmlFor = id + "-bag";
    label.appendChild(el("small", null, words.bagsBag));
    Object.assign(input, {type: "text", id: id + "-bag", autocomplete: "off", spellcheck: false, value: bags.typed[entry].bag});
    input.dataset.bag = entry;
    input.setAttribute("autocapitalize", "characters");
    input.setAttribute("enterkeyhint", "next");
    input.setAttribute("aria-label", fmt(words.bagsBagLabel, {seat: p.seat, name: p.name}));
    label.appendChild(input);
    row.appendChild(label);
    return row;
  }

  $("bags-rows").addEventListener("input", (e) => {
    if (e.target.dataset.bag) bagOf(e.target.dataset.bag).bag = e.target.value;
  });
  $("bags-rows").addEventListener("focusin", (e) => {  // the row of the bag number typed is the pad's too
    if (!e.target.dataset.bag) return;
    bags.pad.select(bags.pad.field(e.target.dataset.bag));
    bags.pad.paint();
  });
  $("bags-rows").addEventListener("keydown", (e) => {  // Enter in a bag number: the next seat's chips
    if (e.key !== "Enter" || !e.target.dataset.bag) return;
    e.preventDefault();
    const all = bags.pad.fields(), next = all[all.indexOf(bags.pad.field(e.target.dataset.bag)) + 1] || null;
    bags.pad.select(next);
    bags.pad.paint(true);
    if (next) next.focus({preventScroll: true}); else $("bags-save").focus();
  });
  return bags;
}
