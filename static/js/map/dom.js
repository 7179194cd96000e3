/* Small pieces of the map's DOM that more than one panel builds (the elements themselves: Util.el). */
import {el} from "../util.js";

// A small form of the map (its fields and one button): a move slip's "Seated (confirm)" and "Cancel", a card's
// "Hand done" and its button seat. Submitting it runs `run(button, form)` after an optional confirmation.
export function actionForm(label, cls, fields, ask, run) {
  const form = el("form");
  (fields || []).forEach(function (f) { form.appendChild(f); });
  const b = el("button", cls, label);
  form.appendChild(b);
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    if (ask && !window.confirm(ask)) return;
    run(b, form);
  });
  return form;
}

// A dialog's line that says what the server answered (or what is missing) in the dialog: #counts-say, #bags-say,
// #bag-say.
export function sayIn(id, message, ok) {
  const say = document.getElementById(id);
  say.textContent = message || "";
  say.classList.toggle("ok", !!ok);
  say.classList.toggle("refused", !ok);
}
