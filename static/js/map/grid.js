/* The grid: one section of tables at a time (sections of SECTION tables once the room has more than ALL_UP_TO),
   narrowed by the filters (short, halted, with pending move slips, still on the previous level). A table's card
   (static/js/map/render.js) is rebuilt only when what it shows changed (its signature), so a refetch touches the
   cards of the visible section that changed and nothing else. Going to a table (a player found, a number typed:
   static/js/map/search.js) clears the filters that hide it, switches to its section and scrolls to it. */
import {fmt, el} from "../util.js";
import {words} from "./words.js";
import {balancing, reservedSeats} from "./state.js";
import {card, signature} from "./render.js";

const SECTION = 50, ALL_UP_TO = 60;

function slipTables(st) {  // table number -> pending slips leaving or reaching it
  const out = {};
  balancing(st).moves.forEach(function (m) {
    out[m.from.table] = (out[m.from.table] || 0) + 1;
    if (m.to.table !== m.from.table) out[m.to.table] = (out[m.to.table] || 0) + 1;
  });
  return out;
}

// What the cards and the filters need to know of every table, read once per drawing.
function facts(st) {
  const b = balancing(st), halted = {}, need = {};
  b.halted.forEach(function (n) { halted[n] = true; });
  b.need_button.forEach(function (n) { need[n] = true; });
  return {halted: halted, need: need, slips: slipTables(st), reserved: reservedSeats(st)};
}

const TESTS = {
  short: function (t) { return t.status === "short"; },
  halted: function (t, f) { return !!f.halted[t.table]; },
  slips: function (t, f) { return !!f.slips[t.table]; },
  old: function (t) { return !!t.on_old_level; }
};

function sectionsOf(list) {
  if (list.length <= ALL_UP_TO) return [{from: 0, to: list.length, label: list.length ? fmt(words.sectionAll, {n: list.length}) : words.sectionNone}];
  const out = [];
  for (let i = 0; i < list.length; i += SECTION) {
    const end = Math.min(i + SECTION, list.length);
    out.push({from: i, to: end, label: fmt(words.section, {a: list[i].table, b: list[end - 1].table, n: end - i})});
  }
  return out;
}

// The grid's listeners; returns its drawing, going to a table and the tools' height. `ui`: what the cards' buttons
// open (static/js/map/render.js's card).
export function createGrid(st, ui) {
  const grid = document.getElementById("map");
  const toolsBox = document.getElementById("map-tools"), sectionSelect = document.getElementById("map-section");
  const filterBoxes = Array.prototype.slice.call(document.querySelectorAll('#map-filters input[name="filter"]'));
  const filterSummary = document.querySelector("#map-filterbox > summary");
  const view = {
    cards: {},         // table number -> {sig, node} of the cards built (the visible section's)
    section: 0,        // the section shown (its index)
    sectionKeys: "",   // the sections' labels, as the select's options say them
    found: null        // the seat of the player found: {table, seat}, highlighted
  };

  function filtered(f) {
    const on = filterBoxes.filter(function (b) { return b.checked; }).map(function (b) { return b.value; });
    const counts = {short: 0, halted: 0, slips: 0, old: 0}, list = [];
    st.data.tables.forEach(function (t) {
      let any = false;
      Object.keys(TESTS).forEach(function (k) { if (TESTS[k](t, f)) { counts[k]++; if (on.indexOf(k) >= 0) any = true; } });
      if (!on.length || any) list.push(t);
    });
    document.querySelectorAll("#map-filters [data-count]").forEach(function (span) { span.textContent = "(" + counts[span.dataset.count] + ")"; });
    // The folded filters say which are on.
    const names = filterBoxes.filter(function (b) { return b.checked; })
      .map(function (b) { return b.parentNode.querySelector(".f-name").textContent.trim(); });
    filterSummary.textContent = names.length ? fmt(words.filtersOn, {filters: names.join(", ")}) : words.filtersNone;
    return list;
  }
  function renderSections(list) {
    const parts = sectionsOf(list), keys = parts.map(function (p) { return p.label; }).join("|");
    if (view.section >= parts.length) view.section = parts.length - 1;
    if (keys !== view.sectionKeys) {  // the options change only when the tables or the filters do
      view.sectionKeys = keys;
      sectionSelect.textContent = "";
      parts.forEach(function (p, i) { const o = el("option", "", p.label); o.value = i; sectionSelect.appendChild(o); });
    }
    sectionSelect.value = String(view.section);
    sectionSelect.disabled = parts.length < 2;
    return parts[view.section];
  }

  function markFound() {
    grid.querySelectorAll(".m-seat.found").forEach(function (b) { b.classList.remove("found"); });
    if (!view.found) return null;
    const b = grid.querySelector('.m-table[data-table="' + view.found.table + '"] .m-seat[data-seat="' + view.found.seat + '"]');
    if (b) b.classList.add("found");
    return b;
  }

  // The visible section's cards, in order: unchanged cards stay in place (a typed button seat and the
  // focus with them), changed ones are rebuilt, the others leave the page.
  function render() {
    const f = facts(st), list = filtered(f), part = renderSections(list);
    const shown = list.slice(part.from, part.to);
    const keep = {}, typed = {}, focused = document.activeElement && document.activeElement.id;
    grid.querySelectorAll(".m-need input").forEach(function (i) { typed[i.id] = i.value; });
    const nodes = shown.map(function (t) {
      const sig = signature(st, t, f);
      let known = view.cards[t.table];
      if (!known || known.sig !== sig) known = view.cards[t.table] = {sig: sig, node: card(st, t, f, ui)};
      keep[t.table] = true;
      return known.node;
    });
    Object.keys(view.cards).forEach(function (n) { if (!keep[n]) delete view.cards[n]; });
    let cursor = grid.firstChild;
    nodes.forEach(function (node) {
      if (cursor === node) { cursor = cursor.nextSibling; return; }
      grid.insertBefore(node, cursor);
    });
    while (cursor) { const next = cursor.nextSibling; grid.removeChild(cursor); cursor = next; }
    if (!st.data.tables.length) grid.appendChild(el("p", "muted", words.noTables));
    Object.keys(typed).forEach(function (id) { const i = document.getElementById(id); if (i && !i.value) i.value = typed[id]; });
    if (focused && typed[focused] !== undefined && document.getElementById(focused)
        && document.activeElement !== document.getElementById(focused)) document.getElementById(focused).focus();
    document.getElementById("map-shown").textContent = fmt(words.shown, {n: shown.length, total: st.data.tables.length});
    markFound();
  }

  function toolsHeight() { document.documentElement.style.setProperty("--tools-h", toolsBox.offsetHeight + "px"); }

  // Show table `number` (and highlight `seat`, when given): clear the filters that hide it, switch to its section,
  // scroll to it. False: no such table.
  function goTo(number, seat) {
    const f = facts(st), t = st.data.tables.filter(function (x) { return x.table === number; })[0];
    if (!t) return false;
    if (filtered(f).indexOf(t) < 0) filterBoxes.forEach(function (b) { b.checked = false; });
    const list = filtered(f), i = list.indexOf(t);
    view.section = Math.floor(i / (list.length <= ALL_UP_TO ? Math.max(list.length, 1) : SECTION));
    view.found = seat ? {table: number, seat: seat} : null;
    render();
    toolsHeight();
    const target = (seat && markFound()) || grid.querySelector('.m-table[data-table="' + number + '"]');
    const node = grid.querySelector('.m-table[data-table="' + number + '"]');
    node.scrollIntoView({block: "start"});
    if (target && target.focus) target.focus({preventScroll: true});
    return true;
  }

  sectionSelect.addEventListener("change", function () {
    view.section = Number(sectionSelect.value) || 0;
    render();
    const first = grid.querySelector(".m-table");  // back to the top of the section when scrolled past it
    if (first && first.getBoundingClientRect().top < toolsBox.offsetHeight) first.scrollIntoView({block: "start"});
  });
  filterBoxes.forEach(function (b) { b.addEventListener("change", function () { view.section = 0; render(); }); });
  window.addEventListener("resize", toolsHeight);

  return {render: render, goTo: goTo, toolsHeight: toolsHeight};
}
