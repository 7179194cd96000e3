/* The words of a sold-out tournament's waiting list, shared by the lobby TV (lobby-alternates.js), the player's seat
 * page (seat-page.js) and the players' waiting-list board (waiting-board.js). A call to a seat is the lobby snapshot's
 * and the board's `calls[]` item (tables/selectors/screens.py alternates_board: number, table, seat, position, sit_by),
 * or the public seat answer's `alternate` with the answer's table and seat. Times are said on the venue's clock (its
 * IANA time zone, from the page), never the device's. */
import * as Util from "./util.js";

function lang() { return document.documentElement.lang || undefined; }

/* "21:40": an ISO time on the venue's clock (the device's own when the zone is not given or not known here). */
function clockTime(iso, zone) {
  var at = new Date(iso || "");
  if (isNaN(at.getTime())) return "";
  var opts = {hour: "2-digit", minute: "2-digit", hourCycle: "h23"};
  try {
    return new Intl.DateTimeFormat(lang(), zone ? Object.assign({timeZone: zone}, opts) : opts).format(at);
  } catch {
    return new Intl.DateTimeFormat(lang(), opts).format(at);  // a zone this browser does not know
  }
}

/* Where the offered seat plays the next hand, for the player (tables.rules.positions): "wait for the button" between the
   small blind and the button (TDA 7), his blind, the button; "" when he is dealt in with no blind or it is not known. */
function positionWords(code) {
  return {
    wait_for_button: pgettext("seat position", "wait for the button"),
    big_blind: pgettext("seat position", "big blind"),
    small_blind: pgettext("seat position", "small blind"),
    button: pgettext("seat position", "button")
  }[code] || "";
}

/* "Alternate 12:" and "table 7 seat 3" (a call whose seat is not known: "called to a seat"). */
function who(call) { return Util.fmt(gettext("Alternate {number}:"), {number: call.number}); }
function where(call) {
  return call.table === null || call.table === undefined ? gettext("called to a seat")
    : Util.fmt(gettext("table {table} seat {seat}"), {table: call.table, seat: call.seat});
}

/* "sit down by 21:40" ("" without a time). */
function sitBy(call, zone) {
  var time = clockTime(call.sit_by, zone);
  return time ? Util.fmt(gettext("sit down by {time}"), {time: time}) : "";
}

/* "Alternate 12: table 7 seat 3 · wait for the button · sit down by 21:40": the call in one line. */
function line(call, zone) {
  return [who(call) + " " + where(call), positionWords(call.position), sitBy(call, zone)].filter(Boolean).join(" \u00b7 ");
}

/* "Sold out · 5 on the waiting list", "Sold out", or (seats open again, alternates still called) the calls' title. */
function headline(a) {
  var n = a && a.waiting ? a.waiting.length : 0;
  if (a && a.sold_out && n) return Util.fmt(ngettext("Sold out \u00b7 {n} on the waiting list", "Sold out \u00b7 {n} on the waiting list", n), {n: n});
  if (a && a.sold_out) return gettext("Sold out");
  return gettext("Alternates called to a seat");
}

/* 5 -> "5th" in English, "5." in the languages that write an ordinal with a dot (Czech, Slovak). */
var SUFFIX = {one: "st", two: "nd", few: "rd", other: "th"};
function ordinal(n) {
  if (!/^en\b/.test(lang() || "en")) return n + ".";
  return n + SUFFIX[new Intl.PluralRules("en", {type: "ordinal"}).select(n)];
}

/* Where alternate `number` stands on the list `a` (the board's answer): {state: "waiting", position} (1: the next to be
   called), {state: "called", call}, or {state: "gone"} (seated, passed over, taken off the list, or no such number). */
function standing(a, number) {
  var calls = (a && a.calls) || [], waiting = (a && a.waiting) || [];
  for (var i = 0; i < calls.length; i++) if (calls[i].number === number) return {state: "called", call: calls[i]};
  var at = waiting.indexOf(number);
  return at >= 0 ? {state: "waiting", position: at + 1} : {state: "gone"};
}

export {clockTime, positionWords, who, where, sitBy, line, headline, ordinal, standing};
