/* The dealer tablet (templates/tables/dealer.html): Shuffle / new hand, Hand done, moves and penalties at
 * the table, the chip race, the table's stacks counted, its bags at the end of a day; its URLs in the page's dealer-config block, its words
 * from Django's JavaScript catalogue. */
import * as Util from "./util.js";
import * as api from "./api.js";
import * as Live from "./live.js";
import * as Clock from "./clock.js";

(function () {
  "use strict";
  var strings = Clock.strings(), extra = {
    ago: gettext("started {m} min ago"),
    justNow: gettext("started just now"),
    noHand: gettext("no hand yet"),
    announced: gettext("{level} is announced: it applies from this table's next shuffle."),
    positions: gettext("Button {button} · SB {sb} · BB {bb}"),
    positionsNext: gettext("Button {button} (next hand)"),
    slipOut: gettext("Seat {seat} · {name} → table {table} seat {to}"),
    afterHand: gettext("(after this hand)"),
    slipIn: gettext("Seat {seat} reserved: {name} from table {table}"),
    h4hDeal: gettext("Hand-for-hand · hand {n}: deal now"),
    h4hPlaying: gettext("Hand-for-hand · hand {n}: press “Hand done” when it is over"),
    h4hDone: gettext("Hand-for-hand · hand {n} done: wait for the other tables"),
    h4hWait: gettext("Hand-for-hand: wait for the floor to call the next hand"),
    h4hWaiting: gettext("Still playing: table {tables}"),
    doneStart: gettext("Hand {hand} started."),
    doneUndo: gettext("Hand {hand} is undone."),
    doneHand: gettext("Hand done."),
    doneH4h: gettext("Hand done: this table waits for the next hand."),
    confirmUndo: gettext("Undo the last press? The table goes back to the hand and level it had before."),
    raceBanner: gettext("Color-up: the {chips} leave"),
    raceChip: gettext("{value}s"),
    raceAnd: gettext("{list} and {last}"),
    raceNew: gettext("New smallest chip: {chip}"),
    raceStepWaiting: gettext("Count the leaving chips at every seat, then press Race."),
    raceStepHand: gettext("Count the leaving chips at every seat, then press Enter the cards."),
    raceStepCards: gettext("Enter the cards as dealt, then press Race with these cards."),
    raceStepRecorded: gettext("Raced: check the sheet with the table, then confirm it (or redo the counts)."),
    raceStepConfirmed: gettext("Race confirmed: give each player his new chips."),
    raceNoPlayers: gettext("No players at this table."),
    raceTarget: gettext("Seat {seat} · {chip}"),
    racePick: gettext("Tap a count to type it."),
    raceMissing: gettext("Seat {seat}: count the {chip} (0 if none)."),
    raceRecorded: gettext("Race recorded: check the sheet, then confirm."),
    raceConfirmAsk: gettext("Confirm this race? The sheet becomes final and the chips in play change by {difference}."),
    raceConfirmed: gettext("Race confirmed."),
    raceSheetTitle: gettext("Chip race · table {table}"),
    raceNewChips: gettext("New {chip}s"),
    raceOnlyLabel: gettext("Only these chips"),
    raceOnly: gettext("only these chips"),
    raceWon: gettext("won a chip"),
    raceProtection: gettext("protection chip"),
    raceWinner: gettext("Seat {seat} · {name}"),
    raceNoWinners: gettext("nobody: no odd chips"),
    raceAdded: gettext("added to the chips in play"),
    raceRemoved: gettext("removed from the chips in play"),
    raceUnchanged: gettext("the chips in play do not change"),
    raceDraw: gettext("Draw #{n}: check the cards"),
    raceCardsEntered: gettext("Cards entered as dealt at the table"),
    raceCounted: gettext("Counted"),
    raceCardTarget: gettext("Seat {seat} · card {n} of {of}"),
    raceCardPick: gettext("Tap a card to enter it."),
    raceCardMissing: gettext("Seat {seat}: enter every card dealt."),
    raceNoCards: gettext("No odd chips at this table: nothing to deal."),
    raceOdd: gettext("Odd chips"),
    raceCards: gettext("Cards"),
    raceRace: gettext("Race"),
    penTitle: gettext("Penalties: these players sit out"),
    penSeat: gettext("Seat {seat}"),
    penRow: gettext("{name}: sits out —"),
    penLeft: gettext("{left} of {hands} hands left."),
    penDeal: gettext("Deal in, take the blinds."),
    stacksChips: gettext("Chips"),
    stacksLast: gettext("Last count: {chips}"),
    stacksNever: gettext("Not counted since he sat down"),
    stacksTarget: gettext("Seat {seat} · {name}"),
    stacksPick: gettext("Tap a player's count to type it."),
    stacksMissing: gettext("Seat {seat}: type his chips (every player is counted at once)."),
    stacksOffline: gettext("Count stacks needs the connection: the tablet reads who sits here and their last counts from the server first. Count when the line is back; Shuffle and Hand done wait on the tablet meanwhile."),
    callOn: gettext("Clock on seat {seat} · {name}"),
    callSeat: gettext("Seat {seat} · {name}"),
    callGo: gettext("Call the clock on seat {seat}"),
    callDead: gettext("Hand dead"),
    callStarted: gettext("Clock called on seat {seat} · {name}."),
    callActed: gettext("He acted in time: the clock call is over."),
    callDeclared: gettext("The hand is dead: the clock call is over."),
    callCancelled: gettext("Clock call cancelled (called in error)."),
    callAskCancel: gettext("Cancel this clock call (called in error)?"),
    bagsBag: gettext("Bag number"),
    bagsBagLabel: gettext("Seat {seat} · {name}: bag number"),
    bagsBagged: gettext("Bag {bag} · {chips} chips"),
    bagsDay: gettext("Day {day}"),
    bagsNone: gettext("Nobody at this table is bagged yet today."),
    bagsMissingChips: gettext("Seat {seat}: type his chips (every player is bagged at once)."),
    bagsMissingBag: gettext("Seat {seat}: type the number written on his bag.")
  };
  // Reads: state.json and the table's socket. Presses: the JSON API (/api/docs/), through api.js.
  // A dealer link's tablet reads its own state.json and socket, and api.js sends its link with each press.
  var urls = JSON.parse(document.getElementById("dealer-config").textContent);
  var stateUrl = urls.state;
  var handUrl = urls.hand, handDoneUrl = urls.handDone;
  var server = JSON.parse(document.getElementById("table-state").textContent);  // the table as the server last said
  var table = server;  // ... and as the tablet shows it: with its own presses still waiting on the device (follow)
  var initial = JSON.parse(document.getElementById("clock-state").textContent);
  var badge = document.getElementById("live");
  var $ = function (id) { return document.getElementById(id); };

  // Time sync by HTTP ping; the table's socket only says when to fetch the state again.
  var sync = Live.TimeSync(function (id) {
    fetch(stateUrl + "?ping=1", {cache: "no-store", credentials: "same-origin"})
      .then(function (r) { return r.json(); })
      .then(function (d) { sync.receive(id, d.server_time); })
      .catch(function () {});
  });
  sync.guess(initial.server_time);

  function render(st) {
    Clock.fill(document, st, strings);
    if (st.index !== clockRow) {  // a new row of the clock: a confirmed race leaves once its break is over
      clockRow = st.index;
      if (counting) renderRace(true);
    }
    var inPlay = table.hand_level_index !== null ? table.hand_level_index : st.levelIndex;
    var row = st.rows[inPlay];
    $("play-title").textContent = Clock.levelTitle(st.rows, inPlay, strings);
    $("play-blinds").textContent = Clock.blinds(row);
    $("play-ante").textContent = Clock.ante(row, strings);
    var old = inPlay !== st.levelIndex;
    var alert = $("new-level");
    alert.hidden = !old;
    if (old) {
      var next = st.rows[st.levelIndex];
      alert.textContent = Util.fmt(extra.announced, {level: Clock.levelTitle(st.rows, st.levelIndex, strings) + " (" + Clock.blinds(next) + ")"});
    }
    $("table-level").classList.toggle("old-level", old);
    $("hand-number").textContent = table.hand ? table.hand : extra.noHand;
    var age = "";
    if (table.hand_started_at) {
      var m = Math.floor((st.serverNow - table.hand_started_at) / 60);
      age = m < 1 ? extra.justNow : Util.fmt(extra.ago, {m: m});
    }
    $("hand-age").textContent = table.hand ? "· " + age : "";
    $("undo").disabled = !table.hand;
    $("follows").hidden = table.sends_hand_signals;
    // Bag-and-tag: "Bag stacks" once the clock has stopped for the day (the day's last level over), and while
    // its panel is open.
    $("bags-open").hidden = !(st.dayEnded && !st.running) && $("bags").hidden;
    dayStopped = !!(st.dayEnded && !st.running);  // no new hand once play has stopped for the day (the server refuses it)
    renderTable();
  }
  var fmt = Util.fmt;
  function renderTable() {
    var p = table.positions || {}, line = "";
    if (p.button !== null && p.button !== undefined) {
      line = p.next || p.small_blind === null || p.big_blind === null ? fmt(extra.positionsNext, {button: p.button})
        : fmt(extra.positions, {button: p.button, sb: p.small_blind, bb: p.big_blind});
    }
    $("positions").textContent = line;
    $("positions").hidden = !line;
    $("halted").hidden = !table.halted;
    // A table that breaks (tables/read_models.table_state): said in the server's words, and no new hand here.
    $("breaking").textContent = table.breaking || "";
    $("breaking").hidden = !table.breaking;
    $("needs-button").hidden = !table.needs_button;
    var out = table.slips_out || [], inn = table.slips_in || [];
    function fill(id, items, text) {
      var ul = $(id);
      ul.textContent = "";
      items.forEach(function (m) { var li = document.createElement("li"); li.textContent = text(m); ul.appendChild(li); });
      $(id + "-box").hidden = !items.length;
    }
    fill("slips-out", out, function (m) {
      var t = fmt(extra.slipOut, {seat: m.from.seat, name: m.name, table: m.to.table, to: m.to.seat});
      return m.after_hand ? t + " " + extra.afterHand : t;
    });
    fill("slips-in", inn, function (m) {
      return fmt(extra.slipIn, {seat: m.to.seat, name: m.name, table: m.from.table}) + Live.slipPosition(m.position);
    });
    $("slips").hidden = !out.length && !inn.length;
    var h = table.h4h;
    $("h4h").hidden = !h;
    if (h) {
      $("h4h").className = "d-h4h " + h.step;
      $("h4h-text").textContent = fmt(extra["h4h" + h.step.charAt(0).toUpperCase() + h.step.slice(1)], {n: h.hand});
      var others = (h.waiting_for || []).filter(function (n) { return n !== table.number; });
      $("h4h-waiting").textContent = h.step === "done" && others.length ? fmt(extra.h4hWaiting, {tables: others.join(", ")}) : "";
    }
    $("hand-done").disabled = h ? h.step !== "playing" : !table.hand_in_progress;
    // In hand-for-hand the shuffle waits for the hand to be called (the server refuses it anyway).
    var hold = (!!h && h.step !== "deal") || dayStopped || !!table.breaking;
    if (hold) { $("shuffle").disabled = true; held = true; } else if (held) { $("shuffle").disabled = false; held = false; }
  }
  var held = false, clockRow = null, dayStopped = false;
  var view = Clock.run({now: function () { return sync.now(); }, render: render});
  view.set(initial);

  function online(up) {
    badge.textContent = up ? gettext("live") : gettext("offline");
    badge.className = "badge " + (up ? "live" : "offline");
  }
  function apply(d) {
    if (d.table) { server = d.table; table = follow(server); renderRace(); renderPenalties(); renderCall(); }
    if (d.clock) view.set(d.clock);
    view.tick();
  }
  // Presses kept on the device while the line is down (press-queue.js): the tablet follows them at once, on the
  // state the server last sent, so a Shuffle kept offline shows its hand started and Hand done can be pressed, and a
  // kept Hand done lets the next Shuffle go. The queue in localStorage is the record (it survives a reload); a press
  // leaves it once the server has answered, and the state read then has it. `kept`: the keys this page saw kept, with when.
  var queueMeta = document.querySelector('meta[name="press-queue"]'), kept = {};
  var queueName = queueMeta ? "press-queue:" + queueMeta.content : null;
  function waitingPresses() {
    if (!queueName) return [];
    var list;
    try { list = JSON.parse(window.localStorage.getItem(queueName) || "[]"); } catch { return []; }
    return Array.isArray(list) ? list : [];
  }
  // Kept before this page was loaded; the time is when the tablet learnt of it (the hand's age counts from it).
  waitingPresses().forEach(function (item) { kept[item.key] = sync.now(); });
  table = follow(server);
  function absolute(url) { return new URL(url, location.href).href; }
  function follow(from) {
    var st = Object.assign({}, from), before = [];
    waitingPresses().forEach(function (item) {
      if (!kept[item.key]) return;  // being sent now: its answer and the state after it come soon
      var h = st.h4h ? Object.assign({}, st.h4h) : null;
      if (item.url === absolute(handUrl) && item.method === "POST") {
        before.push(st);
        st = Object.assign({}, st, {hand: (st.hand || 0) + 1, hand_in_progress: true, hand_level_index: null,
                                    hand_started_at: kept[item.key], positions: {}, h4h: h});
        if (h && h.step === "deal") h.step = "playing";
      } else if (item.url === absolute(handUrl) && item.method === "DELETE") {
        st = before.length ? before.pop() : Object.assign({}, st, {hand: Math.max((st.hand || 0) - 1, 0), positions: {}});
      } else if (item.url === absolute(handDoneUrl) && item.method === "POST") {
        st = Object.assign({}, st, {hand_in_progress: false, h4h: h});
        if (h && h.step === "playing") h.step = "done";
      }
    });
    return st;
  }
  // One press of the hand's buttons: kept on the device, the tablet follows it now.
  function followed(call) {
    return function (key) {
      return call(key).catch(function (error) {
        if (error && error.code === "queued") { kept[key] = sync.now(); table = follow(server); }
        throw error;
      });
    };
  }
  // The players of this table sitting out a penalty (table.penalties, tables/read_models.table_penalties):
  // the dealer deals them in and takes their blinds while the hands left count down (TDA 51).
  function renderPenalties() {
    var rows = table.penalties || [], list = $("penalties-list");
    $("penalties").hidden = !rows.length;
    $("penalties-title").textContent = extra.penTitle;
    list.textContent = "";
    rows.forEach(function (p) {
      var seat = p.now ? p.now.seat : p.seat, li = document.createElement("li");
      li.dataset.seat = seat;
      li.dataset.penalty = p.number;
      li.dataset.left = p.hands_left;
      var big = document.createElement("span"), text = document.createElement("span"), left = document.createElement("span");
      big.className = "p-seat";
      big.textContent = fmt(extra.penSeat, {seat: seat});
      text.className = "p-text";
      text.textContent = fmt(extra.penRow, {name: p.name}) + " ";
      left.className = "p-left";
      left.textContent = fmt(extra.penLeft, {left: p.hands_left, hands: p.hands});
      text.appendChild(left);
      text.appendChild(document.createTextNode(" " + extra.penDeal));
      li.appendChild(big);
      li.appendChild(text);
      list.appendChild(li);
    });
  }
  // Offline, the service worker answers with the last state it kept (static/js/tablet-sw.js: X-Offline-Copy): shown,
  // and the badge says offline.
  function poll() {
    var copy = false;
    fetch(stateUrl, {cache: "no-store", credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) { if (!r.ok) throw new Error(r.status); copy = r.headers.has("X-Offline-Copy"); return r.json(); })
      .then(function (d) { online(!copy); apply(d); })
      .catch(function () { online(false); });
  }
  document.addEventListener("press-queue:sent", poll);  // the presses kept offline reached the server
  sync.start();
  // The table's socket: a snapshot (on connect) or an event naming this table means fetch the state.
  var socket = window.WebSocket ? Live.connect({
    path: urls.socket,
    onSnapshot: function () { poll(); }, onEvent: function () { poll(); }
  }) : null;
  setInterval(poll, 30000);  // a fallback for a lost socket
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { poll(); sync.burst(); } });
  poll();

  // One press: the API call (api.press: the button busy meanwhile, one Idempotency-Key, the answer
  // or the API's refusal shown in #dealer-feedback), then the state again from state.json. The big
  // button stays locked a moment longer, against a double tap.
  function press(button, lockMs, call, done) {
    if (button.disabled) return;
    api.press(button, call, done).then(function () {
      poll();
      if (lockMs) {
        button.disabled = true;
        setTimeout(function () { button.disabled = false; view.tick(); }, lockMs);
      } else {
        view.tick();
      }
    });
  }
  $("shuffle").addEventListener("click", function () {
    press($("shuffle"), 2000, followed(function (key) { return api.post(handUrl, {}, {key: key}); }),
          function (a) { return fmt(extra.doneStart, {hand: a.hand}); });
  });
  $("hand-done").addEventListener("click", function () {
    press($("hand-done"), 1000, followed(function (key) { return api.post(handDoneUrl, {}, {key: key}); }),
          function (h) { return h.on ? extra.doneH4h : extra.doneHand; });
  });
  $("undo").addEventListener("click", function () {
    if (window.confirm(extra.confirmUndo)) {
      press($("undo"), 0, followed(function (key) { return api.del(handUrl, {key: key}); }),
            function (a) { return fmt(extra.doneUndo, {hand: a.hand}); });
    }
  });

  // --- The chip race of a color-up (table.race, tables/read_models.table_race) ------------------------
  // Counts are typed on the page's own number pad (no on-screen keyboard), kept here across refetches of
  // the state, and sent in one press: the server deals the cards and answers with the sheet.
  var raceUrl = urls.race, raceConfirmUrl = urls.raceConfirm, raceCardsUrl = urls.raceCards, drawsUrl = urls.draws;
  var MAX_COUNT = 10000;
  // mode: "seed" (the software deals) or "hand" (cards dealt at the table, entered on the card pad);
  // dealing: while the cards are entered, {counts sent, needed by seat, cards by seat, sel, rank}.
  // open: the id of the confirmed sheet shown again ("show sheet"); folded otherwise.
  var counting = {counts: {}, only: {}, redo: null, shown: "", mode: "seed", dealing: null, open: null};
  var num = Live.number, signed = Live.signed;
  function chipName(v) { return fmt(extra.raceChip, {value: num(v)}); }
  function chipList(values) {
    var names = values.map(chipName);
    return names.length < 2 ? names.join("") : fmt(extra.raceAnd, {list: names.slice(0, -1).join(", "), last: names[names.length - 1]});
  }
  var el = Util.el;
  var SUITS = {s: ["♠", false], h: ["♥", true], d: ["♦", true], c: ["♣", false]};
  function card(code) {
    var suit = SUITS[code.slice(-1).toLowerCase()] || [code.slice(-1), false], rank = code.slice(0, -1).toUpperCase();
    var c = el("span", "r-card" + (suit[1] ? " red" : ""), (rank === "T" ? "10" : rank) + suit[0]);
    c.dataset.card = code;
    return c;
  }

  // The number pad, shared by the race's leaving chips and the table's stacks: a tap on a count (a .r-field of the
  // rows, named by its data-field) selects it and the first digit typed replaces it, ⌫ deletes a digit, C clears
  // it, Next goes to the next count; a tablet with a keyboard types digits, Backspace and Enter. The counts are
  // the panel's own, as text ("" for none): o.read(field), o.write(field, text).
  var pads = [];
  function NumberPad(o) {
    var pad = {sel: null, fresh: false, box: o.box, open: o.open};
    pad.fields = function () { return Array.prototype.slice.call(o.rows.querySelectorAll(".r-field")); };
    pad.field = function (name) {
      return name === null || name === undefined ? null
        : pad.fields().filter(function (f) { return f.dataset.field === String(name); })[0] || null;
    };
    pad.select = function (f) {
      pad.sel = f ? f.dataset.field : null;
      pad.fresh = true;  // the first digit typed replaces the count shown
    };
    pad.paint = function (scroll) {
      var current = pad.field(pad.sel);
      pad.fields().forEach(function (f) {
        var v = o.read(f), on = f === current;
        f.querySelector("b").textContent = v === "" ? "–" : o.show ? o.show(v) : v;
        f.classList.toggle("empty", v === "");
        f.classList.toggle("selected", on);
        f.setAttribute("aria-pressed", on ? "true" : "false");
      });
      o.rows.querySelectorAll(".r-row").forEach(function (row) { row.classList.toggle("current", !!current && row.contains(current)); });
      o.target.textContent = current ? o.targetText(current) : o.pick;
      o.pad.querySelectorAll("button").forEach(function (b) { b.disabled = !current; });
      if (o.painted) o.painted();
      if (scroll && current && current.scrollIntoViewIfNeeded) current.scrollIntoViewIfNeeded(true);
    };
    pad.key = function (k) {
      var f = pad.field(pad.sel);
      if (!f) return;
      if (k === "next") {
        if (o.next && o.next(f)) return;  // the panel's own next step (the bags': the bag number's field)
        var all = pad.fields();
        pad.select(all[all.indexOf(f) + 1] || null);
        pad.paint(true);
        if (!pad.sel && o.end) o.end();
        return;
      }
      var now = o.read(f);
      if (k === "back") now = pad.fresh ? "" : now.slice(0, -1);
      else if (k === "clear") now = "";
      else {
        var typed = String(parseInt(pad.fresh ? k : now + k, 10));
        if (Number(typed) > o.max) return;
        now = typed;
      }
      pad.fresh = false;
      o.write(f, now);
      pad.paint();
    };
    o.rows.addEventListener("click", function (e) {
      var f = e.target.closest(".r-field");
      if (f) { pad.select(f); pad.paint(); }
    });
    o.pad.addEventListener("click", function (e) {
      var b = e.target.closest("button[data-key]");
      if (b && !b.disabled) pad.key(b.dataset.key);
    });
    pads.push(pad);
    return pad;
  }
  document.addEventListener("keydown", function (e) {  // a tablet with a keyboard: digits, ⌫, Enter for next
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest && e.target.closest("input, textarea, select")) return;  // typing in a text field (a bag number)
    // The pad of the panel that holds the focus; else the one opened last (the stacks' over the race's).
    var open = pads.filter(function (p) { return p.open() && p.sel !== null; });
    var pad = open.filter(function (p) { return p.box.contains(e.target); })[0] || open[open.length - 1];
    if (!pad) return;
    var k = /^[0-9]$/.test(e.key) ? e.key : e.key === "Backspace" ? "back" : e.key === "Enter" ? "next" : null;
    // Enter on a focused control (a pad key, a count, Confirm) presses that control, as a tap would.
    if (k === "next" && e.target !== document.body && e.target.closest("button, a[href], input, select, textarea")) return;
    if (k) { e.preventDefault(); pad.key(k); }
  });

  var racePad = NumberPad({
    box: $("race"), rows: $("race-rows"), pad: $("race-pad"), target: $("race-target"), max: MAX_COUNT,
    open: function () { return !$("race").hidden && !$("race-count").hidden; },
    read: function (f) { var v = (counting.counts[f.dataset.seat] || {})[f.dataset.value]; return v === undefined ? "" : String(v); },
    write: function (f, v) {
      var counts = counting.counts[f.dataset.seat];
      if (v === "") delete counts[f.dataset.value]; else counts[f.dataset.value] = v;
    },
    targetText: function (f) { return fmt(extra.raceTarget, {seat: f.dataset.seat, chip: chipName(f.dataset.value)}); },
    pick: extra.racePick,
    painted: function () {
      document.querySelectorAll("#race-rows .r-only").forEach(function (b) {
        b.setAttribute("aria-pressed", counting.only[b.dataset.only] ? "true" : "false");
      });
    },
    end: function () { $("race-go").scrollIntoView({block: "nearest"}); }
  });

  // A confirmed race is over once the clock has left its break (race.break_index, the clock's row of the
  // break): the tablet drops it then, without waiting for its next read of the state.
  function raceOver(r) {
    return r.status === "confirmed" && r.break_index !== null && r.break_index !== undefined
      && clockRow !== null && clockRow > r.break_index;
  }
  function renderRace(force) {
    var r = table.race, show = !!(r && r.active) && !raceOver(r);
    $("race").hidden = !show;
    if (!show) { counting.shown = ""; return; }
    var key = JSON.stringify(r);
    if (key === counting.shown && !force) return;
    counting.shown = key;
    var sheet = r.sheet;
    if (counting.redo !== null && (!sheet || sheet.id !== counting.redo || r.status !== "recorded")) counting.redo = null;
    var mode = r.status === "waiting" || !sheet || counting.redo !== null ? (counting.dealing ? "cards" : "count") : "sheet";
    if (mode === "sheet") counting.dealing = null;
    $("race-title").textContent = fmt(extra.raceBanner, {chips: chipList(r.color_up.leaving)});
    $("race-new").textContent = fmt(extra.raceNew, {chip: num(r.color_up.new_chip)});
    var step = mode === "cards" ? "Cards" : r.status === "waiting" && counting.mode === "hand" ? "Hand" : r.status;
    $("race-step").textContent = extra["raceStep" + step.charAt(0).toUpperCase() + step.slice(1)] || "";
    // Confirmed: one line, "Race confirmed · show sheet"; the sheet (and its banner) only when asked for.
    var done = mode === "sheet" && r.status === "confirmed", open = done && counting.open === sheet.id;
    $("race-done").hidden = !done;
    $("race-show").textContent = (open ? gettext("hide sheet") : gettext("show sheet"));
    $("race-show").setAttribute("aria-expanded", String(open));
    $("race-banner").hidden = done && !open;
    $("race-count").hidden = mode !== "count";
    $("race-sheet").hidden = mode !== "sheet" || (done && !open);
    $("race-cards").hidden = mode !== "cards";
    if (mode === "count") renderCount(r); else if (mode === "cards") renderCards(r); else renderSheet(r, sheet);
  }

  function renderCount(r) {
    var leaving = r.color_up.leaving, box = $("race-rows");
    box.textContent = "";
    r.players.forEach(function (p) {
      var seat = String(p.seat);
      counting.counts[seat] = counting.counts[seat] || {};
      var row = el("div", "r-row");
      row.dataset.seat = seat;
      row.appendChild(el("span", "r-seat", seat));
      row.appendChild(el("span", "r-name", p.name));
      var group = el("span", "r-fields");
      leaving.forEach(function (v) {
        var f = el("button", "r-field");
        f.type = "button";
        f.dataset.seat = seat;
        f.dataset.value = String(v);
        f.dataset.field = seat + "/" + v;
        f.appendChild(el("small", null, chipName(v)));
        f.appendChild(el("b"));
        group.appendChild(f);
      });
      row.appendChild(group);
      var only = el("button", "r-only", extra.raceOnlyLabel);
      only.type = "button";
      only.dataset.only = seat;
      row.appendChild(only);
      box.appendChild(row);
    });
    if (!r.players.length) box.appendChild(el("p", "r-help", extra.raceNoPlayers));
    $("race-go").disabled = !r.players.length;
    paintMode();
    if (!racePad.field(racePad.sel)) {
      var all = racePad.fields();
      racePad.select(all.filter(function (f) { return counting.counts[f.dataset.seat][f.dataset.value] === undefined; })[0] || all[0]);
    }
    racePad.paint();
  }
  $("race-rows").addEventListener("click", function (e) {
    var only = e.target.closest(".r-only");
    if (only) { counting.only[only.dataset.only] = !counting.only[only.dataset.only]; racePad.paint(); }
  });

  function raceBody() {
    var r = table.race, seats = {}, missing = null;
    r.players.forEach(function (p) {
      var seat = String(p.seat), chips = {};
      r.color_up.leaving.forEach(function (v) {
        var c = (counting.counts[seat] || {})[String(v)];
        if (c === undefined || c === "") { missing = missing || {seat: seat, value: String(v)}; return; }
        chips[String(v)] = Number(c);
      });
      seats[seat] = {chips: chips, other: counting.only[seat] ? 0 : null};
    });
    return {seats: seats, missing: missing};
  }
  function racePress(button, call, done) {
    if (button.disabled) return;
    api.press(button, call, done).then(function (answer) {
      if (answer && answer.color_up) { table.race = answer; renderRace(true); }
      poll();
    });
  }
  $("race-go").addEventListener("click", function () {
    var body = raceBody();
    if (body.missing) {
      racePad.select(racePad.field(body.missing.seat + "/" + body.missing.value));
      racePad.paint(true);
      api.say(fmt(extra.raceMissing, {seat: body.missing.seat, chip: chipName(body.missing.value)}), false);
      return;
    }
    if (counting.mode === "hand") {
      // The table deals: ask how many cards each seat gets for these counts, then enter them.
      // It records nothing and the tablet needs its answer now: never kept offline (press-queue.js).
      api.press($("race-go"), function (k) { return api.post(raceCardsUrl, {seats: body.seats}, {key: k, queue: false}); }, null)
        .then(function (answer) {
          if (!answer || !answer.cards) return;
          if (!answer.total) { api.say(extra.raceNoCards, true); raceWith(body.seats, {}, $("race-go")); return; }
          var cards = {};
          Object.keys(answer.cards).forEach(function (seat) { cards[seat] = new Array(answer.cards[seat]).fill(null); });
          counting.dealing = {seats: body.seats, needed: answer.cards, cards: cards, sel: null, rank: null};
          renderRace(true);
          $("race").scrollIntoView({block: "start"});
        });
      return;
    }
    raceWith(body.seats, null, $("race-go"));
  });
  function raceWith(seats, cards, button) {
    var payload = cards ? {seats: seats, cards: cards} : {seats: seats};
    racePress(button, function (k) { return api.post(raceUrl, payload, {key: k}); }, function () {
      counting.redo = null;
      counting.dealing = null;
      return extra.raceRecorded;
    });
  }
  function paintMode() {
    document.querySelectorAll("#race-modes .r-mode").forEach(function (b) {
      b.setAttribute("aria-pressed", b.dataset.mode === counting.mode ? "true" : "false");
    });
    $("race-go").textContent = counting.mode === "hand" ? gettext("Enter the cards") + " ›" : gettext("Race");
    $("race-mode-help").textContent = counting.mode === "hand"
      ? gettext("Deal one card for each odd chip, all of a player’s cards at once, from seat 1; then enter them.")
      : gettext("The software deals the cards from a seed committed before the race: anyone can check the draw.");
    var r = table.race;
    if (r && r.status === "waiting") $("race-step").textContent = counting.mode === "hand" ? extra.raceStepHand : extra.raceStepWaiting;
  }
  $("race-modes").addEventListener("click", function (e) {
    var b = e.target.closest(".r-mode");
    if (b) { counting.mode = b.dataset.mode; paintMode(); }
  });

  // The cards dealt at the table: one slot per card, filled from the rank and suit pad.
  function slots() { return Array.prototype.slice.call(document.querySelectorAll("#race-hands .r-slot")); }
  function renderCards(r) {
    var d = counting.dealing, box = $("race-hands"), names = {};
    r.players.forEach(function (p) { names[String(p.seat)] = p.name; });
    box.textContent = "";
    Object.keys(d.cards).sort(function (a, b) { return a - b; }).forEach(function (seat) {
      if (!d.cards[seat].length) return;
      var row = el("div", "r-row");
      row.dataset.seat = seat;
      row.appendChild(el("span", "r-seat", seat));
      row.appendChild(el("span", "r-name", names[seat] || ""));
      var hand = el("span", "r-hand");
      d.cards[seat].forEach(function (code, i) {
        var b = el("button", "r-slot");
        b.type = "button";
        b.dataset.seat = seat;
        b.dataset.i = String(i);
        hand.appendChild(b);
      });
      row.appendChild(hand);
      box.appendChild(row);
    });
    if (!d.sel) nextSlot();
    paintCards();
  }
  function nextSlot() {
    var d = counting.dealing, empty = slots().filter(function (b) { return !d.cards[b.dataset.seat][b.dataset.i]; })[0];
    d.sel = empty ? {seat: empty.dataset.seat, i: empty.dataset.i} : null;
    d.rank = null;
  }
  function used(except) {
    var d = counting.dealing, all = {};
    Object.keys(d.cards).forEach(function (seat) {
      d.cards[seat].forEach(function (code, i) {
        if (code && !(except && except.seat === seat && String(i) === except.i)) all[code] = true;
      });
    });
    return all;
  }
  function paintCards() {
    var d = counting.dealing, sel = d.sel, taken = used(sel);
    slots().forEach(function (b) {
      var code = d.cards[b.dataset.seat][b.dataset.i], on = !!sel && sel.seat === b.dataset.seat && sel.i === b.dataset.i;
      var suit = code ? SUITS[code.slice(-1)] : null;
      b.textContent = code ? (code[0] === "T" ? "10" : code[0]) + suit[0] : (on && d.rank ? (d.rank === "T" ? "10" : d.rank) : "?");
      b.dataset.card = code || "";
      b.classList.toggle("filled", !!code);
      b.classList.toggle("red", !!suit && suit[1]);
      b.classList.toggle("selected", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
    document.querySelectorAll("#race-hands .r-row").forEach(function (row) {
      row.classList.toggle("current", !!sel && row.dataset.seat === sel.seat);
    });
    var of = sel ? d.cards[sel.seat].length : 0;
    $("race-card-target").textContent = sel ? fmt(extra.raceCardTarget, {seat: sel.seat, n: Number(sel.i) + 1, of: of}) : extra.raceCardPick;
    document.querySelectorAll("#race-card-pad [data-rank]").forEach(function (b) {
      var r = b.dataset.rank;
      b.disabled = !sel || ["s", "h", "d", "c"].every(function (x) { return taken[r + x]; });
      b.setAttribute("aria-pressed", d.rank === r ? "true" : "false");
    });
    document.querySelectorAll("#race-card-pad [data-suit]").forEach(function (b) {
      b.disabled = !sel || !d.rank || !!taken[d.rank + b.dataset.suit];
    });
    $("race-card-clear").disabled = !sel;
  }
  $("race-hands").addEventListener("click", function (e) {
    var b = e.target.closest(".r-slot");
    if (!b) return;
    counting.dealing.sel = {seat: b.dataset.seat, i: b.dataset.i};
    counting.dealing.rank = null;
    paintCards();
  });
  $("race-card-pad").addEventListener("click", function (e) {
    var d = counting.dealing, b = e.target.closest("button");
    if (!d || !b || b.disabled || !d.sel) return;
    if (b.dataset.rank) { d.rank = b.dataset.rank; paintCards(); return; }
    if (b.dataset.suit && d.rank) {
      d.cards[d.sel.seat][d.sel.i] = d.rank + b.dataset.suit;
      nextSlot();
      paintCards();
      if (!d.sel) $("race-cards-go").scrollIntoView({block: "nearest"});
      return;
    }
    if (b.id === "race-card-clear") { d.cards[d.sel.seat][d.sel.i] = null; d.rank = null; paintCards(); }
  });
  $("race-cards-back").addEventListener("click", function () {
    counting.dealing = null;
    renderRace(true);
  });
  $("race-cards-go").addEventListener("click", function () {
    var d = counting.dealing;
    if (!d) return;
    var missing = Object.keys(d.cards).sort(function (a, b) { return a - b; }).filter(function (seat) {
      return d.cards[seat].some(function (code) { return !code; });
    })[0];
    if (missing) {
      nextSlot();
      paintCards();
      api.say(fmt(extra.raceCardMissing, {seat: missing}), false);
      return;
    }
    raceWith(d.seats, d.cards, $("race-cards-go"));
  });

  function renderSheet(r, sheet) {
    var bySeat = {};
    sheet.seats.forEach(function (s) { bySeat[s.seat] = s; });
    var confirmed = sheet.status === "confirmed";
    $("race-sheet").classList.toggle("confirmed", confirmed);
    $("race-sheet").dataset.status = sheet.status;
    $("race-sheet-title").textContent = fmt(extra.raceSheetTitle, {table: sheet.table});
    $("race-print-line").textContent = $("race-title").textContent + " · " + $("race-new").textContent;
    $("race-stamp").hidden = !confirmed;
    $("race-new-head").textContent = fmt(extra.raceNewChips, {chip: num(sheet.new_chip)});
    var body = $("race-result");
    body.textContent = "";
    sheet.seats.forEach(function (s) {
      var tr = el("tr", (s.won ? "won" : "") + (s.protection ? " protected" : ""));
      tr.dataset.seat = s.seat;
      function td(cls, label, content) {
        var c = el("td", cls);
        if (label) c.dataset.label = label;
        if (typeof content === "string") c.textContent = content; else if (content) c.appendChild(content);
        tr.appendChild(c);
        return c;
      }
      td("r-c-seat", null, String(s.seat));
      td("r-c-name", null, s.name);
      var counted = el("span", null, s.leaving.map(function (pair) { return num(pair[1]) + " × " + num(pair[0]); }).join(", "));
      if (s.other_value === 0) { var wrap = el("span"); wrap.appendChild(counted); wrap.appendChild(el("span", "r-sub r-note", extra.raceOnly)); counted = wrap; }
      td("r-c-counted", extra.raceCounted, counted);
      var odd = el("span", null, num(s.odd_chips));
      if (s.odd_chips) { var w = el("span"); w.appendChild(odd); w.appendChild(el("span", "r-sub", " (" + num(s.odd_value) + ")")); odd = w; }
      td("r-c-odd", extra.raceOdd, odd);
      var cards = el("span", "r-cards");
      (s.cards || []).forEach(function (c) { cards.appendChild(card(c)); });
      if (!(s.cards || []).length) cards.textContent = "–";
      td("r-c-cards", extra.raceCards, cards);
      td("r-c-race", extra.raceRace, s.won ? "● " + extra.raceWon : s.protection ? "◆ " + extra.raceProtection : "–");
      td("r-c-new", $("race-new-head").textContent, num(s.new_chips));
      body.appendChild(tr);
    });
    var ol = $("race-winners");
    ol.textContent = "";
    sheet.winners.forEach(function (seat) {
      ol.appendChild(el("li", null, fmt(extra.raceWinner, {seat: seat, name: (bySeat[seat] || {}).name || ""})));
    });
    if (!sheet.winners.length) ol.appendChild(el("li", null, extra.raceNoWinners));
    $("race-difference").textContent = signed(sheet.difference);
    $("race-difference").dataset.difference = sheet.difference;
    $("race-difference-says").textContent = sheet.difference > 0 ? extra.raceAdded : sheet.difference < 0 ? extra.raceRemoved : extra.raceUnchanged;
    var draw = $("race-draw");
    draw.textContent = "";
    if (sheet.draw !== null && sheet.draw !== undefined) {
      var a = el("a", null, fmt(extra.raceDraw, {n: sheet.draw}));
      a.href = drawsUrl + sheet.draw + "/";
      a.target = "_blank";
      a.rel = "noopener";
      a.id = "race-draw-link";
      draw.appendChild(a);
    } else {
      draw.textContent = extra.raceCardsEntered;
    }
    $("race-redo").hidden = confirmed;
    $("race-confirm").hidden = confirmed;
    $("race-print").hidden = !confirmed;
  }
  $("race-redo").addEventListener("click", function () {
    var r = table.race, sheet = r && r.sheet;
    if (!sheet) return;
    counting.redo = sheet.id;
    counting.dealing = null;
    counting.mode = sheet.cards_entered ? "hand" : "seed";
    counting.counts = {};
    counting.only = {};
    sheet.seats.forEach(function (s) {
      var seat = String(s.seat);
      counting.counts[seat] = {};
      s.leaving.forEach(function (pair) { counting.counts[seat][String(pair[0])] = String(pair[1]); });
      counting.only[seat] = s.other_value === 0;
    });
    racePad.sel = null;
    renderRace(true);
    racePad.select(racePad.fields()[0]);
    racePad.paint();
    $("race").scrollIntoView({block: "start"});
  });
  $("race-confirm").addEventListener("click", function () {
    var sheet = table.race && table.race.sheet;
    if (!sheet || !window.confirm(fmt(extra.raceConfirmAsk, {difference: signed(sheet.difference)}))) return;
    racePress($("race-confirm"), function (k) { return api.post(raceConfirmUrl, {}, {key: k}); }, extra.raceConfirmed);
  });
  $("race-print").addEventListener("click", function () { window.print(); });
  $("race-show").addEventListener("click", function () {
    var sheet = table.race && table.race.sheet;
    counting.open = sheet && counting.open !== sheet.id ? sheet.id : null;
    renderRace(true);
  });
  // --- The table's stacks counted (tables/counting.py): every seated player's chips, typed on the pad -------
  // The players come from the API (GET counts/, with each one's last count); the counts typed are kept by entry
  // number, so a table read again after a refusal (a player busted or moved meanwhile) keeps the others' counts.
  // Save sends the whole table at once (POST counts/), as the server wants it.
  var countsUrl = urls.counts;
  var stacks = {players: [], typed: {}};
  var stacksPad = NumberPad({
    box: $("stacks"), rows: $("stacks-rows"), pad: $("stacks-pad"), target: $("stacks-target"), max: urls.maxChips,
    open: function () { return !$("stacks").hidden; },
    read: function (f) { return stacks.typed[f.dataset.field] || ""; },
    write: function (f, v) { if (v === "") delete stacks.typed[f.dataset.field]; else stacks.typed[f.dataset.field] = v; },
    show: num,
    targetText: function (f) { return fmt(extra.stacksTarget, {seat: f.dataset.seat, name: f.dataset.name}); },
    pick: extra.stacksPick,
    end: function () { $("stacks-save").scrollIntoView({block: "nearest"}); }
  });
  function renderStacks(answer) {
    var box = $("stacks-rows"), seated = {};
    stacks.players = answer.players;
    box.textContent = "";
    stacks.players.forEach(function (p) {
      var entry = String(p.entry), id = "stacks-" + entry;
      seated[entry] = true;
      var row = el("div", "r-row");
      row.dataset.seat = p.seat;
      var seat = el("span", "r-seat", String(p.seat)), name = el("span", "r-name", p.name);
      seat.id = id + "-seat";
      name.id = id + "-name";
      name.appendChild(el("small", "s-last", p.chips === null ? extra.stacksNever : fmt(extra.stacksLast, {chips: num(p.chips)})));
      var f = el("button", "r-field s-stack");
      f.type = "button";
      f.id = id;
      f.dataset.field = entry;
      f.dataset.seat = p.seat;
      f.dataset.name = p.name;
      f.setAttribute("aria-labelledby", seat.id + " " + name.id + " " + id);  // seat, name, last count, the count typed
      f.appendChild(el("small", null, extra.stacksChips));
      f.appendChild(el("b"));
      row.appendChild(seat);
      row.appendChild(name);
      row.appendChild(f);
      box.appendChild(row);
    });
    Object.keys(stacks.typed).forEach(function (entry) { if (!seated[entry]) delete stacks.typed[entry]; });
    if (!stacks.players.length) box.appendChild(el("p", "r-help", extra.raceNoPlayers));
    $("stacks-save").disabled = !stacks.players.length;
    if (!stacksPad.field(stacksPad.sel)) {
      var all = stacksPad.fields();
      stacksPad.select(all.filter(function (f) { return !stacks.typed[f.dataset.field]; })[0] || all[0] || null);
    }
    stacksPad.paint();
  }
  // A whole table typed on the number pad (the stacks counted, the bags): its button opens it with the API's read
  // of the table (the typed values start afresh) and closes it again, as do Cancel and Escape; `closed` does the
  // panel's own tidying. Returns the panel's close.
  function padPanel(id, o) {
    function close() {
      var inside = $(id).contains(document.activeElement) || document.activeElement === document.body;
      $(id).hidden = true;
      $(id + "-open").setAttribute("aria-expanded", "false");
      o.pad.sel = null;
      if (o.closed) o.closed();
      if (inside && !$(id + "-open").hidden) $(id + "-open").focus();
    }
    $(id + "-open").addEventListener("click", function () {
      if (!$(id).hidden) { close(); return; }
      // Offline (and no copy of the table's players kept by the service worker): the panel cannot open, and says why.
      api.press($(id + "-open"), function () {
        return api.get(o.url).catch(function (error) {
          if (error && error.code === "network" && o.offline) error.message = o.offline;
          throw error;
        });
      }, null).then(function (answer) {
        if (!answer || !answer.players) return;
        o.state.typed = {};
        o.pad.sel = null;
        $(id + "-say").hidden = true;
        $(id).hidden = false;
        $(id + "-open").setAttribute("aria-expanded", "true");
        o.render(answer);
        $(id).scrollIntoView({block: "start"});
        var first = o.pad.field(o.pad.sel);
        if (first) first.focus({preventScroll: true});
      });
    });
    $(id + "-cancel").addEventListener("click", close);
    $(id).addEventListener("keydown", function (e) { if (e.key === "Escape") { e.preventDefault(); close(); } });
    return close;
  }
  var closeStacks = padPanel("stacks", {pad: stacksPad, url: countsUrl, state: stacks, render: renderStacks,
                                        offline: extra.stacksOffline});
  $("stacks-save").addEventListener("click", function () {
    var seats = {}, missing = null;
    stacks.players.forEach(function (p) {
      var v = stacks.typed[String(p.entry)];
      if (!v) { missing = missing || p; return; }
      seats[String(p.seat)] = Number(v);
    });
    if (missing) {
      stacksPad.select(stacksPad.field(missing.entry));
      stacksPad.paint(true);
      api.say(fmt(extra.stacksMissing, {seat: missing.seat}), false);
      return;
    }
    api.press($("stacks-save"), function (k) { return api.post(countsUrl, {seats: seats}, {key: k}); }, function (a) {
      return fmt(ngettext("Counted: {n} player, total {total}", "Counted: {n} players, total {total}", a.counted),
                 {n: a.counted, total: num(a.total)});
    }).then(function (answer) {
      if (answer && answer.players) { closeStacks(); return; }
      // Refused (the message stays said): the table as it is now, the counts typed kept for the players still here.
      api.get(countsUrl).then(function (now) { if (!$("stacks").hidden && now && now.players) renderStacks(now); }, function () {});
    });
  });

  // --- Bag-and-tag at the end of a day (days/services.py): every seated player's chips, on the pad, and the number
  // written on his bag, in a text field (the tablet's keyboard). The players come from the API (GET bags/: today's
  // bag of each, and his last count, the chips' starting value); what is typed is kept by entry number, so a table
  // read again after a refusal keeps it. Save sends the whole table at once (POST bags/). A table already bagged
  // shows its bags: saved again, they are corrected.
  var bagsUrl = urls.bags;
  var bagging = {players: [], typed: {}};
  function bagOf(entry) { return bagging.typed[entry] = bagging.typed[entry] || {chips: "", bag: ""}; }
  function bagRow(f) { return f.closest(".r-row"); }
  var bagsPad = NumberPad({
    box: $("bags"), rows: $("bags-rows"), pad: $("bags-pad"), target: $("bags-target"), max: urls.maxChips,
    open: function () { return !$("bags").hidden; },
    read: function (f) { return bagOf(f.dataset.field).chips; },
    write: function (f, v) { bagOf(f.dataset.field).chips = v; },
    show: num,
    targetText: function (f) { return fmt(extra.stacksTarget, {seat: f.dataset.seat, name: f.dataset.name}); },
    pick: extra.stacksPick,
    // Next on the chips: the same seat's bag number, typed on the keyboard (Enter there: the next seat's chips).
    next: function (f) {
      var input = bagRow(f).querySelector(".b-bag input");
      input.focus();
      input.select();
      return true;
    },
    end: function () { $("bags-save").scrollIntoView({block: "nearest"}); }
  });
  function bagsState(answer) {
    var words = fmt(extra.bagsDay, {day: answer.day}) + " · ";
    words += answer.bagged ? fmt(ngettext("{n} of {of} player bagged, total {total}", "{n} of {of} players bagged, total {total}",
                                          answer.players.length), {n: answer.bagged, of: answer.players.length, total: num(answer.total)})
      : extra.bagsNone;
    $("bags-state").textContent = words;
  }
  function renderBags(answer) {
    var box = $("bags-rows"), seated = {}, focused = document.activeElement;
    var again = focused && box.contains(focused) && focused.dataset.bag ? focused.dataset.bag : null;
    bagging.players = answer.players;
    box.textContent = "";
    bagging.players.forEach(function (p) {
      var entry = String(p.entry), id = "bags-" + entry;
      seated[entry] = true;
      if (!bagging.typed[entry]) {  // what the tablet starts from: today's bag, else the chips of his last count
        var chips = p.chips !== null ? p.chips : p.last_count;
        bagging.typed[entry] = {chips: chips === null || chips === undefined ? "" : String(chips), bag: p.bag || ""};
      }
      var row = el("div", "r-row b-row" + (p.bag ? " bagged" : ""));
      row.dataset.seat = p.seat;
      row.dataset.entry = entry;
      var seat = el("span", "r-seat", String(p.seat)), name = el("span", "r-name", p.name);
      seat.id = id + "-seat";
      name.id = id + "-name";
      name.appendChild(el("small", "s-last", p.bag ? fmt(extra.bagsBagged, {bag: p.bag, chips: num(p.chips)})
        : p.last_count === null ? extra.stacksNever : fmt(extra.stacksLast, {chips: num(p.last_count)})));
      var f = el("button", "r-field s-stack");
      f.type = "button";
      f.id = id;
      f.dataset.field = entry;
      f.dataset.seat = p.seat;
      f.dataset.name = p.name;
      f.setAttribute("aria-labelledby", seat.id + " " + name.id + " " + id);  // seat, name, his bag or last count, the chips
      f.appendChild(el("small", null, extra.stacksChips));
      f.appendChild(el("b"));
      var label = el("label", "b-bag"), input = el("input");
      label.htmlFor = id + "-bag";
      label.appendChild(el("small", null, extra.bagsBag));
      input.type = "text";
      input.id = id + "-bag";
      input.dataset.bag = entry;
      input.autocomplete = "off";
      input.spellcheck = false;
      input.setAttribute("autocapitalize", "characters");
      input.setAttribute("enterkeyhint", "next");
      input.setAttribute("aria-label", fmt(extra.bagsBagLabel, {seat: p.seat, name: p.name}));
      input.value = bagging.typed[entry].bag;
      label.appendChild(input);
      row.appendChild(seat);
      row.appendChild(name);
      row.appendChild(f);
      row.appendChild(label);
      box.appendChild(row);
      if (again === entry) input.focus({preventScroll: true});
    });
    Object.keys(bagging.typed).forEach(function (entry) { if (!seated[entry]) delete bagging.typed[entry]; });
    if (!bagging.players.length) box.appendChild(el("p", "r-help", extra.raceNoPlayers));
    $("bags-save").disabled = !bagging.players.length;
    bagsState(answer);
    if (!bagsPad.field(bagsPad.sel)) {
      var all = bagsPad.fields();
      bagsPad.select(all.filter(function (x) { return !bagging.typed[x.dataset.field].chips; })[0] || all[0] || null);
    }
    bagsPad.paint();
  }
  $("bags-rows").addEventListener("input", function (e) {
    if (e.target.dataset.bag) bagOf(e.target.dataset.bag).bag = e.target.value;
  });
  $("bags-rows").addEventListener("focusin", function (e) {  // the row of the bag number typed is the pad's too
    if (!e.target.dataset.bag) return;
    bagsPad.select(bagsPad.field(e.target.dataset.bag));
    bagsPad.paint();
  });
  $("bags-rows").addEventListener("keydown", function (e) {  // Enter in a bag number: the next seat's chips
    if (e.key !== "Enter" || !e.target.dataset.bag) return;
    e.preventDefault();
    var all = bagsPad.fields(), next = all[all.indexOf(bagsPad.field(e.target.dataset.bag)) + 1] || null;
    bagsPad.select(next);
    bagsPad.paint(true);
    if (next) next.focus({preventScroll: true}); else $("bags-save").focus();
  });
  var closeBags = padPanel("bags", {pad: bagsPad, url: bagsUrl, state: bagging, render: renderBags,
                                    closed: function () { view.tick(); }});  // the button stays only while the day is over
  $("bags-save").addEventListener("click", function () {
    var rows = [], missing = null;
    bagging.players.forEach(function (p) {
      var typed = bagOf(String(p.entry));
      if (!missing && !typed.chips) missing = {p: p, what: "chips"};
      else if (!missing && !typed.bag.trim()) missing = {p: p, what: "bag"};
      rows.push({seat: p.seat, chips: Number(typed.chips), bag: typed.bag});
    });
    if (missing) {  // every seated player is bagged at once: the first gap is said and selected
      bagsPad.select(bagsPad.field(missing.p.entry));
      bagsPad.paint(true);
      api.say(fmt(missing.what === "chips" ? extra.bagsMissingChips : extra.bagsMissingBag, {seat: missing.p.seat}), false);
      if (missing.what === "bag") $("bags-" + missing.p.entry + "-bag").focus();
      return;
    }
    api.press($("bags-save"), function (k) { return api.post(bagsUrl, {bags: rows}, {key: k}); }, function (a) {
      return fmt(ngettext("Bagged: {n} player, total {total}", "Bagged: {n} players, total {total}", a.bagged),
                 {n: a.bagged, total: num(a.total)});
    }).then(function (answer) {
      if (answer && answer.players) { closeBags(); return; }
      // Refused (the message stays said): the table as it is now, what was typed kept for the players still here.
      api.get(bagsUrl).then(function (now) { if (!$("bags").hidden && now && now.players) renderBags(now); }, function () {});
    });
  });

  // --- Calling the clock on a player (table.clock_call, tables/clock_calls.py, TDA 25) -----------------------
  // "Call the clock" lists the seated players (the API's counts/, as "Count stacks" does), one is picked, the
  // call is sent. While a call is open its banner counts down against the server's time (sync.now()): m:ss, the
  // last `countdown` seconds as one large number, then "Hand dead". Screen readers hear the start, the last
  // seconds once and the hand dead (the ticking digits are hidden from them).
  var callUrl = urls.clockCall, callEndUrl = urls.clockCallEnd;
  var calling = {players: [], seat: null, said: "", saying: false};
  var GRACE = 0.3;  // s past the end before the tablet says "Hand dead": the server's time is up by then
  function callLeft(c) { return Date.parse(c.ends_at) / 1000 - sync.now(); }
  function mss(s) { return Math.floor(s / 60) + ":" + (s % 60 < 10 ? "0" : "") + (s % 60); }
  // What the banner's status region says, once a moment: set a beat after the banner shows, to be heard.
  function announce(key, text) {
    if (calling.said === key) return;
    calling.said = key;
    window.setTimeout(function () { if (calling.said === key) $("call-announce").textContent = text; }, 150);
  }
  function tickCall() {
    var c = table.clock_call;
    if (!c) return;
    var left = callLeft(c), up = left <= -GRACE || (c.time_up && left <= 0), shown = Math.max(0, Math.ceil(left - 0.0005));
    var big = up || shown <= c.countdown;
    $("call-time").hidden = big;
    $("call-time").textContent = mss(shown);
    $("call-big").hidden = !big;
    $("call-big").textContent = up ? extra.callDead : String(shown);
    $("call-big").classList.toggle("dead", up);
    $("call-banner").classList.toggle("last", big && !up);
    $("call-banner").classList.toggle("dead", up);
    $("call-banner").dataset.left = up ? "dead" : String(shown);
    $("call-acted").hidden = up;
    $("call-acted").disabled = up || $("call-acted").getAttribute("aria-busy") === "true";
    if ($("call-dead").getAttribute("aria-busy") !== "true") $("call-dead").disabled = !up;
    // Heard: the start (who, the time left), the last seconds once, the hand dead; never each second.
    var key = c.call + ":", last = shown <= c.countdown;
    if (up) announce(key + "dead", extra.callDead);
    else if (calling.said.indexOf(key) !== 0) {
      announce(key + (last ? "last" : "start"), fmt(ngettext("Clock on seat {seat} · {name}: {n} second left",
        "Clock on seat {seat} · {name}: {n} seconds left", shown), {seat: c.seat, name: c.name, n: shown}));
    } else if (last && calling.said === key + "start") {
      announce(key + "last", fmt(ngettext("{n} second left", "{n} seconds left", shown), {n: shown}));
    }
  }
  function renderCall() {
    var c = table.clock_call || null, picking = !$("call-pick").hidden;
    var focused = picking && $("call-pick").contains(document.activeElement);
    if (c && picking) closePick(false);  // a call came from elsewhere (the floor) meanwhile
    $("call-banner").hidden = !c;
    $("call-actions").hidden = !c;
    $("call-open").hidden = !!c;
    $("call").hidden = !c && $("call-pick").hidden;
    if (!c) {
      $("call-banner").dataset.call = "";
      if ($("call-actions").contains(document.activeElement)) $("call-open").focus();
      return;
    }
    if ($("call-banner").dataset.call !== String(c.call)) {
      $("call-banner").dataset.call = String(c.call);
      $("call-say").hidden = true;  // a refusal said before this call
      $("call-banner").dataset.seat = String(c.seat);
      $("call-title").textContent = fmt(extra.callOn, {seat: c.seat, name: c.name});
    }
    tickCall();
    if (focused) $("call-cancel").focus({preventScroll: true});
  }
  setInterval(tickCall, 200);
  function paintPick() {
    $("call-seats").querySelectorAll("button").forEach(function (b) {
      b.setAttribute("aria-pressed", b.dataset.seat === String(calling.seat) ? "true" : "false");
    });
    $("call-go").disabled = calling.seat === null;
    $("call-go").textContent = calling.seat === null ? gettext("Call the clock") : fmt(extra.callGo, {seat: calling.seat});
  }
  function renderPick(answer) {
    var box = $("call-seats");
    calling.players = answer.players;
    box.textContent = "";
    calling.players.forEach(function (p) {
      var b = el("button", "c-seat");
      b.type = "button";
      b.dataset.seat = String(p.seat);
      b.appendChild(el("b", null, String(p.seat)));
      b.appendChild(el("span", null, p.name));
      b.setAttribute("aria-label", fmt(extra.callSeat, {seat: p.seat, name: p.name}));
      box.appendChild(b);
    });
    if (!calling.players.length) box.appendChild(el("p", "r-help", extra.raceNoPlayers));
    if (!calling.players.some(function (p) { return p.seat === calling.seat; })) calling.seat = null;
    paintPick();
  }
  function closePick(focus) {
    var inside = $("call-pick").contains(document.activeElement);
    $("call-pick").hidden = true;
    $("call-open").setAttribute("aria-expanded", "false");
    $("call").hidden = !table.clock_call;
    $("call-say").hidden = true;
    calling.seat = null;
    if (inside && focus !== false && !$("call-open").hidden) $("call-open").focus();
  }
  $("call-open").addEventListener("click", function () {
    if (!$("call-pick").hidden) { closePick(); return; }
    api.press($("call-open"), function () { return api.get(countsUrl); }, null).then(function (answer) {
      if (!answer || !answer.players || table.clock_call) return;
      calling.seat = null;
      $("call-say").hidden = true;
      $("call").hidden = false;
      $("call-pick").hidden = false;
      $("call-open").setAttribute("aria-expanded", "true");
      renderPick(answer);
      $("call").scrollIntoView({block: "start"});
      var first = $("call-seats").querySelector("button");
      if (first) first.focus({preventScroll: true});
    });
  });
  $("call-seats").addEventListener("click", function (e) {
    var b = e.target.closest("button");
    if (!b) return;
    calling.seat = Number(b.dataset.seat);
    paintPick();
  });
  $("call-pick-cancel").addEventListener("click", function () { closePick(); });
  $("call-pick").addEventListener("keydown", function (e) { if (e.key === "Escape") { e.preventDefault(); closePick(); } });
  // A press of the clock call's buttons: its answer is said by them too (#call-say), then the state again.
  function callPress(button, call, done) {
    calling.saying = true;
    return api.press(button, call, done).then(function (answer) {
      calling.saying = false;
      poll();
      tickCall();
      return answer;
    });
  }
  $("call-go").addEventListener("click", function () {
    var seat = calling.seat;
    if (seat === null) return;  // the button is disabled until a seat is picked
    callPress($("call-go"), function (k) { return api.post(callUrl, {seat: seat}, {key: k}); }, function (c) {
      return fmt(extra.callStarted, {seat: c.seat, name: c.name});
    }).then(function (c) {
      if (!c || !c.call) return;
      table.clock_call = c;
      closePick(false);
      renderCall();
      $("call-acted").focus({preventScroll: true});
    });
  });
  function endCall(button, outcome, done) {
    callPress(button, function (k) { return api.post(callEndUrl, {outcome: outcome}, {key: k}); }, done).then(function (c) {
      if (!c || !c.outcome) return;
      var focus = $("call").contains(document.activeElement);
      table.clock_call = null;
      renderCall();
      if (focus) $("call-open").focus({preventScroll: true});
    });
  }
  $("call-acted").addEventListener("click", function () { endCall($("call-acted"), "acted", extra.callActed); });
  $("call-dead").addEventListener("click", function () { endCall($("call-dead"), "dead", extra.callDeclared); });
  $("call-cancel").addEventListener("click", function () {
    if (window.confirm(extra.callAskCancel)) endCall($("call-cancel"), "cancelled", extra.callCancelled);
  });

  // api.js says every answer in #dealer-feedback, below the shuffle button: the race and the stacks repeat it by
  // their buttons (hidden from screen readers, which hear it once).
  $("dealer-feedback").addEventListener("api:said", function (e) {
    var pairs = [["race-say", "race"], ["stacks-say", "stacks"], ["bags-say", "bags"]];
    // The clock call repeats only its refusals by its buttons (its banner says the rest).
    if (calling.saying && !e.detail.ok) pairs.push(["call-say", "call"]); else $("call-say").hidden = true;
    pairs.forEach(function (pair) {
      var say = $(pair[0]);
      say.textContent = e.detail.message || "";
      say.hidden = $(pair[1]).hidden || !e.detail.message;
      say.classList.toggle("success", e.detail.ok);
      say.classList.toggle("error", !e.detail.ok);
    });
  });
  renderRace();
  renderPenalties();
  renderCall();

  Clock.keepAwake();
  window.dealerPage = {view: view, sync: sync, poll: poll, socket: socket};
})();
