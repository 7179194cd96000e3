/* The dealer tablet's number pad (templates/tables/_number_pad.html), shared by the race's leaving chips, the table's
 * stacks and its bags: a tap on a count (a .r-field of the rows, named by its data-field) selects it and the first
 * digit typed replaces it, ⌫ deletes a digit, C clears it, Next goes to the next count; a tablet with a keyboard
 * types digits, Backspace and Enter. The counts are the panel's own, as text ("" for none): o.read(field),
 * o.write(field, text).
 *
 *   NumberPad({box, rows, pad, target,   the panel, its rows, its pad and the pad's line saying what is typed
 *              max, open(),              the largest count; whether the panel is shown
 *              read(f), write(f, text),  the panel's count of a field
 *              show(text), targetText(f), pick,   a count as shown; the pad's line for a field, and for none
 *              painted(), next(f), end()})        after a paint; Next's own step (true: done); past the last count
 */

const pads = [];  // the page's pads, in the order made: a keyboard types on one of them

export function NumberPad(o) {
  const pad = {sel: null, fresh: false, box: o.box, open: o.open};
  pad.fields = () => Array.from(o.rows.querySelectorAll(".r-field"));
  pad.field = (name) => (name === null || name === undefined ? null
    : pad.fields().find((f) => f.dataset.field === String(name)) || null);
  pad.select = (f) => {
    pad.sel = f ? f.dataset.field : null;
    pad.fresh = true;  // the first digit typed replaces the count shown
  };
  pad.paint = (scroll) => {
    const current = pad.field(pad.sel);
    pad.fields().forEach((f) => {
      const v = o.read(f), on = f === current;
      f.querySelector("b").textContent = v === "" ? "–" : o.show ? o.show(v) : v;
      f.classList.toggle("empty", v === "");
      f.classList.toggle("selected", on);
      f.setAttribute("aria-pressed", on ? "true" : "false");
    });
    o.rows.querySelectorAll(".r-row").forEach((row) => { row.classList.toggle("current", !!current && row.contains(current)); });
    o.target.textContent = current ? o.targetText(current) : o.pick;
    o.pad.querySelectorAll("button").forEach((b) => { b.disabled = !current; });
    if (o.painted) o.painted();
    if (scroll && current && current.scrollIntoViewIfNeeded) current.scrollIntoViewIfNeeded(true);
  };
  pad.key = (k) => {
    const f = pad.field(pad.sel);
    if (!f) return;
    if (k === "next") {
      if (o.next && o.next(f)) return;  // the panel's own next step (the bags': the bag number's field)
      const all = pad.fields();
      pad.select(all[all.indexOf(f) + 1] || null);
      pad.paint(true);
      if (!pad.sel && o.end) o.end();
      return;
    }
    let now = o.read(f);
    if (k === "back") now = pad.fresh ? "" : now.slice(0, -1);
    else if (k === "clear") now = "";
    else {
      const typed = String(parseInt(pad.fresh ? k : now + k, 10));
      if (Number(typed) > o.max) return;
      now = typed;
    }
    pad.fresh = false;
    o.write(f, now);
    pad.paint();
  };
  o.rows.addEventListener("click", (e) => {
    const f = e.target.closest(".r-field");
    if (f) { pad.select(f); pad.paint(); }
  });
  o.pad.addEventListener("click", (e) => {
    const b = e.target.closest("button[data-key]");
    if (b && !b.disabled) pad.key(b.dataset.key);
  });
  pads.push(pad);
  return pad;
}

document.addEventListener("keydown", (e) => {  // a tablet with a keyboard: digits, ⌫, Enter for next
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target.closest && e.target.closest("input, textarea, select")) return;  // typing in a text field (a bag number)
  // The pad of the panel that holds the focus; else the one opened last (the stacks' over the race's).
  const open = pads.filter((p) => p.open() && p.sel !== null);
  const pad = open.find((p) => p.box.contains(e.target)) || open[open.length - 1];
  if (!pad) return;
  const k = /^[0-9]$/.test(e.key) ? e.key : e.key === "Backspace" ? "back" : e.key === "Enter" ? "next" : null;
  // Enter on a focused control (a pad key, a count, Confirm) presses that control, as a tap would.
  if (k === "next" && e.target !== document.body && e.target.closest("button, a[href], input, select, textarea")) return;
  if (k) { e.preventDefault(); pad.key(k); }
});
