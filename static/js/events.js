/* The event log (templates/tournament/events.html), live: new lines as the floor socket tells of them. */
import * as Live from "./live.js";

(function () {
  /* The lines are written by the server (each app's web/<app>/events.py, collected by web/event_words.py), in
     words: when the floor socket tells of an event, or after a reconnect, this page fetches the lines after its newest
     one, with its filters. */
  var list = document.getElementById("events");
  var live = list.dataset.live === "1", busy = false, again = false;
  function newest() { var first = list.querySelector("li[data-seq]"); return first ? Number(first.dataset.seq) : 0; }
  function catchUp() {
    if (!live) return;
    if (busy) { again = true; return; }
    busy = true;
    var query = list.dataset.query ? list.dataset.query + "&" : "";
    fetch("?" + query + "after=" + newest(), {credentials: "same-origin", headers: {"Accept": "text/html"}})
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
        var box = document.createElement("ul"); box.innerHTML = html;
        var lines = Array.prototype.slice.call(box.querySelectorAll("li[data-seq]"));
        var seen = newest();
        lines.reverse().forEach(function (li) {
          if (Number(li.dataset.seq) <= seen) return;
          li.classList.add("new"); list.insertBefore(li, list.firstChild);
        });
      })
      .catch(function () {})
      .then(function () { busy = false; if (again) { again = false; catchUp(); } });
  }
  Live.connect({
    path: list.dataset.socket, badge: "#live",
    onSnapshot: function () { catchUp(); },
    onEvent: function () { catchUp(); }
  });
})();
