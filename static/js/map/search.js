/* Finding: a table by number, a player by name (folded as core/search.py folds it: case and accents do not
   matter) or entry number. Going there (static/js/map/grid.js's goTo) switches to the table's section and
   scrolls to it. */
import {fmt, el, whole} from "../util.js";
import {words} from "./words.js";

function fold(text) {
  // eslint-disable-next-line no-misleading-character-class -- ranges of combining marks, removed on purpose
  return String(text || "").normalize("NFKD").replace(/[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g, "")
    .toLowerCase().replace(/ß/g, "ss");
}

// The search form's and the "go to table" form's listeners. `grid`: static/js/map/grid.js's.
export function setupSearch(st, grid) {
  let index = null, indexOf = null;  // the seated players' folded names, built at the first search of a map read
  function seated() {
    if (indexOf !== st.data) {
      index = [];
      indexOf = st.data;
      st.data.tables.forEach(function (t) {
        t.seat_list.forEach(function (seat) {
          if (seat.entry) index.push({key: fold(seat.name), name: seat.name, entry: seat.entry, table: t.table, seat: seat.seat});
        });
      });
    }
    return index;
  }
  function search(query) {
    const q = String(query || "").trim();
    if (/^#?\d+$/.test(q)) {
      const n = Number(q.replace("#", ""));
      return seated().filter(function (r) { return r.entry === n; });
    }
    const parts = fold(q).split(/\s+/).filter(Boolean);
    if (!parts.length || q.length < 2) return [];
    return seated().filter(function (r) { return parts.every(function (w) { return r.key.indexOf(w) >= 0; }); });
  }

  const note = document.getElementById("map-search-note"), foundList = document.getElementById("map-found");
  const input = document.getElementById("map-search");
  function showMatches(matches, jump) {
    foundList.textContent = "";
    note.textContent = input.value.trim() && !matches.length ? words.foundNone : (matches.length > 8 ? fmt(words.foundMore, {n: matches.length - 8}) : "");
    matches.slice(0, 8).forEach(function (r) {
      const b = el("button", "found-seat", fmt(words.foundSeat, {name: r.name, n: r.entry, t: r.table, s: r.seat}));
      b.type = "button";
      b.dataset.entry = r.entry;
      b.addEventListener("click", function () { grid.goTo(r.table, r.seat); });
      foundList.appendChild(b);
    });
    grid.toolsHeight();
    if (jump && matches.length) grid.goTo(matches[0].table, matches[0].seat);
  }
  let typing = null;
  input.addEventListener("input", function (ev) {
    clearTimeout(typing);
    const value = ev.target.value;
    typing = setTimeout(function () { showMatches(search(value), false); }, 120);
  });
  document.getElementById("map-search-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    clearTimeout(typing);
    showMatches(search(input.value), true);
  });
  document.getElementById("map-goto-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    const n = whole(document.getElementById("map-goto").value);
    note.textContent = grid.goTo(n) ? "" : fmt(words.noTable, {n: document.getElementById("map-goto").value});
    grid.toolsHeight();
  });
}
