/* The event page (templates/flights/event.html), live: each flight not yet carried is heard on its floor socket; an
 * event that changes what the page shows (an entry, a bust, a bag, a day closed, a flight's end) refetches the event
 * from the JSON API (GET /api/events/<id>/) and updates the flights' figures, their "this flight ends" lines, the
 * warning that Day 2 pays more places than the flights' share rules send players on, Day 2 and the pool in place. A
 * flight whose Day 1 closed or whose bags went on to Day 2 changes the page's forms and lists: the page reloads then
 * (unless a field is being typed in). The forms themselves are static/js/api-forms.js's (data-api, data-says); their
 * sentences static/js/form-words.js's. */
import * as Util from "./util.js";
import * as api from "./api.js";
import * as Live from "./live.js";

(function () {
  "use strict";
  var root = document.getElementById("fl-state");
  if (!root) return;
  var eventId = root.dataset.event;
  var flights = JSON.parse(document.getElementById("fl-sockets").textContent);
  var words = {closed: gettext("closed"), notClosed: gettext("not closed")};
  var TOUCHES = /^(entry\.|entries\.|purchase\.|bags?\.|day\.|flight\.|flights\.|seating\.|draw\.)/;
  var timer = null;

  function put(node, text) { if (node && node.textContent !== text) node.textContent = text; }
  function byId(id, text) { put(document.getElementById(id), text); }
  function typing() {
    var at = document.activeElement;
    return !!(at && at.form && /^(INPUT|SELECT|TEXTAREA)$/.test(at.tagName));
  }

  function apply(state) {
    var reload = false;
    state.flights.forEach(function (f) {
      var card = document.getElementById("fl-flight-" + f.tournament);
      if (!card) { reload = true; return; }
      var field = function (name) { return card.querySelector('[data-field="' + name + '"]'); };
      put(field("entries"), Live.number(f.entries));
      put(field("players_left"), Live.number(f.players_left));
      put(field("bags"), Live.number(f.bags));
      put(field("bags_total"), Live.number(f.bags_total));
      put(field("status_words"), f.status_words);
      var ending = field("ending");
      if (ending) { ending.hidden = !f.ending; put(ending, f.ending ? f.ending.message : ""); }
      var day1 = field("day1"), was = day1 && day1.textContent === words.closed;
      put(day1, f.day1_closed ? words.closed : words.notClosed);
      if (was !== f.day1_closed || (f.carried_at && !!document.getElementById("fl-end-" + f.tournament))) reload = true;
    });
    if (state.day2) {
      byId("day2-entries", Live.number(state.day2.entries));
      byId("day2-left", Live.number(state.day2.players_left));
    }
    byId("pool-entries", Live.number(state.pool.entries));
    byId("pool-players", Live.number(state.pool.unique_players));
    byId("pool-collected", Util.money(state.pool.collected, state.pool.currency));
    byId("pool-prize", Util.money(state.pool.prize_pool, state.pool.currency));
    var warning = document.getElementById("places-warning");  // Day 2 pays more places than the shares send on
    if (warning) {
      warning.hidden = !state.places_warning;
      put(warning, state.places_warning ? state.places_warning.message : "");
    }
    byId("fl-bags", Live.number(state.bags));
    byId("fl-bags-total", Live.number(state.bags_total));
    if (state.carried !== !!document.getElementById("carried-list")) reload = true;
    if (reload && !typing()) window.location.reload();
  }

  function refresh() {
    return api.get("events/" + eventId + "/").then(apply, function () { /* the next event tries again */ });
  }
  function soon() { clearTimeout(timer); timer = setTimeout(refresh, 300); }

  // Every flight's bags went on: nothing live to hear (the page shows no badge then).
  flights.forEach(function (tournament, i) {
    Live.connect({
      path: "/ws/t/" + tournament + "/floor/", badge: i === 0 ? "#live" : null,
      onSnapshot: soon,  // a connect, a reconnect or a gap: the page may be stale
      onEvent: function (m) { if (m.event && TOUCHES.test(m.event.type)) soon(); }
    });
  });
  window.flightsPage = {refresh: refresh};
})();
