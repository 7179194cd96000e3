/* The payouts page (templates/payouts/payouts.html): a deal's agreed amounts and the hand edit of the prizes,
 * typed in major units and sent in minor units by the money rule (Util.parseMoney, the currency's decimals). */
import * as Util from "./util.js";
import * as apiForms from "./api-forms.js";

(function () {
  "use strict";
  // A deal proposal: the amounts agreed (custom) are typed in major units and sent by entry in minor units.
  var form = document.getElementById("deal-propose");
  if (!form) return;
  var kind = form.elements.kind, box = document.getElementById("deal-amounts");
  function show() { box.hidden = kind.value !== "custom"; }
  kind.addEventListener("change", show);
  show();
  form.addEventListener("submit", function (ev) {
    if (kind.value !== "custom") return;  // the shared form handler sends the fields
    ev.preventDefault();
    ev.stopImmediatePropagation();
    var amounts = {};
    box.querySelectorAll("[data-amount-entry]").forEach(function (input) {
      var minor = Util.parseMoney(input.value, form.getAttribute("data-currency"));
      amounts[input.getAttribute("data-amount-entry")] = minor === null ? input.value : minor;  // not money: the API says why
    });
    apiForms.send(form, {body: {kind: "custom", mode: form.elements.mode.value,
      stacks: JSON.parse(form.elements.stacks.value), to_play_for: Number(form.elements.to_play_for.value), amounts: amounts},
      button: ev.submitter || undefined});
  }, true);
})();
(function () {
  "use strict";
  // The hand edit: lines of "first last prize" in major units, sent as bands in minor units.
  var form = document.getElementById("edit-form");
  if (!form) return;  // the director's only
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    ev.stopImmediatePropagation();
    var bands = form.elements.bands.value.split("\n").map(function (line) { return line.trim(); }).filter(Boolean)
      .map(function (line) {
        var parts = line.replace(/[–-]/g, " ").split(/\s+/);
        if (parts.length === 2) parts = [parts[0], parts[0], parts[1]];
        var prize = Util.parseMoney(parts[2], form.getAttribute("data-currency"));
        return {first: Number(parts[0]), last: Number(parts[1]), prize: prize === null ? parts[2] : prize};
      });
    apiForms.send(form, {body: {bands: bands}, button: ev.submitter || undefined});
  }, true);
})();
(function () {
  "use strict";
  // A mystery event's envelopes: rows of a value (major units) and a count, sent as [[value, count], ...] in minor
  // units; blank rows are left out. "Add a row" adds an empty one.
  var form = document.getElementById("bounty-envelopes-form");
  if (!form) return;  // the director's only, until the list is committed
  var rows = form.querySelector("#bounty-envelope-rows tbody");
  document.getElementById("bounty-envelope-add").addEventListener("click", function () {
    var row = rows.querySelector("[data-envelope-row]").cloneNode(true);
    row.querySelectorAll("input").forEach(function (input) { input.value = ""; });
    rows.appendChild(row);
    row.querySelector("input").focus();
  });
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    ev.stopImmediatePropagation();
    var envelopes = [];
    rows.querySelectorAll("[data-envelope-row]").forEach(function (row) {
      var value = row.querySelector("[data-envelope-value]").value.trim(), count = row.querySelector("[data-envelope-count]").value.trim();
      if (!value && !count) return;
      var minor = Util.parseMoney(value, form.getAttribute("data-currency"));
      var n = /^\d+$/.test(count) ? Number(count) : count;
      envelopes.push([minor === null ? value : minor, n]);  // not an amount or a count: the API says why
    });
    apiForms.send(form, {body: {envelopes: envelopes}, button: ev.submitter || undefined});
  }, true);
})();
