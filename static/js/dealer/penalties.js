/* The players of the dealer tablet's table sitting out a penalty (#penalties; table.penalties,
 * tables/selectors/screens.table_penalties): the dealer deals them in and takes their blinds while the hands left count
 * down (TDA 51). */
import * as Util from "../util.js";

const fmt = Util.fmt, el = Util.el;

export function renderPenalties(table, words) {
  const rows = table.penalties || [], list = document.getElementById("penalties-list");
  document.getElementById("penalties").hidden = !rows.length;
  document.getElementById("penalties-title").textContent = words.penTitle;
  list.textContent = "";
  rows.forEach((p) => {
    const seat = p.now ? p.now.seat : p.seat, li = el("li");
    Object.assign(li.dataset, {seat: seat, penalty: p.number, left: p.hands_left});
    const text = el("span", "p-text", fmt(words.penRow, {name: p.name}) + " ");
    text.append(el("span", "p-left", fmt(words.penLeft, {left: p.hands_left, hands: p.hands})), " " + words.penDeal);
    li.append(el("span", "p-seat", fmt(words.penSeat, {seat: seat})), text);
    list.appendChild(li);
  });
}
