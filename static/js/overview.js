/* The tournament's overview (templates/tournament/detail.html), live: the figures, the clock's state and,
 * for the desk and the floor, the latest entries. Its socket comes from the page's data-*, its words from
 * Django's JavaScript catalogue. */
import * as Live from "./live.js";
import * as FlightEnding from "./flight-ending.js";

(function () {
  var recent = document.getElementById("recent"), words = recent ? recent.dataset : {};
  var tbody = recent ? recent.querySelector("tbody") : null;
  var kinds = {entry: gettext("Entry"), reentry: gettext("Re-entry")};
  // The floor (and the director) hear every event on the floor socket; the cashier hears the room's
  // figures on the public stream (no names, no event log): the latest entries show on reload.
  var ending = FlightEnding.watch();  // a Day 1 flight's "this flight ends" line, live for the floor
  Live.connect({
    path: document.getElementById("live").dataset.socket, badge: "#live",
    onSnapshot: function (s) { Live.fillStats(s.stats); ending.snapshot(); },
    onEvent: function (m) {
      if (m.stats) Live.fillStats(m.stats);
      var e = m.event;
      if (!e) return;
      ending.event(e.type);
      var clockState = document.getElementById("clock-state");  // a clock event carries the clock's state
      var clockWords = {running: gettext("clock running"), paused: gettext("clock paused"), not_started: gettext("clock not started")};
      if (e.payload && e.payload.clock && clockWords[e.payload.clock.status]) {
        clockState.dataset.clock = e.payload.clock.status; clockState.textContent = clockWords[e.payload.clock.status];
      }
      if (!tbody) return;  // a dealer sees the figures, no names
      if (e.type === "entry.registered") {
        var tr = document.createElement("tr");
        tr.dataset.entry = e.payload.entry; tr.className = "new";
        var a = document.createElement("a"); a.href = words.base + "entries/" + e.payload.entry + "/"; a.textContent = e.payload.entry;
        var cells = [a, e.payload.name, kinds[e.payload.kind] || e.payload.kind, gettext("Playing")];
        cells.forEach(function (c) { var td = document.createElement("td"); if (typeof c === "string" || typeof c === "number") td.textContent = c; else td.appendChild(c); tr.appendChild(td); });
        tbody.insertBefore(tr, tbody.firstChild);
      } else if (e.type === "entry.busted" || e.type === "entry.disqualified" || e.type === "purchase.voided") {
        var row = tbody.querySelector('tr[data-entry="' + e.payload.entry + '"]');
        var out = {"entry.busted": gettext("Busted"), "entry.disqualified": gettext("Disqualified")}[e.type];
        if (row) row.lastChild.textContent = out || (e.payload.entry_voided ? gettext("Voided") : row.lastChild.textContent);
      }
    }
  });
})();
