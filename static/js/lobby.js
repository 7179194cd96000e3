/* The lobby TV (templates/tournament/lobby.html): the clock, the figures, the bubble and the pay jumps,
 * hand-for-hand, the draws and, at the end, the winner and the results, live over the display socket.
 * Its URLs and currency come from the page's "lobby-config" block, its words from the page's data-*. */
import * as Util from "./util.js";
import * as Live from "./live.js";
import * as Clock from "./clock.js";
import * as Bounties from "./lobby-bounties.js";
import * as Alternates from "./lobby-alternates.js";

(function () {
  "use strict";
  var config = JSON.parse(document.getElementById("lobby-config").textContent);
  // The day's line (the day's end, the day over, the next day's start), filled by Clock.fill as
  // data-clock="day": one banner across the screen, before the hand-for-hand banner.
  if (!document.querySelector('[data-clock="day"]')) {
    var day = document.createElement("div");
    day.className = "l-day";
    day.id = "lobby-day";
    day.setAttribute("role", "status");
    day.setAttribute("data-clock", "day");
    day.setAttribute("data-clock-box", "");
    day.setAttribute("data-fit", "");
    day.hidden = true;
    var h4h = document.getElementById("h4h-banner");
    h4h.parentNode.insertBefore(day, h4h);
  }
  var body = document.body, strings = Clock.strings(), flashTimer = null;
  // Sound only when the screen's link asks for it (?sound=1; docs/players.md, "The lobby TVs"): a TV in
  // kiosk mode plays it when the kiosk allows autoplay. Only a screen with touch may ask to be touched.
  var sound = new URLSearchParams(location.search).get("sound") === "1";
  var touch = !!(window.matchMedia && window.matchMedia("(pointer: coarse)").matches);
  function fitAll() { document.querySelectorAll(".l-stats [data-fit], .l-name[data-fit]").forEach(Clock.fit); }
  function stats(s) { if (s) { Live.fillStats(s); fitAll(); } }
  stats(JSON.parse(document.getElementById("lobby-stats").textContent));
  var initial = JSON.parse(document.getElementById("lobby-clock-state").textContent);

  var conn = null, sync = null;
  var view = Clock.run({
    now: function () { return sync.now(); },
    render: function (st, prev) {
      Clock.fill(document, st, strings);
      var ch = Clock.changes(st, prev);
      if (ch.row) {
        body.classList.remove("level-changed");
        void body.offsetWidth;  // restart the animation
        body.classList.add("level-changed");
        clearTimeout(flashTimer);
        flashTimer = setTimeout(function () { body.classList.remove("level-changed"); }, 15000);
        if (sound && !finalNow) Clock.sounds.level();
      } else if (ch.oneMinute && sound && !finalNow) {
        Clock.sounds.warning();
      }
    }
  });
  // The draws, in one small line: the commitment of the next one and the seed of the last one.
  var draws = document.getElementById("lobby-draws"), drawsUrl = config.draws;
  function code(text) { var c = document.createElement("code"); c.textContent = text; return c; }
  function showDraws(d) {
    var next = document.getElementById("lobby-next-draw"), last = document.getElementById("lobby-last-draw");
    next.textContent = ""; last.textContent = "";
    if (d.next_draw) { next.append(Util.fmt(gettext("Next draw #{n} · SHA-256"), {n: d.next_draw.draw}) + " ", code(d.next_draw.commitment)); }
    if (d.last_draw) {
      last.append(Util.fmt(gettext("Draw #{n} · seed"), {n: d.last_draw.draw}) + " ", code(d.last_draw.seed.slice(0, 16) + "…"),
                  " " + Util.fmt(gettext("check at {url}"), {url: config.draw_list}));
    }
    draws.hidden = !d.next_draw && !d.last_draw;
  }
  // Hand-for-hand: a banner the room sees from across it, with the hand being played.
  function handForHand(h) {
    var banner = document.getElementById("h4h-banner");
    banner.hidden = !(h && h.on);
    if (h && h.on) banner.textContent = h.hand ? Util.fmt(gettext("HAND-FOR-HAND · hand {n}"), {n: h.hand}) : gettext("HAND-FOR-HAND");
    Clock.fit(banner);
  }
  // The prizes: places paid, the minimum cash (the bubble only when the next bust is it: one player more
  // than places paid) or the next pay jump, "in the money". The bands come with the snapshot, asked again at every push.
  var paid = JSON.parse(document.getElementById("lobby-payouts").textContent);
  function prizeOf(place) {
    for (var i = 0; i < paid.bands.length; i++) if (place <= paid.bands[i][1]) return paid.bands[i][2];
    return 0;
  }
  function showPaid(s) {
    if (!paid || !s) return;
    var box = document.getElementById("lobby-paid"), jump = document.getElementById("lobby-jump");
    if (paid.satellite) { showSeats(s, box, jump); return; }
    document.getElementById("lobby-places-label").textContent = gettext("Places paid");
    document.getElementById("lobby-places").textContent = paid.places_paid;
    if (paid.flight) {  // a Day 1 flight: the places its event's Day 2 pays, no bubble of its own field
      jump.textContent = "";
      box.classList.remove("itm");
      return;
    }
    var left = s.players_left, itm = paid.places_paid > 0 && left > 0 && left <= paid.places_paid, text = "";
    var now = prizeOf(left);
    for (var place = Math.min(left - 1, paid.places_paid); place >= 1; place--) {
      if (prizeOf(place) > now) {
        var prize = Util.money(prizeOf(place), s.currency);
        var words = itm ? gettext("next pay jump: {place}. · {prize}") : left === paid.places_paid + 1 ? gettext("bubble · min. cash {prize}") : gettext("min. cash {prize}");
        text = Util.fmt(words, {place: place, prize: prize});
        break;
      }
    }
    jump.textContent = (itm ? gettext("IN THE MONEY") + (text ? " · " : "") : "") + text;
    box.classList.toggle("itm", itm);
    Clock.fit(jump);
  }
  // A satellite: its seats in the target event instead of places paid, and where play stops.
  function showSeats(s, box, jump) {
    var sat = paid.satellite, left = s.players_left, stopped = left > 0 && left <= sat.stops_at, text;
    document.getElementById("lobby-places-label").textContent = pgettext("satellite", "Seats");
    document.getElementById("lobby-places").textContent = sat.seats;
    if (!sat.seats) text = gettext("No seat yet: played to a winner");
    else if (stopped) text = Util.fmt(ngettext("PLAY HAS STOPPED · {n} seat won", "PLAY HAS STOPPED · {n} seats won", sat.seats), {n: sat.seats});
    else {
      text = Util.fmt(ngettext("{n} seat: play stops at {n} player", "{n} seats: play stops at {n} players", sat.seats), {n: sat.seats});
      if (left === sat.stops_at + 1) text = gettext("SEAT BUBBLE") + " · " + text;
    }
    jump.textContent = text;
    box.classList.toggle("itm", stopped);
    Clock.fit(jump);
  }
  showPaid(JSON.parse(document.getElementById("lobby-stats").textContent));
  // The end: once play is over (one player left, or a deal that stopped play) the winner and the
  // final results take the clock's place; an undone last bust or a re-entry brings the clock back. The
  // socket's snapshots carry no names (the players' public seat socket gets them too): this screen reads
  // them with its own link (/api/public/display/<secret>/snapshot/), once per new set of places.
  var finalBox = document.getElementById("lobby-final"), finalNow = null, names = {}, namesAsked = "";
  /* A list of the lobby (the results, the chip leaders, the league): a row per item, its cells [class, text]; the
     name ("nm") fits its cell. A few rows do not spread over the box. */
  function fillList(list, rows, cellsOf) {
    list.textContent = "";
    list.style.setProperty("--rows", Math.max(rows.length, 5));
    rows.forEach(function (r) {
      var li = document.createElement("li");
      cellsOf(r).forEach(function (cell) {
        var span = document.createElement("span");
        span.className = cell[0];
        span.textContent = cell[1];
        if (cell[0] === "nm") span.setAttribute("data-fit", "");
        // A list whose names stay readable (data-name-words: the chip leaders beside their figures): never shrunk, cut
        // after a whole word when the row has no room for all of it.
        if (cell[0] === "nm" && list.hasAttribute("data-name-words")) { span.dataset.fitMin = "1"; span.dataset.fitWords = cell[1]; }
        li.appendChild(span);
      });
      list.appendChild(li);
    });
    if (list.hasAttribute("data-name-words")) list.querySelectorAll("[data-fit]").forEach(Clock.fit);
  }
  var snapshotUrl = config.snapshot, currency = config.currency;
  function placeOf(r) { return r.place_low && r.place_low !== r.place ? r.place + "–" + r.place_low + "." : r.place + "."; }
  function nameOf(r) { return names[r.entry] || "#" + r.entry; }
  function askNames(f) {
    var key = f.results.map(function (r) { return r.entry; }).join(",");
    if (namesAsked === key) return;
    namesAsked = key;
    fetch(snapshotUrl, {cache: "no-store"}).then(function (r) { return r.json(); }).then(function (d) {
      if (d.final && d.final.names) { Object.assign(names, d.final.names); showFinal(finalNow); }
    }).catch(function () {});
  }
  function showFinal(f) {
    finalNow = f || null;
    body.classList.toggle("is-final", !!finalNow);
    finalBox.hidden = !finalNow;
    if (!finalNow) return;
    if (f.names) Object.assign(names, f.names);
    if (f.results.some(function (r) { return !names[r.entry]; })) askNames(f);
    var seats = !!f.seats_in;  // a satellite: its seat winners first, then the cash
    var first = f.results.filter(function (r) { return seats ? r.seat : r.place === 1; });
    var rest = f.results.filter(function (r) { return first.indexOf(r) < 0; });
    // A satellite's end says that play has stopped (the seat line of the figures is not shown at the end).
    // (Its words break after a "·", not before it.)
    document.getElementById("lobby-winner-label").textContent = (seats && first.length
      ? Util.fmt(ngettext("PLAY HAS STOPPED · {n} seat won", "PLAY HAS STOPPED · {n} seats won", first.length), {n: first.length})
      : seats ? gettext("Seats won") : first.length > 1 ? gettext("Winners, tied") : gettext("Winner")).replace(/ ·/g, "\u00a0·");
    // The names, each kept whole on its line where it fits (a long one wraps within itself), the "·" after a name.
    var winner = document.getElementById("lobby-winner");
    winner.textContent = "";
    first.forEach(function (r, i) {
      var one = document.createElement("span");
      one.className = "l-winner-one";
      one.textContent = nameOf(r) + (i < first.length - 1 ? "\u00a0·" : "");
      if (i) winner.append(" ");
      winner.append(one);
    });
    document.getElementById("lobby-winner-prize").textContent = !seats && first.length && first[0].prize
      ? Util.money(first[0].prize, currency) : "";
    fillList(document.getElementById("lobby-results"), rest, function (r) {
      return [["pl", placeOf(r)], ["nm", nameOf(r)], ["pz", r.prize ? Util.money(r.prize, currency) : ""]];
    });
    var more = document.getElementById("lobby-more");
    more.hidden = !f.more;
    more.textContent = f.more ? Util.fmt(seats ? gettext("and {n} more seats and places paid") : gettext("and {n} more places paid"), {n: f.more}) : "";
    fitFinal();
  }
  /* The names fit now (reading the layout makes it), not at the next frame only: a screen that draws no frame yet (a
     TV's browser in the background, a screenshot taken at once) shows them fitted too; again at the next frame, when
     the fonts have loaded and whenever the screen changes size (below). */
  function fitFinal() {
    if (finalBox.hidden) return;
    finalBox.querySelectorAll("[data-fit]").forEach(Clock.fit);
    requestAnimationFrame(function () { finalBox.querySelectorAll("[data-fit]").forEach(Clock.fit); });
  }
  showFinal(JSON.parse(document.getElementById("lobby-final-state").textContent));
  // The chip leaders, while the house shows counts in public: the top stacks with names and big
  // blinds, the average; on a TV they take the side column's place in turn with it, PANEL_SHOWN ms each (the leaders
  // alone: 20 s of every 40). A bounty event's panel (lobby-bounties.js) takes its turn too, and the side column's place at once while
  // an envelope just drawn is said. A screen whose link says ?leaders=1 (a festival's chip-count TV) or ?bounties=1
  // shows that panel all the time.
  var PANEL_SHOWN = 20000, leaders = null, bounties = null, query = new URLSearchParams(location.search);
  var leadersAlways = query.get("leaders") === "1", bountiesAlways = query.get("bounties") === "1";
  function showLeaders(l) {
    leaders = l && l.top && l.top.length ? l : null;
    fillList(document.getElementById("lobby-leader-list"), leaders ? leaders.top : [], function (r) {
      return [["pl", r.rank + "."], ["nm", r.name], ["pz", Live.number(r.chips)],
              ["bb", r.big_blinds === null ? "" : Util.fmt(gettext("{n} BB"), {n: r.big_blinds.toLocaleString(document.documentElement.lang || undefined)})]];
    });
    if (!leaders) { turnLeaders(); return; }
    document.getElementById("lobby-leaders-foot").textContent = Util.fmt(
      gettext("Average {average} · {counted} of {left} players counted"),
      {average: Live.number(leaders.average), counted: leaders.counted, left: leaders.players_left});
    turnLeaders();
  }
  // The league's standings, when the league shows them on its tournaments' TVs: during a break they take
  // the side column's place (before the chip leaders). A break that starts reads them afresh (a snapshot): another
  // tournament of the league may have ended since.
  var league = null, breakBefore = body.classList.contains("is-break");
  function showLeague(l) {
    league = l && l.rows && l.rows.length ? l : null;
    fillList(document.getElementById("lobby-league-list"), league ? league.rows : [], function (r) {
      return [["pl", r.rank + "."], ["nm", r.name], ["pz", r.shown]];
    });
    if (league) document.getElementById("lobby-league-name").textContent = league.name;
    document.getElementById("lobby-league").hidden = true;  // shown (and its texts fitted) by turnLeaders
    turnLeaders();
  }
  function showBounties(b) { bounties = Bounties.show(b, currency, fillList); turnLeaders(); }
  // A panel shown now that was not: its texts fitted at the next frame (a hidden box has no size to fit to).
  function reveal(box, on) {
    if (on && box.hidden) requestAnimationFrame(function () { box.querySelectorAll("[data-fit]").forEach(Clock.fit); });
    box.hidden = !on;
  }
  function turnLeaders() {
    var breakNow = body.classList.contains("is-break");
    if (breakNow && !breakBefore && conn) conn.refresh();
    breakBefore = breakNow;
    var drawn = Bounties.banner(bounties, sync ? sync.now() : Date.now() / 1000, currency) && !!bounties;
    var panels = [leaders ? "leaders" : "", bounties ? "bounties" : ""].filter(Boolean);
    var pick = drawn ? "bounties" : leadersAlways && leaders ? "leaders" : bountiesAlways && bounties ? "bounties"
      : panels[Math.floor(Date.now() / PANEL_SHOWN) % (panels.length + 1) - 1] || "";
    var standings = !!league && !finalNow && breakNow && !drawn;
    var on = !standings && !finalNow ? pick : "";
    reveal(document.getElementById("lobby-leaders"), on === "leaders");
    reveal(document.getElementById("lobby-bounties"), on === "bounties");
    reveal(document.getElementById("lobby-league"), standings);
    body.classList.toggle("show-leaders", !!on || standings);
  }
  showLeaders(JSON.parse(document.getElementById("lobby-leaders-state").textContent));
  showLeague(JSON.parse(document.getElementById("lobby-league-state").textContent));
  showBounties(JSON.parse(document.getElementById("lobby-bounties-state").textContent));
  setInterval(turnLeaders, 1000);
  // A sold-out tournament's waiting list: "Sold out · N on the waiting list" and the latest calls to a seat, a new one
  // highlighted for some seconds of server time (lobby-alternates.js); hidden once play is over.
  var alternates = null;
  function showAlternates(a) {
    if (a !== undefined) alternates = finalNow ? null : a;
    Alternates.show(alternates, sync ? sync.now() : Date.now() / 1000);
  }
  showAlternates(JSON.parse(document.getElementById("lobby-alternates-state").textContent));
  setInterval(showAlternates, 1000);
  function loadDraws() {
    fetch(drawsUrl, {cache: "no-store"}).then(function (r) { return r.json(); }).then(showDraws).catch(function () {});
  }
  // One snapshot asked at a time: a burst of pushes (a draw, a break's color-ups) asks once more after the answer.
  var asking = false, askAgain = false;
  function again() {
    if (asking) { askAgain = true; return; }
    asking = true;
    conn.refresh();
  }
  // The event's other tournaments whose changes move this TV's figures (a flight shows its event's one pool and the
  // places its Day 2 pays): the TV hears their public sockets as well and reads its own snapshot again on each push,
  // and after a reconnect of theirs (a push may have been lost meanwhile).
  var heard = {};
  function hearFiguresFrom(ids) {
    (ids || []).forEach(function (id) {
      if (heard[id]) return;
      var first = true;
      heard[id] = Live.connect({
        path: "/ws/s/" + id + "/", thin: true,
        onSnapshot: function () { if (!first) again(); first = false; },
        onEvent: function () { again(); }
      });
    });
  }
  conn = Live.connect({
    path: config.socket, badge: "#live", sync: true,
    onStatus: function (up) { body.classList.toggle("is-offline", !up); },
    onSnapshot: function (s) {
      asking = false;
      if (askAgain) { askAgain = false; again(); }
      stats(s.stats); if (s.payouts) paid = s.payouts; showPaid(s.stats); view.set(s.clock); loadDraws(); handForHand(s.h4h);
      showFinal(s.final); showLeaders(s.leaders); showLeague(s.league); showBounties(s.bounties); hearFiguresFrom(s.figures_from);
      showAlternates(s.alternates || null);
    },
    onEvent: function (m) {
      // The clock, hand-for-hand and the draws at once; everything else (the figures, the prizes, the chip leaders,
      // the seats won, the end, the league) from a fresh snapshot, the same state a fresh load of the page draws:
      // a push changes more than its own fields (a bust takes a leader off the list, the seat bubble ends a
      // satellite), and a screen left open must never say other than a reload. Read once per version on the
      // server (live/snapshots.py lobby_answer), however many screens ask.
      if (m.clock) view.set(m.clock); if (m.draw) loadDraws(); if (m.h4h) handForHand(m.h4h);
      again();
    },
    onRefused: function () { body.innerHTML = ""; }
  });
  sync = conn.sync;
  sync.guess(initial.server_time);  // until the first pong: the time the page was made
  view.set(initial);
  window.addEventListener("offline", function () { body.classList.add("is-offline"); });
  // A box that changes size (the announcement appears, another TV, the end's boxes in the clock's place) fits its
  // texts again; so do fonts that load after the first fitting (their letters are wider or narrower).
  function fitEverything() { document.querySelectorAll("[data-fit]").forEach(Clock.fit); }
  if (window.ResizeObserver) {
    var boxes = new ResizeObserver(fitEverything);
    [document.querySelector("main"), document.querySelector(".l-main"), finalBox].forEach(function (el) { if (el) boxes.observe(el); });
  }
  if (document.fonts) {
    document.fonts.ready.then(fitEverything);
    document.fonts.addEventListener("loadingdone", fitEverything);
  }
  Clock.keepAwake();
  var hint = document.getElementById("sound-off");
  if (sound && touch) setInterval(function () {  // a TV has no touch: it never asks
    if (hint.hidden === Clock.sounds.available) return;
    hint.hidden = Clock.sounds.available;
    Clock.fit(document.querySelector(".l-name"));  // the hint takes room from the name, or gives it back
  }, 2000);
  window.lobby = {view: view, conn: conn};
})();
