/* The tournament's overview (templates/tournament/detail.html), live: the figures, the clock's state and,
 * for the desk and the floor, the latest entries. Its socket and words come from the page's data-*. */
import * as Live from "./live.js";

(function () {
  var recent = document.getElementById("recent"), words = recent ? recent.dataset : {};
  var tbody = recent ? recent.querySelector("tbody") : null;
  var kinds = {entry: words.entry, reentry: words.reentry};
  // The floor (and the director) hear every event on the floor socket; the cashier hears the room's
  // figures on the public stream (no names, no event log): the latest entries show on reload.
  Live.connect({
    path: document.getElementById("live").dataset.socket, badge: "#live",
    onSnapshot: function (s) { Live.fillStats(s.stats); },
    onEvent: function (m) {
      if (m.stats) Live.fillStats(m.stats);
      var e = m.event;
      if (!e) return;
      var clockState = document.getElementById("clock-state");  // a clock event carries the clock's state
      if (e.payload && e.payload.clock && clockState.dataset[e.payload.clock.status]) {
        clockState.dataset.clock = e.payload.clock.status; clockState.textContent = clockState.dataset[e.payload.clock.status];
      }
      if (!tbody) return;  // a dealer sees the figures, no names
      if (e.type === "entry.registered") {
        var tr = document.createElement("tr");
        tr.dataset.entry = e.payload.entry; tr.className = "new";
        var a = document.createElement("a"); a.href = words.base + "entries/" + e.payload.entry + "/"; a.textContent = e.payload.entry;
        var cells = [a, e.payload.name, kinds[e.payload.kind] || e.payload.kind, words.playing];
        cells.forEach(function (c) { var td = document.createElement("td"); if (typeof c === "string" || typeof c === "number") td.textContent = c; else td.appendChild(c); tr.appendChild(td); });
        tbody.insertBefore(tr, tbody.firstChild);
      } else if (e.type === "entry.busted" || e.type === "purchase.voided") {
        var row = tbody.querySelector('tr[data-entry="' + e.payload.entry + '"]');
        if (row) row.lastChild.textContent = e.type === "entry.busted" ? words.busted : (e.payload.entry_voided ? words.voided : row.lastChild.textContent);
      }
    }
  });
})();
