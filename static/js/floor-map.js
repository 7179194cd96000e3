/* The floor's table map: every table as a card with its seats. Live over the floor socket: an
   event that touches seats (or a gap, a reconnect) refetches the map, debounced. Every action goes
   through the documented JSON API with the shared client (static/js/api.js: one Idempotency-Key
   per press, the button busy meanwhile, a refusal's translated detail shown in #notice); the
   message of a done action is built here from the API's answer with the words of Django's
   JavaScript catalogue. The map then refetches map.json. Needs live.js and api.js.
   At festival scale (1,112 tables) the page shows one section of tables at a time (50 tables; every table
   up to 60), narrowed by the filters; a player search and "go to table" switch to the right section.
   bench/floor_map_render.py times it in a browser. */
import * as Util from "./util.js";
import * as api from "./api.js";
import * as Live from "./live.js";
import * as Clock from "./clock.js";
import * as FlightEnding from "./flight-ending.js";

(function () {
  "use strict";
  // Reads: the page's map.json and the floor socket. Changes: the JSON API (/api/docs/), through api.js.
  var urls = JSON.parse(document.getElementById("map-urls").textContent), s = {
    statusFull: gettext("full"),
    statusShort: gettext("short"),
    statusOpen: gettext("open seats"),
    statusBroken: gettext("broken"),
    statusClosed: gettext("not in play"),
    statusEmpty: pgettext("table status", "empty"),
    statusTitleShort: gettext("Short: balancing moves a player to this table."),
    statusTitleEmpty: gettext("In play, nobody seated yet."),
    oldLevel: gettext("still level {n}"),
    oldLevelTitle: gettext("This table has not started a hand at the clock’s level yet: it still plays the level before."),
    slipsBadge: gettext("move slips: {n}"),
    slipsTitle: gettext("Pending move slips leave from or arrive at this table."),
    seatLabel: gettext("Table {t} seat {s}: {name}, entry #{n}"),
    section: gettext("Tables {a}–{b} ({n})"),
    sectionAll: gettext("All tables ({n})"),
    sectionNone: gettext("No table matches the filters"),
    shown: gettext("Showing {n} of {total} tables."),
    foundSeat: gettext("{name} (#{n}): table {t} seat {s}"),
    foundNone: gettext("No seated player matches."),
    foundMore: gettext("{n} more: type more of the name."),
    noTables: gettext("No table is open yet."),
    noTable: gettext("There is no table {n}."),
    drawButtonLabel: gettext("Draw the button"),
    changeButtonLabel: gettext("Change the button"),
    needButtonWhy: gettext("Balancing needs the button of table {n} to pick the player who moves (TDA: the player who would be big blind next). Enter the seat of the button."),
    table: gettext("Table {n}"),
    players: gettext("{n} of {s} seats"),
    seat: gettext("Table {t} seat {s}"),
    empty: gettext("open"),
    entry: gettext("Entry #{n}"),
    button: gettext("Button: seat {s}"),
    noButton: gettext("No button yet"),
    buttonChip: gettext("The button (dealer) is at this seat"),
    break: gettext("breaks {n}."),
    accessible: gettext("accessible"),
    confirmBust: gettext("Bust entry #{n} ({name})? The seat is freed and the place recorded."),
    drawAsk: gettext("Draw the seats of every registered entry now? The commitment shown above is used."),
    undo: gettext("Entry #{n} ({name}) is out."),
    noOpen: gettext("No open seat in play."),
    drawButton: gettext("Button of table {n}"),
    slip: gettext("#{m} {name} (entry {e}): table {ft} seat {fs} → table {tt} seat {ts}"),
    afterHand: gettext("after this hand"),
    confirmMove: gettext("Seated (confirm)"),
    cancelMove: gettext("Cancel"),
    askCancel: gettext("Cancel move slip #{m}? The reserved seat is free again."),
    halt: gettext("HALT"),
    haltTitle: gettext("Play halts at this table until it is balanced."),
    needButton: gettext("Button seat"),
    setButton: gettext("Set"),
    reserved: gettext("reserved for #{n}"),
    h4hOff: gettext("Off"),
    h4hStart: gettext("Start hand-for-hand"),
    h4hStop: gettext("End hand-for-hand"),
    h4hAskStart: gettext("Start hand-for-hand? The clock stops; every table plays one hand at a time."),
    h4hAskStop: gettext("End hand-for-hand? The clock runs again if it ran before."),
    h4hCalled: gettext("Hand {n} is being played"),
    h4hBetween: gettext("Hand {n} is over; the next hand is called when every table is between hands and the slips are done"),
    h4hFirst: gettext("Waiting for the tables to finish their hand in play"),
    h4hWaiting: gettext("Waiting for table {tables}"),
    h4hBusy: gettext("Hand in play at table {tables}"),
    h4hSuggest: gettext("{n} players left, {paid} paid: the next bust is the bubble. Start hand-for-hand."),
    h4hTime: gettext("{s} s off the clock per hand"),
    h4hPause: gettext("the clock stands still"),
    h4hDeal: gettext("deal"),
    h4hPlaying: gettext("playing"),
    h4hDone: gettext("done"),
    handDone: gettext("Hand done"),
    doneBust: gettext("Entry #{number} ({name}) is out in place {place}."),
    doneBustFlight: gettext("Entry #{number} ({name}) is out of this flight (a flight's bust has no place)."),
    doneBustTie: gettext("Entry #{number} ({name}) is out, tied for places {place} to {low}."),
    doneUndo: gettext("Entry #{number} plays again."),
    doneCorrect: gettext("Entry #{number} now sits at table {table} seat {seat}."),
    doneButton: gettext("Table {table}: the button is at seat {seat}."),
    doneConfirm: gettext("Move slip #{move}: entry #{entry} sits at table {table} seat {seat}."),
    doneCancel: gettext("Move slip #{move} is cancelled."),
    doneBalanced: gettext("The tables are balanced: no move is needed."),
    doneSlips: gettext("Move slips written: {moves}."),
    doneHand: gettext("Table {table}: hand done."),
    doneH4hOn: gettext("Hand-for-hand is on."),
    doneH4hOff: gettext("Hand-for-hand is over."),
    doneOpen: gettext("Table {number} is open."),
    doneDraw: gettext("Draw {draw} is done: every entry has a seat."),
    doneWaiting: gettext("Draw {draw} seated the waiting entries."),
    raceWaiting: gettext("chip race to do"),
    raceRecorded: gettext("race {d}, to confirm"),
    raceConfirmed: gettext("race ✓ {d}"),
    raceTitle: gettext("The chip race at this table: open its tablet for the counts and the result sheet"),
    colorup: gettext("Color-up: the {chips} chips leave, the smallest chip is now {new}. Races confirmed at {f} of {n} tables; chips in play changed by {d}."),
    countStacks: gettext("Count stacks"),
    countSeat: gettext("Seat {seat} · {name}"),
    countLast: gettext("Last count: {chips}"),
    countNever: gettext("Not counted since he sat down"),
    countMissing: gettext("Seat {seat}: type his chips (every player is counted at once)."),
    countNoPlayers: gettext("No players at this table."),
    doneCount: gettext("Entry #{entry}: {chips} chips counted."),
    clockBadge: gettext("Clock: seat {seat} · {left}"),
    clockBadgeDead: gettext("Clock: seat {seat} · Hand dead"),
    clockBadgeTitle: gettext("The clock is called on {name} (seat {seat}): press to end the call"),
    clockTitle: gettext("Table {table}: clock called on seat {seat}"),
    clockWho: gettext("{name}, entry #{entry} · {seconds} s to act"),
    clockLeft: gettext("{left} left to act."),
    clockUp: gettext("Time is up: the hand is dead."),
    doneClockCall: gettext("Table {table}: the clock is called on seat {seat} ({name}), {seconds} s to act."),
    doneClockActed: gettext("Table {table}: seat {seat} acted in time, the clock call is over."),
    doneClockDead: gettext("Table {table}: time is up, the hand of seat {seat} is dead."),
    doneClockCancelled: gettext("Table {table}: the clock call on seat {seat} is cancelled (called in error)."),
    bagStacks: gettext("Bag stacks"),
    bagBadge: gettext("{n}/{of} bagged"),
    bagBadgeTitle: gettext("Players at this table bagged today (day {day})"),
    bagChips: gettext("Chips"),
    bagNumber: gettext("Bag number"),
    bagNow: gettext("Bagged today: bag {bag} · {chips} chips"),
    bagNot: gettext("Not bagged today."),
    bagMissingChips: gettext("Seat {seat}: type his chips (every player is bagged at once)."),
    bagMissingBag: gettext("Seat {seat}: type the number written on his bag."),
    bagsWhere: gettext("Table {n} · day {day}"),
    doneBag: gettext("Entry #{entry}: bag {bag}, {chips} chips.")
  };
  var grid = document.getElementById("map");
  var state = JSON.parse(document.getElementById("map-state").textContent);
  var chosen = null, buttonTable = null, lastBust = null, timer = null, drawing = null, redraw = null;

  var fmt = Util.fmt, el = Util.el;
  // The server's time (the floor socket's time sync, Live.connect below): a clock call counts down against it.
  var sync = {now: function () { return conn && conn.sync ? conn.sync.now() : Date.now() / 1000; }};
  function at(url, n) { return url.replace("999999", n); }
  // A player's name on a seat tile: it wraps between words and after a hyphen, never inside a word; a
  // word wider than the tile ends in "…" (the tile's title and aria-label hold the whole name).
  function nameOf(name) {
    var b = el("b", "name");
    String(name).split(/\s+/).filter(Boolean).forEach(function (word, i) {
      if (i) b.appendChild(document.createTextNode(" "));
      word.split(/(?<=-)/).forEach(function (part) { b.appendChild(el("span", "w", part)); });
    });
    return b;
  }
  var num = Live.number, signed = Live.signed;

  function balancing() { return state.moves || {halted: [], need_button: [], moves: []}; }
  // Open seats held by a pending slip: "table:seat" -> the arriving entry.
  function reservedSeats() {
    var out = {};
    balancing().moves.forEach(function (m) { out[m.to.table + ":" + m.to.seat] = m.entry; });
    return out;
  }
  // A whole number typed by the floor goes to the API as a number; anything else as typed (the API
  // says what is wrong with it).
  var whole = Util.whole;

  // One press of a button: POST to the API, the done message from the answer, then refetch the map.
  function press(button, path, body, done) {
    return api.press(button, function (key) { return api.post(path, body || {}, {key: key}); }, done)
      .then(function (answer) { if (answer) soon(); return answer; });
  }

  // A small form of the map (its fields and one button): submitting it runs `run(button, form)`
  // after an optional confirmation.
  function actionForm(label, cls, fields, ask, run) {
    var form = el("form");
    (fields || []).forEach(function (f) { form.appendChild(f); });
    var b = el("button", cls, label);
    form.appendChild(b);
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      if (ask && !window.confirm(ask)) return;
      run(b, form);
    });
    return form;
  }

  var DONE = {
    bust: function (e) {
      var values = {number: e.number, name: e.player ? e.player.display_name : "", place: e.finish_place, low: e.finish_place_low};
      // A Day 1 flight's bust has no place (flights/reactions.py): places are paid from Day 2 only.
      if (e.finish_place === null || e.finish_place === undefined) return fmt(s.doneBustFlight, values);
      return fmt(e.finish_place_low ? s.doneBustTie : s.doneBust, values);
    },
    undo: function (e) { return fmt(s.doneUndo, {number: e.number}); },
    correct: function (a) { return fmt(s.doneCorrect, {number: a.entry, table: a.table, seat: a.seat}); },
    button: function (a) { return fmt(s.doneButton, {table: a.table, seat: a.button}); },
    positions: function (a) { return fmt(s.doneButton, {table: a.table, seat: a.positions.button}); },
    confirm: function (m) { return fmt(s.doneConfirm, {move: m.move, entry: m.entry, table: m.to.table, seat: m.to.seat}); },
    cancel: function (m) { return fmt(s.doneCancel, {move: m.move}); },
    balance: function (a) {
      // "Balance now" says what it waits for (buttons to enter, a notice) rather than "balanced".
      if (!a.moves.length) return a.message || s.doneBalanced;
      var made = fmt(s.doneSlips, {moves: a.moves.map(function (m) { return "#" + m.move; }).join(", ")});
      return a.message ? made + " " + a.message : made;
    },
    h4h: function (h) { return h.on ? s.doneH4hOn : s.doneH4hOff; },
    open: function (a) { return fmt(s.doneOpen, {number: a.table}); },
    draw: function (d) { return fmt(s.doneDraw, {draw: d.draw}); },
    waiting: function (d) { return fmt(s.doneWaiting, {draw: d.draw}); },
    count: function (a) { return fmt(s.doneCount, {entry: a.entry, chips: num(a.chips)}); },
    clockCall: function (c) { return fmt(s.doneClockCall, {table: c.table, seat: c.seat, name: c.name, seconds: c.seconds}); },
    clockEnd: function (c) {
      var words = {acted: s.doneClockActed, dead: s.doneClockDead}[c.outcome] || s.doneClockCancelled;
      return fmt(words, {table: c.table, seat: c.seat});
    },
    counts: function (a) {
      return fmt(ngettext("Counted: {n} player, total {total}", "Counted: {n} players, total {total}", a.counted),
                 {n: a.counted, total: num(a.total)});
    },
    bags: function (a) {
      return fmt(ngettext("Bagged: {n} player, total {total}", "Bagged: {n} players, total {total}", a.bagged),
                 {n: a.bagged, total: num(a.total)});
    },
    bag: function (a) { return fmt(s.doneBag, {entry: a.entry, bag: a.bag, chips: num(a.chips)}); }
  };

  function renderMoves() {
    var list = document.getElementById("move-list"), slips = balancing().moves;
    list.textContent = "";
    slips.forEach(function (m) {
      var li = el("li");
      li.dataset.move = m.move;
      var text = el("span", "slip", fmt(s.slip, {m: m.move, name: m.name, e: m.entry, ft: m.from.table, fs: m.from.seat,
                                                 tt: m.to.table, ts: m.to.seat}) + Live.slipPosition(m.position));
      if (m.after_hand) { text.appendChild(document.createTextNode(" · ")); text.appendChild(el("span", "after", s.afterHand)); }
      li.appendChild(text);
      var acts = el("span", "acts");
      acts.appendChild(actionForm(s.confirmMove, "primary confirm-move", [], null, function (b) {
        press(b, at(urls.confirmMove, m.move), {}, DONE.confirm);
      }));
      acts.appendChild(document.createTextNode(" "));
      acts.appendChild(actionForm(s.cancelMove, "cancel-move", [], fmt(s.askCancel, {m: m.move}), function (b) {
        press(b, at(urls.cancelMove, m.move), {}, DONE.cancel);
      }));
      li.appendChild(acts);
      list.appendChild(li);
    });
    document.getElementById("no-moves").hidden = slips.length > 0;
    // Why balancing moves nobody although it should (no legal move, a draw refused, an error): from the server.
    var notice = document.getElementById("balance-notice"), why = balancing().notice;
    notice.textContent = why ? why.message || "" : "";
    notice.hidden = !why;
  }

  // Hand-for-hand: the panel (the director starts and ends it) and each table's step in the hand.
  function h4hStep(table) {
    var h = state.h4h;
    if (!h || !h.on || !h.called || h.tables.indexOf(table) < 0) return null;
    if (h.reported.indexOf(table) >= 0) return "done";
    return h.shuffled.indexOf(table) >= 0 ? "playing" : "deal";
  }
  function renderH4h() {
    var h = state.h4h || {}, panel = document.getElementById("h4h-panel"), toggle = document.getElementById("h4h-toggle");
    panel.hidden = !(h.on || h.suggested || toggle);
    panel.classList.toggle("on", !!h.on);
    var line = s.h4hOff;
    if (h.on) line = h.called ? fmt(s.h4hCalled, {n: h.hand}) : (h.hand ? fmt(s.h4hBetween, {n: h.hand}) : s.h4hFirst);
    document.getElementById("h4h-state").textContent = line;
    var suggest = document.getElementById("h4h-suggest");
    suggest.hidden = !h.suggested;
    suggest.textContent = h.suggested ? fmt(s.h4hSuggest, {n: h.players, paid: h.places_paid}) : "";
    var detail = [];
    if (h.on && h.called && h.waiting_for.length) detail.push(fmt(s.h4hWaiting, {tables: h.waiting_for.join(", ")}));
    if (h.on && !h.called && h.busy && h.busy.length) detail.push(fmt(s.h4hBusy, {tables: h.busy.join(", ")}));
    if (h.on) detail.push(h.seconds_per_hand ? fmt(s.h4hTime, {s: h.seconds_per_hand}) : s.h4hPause);
    document.getElementById("h4h-detail").textContent = detail.join(" · ");
    if (toggle) {
      toggle.textContent = h.on ? s.h4hStop : s.h4hStart;
      toggle.dataset.on = h.on ? "0" : "1";
    }
  }

  // --- The grid: one section of tables at a time (sections of SECTION tables once the room has more than
  // ALL_UP_TO), narrowed by the filters. A table's card is rebuilt only when what it shows changed (its
  // signature), so a refetch touches the cards of the visible section that changed and nothing else.
  var SECTION = 50, ALL_UP_TO = 60;
  var cards = {};           // table number -> {sig, node} of the cards built (the visible section's)
  var section = 0, sectionKeys = "", shown = [];
  var toolsBox = document.getElementById("map-tools"), sectionSelect = document.getElementById("map-section");
  var filterBoxes = Array.prototype.slice.call(document.querySelectorAll('#map-filters input[name="filter"]'));
  var filterSummary = document.querySelector("#map-filterbox > summary");

  function slipTables() {  // table number -> pending slips leaving or reaching it
    var out = {};
    balancing().moves.forEach(function (m) {
      out[m.from.table] = (out[m.from.table] || 0) + 1;
      if (m.to.table !== m.from.table) out[m.to.table] = (out[m.to.table] || 0) + 1;
    });
    return out;
  }
  function facts() {
    var b = balancing(), halted = {}, need = {};
    b.halted.forEach(function (n) { halted[n] = true; });
    b.need_button.forEach(function (n) { need[n] = true; });
    return {halted: halted, need: need, slips: slipTables(), reserved: reservedSeats()};
  }
  var TESTS = {
    short: function (t) { return t.status === "short"; },
    halted: function (t, f) { return !!f.halted[t.table]; },
    slips: function (t, f) { return !!f.slips[t.table]; },
    old: function (t) { return !!t.on_old_level; }
  };
  function filtered(f) {
    var on = filterBoxes.filter(function (b) { return b.checked; }).map(function (b) { return b.value; });
    var counts = {short: 0, halted: 0, slips: 0, old: 0}, list = [];
    state.tables.forEach(function (t) {
      var any = false;
      Object.keys(TESTS).forEach(function (k) { if (TESTS[k](t, f)) { counts[k]++; if (on.indexOf(k) >= 0) any = true; } });
      if (!on.length || any) list.push(t);
    });
    document.querySelectorAll("#map-filters [data-count]").forEach(function (span) { span.textContent = "(" + counts[span.dataset.count] + ")"; });
    // The folded filters say which are on.
    var names = filterBoxes.filter(function (b) { return b.checked; })
      .map(function (b) { return b.parentNode.querySelector(".f-name").textContent.trim(); });
    filterSummary.textContent = names.length ? fmt(gettext("Filters: {filters}"), {filters: names.join(", ")}) : gettext("Filters: none, every table shown");
    return list;
  }
  function sectionsOf(list) {
    if (list.length <= ALL_UP_TO) return [{from: 0, to: list.length, label: list.length ? fmt(s.sectionAll, {n: list.length}) : s.sectionNone}];
    var out = [];
    for (var i = 0; i < list.length; i += SECTION) {
      var end = Math.min(i + SECTION, list.length);
      out.push({from: i, to: end, label: fmt(s.section, {a: list[i].table, b: list[end - 1].table, n: end - i})});
    }
    return out;
  }
  function renderSections(list) {
    var parts = sectionsOf(list), keys = parts.map(function (p) { return p.label; }).join("|");
    if (section >= parts.length) section = parts.length - 1;
    if (keys !== sectionKeys) {  // the options change only when the tables or the filters do
      sectionKeys = keys;
      sectionSelect.textContent = "";
      parts.forEach(function (p, i) { var o = el("option", "", p.label); o.value = i; sectionSelect.appendChild(o); });
    }
    sectionSelect.value = String(section);
    sectionSelect.disabled = parts.length < 2;
    return parts[section];
  }

  function signature(t, f) {
    var mine = [];
    Object.keys(f.reserved).forEach(function (k) { if (k.split(":")[0] === String(t.table)) mine.push(k + "=" + f.reserved[k]); });
    var call = clockCallAt(t.table);  // its countdown ticks in place (tickClocks): not part of the signature
    return JSON.stringify([t, !!f.halted[t.table], !!f.need[t.table], f.slips[t.table] || 0, mine, h4hStep(t.table),
                           call ? [call.call, call.seat, call.ends_at] : null, baggedAt(t)]);
  }

  function card(t, f) {
    var card = el("article", "m-table " + t.status);
    card.dataset.table = t.table;
    card.id = "table-" + t.table;
    var head = el("div", "m-head");
    head.appendChild(el("h2", "", fmt(s.table, {n: t.table})));
    var key = t.status.charAt(0).toUpperCase() + t.status.slice(1);
    var status = el("span", "m-status", s["status" + key] || t.status);
    if (s["statusTitle" + key]) status.title = s["statusTitle" + key];
    head.appendChild(status);
    if (f.halted[t.table]) {
      card.classList.add("halted");
      var halt = el("span", "m-halt", s.halt);
      halt.title = s.haltTitle;
      head.appendChild(halt);
    }
    if (t.on_old_level) {
      var old = el("span", "m-badge old", fmt(s.oldLevel, {n: t.level}));
      old.title = s.oldLevelTitle;
      head.appendChild(old);
    }
    if (f.slips[t.table]) {
      var sl = el("span", "m-badge slips", fmt(s.slipsBadge, {n: f.slips[t.table]}));
      sl.title = s.slipsTitle;
      head.appendChild(sl);
    }
    var step = h4hStep(t.table);
    if (step) head.appendChild(el("span", "m-h4h " + step, s["h4h" + step.charAt(0).toUpperCase() + step.slice(1)]));
    var call = clockCallAt(t.table);
    if (call) head.appendChild(clockBadge(call));
    var bagged = baggedAt(t);
    if (bagged !== null) {  // once bagging has started today: how many of the table's players are bagged
      var bg = el("span", "m-badge bags" + (bagged === t.players ? " done" : ""), fmt(s.bagBadge, {n: bagged, of: t.players}));
      bg.title = fmt(s.bagBadgeTitle, {day: dayState.day});
      head.appendChild(bg);
    }
    card.appendChild(head);
    if (t.race) {  // the color-up's chip race at this table: its tablet has the counts and the sheet
      var race = el("a", "m-race " + t.race.status, t.race.status === "waiting" ? s.raceWaiting
        : fmt(t.race.status === "confirmed" ? s.raceConfirmed : s.raceRecorded, {d: signed(t.race.difference)}));
      race.href = at(urls.dealer, t.table);
      race.title = s.raceTitle;
      card.appendChild(race);
    }
    if (f.need[t.table]) {  // balancing asked for this (donor) table's button: say why
      var need = el("div", "m-need");
      need.appendChild(el("p", "why", fmt(s.needButtonWhy, {n: t.table})));
      var label = el("label", "", s.needButton);
      var seatInput = el("input");
      seatInput.type = "number"; seatInput.name = "seat"; seatInput.min = 1; seatInput.max = t.seats;
      seatInput.required = true; seatInput.inputMode = "numeric";
      seatInput.id = "need-button-" + t.table;
      label.htmlFor = seatInput.id;
      need.appendChild(label);
      need.appendChild(actionForm(s.setButton, "primary", [seatInput], null, function (b, form) {
        press(b, at(urls.positions, t.table), {button: whole(form.querySelector("input").value)}, DONE.positions);
      }));
      card.appendChild(need);
    }
    var seats = el("div", "m-seats");
    t.seat_list.forEach(function (seat) {
      var holder = seat.entry ? undefined : f.reserved[t.table + ":" + seat.seat];
      var b = el("button", "m-seat" + (seat.entry ? "" : " empty") + (holder ? " reserved" : ""));
      b.type = "button";
      b.dataset.seat = seat.seat;
      var button = t.button === seat.seat;
      if (seat.entry) {
        b.dataset.entry = seat.entry;
        b.title = fmt(s.seatLabel, {t: t.table, s: seat.seat, name: seat.name, n: seat.entry}) + (button ? " · " + s.buttonChip : "");
        b.setAttribute("aria-label", b.title);
      }
      // The button chip sits under the seat number, not beside the name: the name keeps the tile's width.
      var no = el("span", "no", String(seat.seat));
      if (button) {
        var chip = el("span", "dealer-btn", "D");
        chip.title = s.buttonChip;
        no.appendChild(chip);
      }
      b.appendChild(no);
      var who = el("span", "who");
      if (seat.entry) { who.appendChild(nameOf(seat.name)); who.appendChild(el("small", "", "#" + seat.entry)); }
      else who.appendChild(el("small", "", holder ? fmt(s.reserved, {n: holder}) : s.empty));
      b.appendChild(who);
      if (seat.entry) b.addEventListener("click", function () { openSeat(t, seat); });
      else b.disabled = true;
      seats.appendChild(b);
    });
    card.appendChild(seats);
    var foot = el("div", "m-foot");
    foot.appendChild(el("span", "count", fmt(s.players, {n: t.players, s: t.seats})));
    foot.appendChild(el("span", "", "·"));
    foot.appendChild(el("span", "", t.button ? fmt(s.button, {s: t.button}) : s.noButton));
    if (t.break_position) foot.appendChild(el("span", "", "· " + fmt(s["break"], {n: t.break_position})));
    if (t.accessible) foot.appendChild(el("span", "badge", s.accessible));
    if (step === "deal" || step === "playing") {
      foot.appendChild(actionForm(s.handDone, "hand-done", [], null, function (b) {
        press(b, at(urls.handDone, t.table), {}, function () { return fmt(s.doneHand, {table: t.table}); });
      }));
    }
    if (t.in_play && t.players) {
      var bb = el("button", "button-draw", t.button ? s.changeButtonLabel : s.drawButtonLabel);
      bb.type = "button";
      bb.title = fmt(s.drawButton, {n: t.table});
      bb.addEventListener("click", function () { openButton(t); });
      foot.appendChild(bb);
    }
    if (countsDialog && t.in_play && t.players) {
      var cs = el("button", "count-stacks", s.countStacks);
      cs.type = "button";
      cs.title = fmt(s.table, {n: t.table});
      cs.addEventListener("click", function () { openCounts(t.table, cs); });
      foot.appendChild(cs);
    }
    if (bagsDialog && t.in_play && t.players) {
      var bs = el("button", "bag-stacks", s.bagStacks);
      bs.type = "button";
      bs.title = fmt(s.table, {n: t.table});
      bs.addEventListener("click", function () { openBags(t.table, bs); });
      foot.appendChild(bs);
    }
    card.appendChild(foot);
    return card;
  }

  // The visible section's cards, in order: unchanged cards stay in place (a typed button seat and the
  // focus with them), changed ones are rebuilt, the others leave the page.
  function renderGrid() {
    var f = facts(), list = filtered(f), part = renderSections(list);
    shown = list.slice(part.from, part.to);
    var keep = {}, typed = {}, focused = document.activeElement && document.activeElement.id;
    grid.querySelectorAll(".m-need input").forEach(function (i) { typed[i.id] = i.value; });
    var nodes = shown.map(function (t) {
      var sig = signature(t, f), known = cards[t.table];
      if (!known || known.sig !== sig) known = cards[t.table] = {sig: sig, node: card(t, f)};
      keep[t.table] = true;
      return known.node;
    });
    Object.keys(cards).forEach(function (n) { if (!keep[n]) delete cards[n]; });
    var cursor = grid.firstChild;
    nodes.forEach(function (node) {
      if (cursor === node) { cursor = cursor.nextSibling; return; }
      grid.insertBefore(node, cursor);
    });
    while (cursor) { var next = cursor.nextSibling; grid.removeChild(cursor); cursor = next; }
    if (!state.tables.length) grid.appendChild(el("p", "muted", s.noTables));
    Object.keys(typed).forEach(function (id) { var i = document.getElementById(id); if (i && !i.value) i.value = typed[id]; });
    if (focused && typed[focused] !== undefined && document.getElementById(focused)
        && document.activeElement !== document.getElementById(focused)) document.getElementById(focused).focus();
    document.getElementById("map-shown").textContent = fmt(s.shown, {n: shown.length, total: state.tables.length});
    markFound();
  }

  // --- The clock called on a player (TDA 25): a badge on his table's card counts his time down against the
  // server's time (the floor socket's time sync), says "Hand dead" once it is up (in colour and in words), and
  // opens the dialog that ends the call: he acted, the hand is dead (only once time is up), called in error.
  function clockCallAt(table) { return (state.clock_calls || {})[String(table)] || null; }
  function secondsLeft(call) { return Math.ceil(Date.parse(call.ends_at) / 1000 - sync.now()); }
  function clockText(left) {
    left = Math.max(0, left);
    return Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
  }
  function clockBadge(call) {
    var b = el("button", "m-clock");
    b.type = "button";
    b.dataset.table = call.table;
    b.dataset.ends = Date.parse(call.ends_at) / 1000;
    b.dataset.seat = call.seat;
    b.title = fmt(s.clockBadgeTitle, {name: call.name, seat: call.seat});
    if (clockDialog) b.addEventListener("click", function () { openClock(call.table); });
    else b.disabled = true;
    tickBadge(b, sync.now());
    return b;
  }
  function tickBadge(b, now) {
    var left = Math.ceil(Number(b.dataset.ends) - now), up = left <= 0;
    var text = up ? fmt(s.clockBadgeDead, {seat: b.dataset.seat}) : fmt(s.clockBadge, {seat: b.dataset.seat, left: clockText(left)});
    if (b.textContent !== text) b.textContent = text;
    b.classList.toggle("up", up);
    b.classList.toggle("last", !up && left <= 10);
  }
  var clockDialog = document.getElementById("clock-dialog"), clockTable = null;
  function renderClockDialog() {
    var call = clockTable === null ? null : clockCallAt(clockTable);
    if (!call) { if (clockDialog.open) clockDialog.close(); return; }
    var left = secondsLeft(call), up = left <= 0, say = document.getElementById("clock-left");
    document.getElementById("clock-title").textContent = fmt(s.clockTitle, {table: call.table, seat: call.seat});
    document.getElementById("clock-who").textContent = fmt(s.clockWho, {name: call.name, entry: call.entry, seconds: call.seconds});
    var text = up ? s.clockUp : fmt(s.clockLeft, {left: clockText(left)});
    if (say.textContent !== text) say.textContent = text;
    say.classList.toggle("up", up);
    var acted = document.getElementById("clock-acted"), dead = document.getElementById("clock-dead");
    if (acted.hidden !== up) {  // time up: "He acted" goes, "Hand dead" comes (the focus with it)
      var moveFocus = document.activeElement === (up ? acted : dead);
      acted.hidden = up;
      dead.hidden = !up;
      if (moveFocus) (up ? dead : acted).focus();
    }
  }
  function openClock(table) {
    clockTable = table;
    document.getElementById("clock-acted").hidden = false;
    document.getElementById("clock-dead").hidden = true;
    renderClockDialog();
    if (!clockDialog.open) clockDialog.showModal();
  }
  function endClock(ev, outcome) {
    var table = clockTable;
    clockDialog.close();
    press(ev.currentTarget, at(urls.clockCallEnd, table), {outcome: outcome}, DONE.clockEnd).then(function (answer) {
      if (answer && state.clock_calls && state.clock_calls[String(table)] && state.clock_calls[String(table)].call === answer.call) {
        delete state.clock_calls[String(table)];  // the badge goes at once; the refetch follows
        renderGrid();
      }
    });
  }
  if (clockDialog) {
    document.getElementById("clock-acted").addEventListener("click", function (ev) { endClock(ev, "acted"); });
    document.getElementById("clock-dead").addEventListener("click", function (ev) { endClock(ev, "dead"); });
    document.getElementById("clock-cancel").addEventListener("click", function (ev) { endClock(ev, "cancelled"); });
    document.getElementById("clock-close").addEventListener("click", function () { clockDialog.close(); });
  }
  function tickClocks() {
    var now = sync.now();
    grid.querySelectorAll(".m-clock").forEach(function (b) { tickBadge(b, now); });
    if (clockDialog && clockDialog.open) renderClockDialog();
  }

  function render() {
    var m = state;
    renderMoves();
    renderH4h();
    document.getElementById("next-commitment").textContent = m.next_draw ? m.next_draw.commitment : "—";
    document.getElementById("next-draw-number").textContent = m.next_draw ? "#" + m.next_draw.draw : "";
    var short = document.getElementById("next-draw-short");  // on the folded summary: the number and the hash's start
    short.textContent = m.next_draw ? "#" + m.next_draw.draw + " " : "—";
    if (m.next_draw) short.appendChild(el("code", "", m.next_draw.commitment.slice(0, 8) + "…"));
    document.getElementById("count-seated").textContent = m.players_seated;
    document.getElementById("count-waiting").textContent = m.waiting;
    var colorUp = document.getElementById("map-colorup");
    colorUp.hidden = !m.color_up;
    if (m.color_up) {
      document.getElementById("map-colorup-text").textContent = fmt(s.colorup, {
        chips: m.color_up.leaving.map(num).join(", "), "new": num(m.color_up.new_chip), f: m.color_up.finished,
        n: m.color_up.total, d: signed(m.color_up.difference)});
    }
    var start = document.getElementById("start-draw");
    if (start) start.hidden = m.start_drawn;
    document.getElementById("seat-waiting").hidden = !(m.start_drawn && m.waiting > 0);
    searchIndex = null;
    renderGrid();
    if (clockDialog && clockDialog.open) renderClockDialog();  // a call ended elsewhere closes its dialog
  }

  // --- Finding: a table by number, a player by name (folded as core/search.py folds it: case and accents
  // do not matter) or entry number. Going there switches to the table's section and scrolls to it.
  var searchIndex = null, found = null;
  function fold(text) {
    // eslint-disable-next-line no-misleading-character-class -- ranges of combining marks, removed on purpose
    return String(text || "").normalize("NFKD").replace(/[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g, "")
      .toLowerCase().replace(/ß/g, "ss");
  }
  function index() {
    if (!searchIndex) {
      searchIndex = [];
      state.tables.forEach(function (t) {
        t.seat_list.forEach(function (seat) {
          if (seat.entry) searchIndex.push({key: fold(seat.name), name: seat.name, entry: seat.entry, table: t.table, seat: seat.seat});
        });
      });
    }
    return searchIndex;
  }
  function search(query) {
    var q = String(query || "").trim();
    if (/^#?\d+$/.test(q)) {
      var n = Number(q.replace("#", ""));
      return index().filter(function (r) { return r.entry === n; });
    }
    var words = fold(q).split(/\s+/).filter(Boolean);
    if (!words.length || q.length < 2) return [];
    return index().filter(function (r) { return words.every(function (w) { return r.key.indexOf(w) >= 0; }); });
  }
  function markFound() {
    grid.querySelectorAll(".m-seat.found").forEach(function (b) { b.classList.remove("found"); });
    if (!found) return null;
    var b = grid.querySelector('.m-table[data-table="' + found.table + '"] .m-seat[data-seat="' + found.seat + '"]');
    if (b) b.classList.add("found");
    return b;
  }
  function updateToolsHeight() { document.documentElement.style.setProperty("--tools-h", toolsBox.offsetHeight + "px"); }
  // Show table `number`: clear the filters that hide it, switch to its section, scroll to it.
  function goTo(number, seat) {
    var f = facts(), t = state.tables.filter(function (x) { return x.table === number; })[0];
    if (!t) return false;
    if (filtered(f).indexOf(t) < 0) filterBoxes.forEach(function (b) { b.checked = false; });
    var list = filtered(f), i = list.indexOf(t);
    section = Math.floor(i / (list.length <= ALL_UP_TO ? Math.max(list.length, 1) : SECTION));
    found = seat ? {table: number, seat: seat} : null;
    renderGrid();
    updateToolsHeight();
    var target = (seat && markFound()) || grid.querySelector('.m-table[data-table="' + number + '"]');
    var node = grid.querySelector('.m-table[data-table="' + number + '"]');
    node.scrollIntoView({block: "start"});
    if (target && target.focus) target.focus({preventScroll: true});
    return true;
  }
  var note = document.getElementById("map-search-note"), foundList = document.getElementById("map-found");
  function showMatches(matches, jump) {
    foundList.textContent = "";
    var input = document.getElementById("map-search");
    note.textContent = input.value.trim() && !matches.length ? s.foundNone : (matches.length > 8 ? fmt(s.foundMore, {n: matches.length - 8}) : "");
    matches.slice(0, 8).forEach(function (r) {
      var b = el("button", "found-seat", fmt(s.foundSeat, {name: r.name, n: r.entry, t: r.table, s: r.seat}));
      b.type = "button";
      b.dataset.entry = r.entry;
      b.addEventListener("click", function () { goTo(r.table, r.seat); });
      foundList.appendChild(b);
    });
    updateToolsHeight();
    if (jump && matches.length) goTo(matches[0].table, matches[0].seat);
  }
  var typing = null;
  document.getElementById("map-search").addEventListener("input", function (ev) {
    clearTimeout(typing);
    var value = ev.target.value;
    typing = setTimeout(function () { showMatches(search(value), false); }, 120);
  });
  document.getElementById("map-search-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    clearTimeout(typing);
    showMatches(search(document.getElementById("map-search").value), true);
  });
  document.getElementById("map-goto-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var n = whole(document.getElementById("map-goto").value);
    note.textContent = goTo(n) ? "" : fmt(s.noTable, {n: document.getElementById("map-goto").value});
    updateToolsHeight();
  });
  sectionSelect.addEventListener("change", function () {
    section = Number(sectionSelect.value) || 0;
    renderGrid();
    var first = grid.querySelector(".m-table");  // back to the top of the section when scrolled past it
    if (first && first.getBoundingClientRect().top < toolsBox.offsetHeight) first.scrollIntoView({block: "start"});
  });
  filterBoxes.forEach(function (b) { b.addEventListener("change", function () { section = 0; renderGrid(); }); });
  window.addEventListener("resize", updateToolsHeight);

  // The promise settles when the map is drawn from a read made after the call (bench/floor_map_render.py and the
  // tests wait on it): a call while a read is under way is answered by one more read after it, shared by every
  // such call.
  function refetch() {
    if (drawing) {
      if (!redraw) redraw = drawing.then(function () { redraw = null; return refetch(); });
      return redraw;
    }
    drawing = fetch(urls.json, {cache: "no-store", credentials: "same-origin"})
      .then(function (r) { return r.json(); })
      .then(function (m) { state = m; render(); if (baggingStarted()) fetchDay(); })
      .catch(function () { /* the next event or reconnect tries again */ })
      .then(function () { drawing = null; });
    return drawing;
  }
  function soon() { clearTimeout(timer); timer = setTimeout(refetch, 250); }
  document.addEventListener("press-queue:sent", soon);  // the presses kept offline reached the server (press-queue.js)

  // A seated player: bust (confirm first) or correct the seat.
  var seatDialog = document.getElementById("seat-dialog");
  function openSeats() {
    var list = [], reserved = reservedSeats();
    state.tables.forEach(function (t) {
      if (!t.in_play) return;
      t.seat_list.forEach(function (seat) {
        if (!seat.entry && !reserved[t.table + ":" + seat.seat]) list.push({table: t.table, seat: seat.seat});
      });
    });
    return list;
  }
  function openSeat(t, seat) {
    chosen = {table: t.table, seat: seat.seat, entry: seat.entry, name: seat.name};
    document.getElementById("seat-title").textContent = seat.name + " · #" + seat.entry;
    document.getElementById("seat-where").textContent = fmt(s.seat, {t: t.table, s: seat.seat});
    document.getElementById("seat-card-link").href = at(urls.card, seat.entry);
    var select = document.getElementById("correct-target");
    select.textContent = "";
    var targets = openSeats();
    targets.forEach(function (o) {
      var opt = el("option", "", fmt(s.seat, {t: o.table, s: o.seat}));
      opt.value = o.table + ":" + o.seat;
      select.appendChild(opt);
    });
    if (!targets.length) { var none = el("option", "", s.noOpen); none.value = ""; select.appendChild(none); }
    document.getElementById("correct-go").disabled = !targets.length;
    document.getElementById("seat-main").hidden = false;
    document.getElementById("bust-confirm").hidden = true;
    if (bagForm) bagForm.hidden = true;
    var last = document.getElementById("count-last");
    if (last) {  // his last count, as a hint beside the one typed now (read from the table's counts)
      document.getElementById("count-chips").value = "";
      last.textContent = "";
      api.get(at(urls.counts, t.table)).then(function (answer) {
        var p = (answer && answer.players || []).filter(function (x) { return x.entry === seat.entry; })[0];
        if (p && chosen && chosen.entry === seat.entry) last.textContent = lastCount(p.chips);
      }, function () { /* no hint */ });
    }
    seatDialog.showModal();
  }
  document.getElementById("seat-close").addEventListener("click", function () { seatDialog.close(); });
  document.getElementById("bust-ask").addEventListener("click", function () {
    document.getElementById("bust-stack").value = "";
    document.getElementById("bust-question").textContent = fmt(s.confirmBust, {n: chosen.entry, name: chosen.name});
    document.getElementById("seat-main").hidden = true;
    document.getElementById("bust-confirm").hidden = false;
  });
  document.getElementById("bust-back").addEventListener("click", function () {
    document.getElementById("seat-main").hidden = false;
    document.getElementById("bust-confirm").hidden = true;
  });
  document.getElementById("bust-go").addEventListener("click", function (ev) {
    var who = chosen, stack = whole(document.getElementById("bust-stack").value);
    seatDialog.close();
    press(ev.currentTarget, at(urls.bust, who.entry), {stack: stack === "" ? null : stack}, DONE.bust).then(function (answer) {
      if (!answer) return;
      lastBust = who;
      document.getElementById("undo-text").textContent = fmt(s.undo, {n: who.entry, name: who.name});
      document.getElementById("undo-bar").hidden = false;
      updateToolsHeight();
    });
  });
  document.getElementById("undo-bust").addEventListener("click", function (ev) {
    if (!lastBust) return;
    var who = lastBust;
    press(ev.currentTarget, at(urls.undo, who.entry), {}, DONE.undo).then(function (answer) {
      if (answer) { lastBust = null; document.getElementById("undo-bar").hidden = true; updateToolsHeight(); }
    });
  });
  document.getElementById("correct-go").addEventListener("click", function (ev) {
    var target = document.getElementById("correct-target").value.split(":");
    if (target.length !== 2) return;
    var who = chosen;
    seatDialog.close();
    press(ev.currentTarget, at(urls.seat, who.entry), {table: whole(target[0]), seat: whole(target[1])}, DONE.correct);
  });
  // One seated player's count (the floor: a stack counted at an all-in, a chip leader asked).
  var countForm = document.getElementById("count-form");
  if (countForm) countForm.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var who = chosen;
    seatDialog.close();
    press(document.getElementById("count-go"), at(urls.count, who.entry),
          {chips: whole(document.getElementById("count-chips").value)}, DONE.count);
  });

  // The clock called on the seat's player (TDA 25); a refusal (an empty seat, a call already open) is said in #notice.
  var clockCallGo = document.getElementById("clock-call-go");
  if (clockCallGo) clockCallGo.addEventListener("click", function () {
    var who = chosen;
    seatDialog.close();
    press(clockCallGo, at(urls.clockCall, who.table), {seat: who.seat}, DONE.clockCall).then(function (answer) {
      if (!answer || !answer.call) return;
      state.clock_calls = state.clock_calls || {};
      state.clock_calls[String(answer.table)] = answer;  // the badge shows at once; the refetch follows
      renderGrid();
    });
  });

  // A table's stacks counted (tables/counting.py): every seated player's chips typed at once, beside his last count
  // (GET counts/ gives the players); Save sends the whole table (POST counts/). The dialog stays open until the
  // server takes the counts: its refusal (a player busted or moved meanwhile) is said in the dialog, and the table
  // read again keeps the counts typed for the players still there (by entry).
  var countsDialog = document.getElementById("counts-dialog"), countsTable = null;
  function lastCount(chips) { return chips === null ? s.countNever : fmt(s.countLast, {chips: num(chips)}); }
  function countInputs() { return Array.prototype.slice.call(document.querySelectorAll("#counts-rows input")); }
  function countsSay(message, ok) {
    var say = document.getElementById("counts-say");
    say.textContent = message || "";
    say.classList.toggle("ok", !!ok);
    say.classList.toggle("refused", !ok);
  }
  function renderCounts(answer) {
    var rows = document.getElementById("counts-rows"), typed = {}, focused = document.activeElement;
    var again = focused && rows.contains(focused) ? focused.dataset.entry : null;
    countInputs().forEach(function (i) { if (i.value.trim()) typed[i.dataset.entry] = i.value; });
    rows.textContent = "";
    answer.players.forEach(function (p) {
      var row = el("div", "m-count-row"), id = "count-seat-" + p.seat;
      var label = el("label", "", fmt(s.countSeat, {seat: p.seat, name: p.name}));
      label.htmlFor = id;
      var input = el("input"), hint = el("small", "muted", lastCount(p.chips));
      input.type = "number"; input.id = id; input.min = 0; input.step = 1; input.inputMode = "numeric";
      input.autocomplete = "off";
      input.dataset.entry = p.entry;
      input.dataset.seat = p.seat;
      input.value = typed[p.entry] || "";
      hint.id = id + "-last";
      input.setAttribute("aria-describedby", hint.id);
      row.appendChild(label);
      row.appendChild(input);
      row.appendChild(hint);
      rows.appendChild(row);
      if (again === String(p.entry)) input.focus();
    });
    if (!answer.players.length) rows.appendChild(el("p", "muted", s.countNoPlayers));
    document.getElementById("counts-save").disabled = !answer.players.length;
  }
  function openCounts(table, button) {
    api.press(button, function () { return api.get(at(urls.counts, table)); }, null).then(function (answer) {
      if (!answer || !answer.players) return;
      countsTable = table;
      document.getElementById("counts-where").textContent = fmt(s.table, {n: table});
      document.getElementById("counts-rows").textContent = "";  // a new count: nothing typed yet
      countsSay("", true);
      renderCounts(answer);
      countsDialog.showModal();
      var first = countInputs()[0];
      if (first) first.focus();
    });
  }
  if (countsDialog) {
    document.getElementById("counts-close").addEventListener("click", function () { countsDialog.close(); });
    // api.js says a refusal in #notice, behind the dialog: the dialog says it too.
    document.getElementById("notice").addEventListener("api:said", function (e) {
      if (countsDialog.open) countsSay(e.detail.message, e.detail.ok);
    });
    document.getElementById("counts-form").addEventListener("submit", function (ev) {
      ev.preventDefault();
      var seats = {}, missing = null, table = countsTable;
      countInputs().forEach(function (i) {
        if (!i.value.trim()) missing = missing || i;
        seats[i.dataset.seat] = whole(i.value);
      });
      if (missing) {  // every seated player is counted at once: the first seat left out is said and focused
        countsSay(fmt(s.countMissing, {seat: missing.dataset.seat}), false);
        missing.focus();
        return;
      }
      press(document.getElementById("counts-save"), at(urls.counts, table), {seats: seats}, null).then(function (answer) {
        if (answer && answer.players) {  // closed first, so that #notice (no longer behind a modal) says it
          countsDialog.close();
          api.say(DONE.counts(answer), true);
          return;
        }
        api.get(at(urls.counts, table)).then(function (now) {
          if (countsDialog.open && countsTable === table && now && now.players) renderCounts(now);
        }, function () { /* the refusal stays said */ });
      });
    });
  }

  // --- Bag-and-tag at the end of a day (days/services.py) -------------------------------------------------------
  // The day's state (GET day/: the players still in with no bag, by table) says how many of each table's players
  // are bagged: a card shows "6/9 bagged" once the day's first bag is in. It is read again when a table's bags are
  // recorded (the socket's bags.recorded) or a day closes, and with the map while bagging goes on.
  var dayState = null, dayTimer = null, dayLoading = false;
  function baggingStarted() { return !!dayState && dayState.status === "playing" && dayState.bagged > 0; }
  function baggedAt(t) {
    if (!baggingStarted() || !t.in_play || !t.players) return null;
    var missing = (dayState.missing_tables || []).filter(function (m) { return m.table === t.table; })[0];
    return Math.max(0, t.players - (missing ? missing.seats.length : 0));
  }
  function fetchDay() {
    if (!urls.day || dayLoading) return;
    dayLoading = true;
    api.get(urls.day).then(function (d) { dayState = d; renderGrid(); }, function () { /* the floor's map without it */ })
      .then(function () { dayLoading = false; });
  }
  function daySoon() { clearTimeout(dayTimer); dayTimer = setTimeout(fetchDay, 250); }

  // A table's bags: every seated player's chips (from his bag today, else his last count) and bag number, typed at
  // once (GET bags/ gives the players); Save sends the whole table (POST bags/). Like the counts' dialog, it stays
  // open until the server takes the bags: a refusal (a bag number on another player's bag) is said in the dialog,
  // and the table read again keeps what was typed for the players still there (by entry).
  var bagsDialog = document.getElementById("bags-dialog"), bagsTable = null;
  function bagInputs() { return Array.prototype.slice.call(document.querySelectorAll("#bags-rows .m-bag-row")); }
  function bagsSay(message, ok) {
    var say = document.getElementById("bags-say");
    say.textContent = message || "";
    say.classList.toggle("ok", !!ok);
    say.classList.toggle("refused", !ok);
  }
  function startChips(p) { var c = p.chips !== null ? p.chips : p.last_count; return c === null || c === undefined ? "" : String(c); }
  function bagHint(p) { return p.bag ? fmt(s.bagNow, {bag: p.bag, chips: num(p.chips)}) : lastCount(p.last_count); }
  function field(cls, id, text, labelled) {
    var box = el("div", cls), label = el("label", "", text), input = el("input");
    label.htmlFor = id;
    label.id = id + "-label";
    input.id = id;
    input.autocomplete = "off";
    input.setAttribute("aria-labelledby", labelled + " " + label.id);
    box.appendChild(label);
    box.appendChild(input);
    return box;
  }
  function renderBags(answer, fresh) {
    var rows = document.getElementById("bags-rows"), typed = {}, focused = document.activeElement;
    var again = focused && rows.contains(focused) ? focused.id : null;
    if (!fresh) bagInputs().forEach(function (r) { typed[r.dataset.entry] = [r.querySelector(".chips input").value, r.querySelector(".bag input").value]; });
    rows.textContent = "";
    answer.players.forEach(function (p) {
      var row = el("div", "m-bag-row" + (p.bag ? " bagged" : "")), id = "bag-seat-" + p.seat;
      row.dataset.entry = p.entry;
      row.dataset.seat = p.seat;
      var who = el("span", "who", fmt(s.countSeat, {seat: p.seat, name: p.name}));
      who.id = id;
      var hint = el("small", "muted", bagHint(p));
      hint.id = id + "-hint";
      var chips = field("chips", id + "-chips", s.bagChips, id), bag = field("bag", id + "-bag", s.bagNumber, id);
      var ci = chips.querySelector("input"), bi = bag.querySelector("input");
      ci.type = "number"; ci.min = 1; ci.step = 1; ci.inputMode = "numeric";
      ci.setAttribute("aria-describedby", hint.id);
      bi.type = "text"; bi.spellcheck = false; bi.setAttribute("autocapitalize", "characters");
      var was = typed[p.entry];
      ci.value = was ? was[0] : startChips(p);
      bi.value = was ? was[1] : (p.bag || "");
      row.appendChild(who);
      row.appendChild(hint);
      row.appendChild(chips);
      row.appendChild(bag);
      rows.appendChild(row);
    });
    if (again && document.getElementById(again)) document.getElementById(again).focus();
    if (!answer.players.length) rows.appendChild(el("p", "muted", s.countNoPlayers));
    document.getElementById("bags-where").textContent = fmt(s.bagsWhere, {n: answer.table, day: answer.day});
    document.getElementById("bags-save").disabled = !answer.players.length;
  }
  function openBags(table, button) {
    api.press(button, function () { return api.get(at(urls.bags, table)); }, null).then(function (answer) {
      if (!answer || !answer.players) return;
      bagsTable = table;
      bagsSay("", true);
      renderBags(answer, true);
      bagsDialog.showModal();
      var first = bagInputs().map(function (r) { return r.querySelector(".bag input"); }).filter(function (i) { return !i.value; })[0]
        || document.querySelector("#bags-rows input");
      if (first) first.focus();
    });
  }
  if (bagsDialog) {
    document.getElementById("bags-close").addEventListener("click", function () { bagsDialog.close(); });
    document.getElementById("bags-form").addEventListener("submit", function (ev) {
      ev.preventDefault();
      var body = [], missing = null, table = bagsTable;
      bagInputs().forEach(function (r) {
        var chips = r.querySelector(".chips input"), bag = r.querySelector(".bag input");
        if (!missing && !chips.value.trim()) missing = [chips, s.bagMissingChips];
        else if (!missing && !bag.value.trim()) missing = [bag, s.bagMissingBag];
        body.push({seat: Number(r.dataset.seat), chips: whole(chips.value), bag: bag.value});
      });
      if (missing) {  // every seated player is bagged at once: the first gap is said and focused
        bagsSay(fmt(missing[1], {seat: missing[0].closest(".m-bag-row").dataset.seat}), false);
        missing[0].focus();
        return;
      }
      press(document.getElementById("bags-save"), at(urls.bags, table), {bags: body}, null).then(function (answer) {
        if (answer && answer.players) {  // closed first, so that #notice (no longer behind a modal) says it
          bagsDialog.close();
          api.say(DONE.bags(answer), true);
          daySoon();
          return;
        }
        api.get(at(urls.bags, table)).then(function (now) {
          if (bagsDialog.open && bagsTable === table && now && now.players) renderBags(now, false);
        }, function () { /* the refusal stays said */ });
      });
    });
  }

  // One seated player's bag (or its correction), from his seat's dialog: his bag today or his last count to start
  // from. The dialog stays open until the server takes it: a refusal is said there, with what was typed.
  var bagForm = document.getElementById("bag-form");
  function bagSay(message, ok) {
    var say = document.getElementById("bag-say");
    say.textContent = message || "";
    say.classList.toggle("ok", !!ok);
    say.classList.toggle("refused", !ok);
  }
  if (bagForm) {
    document.getElementById("bag-ask").addEventListener("click", function (ev) {
      var who = chosen;
      api.press(ev.currentTarget, function () { return api.get(at(urls.bags, who.table)); }, null).then(function (answer) {
        if (!answer || !chosen || chosen.entry !== who.entry) return;
        var p = (answer.players || []).filter(function (x) { return x.entry === who.entry; })[0];
        if (!p) return;
        document.getElementById("bag-chips").value = startChips(p);
        document.getElementById("bag-number").value = p.bag || "";
        document.getElementById("bag-now").textContent = p.bag ? bagHint(p) : s.bagNot + " " + lastCount(p.last_count);
        bagSay("", true);
        document.getElementById("seat-main").hidden = true;
        bagForm.hidden = false;
        document.getElementById(p.bag || !startChips(p) ? "bag-chips" : "bag-number").focus();
      });
    });
    document.getElementById("bag-back").addEventListener("click", function () {
      bagForm.hidden = true;
      document.getElementById("seat-main").hidden = false;
      document.getElementById("bag-ask").focus();
    });
    bagForm.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var who = chosen, chips = document.getElementById("bag-chips"), bag = document.getElementById("bag-number");
      if (!chips.value.trim() || !bag.value.trim()) {
        var gap = chips.value.trim() ? bag : chips;
        bagSay(fmt(gap === bag ? s.bagMissingBag : s.bagMissingChips, {seat: who.seat}), false);
        gap.focus();
        return;
      }
      press(document.getElementById("bag-go"), at(urls.bag, who.entry), {chips: whole(chips.value), bag: bag.value}, null)
        .then(function (answer) {
          if (!answer || !answer.bag) return;  // refused: said in the dialog (below), what was typed kept
          seatDialog.close();
          api.say(DONE.bag(answer), true);
          daySoon();
        });
    });
  }
  // api.js says a refusal in #notice, behind the dialogs: the open one says it too.
  document.getElementById("notice").addEventListener("api:said", function (e) {
    if (bagsDialog && bagsDialog.open) bagsSay(e.detail.message, e.detail.ok);
    if (bagForm && !bagForm.hidden && seatDialog.open) bagSay(e.detail.message, e.detail.ok);
  });

  // The button of a table: the software's high-card draw, or the seat the dealer's draw gave.
  var buttonDialog = document.getElementById("button-dialog");
  function openButton(t) {
    buttonTable = t.table;
    document.getElementById("button-title").textContent = fmt(s.drawButton, {n: t.table});
    document.getElementById("button-seat").value = "";
    buttonDialog.showModal();
  }
  document.getElementById("button-draw").addEventListener("click", function (ev) {
    buttonDialog.close();
    press(ev.currentTarget, at(urls.button, buttonTable), {}, DONE.button);  // empty: the software's draw
  });
  document.getElementById("button-set").addEventListener("click", function (ev) {
    var seat = whole(document.getElementById("button-seat").value);
    buttonDialog.close();
    press(ev.currentTarget, at(urls.button, buttonTable), {seat: seat === "" ? null : seat}, DONE.button);
  });
  document.getElementById("button-close").addEventListener("click", function () { buttonDialog.close(); });

  var h4hToggle = document.getElementById("h4h-toggle");
  if (h4hToggle) h4hToggle.addEventListener("click", function () {
    var on = h4hToggle.dataset.on !== "0";
    if (window.confirm(on ? s.h4hAskStart : s.h4hAskStop)) press(h4hToggle, urls.handForHand, {on: on}, DONE.h4h);
  });

  // Balancing on demand.
  var balance = document.getElementById("balance-now");
  balance.addEventListener("click", function () { press(balance, urls.balance, {}, DONE.balance); });

  // Draws and tables.
  var start = document.getElementById("start-draw");
  if (start) start.addEventListener("click", function () { if (window.confirm(s.drawAsk)) press(start, urls.drawStart, {}, DONE.draw); });
  var waiting = document.getElementById("seat-waiting");
  waiting.addEventListener("click", function () { press(waiting, urls.seatWaiting, {}, DONE.waiting); });
  var openDialog = document.getElementById("open-dialog");
  if (openDialog) {
    document.getElementById("open-table-button").addEventListener("click", function () { openDialog.showModal(); });
    document.getElementById("open-close").addEventListener("click", function () { openDialog.close(); });
    document.getElementById("open-form").addEventListener("submit", function (ev) {
      ev.preventDefault();
      var form = ev.target, body = {number: whole(form.elements.number.value),
                                    sends_hand_signals: form.elements.sends_hand_signals.checked,
                                    accessible: form.elements.accessible.checked};
      if (form.elements.seats.value.trim()) body.seats = whole(form.elements.seats.value);
      openDialog.close();
      press(document.getElementById("open-go"), urls.openTable, body, DONE.open);
    });
  }

  // A slip shows the moment its event arrives (the event carries it); the refetch that follows
  // brings the seats and the counts.
  function slipsFrom(event) {
    if (!state.moves) state.moves = {halted: [], need_button: [], moves: []};
    var list = state.moves.moves, p = event.payload || {};
    var known = {};
    list.forEach(function (x) { known[x.move] = true; });
    if (event.type === "move.created") {
      (p.moves || []).forEach(function (x) { if (!known[x.move] && x.status === "pending") list.push(x); });
    } else if ((event.type === "move.done" || event.type === "move.cancelled") && p.move) {
      state.moves.moves = list.filter(function (x) { return x.move !== p.move.move; });
    } else {
      return;
    }
    renderMoves();
  }

  var ending = FlightEnding.watch();  // a Day 1 flight's "this flight ends" line (static/js/flight-ending.js)

  // clock.: a level changed by the director leaves the tables that have not shuffled since on the old level ("still
  // level N"), which the map's read says.
  var TOUCHES = /^(seating\.|seat\.|seat_request\.|entry\.|table\.|tables\.|draw\.|move|break|balance|h4h\.|house_rules\.|colorup\.|race\.|clock_call\.|clock\.)/;
  // A level ended by the clock's own time sends no event, yet the tables that have not shuffled since then play the
  // level before ("still level N", which a fresh read says): the map reads again when the clock's row changes.
  var clock = null, rowTimer = null;
  function watchClock(incoming) {
    clock = Clock.merge(clock, incoming);
    clearTimeout(rowTimer);
    var now = sync.now(), st = clock && Clock.state(clock, now);
    if (!st || !st.running || st.endsAt === null || st.finished) return;
    rowTimer = setTimeout(function () { soon(); watchClock(null); }, Math.max(0, st.endsAt - now) * 1000 + 500);
  }
  var conn = Live.connect({
    path: urls.socket, badge: "#live", sync: true,
    onSnapshot: function (m) { soon(); daySoon(); ending.snapshot(); watchClock(m.clock); },  // first connect, reconnect or a gap: the map may be stale
    onEvent: function (m) {
      if (m.event.payload && m.event.payload.clock) watchClock(m.event.payload.clock);
      ending.event(m.event.type);
      if (/^(bags|day)\./.test(m.event.type)) daySoon();  // a table's bags, a day closed: the cards' "bagged"
      if (!TOUCHES.test(m.event.type)) return;
      slipsFrom(m.event);
      soon();
    }
  });
  render();
  fetchDay();
  updateToolsHeight();
  setInterval(tickClocks, 250);
  if (window.performance && performance.mark) performance.mark("floor-map:first-render");
  window.floorMap = {refetch: refetch, conn: conn, fetchDay: fetchDay, get state() { return state; }, get day() { return dayState; }};
})();
