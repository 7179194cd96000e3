/* The day page (templates/days/day.html), live over the floor socket: a table bagged, a bag corrected, the day
   closed, a bust, a count or the clock (the day's end) anywhere reads the page again and puts its parts in place.
   The close form (static/js/api-forms.js, data-says="day-close") is never replaced: what is typed in it stays; its
   reason is marked required again when bags go missing or stop adding up. Once a day is closed, the director redraws
   the next day's seating here (POST .../day/redraw/, with a confirm); the form goes once the day is seated. */
import * as Live from "./live.js";
import * as Util from "./util.js";
import {send} from "./api-forms.js";

(function () {
  "use strict";
  var PARTS = ["day-title", "day-figures", "day-missing", "day-tables", "day-close-hint", "day-redraw", "day-closed"];
  var TOUCHES = /^(bags\.|day\.|entry\.|chips\.|clock\.|seating\.)/;
  // The next day's seating (the director, once the day before is closed): the tables typed, or none for the fewest.
  var REDRAW = {
    confirm: gettext("Redraw the seating of day {day}? Every player still in gets a new random seat with his bag, and each table's button is drawn. This cannot be undone."),
    done: gettext("Day {day} is seated by draw {draw}: {seated} players.")
  };
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

  // The redraw form goes once the day is seated (or has begun) here or elsewhere.
  function placeRedraw(fresh) {
    var form = document.getElementById("redraw-form");
    if (form && !fresh.getElementById("redraw-form")) form.remove();
  }

  var redraw = document.getElementById("redraw-form");
  if (redraw) {
    redraw.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var typed = document.getElementById("redraw-tables").value.split(/[\s,;]+/).filter(Boolean);
      var body = typed.length ? {tables: typed.map(function (n) { return /^\d+$/.test(n) ? Number(n) : n; })} : {};
      send(redraw, {
        path: redraw.getAttribute("data-redraw"), body: body, next: "reload", button: ev.submitter || undefined,
        confirm: REDRAW.confirm, done: function (answer) { return Util.fmt(REDRAW.done, answer); }
      });
    });
  }

  // One read at a time; events during it make one more (a room bagged table after table reads a few times).
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(location.pathname + location.search, {credentials: "same-origin", cache: "no-store",
                                                headers: {"Accept": "text/html"}})
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        place(fresh);
        placeRedraw(fresh);
      })
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
