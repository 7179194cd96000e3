/* The color-up page (templates/tables/color_up.html): each break's plan and every table's race, live. Its
 * socket and URLs come from the #live badge's data-*. */
import * as Util from "./util.js";
import * as api from "./api.js";
import * as Live from "./live.js";

(function () {
  "use strict";
  var s = {
    waiting: gettext("to race"),
    recorded: gettext("recorded, to confirm"),
    confirmed: gettext("confirmed"),
    table: gettext("Table {n}"),
    confirmAsk: gettext("Confirm the color-up: the {chips} chips leave play at this break? Every dealer tablet and the lobby show it at once."),
    confirmedMsg: gettext("The color-up is confirmed: the tablets show the race."),
    foundMsg: gettext("Exchanged: {n} × {chip} to the player; {removed} removed from play."),
    pick: gettext("Tick the chips that leave.")
  }, state = JSON.parse(document.getElementById("cu-state").textContent);
  var where = document.getElementById("live").dataset;
  var statusUrl = where.api, dealerUrl = where.dealer, filter = "";
  var num = Live.number, signed = Live.signed;
  var el = Util.el;
  function render() {
    var grid = document.getElementById("cu-tables");
    grid.textContent = "";
    state.tables.forEach(function (row) {
      if (filter && row.status !== filter) return;
      var tile = el("a", "cu-tile " + row.status);
      tile.href = dealerUrl.replace("999999", row.table);
      tile.dataset.table = row.table;
      tile.appendChild(el("b", "", Util.fmt(s.table, {n: row.table})));
      tile.appendChild(el("span", "", s[row.status]));
      if (row.difference !== null) tile.appendChild(el("small", "", signed(row.difference)));
      grid.appendChild(tile);
    });
    document.getElementById("cu-finished").textContent = state.finished;
    document.getElementById("cu-total").textContent = state.tables.length;
    document.getElementById("cu-recorded").textContent = state.recorded;
    document.getElementById("cu-waiting").textContent = state.waiting;
    document.getElementById("cu-difference").textContent = signed(state.difference);
    document.getElementById("cu-difference-recorded").textContent = signed(state.difference_recorded);
    document.getElementById("cu-chips").textContent = num(state.chips_in_play);
    document.getElementById("cu-average").textContent = num(state.average_stack);
  }
  document.querySelectorAll(".cu-filter button").forEach(function (b) {
    b.addEventListener("click", function () {
      filter = b.dataset.filter;
      document.querySelectorAll(".cu-filter button").forEach(function (o) { o.setAttribute("aria-pressed", String(o === b)); });
      render();
    });
  });
  var loading = false, again = false;
  function refetch() {
    if (loading) { again = true; return; }
    loading = true;
    api.get(statusUrl).then(function (answer) { state = answer; render(); }).catch(function () {})
      .then(function () { loading = false; if (again) { again = false; refetch(); } });
  }
  document.addEventListener("press-queue:sent", refetch);  // the presses kept offline reached the server (press-queue.js)
  document.querySelectorAll(".cu-confirm").forEach(function (form) {
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var leaving = Array.prototype.map.call(form.querySelectorAll("input:checked"), function (i) { return Number(i.value); });
      if (!leaving.length) { api.say(s.pick, false); return; }
      if (!window.confirm(Util.fmt(s.confirmAsk, {chips: leaving.join(", ")}))) return;
      api.press(form.querySelector("button"), function (key) {
        return api.post(statusUrl, {level: Number(form.dataset.level), leaving: leaving}, {key: key});
      }, s.confirmedMsg).then(function (answer) { if (answer) location.reload(); });
    });
  });
  var found = document.getElementById("found-form");
  found.addEventListener("submit", function (e) {
    e.preventDefault();
    var chips = {};
    found.querySelectorAll("input[name=chips]").forEach(function (i) { if (i.value && Number(i.value) > 0) chips[i.dataset.value] = Number(i.value); });
    api.press(found.querySelector("button"), function (key) {
      return api.post(statusUrl + "found-chips/", {table: Number(found.table.value), chips: chips}, {key: key});
    }, function (a) { return Util.fmt(s.foundMsg, {n: a.exchanged, chip: a.chip, removed: num(a.removed)}); })
      .then(function (answer) { if (answer) { found.reset(); refetch(); } });
  });
  var TOUCHES = /^(race\.|chips\.|seat\.|entry\.|table\.|tables\.|move|break)/;
  Live.connect({
    path: where.socket, badge: "#live",
    onSnapshot: refetch,
    onEvent: function (m) {
      if (/^colorup\./.test(m.event.type)) { location.reload(); return; }
      if (TOUCHES.test(m.event.type)) refetch();
    }
  });
  render();
})();
