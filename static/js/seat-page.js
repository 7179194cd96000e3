/* The player's seat page: name, table and seat, big. Live over the tournament's public socket:
   when a push names this entry (or a draw, a gap, a reconnect happens) it refetches its seat, and
   shows "You have been moved" when the table or seat changed. */
import * as Util from "./util.js";
import * as Live from "./live.js";
import * as Alternates from "./alternates.js";
import {offer as offerPush} from "./push-optin.js";

(function () {
  "use strict";
  var cfg = JSON.parse(document.getElementById("seat-config").textContent), s = {
    moved: gettext("You have been moved: table {table} seat {seat}"),
    out: gettext("You are out in place {place}. Thank you for playing."),
    outNoPlace: gettext("This entry is out of the tournament."),
    // A Day 1 flight gives no places (they are Day 2's): out of this flight, another may still be open to him.
    outFlight: gettext("You are out of flight {flight}. Thank you for playing."),
    outTie: gettext("You are out, tied for places {place} to {low}. Thank you for playing."),
    go: gettext("Move to table {table} seat {seat}"),
    goAfter: gettext("when the hand in play is over; take your chips."),
    goNow: gettext("now; take your chips."),
    posWait: pgettext("seat position", "wait for the button"),  // said to the player; the floor's words are live.js's
    prize: gettext("Your prize: {prize}. Collect it at the cashier with the ID you registered with."),
    prizePaid: gettext("Your prize: {prize}, paid at the cashier. Congratulations!"),
    seatWon: gettext("You won a seat in {target}. Show the same ID at its registration: no payment is taken."),
    wait: gettext("No seat yet: your seat is drawn at the start or as soon as you register late. This page updates by itself."),
    // A day after the first: the day and the stack the player sits down with (null chips: the house keeps counts private).
    dayBag: gettext("Day {day} · stack {chips} (bag {bag})"),
    dayCount: gettext("Day {day} · stack {chips} (last count)"),
    dayBagOnly: gettext("Day {day} · bag {bag}"),
    dayOnly: gettext("Day {day}"),
    nextDraw: gettext("Commitment of the next draw (#{draw}):"),
    // An alternate seated from the waiting list who has not sat down yet (the answer's "alternate").
    altWait: gettext("Wait for the button before you play."),
    altNote: gettext("If you have not sat down by then, you lose your turn: the seat goes to the next alternate."),
    // A bounty event: his own figures (the public answer's "bounty").
    head: gettext("The bounty on your head: {amount}"),
    won: gettext("Bounties you have won: {amount}"),
    knockouts: function (n) { return ngettext("Bounties you have won: {amount} ({n} knockout)", "Bounties you have won: {amount} ({n} knockouts)", n); },
    owed: gettext("To collect at the cashier with the ID you registered with: {amount}")
  };
  // A bounty event's box, after the prizes (the page's markup has no place for it): his head while he plays on, the
  // bounties he has won and his knockouts. Hidden outside a bounty event and while there is nothing to say.
  var bountyBox = Util.el("div", "p-prize p-bounty");
  bountyBox.id = "seat-bounty";
  bountyBox.setAttribute("role", "status");
  bountyBox.hidden = true;
  document.getElementById("seat-won").after(bountyBox);
  var seat = JSON.parse(document.getElementById("seat-state").textContent);
  var timer = null, loading = false, again = false;
  // The seats' version the shown seat is at least as new as (web/caching.py): the page's own, then the one of a
  // snapshot it refetched for. A snapshot whose seats are no newer (the socket's first, a moment after the page)
  // needs no refetch: the draw rush's phones ask once, not twice.
  var held = cfg.version, wanted = null;

  var fmt = Util.fmt;
  function dayLine(d) {
    var facts = {day: d.day, bag: d.bag || "", chips: d.chips === null || d.chips === undefined ? "" : Live.number(d.chips)};
    if (facts.chips === "") return fmt(d.bag ? s.dayBagOnly : s.dayOnly, facts);
    return fmt(d.bag ? s.dayBag : s.dayCount, facts);
  }
  function show(now) {
    document.getElementById("seat-name").textContent = now.name;
    var seated = now.table !== null && now.status === "active";
    document.getElementById("seat-boxes").hidden = !seated;
    document.getElementById("seat-table").textContent = seated ? now.table : "";
    document.getElementById("seat-seat").textContent = seated ? now.seat : "";
    var out = document.getElementById("seat-out"), wait = document.getElementById("seat-wait");
    out.hidden = now.status === "active";
    out.textContent = !now.place ? (cfg.flight && now.status === "busted" ? fmt(s.outFlight, {flight: cfg.flight}) : s.outNoPlace) : (now.place_low && now.place_low !== now.place
      ? fmt(s.outTie, {place: now.place, low: now.place_low}) : fmt(s.out, {place: now.place}));
    // A pending move slip: where to go, and the position waiting there.
    var go = document.getElementById("go"), m = now.status === "active" ? now.move : null;
    go.hidden = !m;
    // The seat held now is labelled as such (and drawn smaller) while a move is pending.
    document.getElementById("seat-now").hidden = !(m && seated);
    document.getElementById("seat-boxes").classList.toggle("leaving", !!(m && seated));
    if (m) {
      document.getElementById("go-where").textContent = fmt(s.go, {table: m.table, seat: m.seat})
        + Live.slipPosition(m.position, {wait_for_button: s.posWait, in_play: ""});
      document.getElementById("go-when").textContent = m.after_hand ? s.goAfter : s.goNow;
    }
    var prize = document.getElementById("seat-prize");
    prize.hidden = !now.prize;
    prize.textContent = now.prize ? fmt(now.prize_paid ? s.prizePaid : s.prize, {prize: Util.money(now.prize, cfg.currency)}) : "";
    var won = document.getElementById("seat-won");  // a satellite's seat
    won.hidden = !now.seat_won;
    won.textContent = now.seat_won ? fmt(s.seatWon, {target: now.seat_won}) : "";
    showBounty(now);
    showAlternate(now);
    var day = document.getElementById("seat-day"), stack = now.status === "active" ? now.day_stack : null;
    day.hidden = !stack;
    day.textContent = stack ? dayLine(stack) : "";
    wait.hidden = !(now.status === "active" && now.table === null);
    wait.textContent = s.wait;
    var next = now.next_draw;  // the commitment anyone can check the coming draw against (a new one after each draw)
    document.getElementById("next-draw").hidden = !next;
    document.getElementById("next-draw-words").textContent = next ? fmt(s.nextDraw, {draw: next.draw}) : "";
    document.getElementById("next-commitment").textContent = next ? next.commitment : "";
  }
  // An alternate offered this seat: "Alternate 12: table 7 seat 3 — sit down by 21:40" (on the venue's clock), and
  // "wait for the button" when the seat is between the small blind and the button. Gone once he sat down.
  function showAlternate(now) {
    var alt = now.status === "active" && now.table !== null ? now.alternate : null;
    document.getElementById("seat-alternate").hidden = !alt;
    document.getElementById("alt-board").hidden = !alt;
    if (!alt) return;
    var call = {number: alt.number, table: now.table, seat: now.seat, sit_by: alt.sit_by, position: alt.position};
    var by = Alternates.sitBy(call, cfg.time_zone);
    document.getElementById("alt-line").textContent = Alternates.who(call) + " " + Alternates.where(call) + (by ? " \u2014 " + by : "");
    var wait = document.getElementById("alt-wait");
    wait.hidden = alt.position !== "wait_for_button";
    wait.textContent = wait.hidden ? "" : s.altWait;
    document.getElementById("alt-note").textContent = by ? s.altNote : "";
  }
  function showBounty(now) {
    var b = now.bounty, lines = [];
    if (b && b.head && now.status === "active") lines.push(fmt(s.head, {amount: Util.money(b.head, cfg.currency)}));
    if (b && (b.won || b.knockouts)) {
      lines.push(fmt(b.knockouts ? s.knockouts(b.knockouts) : s.won, {amount: Util.money(b.won, cfg.currency), n: b.knockouts}));
    }
    if (b && b.owed) lines.push(fmt(s.owed, {amount: Util.money(b.owed, cfg.currency)}));
    bountyBox.textContent = "";
    lines.forEach(function (line) { bountyBox.appendChild(Util.el("div", "", line)); });
    bountyBox.hidden = !lines.length;
  }
  function changed(before, now) {
    var moved = now.table !== null && before.table !== null && (before.table !== now.table || before.seat !== now.seat);
    if (moved) {
      var box = document.getElementById("moved");
      box.textContent = fmt(s.moved, {table: now.table, seat: now.seat});
      box.hidden = false;
      if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
    }
    if (now.move && !before.move && navigator.vibrate) navigator.vibrate([300, 100, 300]);
    if (now.alternate && !before.alternate && navigator.vibrate) navigator.vibrate([300, 100, 300]);
    if (now.status !== "active") document.getElementById("moved").hidden = true;
  }
  function refetch() {
    if (loading) { again = true; return; }
    loading = true;
    // ?v=: the sequence this page has been told of, so the answer is at least that new (web/caching.py).
    var v = conn && conn.seq !== null ? "?v=" + conn.seq : "", asked = v ? wanted : null;
    fetch(cfg.json + v, {cache: "no-store"})
      .then(function (r) {
        // The entry is gone (voided: an alternate passed over, a receipt voided): the page reads itself again, so it says
        // what a fresh load says.
        if (r.status === 404) { location.reload(); return null; }
        return r.ok ? r.json() : null;
      })
      .then(function (now) {
        if (!now) return;
        if (typeof asked === "number" && !(asked <= held)) held = asked;
        changed(seat, now);
        seat = now;
        show(now);
      })
      .catch(function () { /* the next push or reconnect tries again */ })
      .then(function () { loading = false; if (again) { again = false; refetch(); } });
  }
  function soon() { clearTimeout(timer); timer = setTimeout(refetch, 200); }
  var conn = Live.connect({
    path: cfg.socket, badge: "#live", thin: true,  // cfg.socket names the entry: only its pushes come
    onSnapshot: function (m) {
      if (typeof m.seats_seq === "number" && typeof held === "number" && m.seats_seq <= held) return;
      wanted = m.seats_seq;  // the refetch names the snapshot's seq (?v=): its answer has these seats or newer
      soon();
    },
    // The server sends this entry's socket only the pushes its page acts on (live/fanout.py, for_entries): its own
    // entry's, a draw, and what moves every place or prize.
    onEvent: function () { soon(); }
  });
  show(seat);
  offerPush(document.getElementById("push"), cfg.push);  // "Tell me on this phone" (static/js/push-optin.js)
  window.seatPage = {refetch: refetch, conn: conn, get seat() { return seat; }};
})();
