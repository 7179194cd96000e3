/* The players' waiting-list board (templates/tables/waiting_board.html; web/tables/waiting_board.py): a sold-out
 * tournament's list on a phone, numbers and no names. The alternate types his number and reads where he stands ("You are
 * 5th in line", "Called: table 7 seat 3, sit down by 21:40", "Not waiting any more: seated, or off the list"), with the calls to
 * a seat and the numbers waiting. Live over the tournament's public socket (/ws/s/<id>/): on each push that may change
 * the list, and on every (re)connect, it reads the board again (the JSON of the page's config, ?v= the push's sequence,
 * answered once per version on the server). The number typed is kept in the address (?n=), so a reload shows the same. */
import * as Util from "./util.js";
import * as Live from "./live.js";
import * as Words from "./alternates.js";
import {offer as offerPush} from "./push-optin.js";

(function () {
  "use strict";
  var cfg = JSON.parse(document.getElementById("wb-config").textContent);
  var board = JSON.parse(document.getElementById("wb-state-data").textContent);
  var input = document.getElementById("wb-number"), zone = cfg.time_zone;
  var s = {
    none: gettext("No waiting list now: the tournament has seats. Register at the desk."),
    nobody: gettext("Nobody is waiting."),
    next: gettext("You are next in line."),
    nth: gettext("You are {nth} in line."),
    called: gettext("Called: {where}, {by}"),
    calledNoTime: gettext("Called: {where}"),
    wait: gettext("Wait for the button before you play."),
    gone: gettext("Not waiting any more: seated, or off the list. If you have no seat, ask the desk."),
    alternate: gettext("Alternate {number}"),
    you: gettext("you")
  };
  // Pushes that never change the list (the clock, hands, counts, penalties, money at the cage): no read for them.
  var QUIET = ["clock.", "clock_call.", "table.hand_", "table.button", "table.positions", "table.dealer_link", "table.token", "h4h.",
               "chips.", "penalty.", "race.", "colorup.", "bounty.", "league.", "display.", "bags.", "payout.", "deal."];

  function typed() {
    var value = Util.whole(input.value.replace(/^\s*#/, ""));
    return typeof value === "number" && value > 0 ? value : null;
  }
  function hasList(b) { return !!(b.sold_out || b.waiting.length || b.calls.length); }
  function showMine(b, number) {
    var box = document.getElementById("wb-mine");
    box.hidden = number === null;
    box.className = "wb-mine";
    box.textContent = "";
    if (number === null) return;
    var where = Words.standing(b, number), lines = [];
    if (where.state === "waiting") {
      lines.push(where.position === 1 ? s.next : Util.fmt(s.nth, {nth: Words.ordinal(where.position)}));
    } else if (where.state === "called") {
      var by = Words.sitBy(where.call, zone);
      lines.push(Util.fmt(by ? s.called : s.calledNoTime, {where: Words.where(where.call), by: by}));
      if (where.call.position === "wait_for_button") lines.push(s.wait);
    } else {
      lines.push(s.gone);
    }
    box.classList.add("is-" + where.state);
    box.append(Util.el("div", "wb-alt", Util.fmt(s.alternate, {number: number})));
    lines.forEach(function (line, i) { box.append(Util.el("div", i ? "wb-more" : "wb-line", line)); });
  }
  function show(b) {
    board = b;
    var number = typed();
    document.getElementById("wb-state").textContent = hasList(b) ? Words.headline(b) : s.none;
    showMine(b, number);
    var list = document.getElementById("wb-calls");
    list.textContent = "";
    b.calls.forEach(function (call) {
      var mine = call.number === number;
      list.appendChild(Util.el("li", mine ? "is-mine" : "", Words.line(call, zone) + (mine ? " (" + s.you + ")" : "")));
    });
    document.getElementById("wb-no-calls").hidden = b.calls.length > 0;
    document.getElementById("wb-waiting").textContent = b.waiting.length ? b.waiting.join(", ") : s.nobody;
  }

  // The number typed: shown at once, and kept in the address (a reload, a shared link show the same).
  document.getElementById("wb-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var number = typed(), url = new URL(location.href);
    if (number === null) url.searchParams.delete("n"); else url.searchParams.set("n", number);
    history.replaceState(null, "", url.pathname + url.search);
    show(board);
  });

  // The board read again: one read at a time, a burst of pushes asks once more after it.
  var held = cfg.version, loading = false, again = false, timer = null, conn = null;
  function refetch() {
    if (loading) { again = true; return; }
    loading = true;
    var v = conn && conn.seq !== null ? conn.seq : null;
    fetch(cfg.json + (v !== null ? "?v=" + v : ""), {cache: "no-store"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (b) {
        if (!b) return;
        if (v !== null && !(v <= held)) held = v;
        show(b);
      })
      .catch(function () { /* the next push or reconnect reads it again */ })
      .then(function () { loading = false; if (again) { again = false; refetch(); } });
  }
  function soon() { clearTimeout(timer); timer = setTimeout(refetch, 250); }
  conn = Live.connect({
    path: cfg.socket, badge: "#live",
    // Every (re)connect: a push may have been missed meanwhile; the page's own version needs no second read.
    onSnapshot: function (m) { if (!(typeof m.seq === "number" && typeof held === "number" && m.seq <= held)) soon(); },
    onEvent: function (m) {
      var type = String(m.type || "");
      if (!QUIET.some(function (prefix) { return type.indexOf(prefix) === 0; })) soon();
    }
  });
  show(board);
  offerPush(document.getElementById("push"), cfg.push);  // the number typed: "Tell me on this phone" (push-optin.js)
  window.waitingBoard = {refetch: refetch, conn: conn, get board() { return board; }};
})();
