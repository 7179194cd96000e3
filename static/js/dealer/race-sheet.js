/* The chip race's sheet on the dealer tablet (#race-sheet): each seat's leaving chips counted, its odd chips, its
 * cards and what it won; the winners in order, the table's difference in the chips in play, and the draw (the
 * software's, with its link) or the cards entered as dealt at the table. Printed once the race is confirmed. */
import * as Util from "../util.js";
import * as Live from "../live.js";

const $ = (id) => document.getElementById(id);
const fmt = Util.fmt, el = Util.el, num = Live.number, signed = Live.signed;

// A card's suit: its sign and whether it is red.
export const SUITS = {s: ["♠", false], h: ["♥", true], d: ["♦", true], c: ["♣", false]};

function card(code) {
  const suit = SUITS[code.slice(-1).toLowerCase()] || [code.slice(-1), false], rank = code.slice(0, -1).toUpperCase();
  const c = el("span", "r-card" + (suit[1] ? " red" : ""), (rank === "T" ? "10" : rank) + suit[0]);
  c.dataset.card = code;
  return c;
}

// A figure with a note after it ("12 (300)"; "only these chips").
function noted(figure, note) {
  const wrap = el("span");
  wrap.append(figure, note);
  return wrap;
}

function seatRow(s, words) {
  const tr = el("tr", (s.won ? "won" : "") + (s.protection ? " protected" : ""));
  tr.dataset.seat = s.seat;
  function td(cls, label, content) {
    const c = el("td", cls);
    if (label) c.dataset.label = label;
    if (typeof content === "string") c.textContent = content; else if (content) c.appendChild(content);
    tr.appendChild(c);
    return c;
  }
  td("r-c-seat", null, String(s.seat));
  td("r-c-name", null, s.name);
  let counted = el("span", null, s.leaving.map((pair) => num(pair[1]) + " × " + num(pair[0])).join(", "));
  if (s.other_value === 0) counted = noted(counted, el("span", "r-sub r-note", words.raceOnly));
  td("r-c-counted", words.raceCounted, counted);
  let odd = el("span", null, num(s.odd_chips));
  if (s.odd_chips) odd = noted(odd, el("span", "r-sub", " (" + num(s.odd_value) + ")"));
  td("r-c-odd", words.raceOdd, odd);
  const cards = el("span", "r-cards");
  (s.cards || []).forEach((c) => { cards.appendChild(card(c)); });
  if (!(s.cards || []).length) cards.textContent = "–";
  td("r-c-cards", words.raceCards, cards);
  td("r-c-race", words.raceRace, s.won ? "● " + words.raceWon : s.protection ? "◆ " + words.raceProtection : "–");
  td("r-c-new", $("race-new-head").textContent, num(s.new_chips));
  return tr;
}

// The sheet of the race (table.race.sheet); drawsUrl: the draws' pages, a draw's is drawsUrl + its number + "/".
export function renderSheet(sheet, words, drawsUrl) {
  const bySeat = {};
  sheet.seats.forEach((s) => { bySeat[s.seat] = s; });
  const confirmed = sheet.status === "confirmed";
  $("race-sheet").classList.toggle("confirmed", confirmed);
  $("race-sheet").dataset.status = sheet.status;
  $("race-sheet-title").textContent = fmt(words.raceSheetTitle, {table: sheet.table});
  $("race-print-line").textContent = $("race-title").textContent + " · " + $("race-new").textContent;
  $("race-stamp").hidden = !confirmed;
  $("race-new-head").textContent = fmt(words.raceNewChips, {chip: num(sheet.new_chip)});
  const body = $("race-result");
  body.textContent = "";
  sheet.seats.forEach((s) => { body.appendChild(seatRow(s, words)); });
  const ol = $("race-winners");
  ol.textContent = "";
  sheet.winners.forEach((seat) => {
    ol.appendChild(el("li", null, fmt(words.raceWinner, {seat: seat, name: (bySeat[seat] || {}).name || ""})));
  });
  if (!sheet.winners.length) ol.appendChild(el("li", null, words.raceNoWinners));
  $("race-difference").textContent = signed(sheet.difference);
  $("race-difference").dataset.difference = sheet.difference;
  $("race-difference-says").textContent = sheet.difference > 0 ? words.raceAdded : sheet.difference < 0 ? words.raceRemoved
    : words.raceUnchanged;
  const draw = $("race-draw");
  draw.textContent = "";
  if (sheet.draw !== null && sheet.draw !== undefined) {
    const a = el("a", null, fmt(words.raceDraw, {n: sheet.draw}));
    Object.assign(a, {href: drawsUrl + sheet.draw + "/", target: "_blank", rel: "noopener", id: "race-draw-link"});
    draw.appendChild(a);
  } else {
    draw.textContent = words.raceCardsEntered;
  }
  $("race-redo").hidden = confirmed;
  $("race-confirm").hidden = confirmed;
  $("race-print").hidden = !confirmed;
}
