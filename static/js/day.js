/* The day page (templates/days/day.html), live over the floor socket: a table bagged, a bag corrected, the day
   closed, a bust, a count or the clock (the day's end) anywhere reads the page again and puts its parts in place.
   The close form (static/js/api-forms.js, data-says="day-close") is never replaced: what is typed in it stays; its
   reason is marked required again when bags go missing or stop adding up. */
import * as Live from "./live.js";

(function () {
  "use strict";
  var PARTS = ["day-title", "day-figures", "day-missing", "day-tables", "day-close-hint", "day-closed"];
  var TOUCHES = /^(bags\.|day\.|entry\.|chips\.|clock\.)/;
  var busy = false, again = false;

  function place(fresh) {
    PARTS.forEach(function (id) {
      var now = document.getElementById(id), got = fresh.getElementById(id);
      if (now && got && now.innerHTML !== got.innerHTML) now.innerHTML = got.innerHTML;
    });
    var hint = fresh.getElementById("day-close-hint"), form = document.getElementById("close-form");
    if (!hint || !form) return;
    var needs = hint.getAttribute("data-needs-reason") === "1";
    document.getElementById("day-close-hint").setAttribute("data-needs-reason", needs ? "1" : "");
    var reason = document.getElementById("close-reason"), marker = document.getElementById("close-reason-required");
    if (needs) reason.setAttribute("aria-required", "true"); else reason.removeAttribute("aria-required");
    marker.hidden = !needs;
    var freshForm = fresh.getElementById("close-form");
    if (freshForm) form.setAttribute("data-day", freshForm.getAttribute("data-day"));
  }

  // One read at a time; events during it make one more (a room bagged table after table reads a few times).
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(location.pathname + location.search, {credentials: "same-origin", cache: "no-store",
                                                headers: {"Accept": "text/html"}})
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) { place(new DOMParser().parseFromString(html, "text/html")); })
      .catch(function () { /* the next event or snapshot reads again */ })
      .then(function () {
        busy = false;
        if (again) { again = false; refresh(); }
      });
  }

  Live.connect({
    path: document.getElementById("live").dataset.socket, badge: "#live",
    onSnapshot: refresh,
    onEvent: function (m) { if (TOUCHES.test(m.event.type)) refresh(); }
  });
})();
