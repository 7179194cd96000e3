/* What every screen's script shares (loaded first by base.html): the placeholder formatter and the
 * element maker. The API client is static/js/api.js, the live connection and the money rule
 * static/js/live.js.
 *
 *   Util.fmt("Table {table} seat {seat}", {table: 4, seat: 7})  ->  "Table 4 seat 7"
 *   Util.fmt("{player.display_name}", answer)                   a dotted path into an object
 *   a placeholder without a value (undefined, null, an object) stays as it is written
 *   Util.el("td", "num", "12")                                  a <td class="num">12</td>
 */
(function () {
  "use strict";

  function fmt(text, values) {
    values = values || {};
    return String(text === undefined || text === null ? "" : text).replace(/\{([\w.]+)\}/g, function (whole, name) {
      var value = values;
      name.split(".").forEach(function (key) { value = value !== undefined && value !== null ? value[key] : undefined; });
      return value === undefined || value === null || typeof value === "object" ? whole : String(value);
    });
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  window.Util = {fmt: fmt, el: el};
})();
