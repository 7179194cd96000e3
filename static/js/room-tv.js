/* The room TV (templates/venues/room_tv.html): every tournament running in the venue, a card each (its level, the time
 * left counted here from its clock, the blinds, players left, the average stack, its registration), as many to a page
 * as the screen reads from across the room (the pages turn when they do not all fit), and today's schedule. Live over
 * the room TV's socket: every note of the room (a change in any of its tournaments) asks the snapshot again, the same
 * state a fresh load of the page draws; the server reads it once per version however many TVs ask. */
import * as Util from "./util.js";
import * as Live from "./live.js";
import * as Clock from "./clock.js";

(function () {
  "use strict";
  var config = JSON.parse(document.getElementById("rt-config").textContent);
  var grid = document.getElementById("rt-grid"), none = document.getElementById("rt-none");
  var pageBadge = document.getElementById("rt-page"), body = document.body, strings = Clock.strings();
  var PAGE_SECONDS = 12;  // how long a page of tournaments stays before the next when they do not all fit
  var snapshot = JSON.parse(document.getElementById("rt-snapshot").textContent);
  var cards = {}, clocks = {}, shown = [], page = 0, perPage = 1, sync = null, pageTurned = Date.now();

  function unit() { return parseFloat(getComputedStyle(body).getPropertyValue("--u")) * (innerWidth < innerHeight ? innerWidth : innerHeight) / 100 || 10; }

  /* The most cards a page holds: each at least 42 units wide and 30 high (its time and blinds read from five metres). */
  function layout(count) {
    var u = unit(), w = grid.clientWidth || innerWidth, h = grid.clientHeight || innerHeight;
    var maxCols = Math.max(1, Math.floor(w / (42 * u))), maxRows = Math.max(1, Math.floor(h / (30 * u)));
    perPage = maxCols * maxRows;
    var n = Math.min(Math.max(count, 1), perPage), best = null;
    for (var cols = 1; cols <= maxCols; cols++) {
      var rows = Math.ceil(n / cols);
      if (rows > maxRows) continue;
      var size = Math.min(w / cols / 1.5, h / rows);  // a card is best half again as wide as high
      if (!best || size > best.size) best = {cols: cols, rows: rows, size: size};
    }
    grid.style.setProperty("--cols", best.cols);
    grid.style.setProperty("--rows", best.rows);
  }

  function registration(r) {
    if (r.sold_out && r.waiting) {
      return [Util.fmt(ngettext("Sold out · {n} on the waiting list", "Sold out · {n} on the waiting list", r.waiting), {n: r.waiting}), "sold-out"];
    }
    if (r.sold_out) return [gettext("Sold out"), "sold-out"];
    if (r.sit_and_go && !r.sit_and_go.started) {
      if (r.sit_and_go.registered >= r.sit_and_go.players) return [gettext("Sit & go full: waits for a free table"), "sold-out"];
      return [Util.fmt(gettext("Sit & go: {registered} of {players} seats taken, starts when full"), r.sit_and_go), ""];
    }
    if (r.open && r.until_level) return [Util.fmt(gettext("Registration open until the end of level {n}"), {n: r.until_level}), ""];
    if (r.open) return [gettext("Registration open"), ""];
    return [gettext("Registration closed"), "closed"];
  }

  function field(card, label, key) {
    var box = Util.el("div"), dd = Util.el("dd");
    dd.dataset.stat = key;
    box.append(Util.el("dt", null, label), dd);
    return box;
  }

  function makeCard(t) {
    var card = Util.el("article", "l-box rt-card");
    card.dataset.tournament = t.id;
    var name = Util.el("h2", "rt-name", t.name);
    name.setAttribute("data-fit", "");
    var title = Util.el("div", "rt-titleline");
    var level = Util.el("span");
    level.dataset.clock = "title";
    var state = Util.el("span", "l-state");
    state.dataset.clock = "status";
    state.setAttribute("data-clock-box", "");
    title.append(level, state);
    var time = Util.el("div", "rt-time", "--:--");
    time.dataset.clock = "time";
    var blinds = Util.el("div", "rt-blinds");
    blinds.dataset.clock = "blinds";
    blinds.setAttribute("data-clock-box", "");
    blinds.setAttribute("data-fit", "");
    var ante = Util.el("div", "rt-ante");
    ante.dataset.clock = "ante";
    ante.setAttribute("data-clock-box", "");
    var h4h = Util.el("div", "rt-h4h", gettext("HAND-FOR-HAND"));
    h4h.hidden = true;
    var figures = Util.el("dl", "rt-figures");
    figures.append(field(card, gettext("Players left"), "players"), field(card, gettext("Average stack"), "average_stack"));
    var reg = Util.el("div", "rt-reg");
    reg.setAttribute("data-fit", "");
    card.append(name, title, time, blinds, ante, h4h, figures, reg);
    return card;
  }

  function fillCard(card, t) {
    card.className = "l-box rt-card" + (t.colour === null || t.colour === undefined ? "" : " rt-c" + t.colour);
    card.querySelector(".rt-name").textContent = t.name;
    card.querySelector('[data-stat="players"]').textContent = Live.number(t.stats.players_left) + " / " + Live.number(t.stats.entries);
    card.querySelector('[data-stat="average_stack"]').textContent = Live.number(t.stats.average_stack);
    card.querySelector(".rt-h4h").hidden = !t.h4h;
    var reg = registration(t.registration), line = card.querySelector(".rt-reg");
    line.textContent = t.over ? gettext("Play is over") : reg[0];
    line.className = "rt-reg" + (reg[1] ? " " + reg[1] : "");
    clocks[t.id] = Clock.merge(null, t.clock);
  }

  function scheduleLine(e) {
    var li = Util.el("li", e.status);
    li.dataset.tournament = e.id;
    var words;
    if (e.status === "finished") words = gettext("Finished");
    else if (e.status === "running") words = gettext("Running");
    else if (e.registration && e.registration.sit_and_go) words = registration(e.registration)[0];
    else words = e.registration && e.registration.open ? gettext("Not started yet · registration open") : gettext("Not started yet");
    li.append(Util.el("span", "tm", e.start), Util.el("span", "nm", e.name), Util.el("span", "st", words));
    return li;
  }

  function show(s) {
    snapshot = s;
    var ids = s.tournaments.map(function (t) { return t.id; });
    Object.keys(cards).forEach(function (id) {
      if (ids.indexOf(Number(id)) < 0) { cards[id].remove(); delete cards[id]; delete clocks[id]; }
    });
    s.tournaments.forEach(function (t) {
      if (!cards[t.id]) cards[t.id] = makeCard(t);
      fillCard(cards[t.id], t);
    });
    shown = s.tournaments.map(function (t) { return cards[t.id]; });
    none.hidden = shown.length > 0;
    var list = document.getElementById("rt-schedule");
    list.textContent = "";
    s.schedule.forEach(function (e) { list.append(scheduleLine(e)); });
    if (sync) sync.guess(s.server_time);
    place();
  }

  /* The page of cards shown now: all of them when they fit, else PAGE_SECONDS each in turn. */
  function place() {
    layout(shown.length);
    var pages = Math.max(1, Math.ceil(shown.length / perPage));
    if (page >= pages) page = 0;
    var from = page * perPage, wanted = shown.slice(from, from + perPage);
    if (grid.children.length !== wanted.length || wanted.some(function (c, i) { return grid.children[i] !== c; })) grid.replaceChildren.apply(grid, wanted);
    pageBadge.hidden = pages < 2;
    pageBadge.textContent = Util.fmt(gettext("Page {n} of {pages}"), {n: page + 1, pages: pages});
    tick();
    document.querySelectorAll("[data-fit]").forEach(Clock.fit);
  }

  function tick() {
    var now = sync ? sync.now() : Date.now() / 1000;
    grid.querySelectorAll(".rt-card").forEach(function (card) {
      var st = clocks[card.dataset.tournament] ? Clock.state(clocks[card.dataset.tournament], now) : null;
      if (st) Clock.fill(card, st, strings);
    });
    if (shown.length > perPage && Date.now() - pageTurned >= PAGE_SECONDS * 1000) {
      pageTurned = Date.now();
      page += 1;
      place();
    }
  }

  // One snapshot asked at a time: a burst of notes (a draw, a break's color-ups in every tournament) asks once more after.
  var asking = false, askAgain = false, conn = null;
  function again() {
    if (asking) { askAgain = true; return; }
    asking = true;
    conn.refresh();
  }
  conn = Live.connect({
    path: config.socket, badge: "#live", sync: true, thin: true,
    onStatus: function (up) { body.classList.toggle("is-offline", !up); },
    onSnapshot: function (s) {
      asking = false;
      show(s);
      if (askAgain) { askAgain = false; again(); }
    },
    onEvent: function () { again(); },
    onRefused: function () { body.innerHTML = ""; }
  });
  sync = conn.sync;
  show(snapshot);
  setInterval(tick, 250);
  // A room note may be lost on its way (a worker restarted): the TV reads the room again every minute too.
  setInterval(function () { if (conn.online) again(); }, 60000);
  window.addEventListener("resize", place);
  window.addEventListener("offline", function () { body.classList.add("is-offline"); });
  if (document.fonts) document.fonts.ready.then(place);
  Clock.keepAwake();
  window.roomTv = {conn: conn, get snapshot() { return snapshot; }, get page() { return page; }, get perPage() { return perPage; }};
})();
