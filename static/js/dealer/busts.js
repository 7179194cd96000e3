/* A bust reported from the dealer tablet (#bust; tables/services/bust_reports.py): "Report a bust" lists the seated
 * players (the API's counts/, as "Call the clock" does); the dealer taps the seat that is out, then the seat or seats
 * that won the pot (several: a split pot), and sends it. In a bounty event a winner is required. The answer says
 * whether it applied at once or waits for the floor (the house rule).
 *
 *   BustReports({words, urls, bounty, poll}) -> void
 */
import * as Util from "../util.js";
import * as api from "../api.js";

const $ = (id) => document.getElementById(id);
const fmt = Util.fmt, el = Util.el;

export function BustReports({words, urls, bounty, poll}) {
  const picking = {players: [], out: null, won: new Set()};

  function seatButton(p, pressed) {
    const b = el("button", "c-seat");
    b.type = "button";
    b.dataset.seat = String(p.seat);
    b.appendChild(el("b", null, String(p.seat)));
    b.appendChild(el("span", null, p.name));
    b.setAttribute("aria-pressed", pressed ? "true" : "false");
    return b;
  }

  function paint() {
    const out = $("bust-out"), won = $("bust-won");
    out.textContent = "";
    won.textContent = "";
    picking.players.forEach((p) => {
      const b = seatButton(p, p.seat === picking.out);
      b.setAttribute("aria-label", fmt(words.bustOutSeat, {seat: p.seat, name: p.name}));
      out.appendChild(b);
      if (p.seat !== picking.out) {
        const w = seatButton(p, picking.won.has(p.seat));
        w.setAttribute("aria-label", fmt(words.bustWonSeat, {seat: p.seat, name: p.name}));
        won.appendChild(w);
      }
    });
    $("bust-won-box").hidden = picking.out === null;
    const missing = picking.out === null ? words.bustPickOut : (bounty && !picking.won.size ? words.bustPickWinner : "");
    $("bust-why").textContent = missing;
    $("bust-why").hidden = !missing;
    $("bust-go").disabled = !!missing;
  }

  function close() {
    $("bust-pick").hidden = true;
    $("bust-open").setAttribute("aria-expanded", "false");
    $("bust-open").focus({preventScroll: true});
  }

  $("bust-open").addEventListener("click", () => {
    if (!$("bust-pick").hidden) { close(); return; }
    api.press($("bust-open"), () => api.get(urls.counts), null).then((answer) => {
      if (!answer || !answer.players) return;
      picking.players = answer.players;
      picking.out = null;
      picking.won = new Set();
      $("bust-pick").hidden = false;
      $("bust-open").setAttribute("aria-expanded", "true");
      paint();
      $("bust-pick").scrollIntoView({block: "start"});
      const first = $("bust-out").querySelector("button");
      if (first) first.focus({preventScroll: true});
    });
  });
  $("bust-out").addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (!b) return;
    picking.out = Number(b.dataset.seat);
    picking.won.delete(picking.out);
    paint();
  });
  $("bust-won").addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (!b) return;
    const seat = Number(b.dataset.seat);
    if (picking.won.has(seat)) picking.won.delete(seat); else picking.won.add(seat);
    paint();
  });
  $("bust-cancel").addEventListener("click", close);
  $("bust-pick").addEventListener("keydown", (e) => { if (e.key === "Escape") { e.preventDefault(); close(); } });
  $("bust-go").addEventListener("click", () => {
    if (picking.out === null) return;
    const body = {seat: picking.out, winner_seats: Array.from(picking.won).sort((a, b) => a - b)};
    api.press($("bust-go"), (k) => api.post(urls.bust, body, {key: k}), (r) => fmt(r.status === "applied" ? words.bustApplied : words.bustWaits,
      {seat: r.seat, name: r.name})).then((r) => {
      if (!r || !r.report) return;
      close();
      poll();
    });
  });
}
