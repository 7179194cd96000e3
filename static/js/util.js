/* What every screen's script shares (loaded first by base.html): the "{name}" text formatter, the
 * element maker and the money rule. The API client is static/js/api.js, the live connection
 * static/js/live.js.
 *
 *   Util.fmt("Table {table} seat {seat}", {table: 4, seat: 7})  ->  "Table 4 seat 7"
 *   Util.fmt("{player.display_name}", answer)                   a dotted path into an object
 *   a "{name}" with no value (undefined, null, an object) is left as written
 *   Util.el("td", "num", "12")                                  a <td class="num">12</td>
 *   Util.whole(" 12 ") -> 12, Util.whole("12a") -> "12a"         a whole number typed, else the text as typed
 *   Util.money(110000, "CZK")  ->  "1 100 Kč" (cs) or "CZK 1,100" (en); Util.parseMoney("1 100,50", "CZK") -> 110050
 */

function fmt(text, values) {
  values = values || {};
  return String(text === undefined || text === null ? "" : text).replace(/\{([\w.]+)\}/g, function (whole, name) {
    var value = values;
    name.split(".").forEach(function (key) { value = value !== undefined && value !== null ? value[key] : undefined; });
    return value === undefined || value === null || typeof value === "object" ? whole : String(value);
  });
}

// A whole number typed (" 12 ") as a number, anything else as typed (trimmed): the API says what is wrong with it.
function whole(value) {
  value = String(value === undefined || value === null ? "" : value).trim();
  return /^\d+$/.test(value) ? Number(value) : value;
}

// A count as the page's language writes it, its thousands grouped ("25,000"; "25 000" in Czech).
function count(n) {
  n = Number(n);
  return (n < 0 ? "\u2212" : "") + Math.abs(n).toLocaleString(document.documentElement.lang || undefined);
}

function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

// Money as people read it: the same rule as core/money.py, with the ISO 4217 decimals the page carries
// from it (base.html's "currency-decimals" block; tests/browser/test_money.py holds them to the same text). Minor units in; major units out, decimals only when not whole:
// "1 100 Kč" (cs, sk; no-break spaces), "CZK 1,100" (English: the code first), "−CZK 31,000" (the
// minus sign U+2212: no line breaks after it, as one may after a hyphen).
var MONEY_STYLES = {
  cs: ["\u00a0", ",", true], sk: ["\u00a0", ",", true], en: [",", ".", false],
  de: [".", ",", true], pl: ["\u00a0", ",", true], hu: ["\u00a0", ",", true],
};
var MONEY_DECIMALS = null;
function moneyDecimals(currency) {
  if (MONEY_DECIMALS === null) {
    var block = document.getElementById("currency-decimals");
    MONEY_DECIMALS = block ? JSON.parse(block.textContent) : {};
  }
  return MONEY_DECIMALS[currency] === undefined ? 2 : MONEY_DECIMALS[currency];
}
var MONEY_SYMBOLS = {CZK: "K\u010d", EUR: "\u20ac"};
function money(amount, currency, language) {
  if (amount === null || amount === undefined || amount === "") return "";
  amount = Math.trunc(Number(amount));
  currency = String(currency || "").toUpperCase();
  var lang = String(language || document.documentElement.lang || "en").slice(0, 2).toLowerCase();
  var style = MONEY_STYLES[lang] || MONEY_STYLES.en;
  var places = moneyDecimals(currency), unit = Math.pow(10, places);
  var abs = Math.abs(amount), whole = String(Math.floor(abs / unit)), minor = abs % unit;
  var head = whole.length % 3 || 3, parts = [whole.slice(0, head)];
  for (var i = head; i < whole.length; i += 3) parts.push(whole.slice(i, i + 3));
  var number = parts.join(style[0]);
  if (minor) number += style[1] + String(minor).padStart(places, "0");
  var sign = amount < 0 ? "\u2212" : "";
  if (!currency) return sign + number;
  if (style[2]) return sign + number + "\u00a0" + (MONEY_SYMBOLS[currency] || currency);
  return sign + currency + "\u00a0" + number;
}
// What a person typed in major units -> minor units, or null: core/money.py's parse_major, the same
// reading ("1 100", "1100,50", "1,100.50", "1.100"; no more decimals than the currency has).
function parseMoney(text, currency) {
  currency = String(currency || "").toUpperCase();
  var places = moneyDecimals(currency);
  var raw = String(text === null || text === undefined ? "" : text).replace(/[\s\u00a0\u202f\u2009']/g, "");
  [currency, MONEY_SYMBOLS[currency] || ""].forEach(function (symbol) {
    if (symbol) raw = raw.split(symbol).join("").split(symbol.toLowerCase()).join("");
  });
  var negative = raw.charAt(0) === "-" || raw.charAt(0) === "\u2212";
  if (negative) raw = raw.slice(1);
  var m = /^(\d{1,3}(?:([.,])\d{3})*|\d+)(?:([.,])(\d+))?$/.exec(raw);
  if (!m) return null;
  var whole = m[1], grouping = m[2], point = m[3], fraction = m[4] || "";
  if (grouping && point === grouping) return null;  // "1,100,5": a separator both groups and marks decimals
  if (point === undefined && grouping && whole.split(grouping).length === 2 && places === 3) return null;
  if (fraction.length > places) return null;
  var value = Number(whole.replace(/[.,]/g, "")) * Math.pow(10, places) + Number((fraction + "0000").slice(0, places) || 0);
  return negative ? -value : value;
}

// Markup behaviours, so no template needs an on* attribute: <button data-print> prints the page, a field
// with data-submit-on-change sends its form when it changes (the login page's language).
document.addEventListener("click", function (ev) {
  if (ev.target.closest && ev.target.closest("[data-print]")) window.print();
});
document.addEventListener("change", function (ev) {
  if (ev.target.hasAttribute && ev.target.hasAttribute("data-submit-on-change") && ev.target.form) ev.target.form.submit();
});
// <form data-forget-offline> (log out): the tablets' offline copies of their pages (static/js/tablet-sw.js: names, seats)
// are deleted from the device first, so none can be opened there without a login. The presses waiting stay: they are
// the person's own (press-queue.js names a queue for its presser) and go when that person is back.
document.addEventListener("submit", function (ev) {
  var form = ev.target;
  if (!form.hasAttribute || !form.hasAttribute("data-forget-offline") || !window.caches) return;
  ev.preventDefault();
  var sent = false, send = function () { if (!sent) { sent = true; form.submit(); } };
  window.setTimeout(send, 1500);  // a storage that does not answer never keeps anyone logged in
  window.caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name.indexOf("tablet-") === 0; })
      .map(function (name) { return window.caches.delete(name); }));
  }).then(send, send);
});

export {fmt, el, money, parseMoney, whole, count};
