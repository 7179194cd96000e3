/* The lobby TV's bounty panel (templates/tournament/lobby.html, #lobby-bounties), from the snapshot's "bounties"
 * (live/snapshots.py; payouts/selectors/bounty_screens.py; null outside a bounty event): the bounty money in play,
 * a knockout's bounty, a PKO's biggest heads (with names while the house shows its figures in public), a mystery
 * event's envelopes left by value and the last envelope drawn. For HIGHLIGHT_SECONDS after a draw (server time) a
 * banner across the screen says it, "Envelope drawn: EUR 500 for Jana Nováková": a TV left open and one loaded in those
 * seconds show the same. lobby.js decides when the panel takes the side column's place. */
import * as Util from "./util.js";
import * as Clock from "./clock.js";

var HIGHLIGHT_SECONDS = 15;

function envelopeWords(e, currency, named, plain) {
  var value = Util.money(e.value, currency), who = (e.names || []).join(", ");
  return who ? Util.fmt(named, {value: value, names: who}) : Util.fmt(plain, {value: value});
}

/* The panel drawn from `b` (null: no bounty event, nothing shown); `fillList(list, rows, cellsOf)` is the lobby's
   list filler. Returns what lobby.js keeps: `b`, or null. */
function show(b, currency, fillList) {
  var box = document.getElementById("lobby-bounties");
  var list = document.getElementById("lobby-bounty-list"), sub = document.getElementById("lobby-bounty-sub");
  var last = document.getElementById("lobby-bounty-last");
  b = b && b.format ? b : null;
  var rows = [], cellsOf = null, words = "";
  if (b && b.format === "progressive") {
    if (b.heads && b.heads.length) {
      words = gettext("Biggest heads");
      rows = b.heads.map(function (h, i) { return {rank: i + 1, name: h.name, head: h.head}; });
      cellsOf = function (r) { return [["pl", r.rank + "."], ["nm", r.name], ["pz", Util.money(r.head, currency)]]; };
    } else {
      words = Util.fmt(gettext("Each head starts at {amount}"), {amount: Util.money(b.bounty, currency)});
    }
  } else if (b && b.format === "mystery" && b.box) {
    words = Util.fmt(ngettext("{n} envelope left", "{n} envelopes left", b.envelopes_left), {n: b.envelopes_left});
    rows = b.box;
    cellsOf = function (r) { return [["pl", Util.fmt(gettext("{n} ×"), {n: r[1]})], ["pz", Util.money(r[0], currency)]]; };
  } else if (b && b.format === "knockout") {
    words = Util.fmt(gettext("Each knockout pays {amount}"), {amount: Util.money(b.bounty, currency)});
  }
  fillList(list, rows, cellsOf || function () { return []; });
  box.classList.toggle("is-box", !!(b && b.format === "mystery"));
  box.classList.toggle("no-list", !rows.length);
  document.getElementById("lobby-bounty-pool").textContent = b ? Util.money(b.in_play, currency) : "";
  sub.textContent = words;
  sub.hidden = !words;
  var e = b && b.last_envelope;
  last.textContent = e ? envelopeWords(e, currency, gettext("Last envelope: {value} for {names}"), gettext("Last envelope: {value}")) : "";
  last.hidden = !e;
  if (!box.hidden) box.querySelectorAll("[data-fit]").forEach(Clock.fit);
  return b;
}

/* The banner of the envelope just drawn, shown while the draw is less than HIGHLIGHT_SECONDS old (`now`: server time,
   seconds); with the envelopes drawn together with it (the night's last bust draws the pot's and the winner's own),
   each said. True while it is shown. */
function banner(b, now, currency) {
  var el = document.getElementById("lobby-envelope"), e = b && b.last_envelope;
  var on = !!e && now - e.at > -5 && now - e.at < HIGHLIGHT_SECONDS;
  var together = (b && b.envelopes_together) || [], text = "";
  if (on && together.length > 1) {
    text = Util.fmt(gettext("Envelopes drawn: {list}"), {list: together.map(function (x) {
      return envelopeWords(x, currency, gettext("{value} for {names}"), "{value}");
    }).join(" · ")});
  } else if (on) {
    text = envelopeWords(e, currency, gettext("Envelope drawn: {value} for {names}"), gettext("Envelope drawn: {value}"));
  }
  document.body.classList.toggle("envelope-drawn", on);
  if (el.hidden === !on && el.dataset.said === text) return on;
  el.dataset.said = text;
  el.textContent = text;
  el.hidden = !on;
  if (on) { Clock.fit(el); requestAnimationFrame(function () { Clock.fit(el); }); }
  return on;
}

export {banner, show, HIGHLIGHT_SECONDS};
