/* The room's screen (templates/venues/room.html): the venue's tables by area, read from the JSON API
 * (GET /api/venues/<id>/) and drawn again whenever the room socket says something changed in the room (a table taken
 * or given back, a bust, a move, the floor's states), at most once a second, and every minute in any case (a note
 * lost on the way is caught up). A table pressed on the map fills the floor's form; the form sends its action to the
 * venue's API (hand, reserve, cancel the reservation, close, cash games, open again). The director's areas are sent
 * one per line. */
import * as Util from "./util.js";
import * as api from "./api.js";
import * as Live from "./live.js";
import "./api-forms.js";  // the set-up forms (data-api)

(function () {
  "use strict";
  var root = document.getElementById("rm");
  if (!root) return;
  var venue = root.dataset.venue, only = root.dataset.only;
  var timer = null, lastRead = 0, EVERY_MS = 60000, AT_MOST_MS = 1000;
  var words = {
    free: gettext("Free"), cash: gettext("Cash games"), closed: gettext("Out of service"), noArea: gettext("No area"),
    reserved: gettext("Reserved: {name}"), seats: gettext("{n} seats"),
    counts: gettext("{free} free · {held} in play · {reserved} reserved · {out_of_service} out of service · {cash} cash games"),
    none: gettext("No tournament is running or being set up"),
  };
  function players(n) { return Util.fmt(ngettext("{n} player", "{n} players", n), {n: n}); }

  function card(t) {
    var button = Util.el("button", "rm-table rm-" + t.state + (t.colour === null || t.colour === undefined ? "" : " rm-c" + t.colour));
    button.type = "button";
    button.dataset.number = t.number;
    button.dataset.tournament = t.tournament === null ? "" : t.tournament;
    var what = t.state === "held" ? t.tournament_name : t.state === "free" ? words.free : t.state === "reserved"
      ? Util.fmt(words.reserved, {name: t.reserved_for_name}) : t.state === "cash" ? words.cash : words.closed;
    var facts = (t.state === "held" ? players(t.players) + " · " : "") + Util.fmt(words.seats, {n: t.seats}) + (t.reason ? " · " + t.reason : "");
    button.append(Util.el("span", "rm-num", String(t.number)), Util.el("span", "rm-what", what), Util.el("span", "rm-facts", facts));
    var li = Util.el("li");
    li.append(button);
    return li;
  }

  function draw(state) {
    var map = document.getElementById("rm-map"), areas = [], byArea = {};
    state.tables.forEach(function (t) {
      if (!(t.area in byArea)) { byArea[t.area] = Util.el("ul", "rm-grid"); areas.push(t.area); }
      byArea[t.area].append(card(t));
    });
    var parts = areas.map(function (area) {
      var section = Util.el("section", "rm-area");
      section.setAttribute("aria-label", area || words.noArea);
      section.append(Util.el("h3", null, area || words.noArea), byArea[area]);
      return section;
    });
    map.replaceChildren.apply(map, parts);
    document.getElementById("rm-counts").textContent = Util.fmt(words.counts, state.counts);
    var legend = document.getElementById("rm-legend");
    legend.replaceChildren.apply(legend, state.tournaments.map(function (t) {
      var li = Util.el("li", "rm-c" + t.colour);
      li.append(Util.el("span", "rm-swatch"), document.createTextNode(t.name));
      return li;
    }));
    var empty = document.getElementById("rm-empty");
    if (empty) empty.hidden = state.tables.length > 0;
    choose(document.getElementById("rm-tournament"), state.choices, 1);
    choose(document.getElementById("rm-for"), state.choices, 0);
  }

  /* A list of the venue's tournaments (the filter after its "every table", the floor's choice) as they are now: one
     opened since the page was made is there, one that ended is not; the choice made stays. */
  function choose(select, choices, keep) {
    if (!select || !choices) return;
    var chosen = select.value, options = Array.prototype.slice.call(select.options, 0, keep);
    choices.forEach(function (t) { var o = Util.el("option", null, t.name); o.value = t.id; options.push(o); });
    if (!choices.length && !keep) { var none = Util.el("option", null, words.none); none.value = ""; options.push(none); }
    function key(list) { return list.map(function (o) { return o.value + "\u0000" + o.textContent; }).join("\u0001"); }
    if (key(Array.prototype.slice.call(select.options)) === key(options)) return;  // unchanged: an open list stays open
    select.replaceChildren.apply(select, options);
    select.value = chosen;
    if (select.selectedIndex < 0) select.selectedIndex = 0;
  }

  function read() {
    timer = null;
    lastRead = Date.now();
    return api.get("venues/" + venue + "/" + (only ? "?tournament=" + encodeURIComponent(only) : "")).then(draw, function () { /* said by api.js */ });
  }
  function soon() {
    if (timer !== null) return;
    timer = setTimeout(read, Math.max(0, AT_MOST_MS - (Date.now() - lastRead)));
  }
  setInterval(soon, EVERY_MS);

  Live.connect({path: "/ws/venues/" + venue + "/room/", badge: "#live", thin: true, onSnapshot: soon, onEvent: soon});

  document.getElementById("rm-map").addEventListener("click", function (ev) {
    var button = ev.target.closest(".rm-table");
    var number = document.getElementById("rm-number");
    if (!button || !number) return;
    number.value = button.dataset.number;
    number.focus();
  });

  var filter = document.getElementById("rm-venue");
  if (filter) filter.addEventListener("change", function () { window.location.assign(filter.value); });

  var act = document.getElementById("rm-act");
  if (act) act.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var number = act.elements.number.value, action = act.elements.action.value;
    var base = "venues/" + venue + "/tables/" + encodeURIComponent(number) + "/";
    var tournament = Number(act.elements.tournament.value), reason = act.elements.reason.value;
    var button = ev.submitter || document.getElementById("rm-act-go");
    api.press(button, function (key) {
      if (action === "hand") return api.post(base + "hand/", {tournament: tournament}, {key: key});
      if (action === "reserve") return api.post(base + "reservation/", {tournament: tournament, reason: reason}, {key: key});
      if (action === "unreserve") return api.del(base + "reservation/", {key: key});
      return api.post(base + "state/", {state: action, reason: reason}, {key: key});
    }, Util.fmt(gettext("Table {number}: done."), {number: number})).then(soon);
  });

  var areas = document.getElementById("rm-areas");
  if (areas) areas.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var list = document.getElementById("rm-areas-list").value.split("\n").map(function (a) { return a.trim(); }).filter(Boolean);
    var body = {areas: list, fixed_tables: areas.elements.fixed_tables.checked};
    api.press(ev.submitter || document.getElementById("rm-areas-go"), function (key) {
      return api.patch("venues/" + venue + "/", body, {key: key});
    }, gettext("The venue's areas are saved.")).then(function (answer) { if (answer) window.location.reload(); });
  });
})();
