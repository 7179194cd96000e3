/* The floor's table map: every table as a card with its seats. Live over the floor socket: an
   event that touches seats (or a gap, a reconnect) refetches the map, debounced. Every action goes
   through the documented JSON API with the shared client (static/js/api.js: one Idempotency-Key
   per press, the button busy meanwhile, a refusal's translated detail shown in #notice); the
   message of a done action is built here from the API's answer with the page's translated
   templates (#map-i18n data-done-*). The map then refetches map.json. Needs live.js and api.js. */
(function () {
  "use strict";
  var urls = window.MAP_URLS, s = document.getElementById("map-i18n").dataset;
  var grid = document.getElementById("map");
  var state = JSON.parse(document.getElementById("map-state").textContent);
  var chosen = null, buttonTable = null, lastBust = null, timer = null, loading = false, again = false;

  function fmt(text, values) { return text.replace(/\{(\w+)\}/g, function (m, k) { return values[k] !== undefined ? values[k] : m; }); }
  function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }
  function at(url, n) { return url.replace("999999", n); }
  function num(n) { return Number(n).toLocaleString(document.documentElement.lang || undefined); }
  function signed(n) { return (n > 0 ? "+" : n < 0 ? "−" : "±") + num(Math.abs(n || 0)); }

  var POSITIONS = {big_blind: s.posBb, small_blind: s.posSb, button: s.posButton, wait_for_button: s.posWait,
                   in_play: s.posPlay, unknown: s.posUnknown};
  function balancing() { return state.moves || {halted: [], need_button: [], moves: []}; }
  // Open seats held by a pending slip: "table:seat" -> the arriving entry.
  function reservedSeats() {
    var out = {};
    balancing().moves.forEach(function (m) { out[m.to.table + ":" + m.to.seat] = m.entry; });
    return out;
  }
  // A whole number typed by the floor goes to the API as a number; anything else as typed (the API
  // says what is wrong with it).
  function whole(value) { value = String(value === undefined || value === null ? "" : value).trim(); return /^\d+$/.test(value) ? Number(value) : value; }

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
      return fmt(e.finish_place_low ? s.doneBustTie : s.doneBust, values);
    },
    undo: function (e) { return fmt(s.doneUndo, {number: e.number}); },
    correct: function (a) { return fmt(s.doneCorrect, {number: a.entry, table: a.table, seat: a.seat}); },
    button: function (a) { return fmt(s.doneButton, {table: a.table, seat: a.button}); },
    positions: function (a) { return fmt(s.doneButton, {table: a.table, seat: a.positions.button}); },
    confirm: function (m) { return fmt(s.doneConfirm, {move: m.move, entry: m.entry, table: m.to.table, seat: m.to.seat}); },
    cancel: function (m) { return fmt(s.doneCancel, {move: m.move}); },
    balance: function (a) {
      if (!a.moves.length) return s.doneBalanced;
      return fmt(s.doneSlips, {moves: a.moves.map(function (m) { return "#" + m.move; }).join(", ")});
    },
    h4h: function (h) { return h.on ? s.doneH4hOn : s.doneH4hOff; },
    open: function (a) { return fmt(s.doneOpen, {number: a.table}); },
    draw: function (d) { return fmt(s.doneDraw, {draw: d.draw}); },
    waiting: function (d) { return fmt(s.doneWaiting, {draw: d.draw}); }
  };

  function renderMoves() {
    var list = document.getElementById("move-list"), slips = balancing().moves;
    list.textContent = "";
    slips.forEach(function (m) {
      var li = el("li");
      li.dataset.move = m.move;
      var text = el("span", "slip", fmt(s.slip, {m: m.move, name: m.name, e: m.entry, ft: m.from.table, fs: m.from.seat,
                                                 tt: m.to.table, ts: m.to.seat}) + " · " + (POSITIONS[m.position] || m.position));
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

  function render() {
    var m = state, halted = balancing().halted, needButton = balancing().need_button, reserved = reservedSeats();
    renderMoves();
    renderH4h();
    document.getElementById("next-commitment").textContent = m.next_draw ? m.next_draw.commitment : "—";
    document.getElementById("next-draw-number").textContent = m.next_draw ? "#" + m.next_draw.draw : "";
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
    // A refetch keeps what the floor is typing into a button form.
    var typed = {}, focused = document.activeElement && document.activeElement.id;
    grid.querySelectorAll(".m-need input").forEach(function (i) { typed[i.id] = i.value; });
    grid.textContent = "";
    m.tables.forEach(function (t) {
      var card = el("article", "m-table " + t.status);
      card.dataset.table = t.table;
      var head = el("div", "m-head");
      head.appendChild(el("h2", "", fmt(s.table, {n: t.table})));
      var status = el("span", "m-status", s["status" + t.status.charAt(0).toUpperCase() + t.status.slice(1)] || t.status);
      head.appendChild(status);
      if (halted.indexOf(t.table) >= 0) {
        card.classList.add("halted");
        var halt = el("span", "m-halt", s.halt);
        halt.title = s.haltTitle;
        head.appendChild(halt);
      }
      var step = h4hStep(t.table);
      if (step) head.appendChild(el("span", "m-h4h " + step, s["h4h" + step.charAt(0).toUpperCase() + step.slice(1)]));
      card.appendChild(head);
      if (t.race) {  // the color-up's chip race at this table: its tablet has the counts and the sheet
        var race = el("a", "m-race " + t.race.status, t.race.status === "waiting" ? s.raceWaiting
          : fmt(t.race.status === "confirmed" ? s.raceConfirmed : s.raceRecorded, {d: signed(t.race.difference)}));
        race.href = at(urls.dealer, t.table);
        race.title = s.raceTitle;
        card.appendChild(race);
      }
      if (needButton.indexOf(t.table) >= 0) {
        var need = el("div", "m-need");
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
        var holder = seat.entry ? undefined : reserved[t.table + ":" + seat.seat];
        var b = el("button", "m-seat" + (seat.entry ? "" : " empty") + (holder ? " reserved" : ""));
        b.type = "button";
        b.dataset.seat = seat.seat;
        if (seat.entry) b.dataset.entry = seat.entry;
        b.appendChild(el("span", "no", String(seat.seat)));
        var who = el("span", "who");
        if (seat.entry) { who.appendChild(el("b", "", seat.name)); who.appendChild(el("small", "", "#" + seat.entry)); }
        else who.appendChild(el("small", "", holder ? fmt(s.reserved, {n: holder}) : s.empty));
        b.appendChild(who);
        if (t.button === seat.seat) b.appendChild(el("span", "dealer-btn", "D"));
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
        var bb = el("button", "", "D?");
        bb.type = "button";
        bb.className = "button-draw";
        bb.title = fmt(s.drawButton, {n: t.table});
        bb.addEventListener("click", function () { openButton(t); });
        foot.appendChild(bb);
      }
      card.appendChild(foot);
      grid.appendChild(card);
    });
    Object.keys(typed).forEach(function (id) { var i = document.getElementById(id); if (i) i.value = typed[id]; });
    if (focused && typed[focused] !== undefined && document.getElementById(focused)) document.getElementById(focused).focus();
  }

  function refetch() {
    if (loading) { again = true; return; }
    loading = true;
    fetch(urls.json, {cache: "no-store", credentials: "same-origin"})
      .then(function (r) { return r.json(); })
      .then(function (m) { state = m; render(); })
      .catch(function () { /* the next event or reconnect tries again */ })
      .then(function () { loading = false; if (again) { again = false; refetch(); } });
  }
  function soon() { clearTimeout(timer); timer = setTimeout(refetch, 250); }

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
    });
  });
  document.getElementById("undo-bust").addEventListener("click", function (ev) {
    if (!lastBust) return;
    var who = lastBust;
    press(ev.currentTarget, at(urls.undo, who.entry), {}, DONE.undo).then(function (answer) {
      if (answer) { lastBust = null; document.getElementById("undo-bar").hidden = true; }
    });
  });
  document.getElementById("correct-go").addEventListener("click", function (ev) {
    var target = document.getElementById("correct-target").value.split(":");
    if (target.length !== 2) return;
    var who = chosen;
    seatDialog.close();
    press(ev.currentTarget, at(urls.seat, who.entry), {table: whole(target[0]), seat: whole(target[1])}, DONE.correct);
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
  if (start) start.addEventListener("click", function () { if (window.confirm(start.dataset.confirm)) press(start, urls.drawStart, {}, DONE.draw); });
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

  var TOUCHES = /^(seating\.|seat\.|seat_request\.|entry\.|table\.|tables\.|draw\.|move|break|balance|h4h\.|house_rules\.|colorup\.|race\.)/;
  var conn = Live.connect({
    path: urls.socket, badge: "#live",
    onSnapshot: function () { soon(); },  // first connect, reconnect or a gap: the map may be stale
    onEvent: function (m) {
      if (!TOUCHES.test(m.event.type)) return;
      slipsFrom(m.event);
      soon();
    }
  });
  render();
  window.floorMap = {refetch: refetch, conn: conn, get state() { return state; }};
})();
