/* The moves at the dealer tablet's table (#slips; table.slips_out and table.slips_in): the players leaving it, each
 * with his seat here and his new table and seat ("after this hand" when he plays it out first), and the seats kept
 * for the players arriving, with the position each takes here. */
import * as Util from "../util.js";
import * as Live from "../live.js";

const $ = (id) => document.getElementById(id);
const fmt = Util.fmt;

// One list of slips (#<id>, in its box #<id>-box, hidden when empty), a line each.
function fill(id, items, text) {
  const ul = $(id);
  ul.textContent = "";
  items.forEach((m) => { ul.appendChild(Util.el("li", null, text(m))); });
  $(id + "-box").hidden = !items.length;
}

export function renderSlips(table, words) {
  const out = table.slips_out || [], inn = table.slips_in || [];
  fill("slips-out", out, (m) => {
    const t = fmt(words.slipOut, {seat: m.from.seat, name: m.name, table: m.to.table, to: m.to.seat});
    return m.after_hand ? t + " " + words.afterHand : t;
  });
  fill("slips-in", inn, (m) => fmt(words.slipIn, {seat: m.to.seat, name: m.name, table: m.from.table}) + Live.slipPosition(m.position));
  $("slips").hidden = !out.length && !inn.length;
}
