/* The tournament's settings form (templates/setup/tournament_form.html): money previews by the money rule,
 * the currency following the time zone, fields enabled with their switch. */
import * as Util from "./util.js";

(function () {
  "use strict";
  var form = document.getElementById("tournament-form");
  var currency = document.getElementById("id_currency");
  var zone = document.getElementById("id_time_zone");
  // Amounts are typed in major units ("1 100", "1100,50"); show how they read: "= 1 100,50 Kč"
  // (Util.parseMoney reads them as the server does; the server decides, this is only a preview).
  function code() { return (currency && currency.value || "").trim().toUpperCase(); }
  function preview(input) {
    var out = input.parentNode.querySelector(".money-preview");
    if (!out) return;
    var n = input.value.trim() ? Util.parseMoney(input.value, code()) : null;
    out.textContent = n === null ? "" : "= " + Util.money(n, code());
  }
  // The money labels name the currency: "Buy-in (CZK)".
  function labels() {
    form.querySelectorAll("input[data-money]").forEach(function (input) {
      var label = form.querySelector('label[for="' + input.id + '"]');
      if (label && /^[A-Z]{3}$/.test(code())) label.textContent = label.textContent.replace(/\([^()]*\)(:?)\s*$/, "(" + code() + ")$1");
    });
  }
  function all() {
    form.querySelectorAll("input[data-money]").forEach(function (input) {
      if (/^[A-Z]{3}$/.test(code())) input.setAttribute("data-money", code());  // sent by this currency's decimals
      preview(input);
    });
    labels();
  }
  // A new tournament's currency follows the time zone until someone types one: crowns in Prague, euros in Bratislava.
  var byZone = {"Europe/Prague": "CZK", "Europe/Bratislava": "EUR"}, currencyTyped = !!form.dataset.existing;
  if (currency) currency.addEventListener("input", function () { currencyTyped = true; });
  if (zone) zone.addEventListener("change", function () {
    if (!currencyTyped && currency && byZone[zone.value]) { currency.value = byZone[zone.value]; all(); }
  });
  // Fields that only matter when their switch is on are enabled while it is on, and disabled (not sent,
  // so never refused as "set but not allowed") while it is off.
  var switches = {reentry_allowed: ["max_reentries"],
                  rebuy_allowed: ["rebuy_price", "rebuy_fee", "rebuy_chips", "max_rebuys", "rebuy_until_level"],
                  addon_allowed: ["addon_price", "addon_fee", "addon_chips", "max_addons", "addon_until_level"]};
  function dim() {
    Object.keys(switches).forEach(function (name) {
      var box = document.getElementById("id_" + name);
      if (!box) return;
      switches[name].forEach(function (dep) {
        var f = document.getElementById("field-" + dep), input = document.getElementById("id_" + dep);
        if (f) f.classList.toggle("off", !box.checked);
        if (input) input.disabled = !box.checked;
      });
    });
  }
  form.addEventListener("input", function (e) { if (e.target.dataset.money !== undefined) preview(e.target); if (e.target === currency) all(); });
  form.addEventListener("change", dim);
  // 6-max has at most 6 seats: follow the table format when the seats are still the other format's default.
  var format = document.getElementById("id_table_format"), seats = document.getElementById("id_seats_per_table");
  if (format && seats) format.addEventListener("change", function () {
    if (format.value === "six_max" && Number(seats.value) > 6) seats.value = 6;
    else if (format.value === "full_ring" && seats.value === "6") seats.value = 9;
  });
  all(); dim();
})();
