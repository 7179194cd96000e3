/* The players' page of the day (templates/venues/today.html) left open, on a phone or a screen by the desk: its list of
 * events (and a search's answer) read again from the page itself whenever one of the day's tournaments changes (each one's
 * public seat socket, the same stream a player's seat page hears: no names on it) and every minute (an event opened or
 * started since), so that it always says what a fresh load says. */
import * as Live from "./live.js";

(function () {
  "use strict";
  var list = document.getElementById("events");
  if (!list) return;
  var heard = {}, timer = null, EVERY_MS = 60000, AT_MOST_MS = 1000;

  function replace(doc, id) {
    var mine = document.getElementById(id), fresh = doc.getElementById(id);
    if (mine && fresh && mine.innerHTML !== fresh.innerHTML) mine.innerHTML = fresh.innerHTML;
  }
  function read() {
    timer = null;
    fetch(location.href, {cache: "no-store", credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        replace(doc, "events");
        replace(doc, "found");
        hear();
      })
      .catch(function () { /* offline: the next note or minute reads it again */ });
  }
  function soon() { if (timer === null) timer = setTimeout(read, AT_MOST_MS); }
  /* Each of the day's tournaments' public stream, once: a push reads the page again; so does a reconnect (a push may have
     been lost meanwhile). */
  function hear() {
    list.querySelectorAll(".today-event[data-tournament]").forEach(function (li) {
      var id = li.dataset.tournament, first = true;
      if (heard[id]) return;
      heard[id] = Live.connect({
        path: "/ws/s/" + id + "/", thin: true,
        onSnapshot: function () { if (!first) soon(); first = false; },
        onEvent: soon
      });
    });
  }
  hear();
  setInterval(soon, EVERY_MS);
})();
