/* The lobby TV's waiting list (templates/tournament/lobby.html, #lobby-alternates), from the snapshot's "alternates"
 * (live/snapshots.py; tables/selectors/screens.py alternates_board; null without a waiting list): "Sold out · 5 on the
 * waiting list" in words across the screen, and the latest calls to a seat in large type, "Alternate 12: table 7 seat 3
 * · wait for the button · sit down by 21:40" (on the venue's clock: the section's data-zone). A call less than
 * HIGHLIGHT_SECONDS old (server time: the call's `called_at`) is
 * drawn bright and says "New", as an envelope drawn is said (lobby-bounties.js): a TV left open and one loaded in those
 * seconds show the same. lobby.js asks again every second, and with every snapshot. */
import * as Util from "./util.js";
import * as Clock from "./clock.js";
import * as Words from "./alternates.js";

var HIGHLIGHT_SECONDS = 20, SHOWN = 3;

/* When the call was made (server time, seconds): the call's own time (`called_at`); for an answer without it, its time
   to sit down by less the house's minutes. */
function calledAt(call, minutes) {
  var at = Date.parse(call.called_at || "");
  if (!isNaN(at)) return at / 1000;
  var by = Date.parse(call.sit_by || "");
  return isNaN(by) ? null : by / 1000 - minutes * 60;
}

function isNew(call, minutes, now) {
  var at = calledAt(call, minutes);
  return at !== null && now - at > -5 && now - at < HIGHLIGHT_SECONDS;
}

/* The section drawn from `a` (null: no waiting list, nothing shown) at server time `now` (seconds). Redrawn only when
   what it says changes (a highlight's flashing is not restarted every second). True while a call is new. */
function show(a, now) {
  var box = document.getElementById("lobby-alternates");
  var zone = box.dataset.zone || "", minutes = Number(box.dataset.minutes) || 0;
  var calls = a ? (a.calls || []).slice(0, SHOWN) : [];
  var rows = calls.map(function (c) {
    return {
      fresh: isNew(c, minutes, now), who: Words.who(c), where: Words.where(c),
      when: [Words.positionWords(c.position), Words.sitBy(c, zone)].filter(Boolean).join(" \u00b7 ")
    };
  });
  var more = a && a.calls && a.calls.length > SHOWN ? a.calls.length - SHOWN : 0;
  var said = JSON.stringify([!!a, a ? Words.headline(a) : "", rows, more]);
  var fresh = rows.some(function (r) { return r.fresh; });
  document.body.classList.toggle("alternate-called", fresh);
  if (box.dataset.said === said) return fresh;
  box.dataset.said = said;
  box.hidden = !a;
  var head = document.getElementById("lobby-alt-head"), list = document.getElementById("lobby-alt-calls");
  var rest = document.getElementById("lobby-alt-more");
  head.textContent = a ? Words.headline(a) : "";
  list.textContent = "";
  rows.forEach(function (r) {
    var li = Util.el("li", "l-alt-call" + (r.fresh ? " is-new" : ""));
    li.setAttribute("data-fit", "");
    if (r.fresh) li.append(Util.el("span", "l-alt-new", gettext("New")), " ");
    li.append(Util.el("span", "l-alt-who", r.who), " ", Util.el("span", "l-alt-where", r.where));
    if (r.when) li.append(" ", Util.el("span", "l-alt-when", "\u00b7 " + r.when));
    list.appendChild(li);
  });
  list.hidden = !rows.length;
  rest.textContent = more ? Util.fmt(ngettext("and {n} more alternate called", "and {n} more alternates called", more), {n: more}) : "";
  rest.hidden = !more;
  if (!box.hidden) {
    box.querySelectorAll("[data-fit]").forEach(Clock.fit);
    requestAnimationFrame(function () { box.querySelectorAll("[data-fit]").forEach(Clock.fit); });
  }
  return fresh;
}

export {show, calledAt, HIGHLIGHT_SECONDS};
