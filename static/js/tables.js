/* The tables overview (templates/tables/tables.html): each table's level, hand and signal, live; opening
 * tables and the break order (the director), dealer links (the floor). Socket and URLs in #tables-data's data-*,
 * words from Django's JavaScript catalogue. */
import * as Util from "./util.js";
import * as api from "./api.js";
import * as Live from "./live.js";
import * as Clock from "./clock.js";

// The screen's words, from Django's JavaScript catalogue; its data (URLs, the list's version) from #tables-data.
var WORDS = {
  old: gettext("old level"),
  follows: gettext("follows the clock"),
  signals: gettext("tablet / shuffler"),
  none: gettext("every table plays the announced level"),
  dealer: gettext("dealer tablet"),
  noHand: gettext("no hand yet"),
  opened: gettext("Table {n} is open"),
  doneOpen: gettext("Table {number} is open."),
  doneOrder: gettext("Break order saved: {order}."),
  doneInPlay: gettext("Table {number} is in play."),
  doneOutOfPlay: gettext("Table {number} is out of play."),
  badOrder: gettext("List the table numbers in the order they break."),
  linkTitle: gettext("Dealer link of table {n}"),
  doneLink: gettext("Dealer link of table {number} made."),
  doneRevoke: gettext("Dealer link of table {number} revoked."),
  confirmRevoke: gettext("Revoke this dealer link of table {number}? Its tablet stops at once.")
};

(function () {
  "use strict";
  var strings = Clock.strings(), s2 = Object.assign({}, WORDS, document.getElementById("tables-data").dataset);
  var tbody = document.querySelector("#table-list tbody"), summary = document.getElementById("old-summary");
  var tables = [], drawn = "", sync = null, shownSeq = Number(s2.seq);

  // The rows are drawn by the server (every table, in play or not, with its break position); this
  // script keeps the level, hand and signal of the tables in play live. Events that change the
  // list itself (a table opened, taken out of play or put back, a new break order...) draw it again
  // from this page's own HTML, in place (refresh below): never a reload, which would lose what is typed
  // and a token shown once.
  var KEEPS_LIST = {"table.hand_started": 1, "table.hand_start_undone": 1, "table.button": 1, "table.buttons": 1, "table.token_renewed": 1};
  function changesList(type) { return /^tables?\./.test(type) && !KEEPS_LIST[type]; }
  function editing() {
    // Never throw away what the director is typing, nor a shuffler token shown only once.
    var token = document.getElementById("new-token");
    if (token && !token.hidden) return true;
    var link = document.getElementById("new-link");  // nor a dealer link shown only once
    if (link && !link.hidden) return true;
    var el = document.activeElement;
    if (el && el.form && (el.tagName === "INPUT" || el.tagName === "SELECT")) return true;
    return Array.prototype.some.call(document.querySelectorAll("#break-order input[type=text], #open-table input"), function (i) {
      return i.type === "checkbox" ? i.checked !== i.defaultChecked : i.value !== i.defaultValue;
    });
  }
  var busy = 0, missed = false;  // a press of this page is on its way: its refresh shows the new list
  var fetching = false, fetchAgain = false;  // one read at a time; a burst of pushes reads once more after it
  function stale() {
    if (busy) { missed = true; return; }
    if (fetching) { fetchAgain = true; return; }
    fetching = true;
    // The forms stay as they are while someone types in them (or a token is shown once); the list is drawn anew.
    refresh(editing()).then(function (seq) {
      shownSeq = Math.max(shownSeq, seq);
    }, function () {
      document.getElementById("stale").hidden = false;  // the read failed: the page says so, with its link
    }).then(function () {
      fetching = false;
      if (fetchAgain) { fetchAgain = false; stale(); }
    });
  }

  // A table that reports its hands plays the level of its last first shuffle; otherwise it follows
  // the clock (tables/selectors/state.py, level_in_play).
  function load(list) {
    tables = list.map(function (r) {
      var own = r.sends_hand_signals && r.hand_started_at !== null;
      return {table: r.table, signals: r.sends_hand_signals, hand: r.hand, own: own ? r.level_index : null};
    });
    drawn = "";
    var shown = Array.prototype.map.call(tbody.querySelectorAll("tr[data-in-play]"), function (tr) { return Number(tr.dataset.table); });
    var live = tables.map(function (t) { return t.table; });
    if (shown.sort().join() !== live.sort().join()) stale();  // opened or closed while this page was not listening
  }
  function fill(td, content) { td.textContent = ""; if (typeof content === "string") td.textContent = content; else td.appendChild(content); }
  function render(st) {
    Clock.fill(document, st, strings);
    var clockIndex = st.levelIndex, old = 0, oldTables = [];
    var rows = tables.map(function (t) {
      var index = t.own !== null ? t.own : clockIndex;
      if (index !== clockIndex) { old += 1; oldTables.push(t.table); }
      return {t: t, index: index, old: index !== clockIndex};
    });
    var key = JSON.stringify([clockIndex, rows.map(function (r) { return [r.t.table, r.index, r.t.hand]; })]);
    if (key === drawn) return;
    drawn = key;
    summary.textContent = old ? Util.fmt(ngettext("{n} table still plays the old level: {tables}. It changes at its next shuffle.",
                                             "{n} tables still play the old level: {tables}. Each changes at its next shuffle.", old),
                                    {n: old, tables: oldTables.join(", ")}) : (tables.length ? s2.none : "");
    summary.className = old ? "flag" : "muted";
    rows.forEach(function (r) {
      var tr = tbody.querySelector('tr[data-in-play][data-table="' + r.t.table + '"]');
      if (!tr) return;
      tr.classList.toggle("old-level", r.old);
      var lv = document.createElement("span");
      lv.textContent = Clock.levelTitle(st.rows, r.index, strings) + " · " + Clock.blinds(st.rows[r.index]) + " ";
      if (r.old) { var f = document.createElement("span"); f.className = "flag"; f.textContent = s2.old; lv.appendChild(f); }
      fill(tr.querySelector('[data-cell="level"]'), lv);
      fill(tr.querySelector('[data-cell="hand"]'), r.t.hand ? String(r.t.hand) : s2.noHand);
      fill(tr.querySelector('[data-cell="signal"]'), r.t.signals ? s2.signals : s2.follows);
    });
  }
  var view = Clock.run({now: function () { return sync.now(); }, render: render});
  var conn = Live.connect({
    path: document.getElementById("live").dataset.socket, badge: "#live", sync: true,
    onSnapshot: function (s) {
      // Missed while away (or before this socket connected): did anything change the list?
      var missed = (s.events || []).filter(function (e) { return e.seq > shownSeq; });
      var covered = !missed.length || missed[0].seq === shownSeq + 1;
      if (s.seq > shownSeq && (!covered || missed.some(function (e) { return changesList(e.type); }))) stale();
      shownSeq = Math.max(shownSeq, s.seq);
      if (s.tables) load(s.tables);
      view.set(s.clock); view.tick();
    },
    onEvent: function (m) {
      var e = m.event, p = e.payload || {};
      shownSeq = Math.max(shownSeq, m.seq);
      if (p.clock) view.set(p.clock);
      if (e.type === "table.hand_started") {
        tables.forEach(function (t) { if (t.table === p.table) { t.hand = p.hand; if (t.signals) t.own = p.level_index; } });
        drawn = "";
      } else if (changesList(e.type) || e.type === "seating.redrawn" || (e.type === "move.done" && p.broken)) {
        stale();  // a redraw breaks the tables it does not keep; a break's last slip confirmed breaks its table
      } else if (e.type.indexOf("table.") === 0) {
        conn.refresh();  // a hand undone...: the snapshot has the whole picture
      }
      view.tick();
    }
  });
  sync = conn.sync;
  var initial = JSON.parse(document.getElementById("clock-state").textContent);
  sync.guess(initial.server_time);
  load(JSON.parse(document.getElementById("tables-state").textContent));
  view.set(initial);

  // The director's presses go through the JSON API (api.js); after a change the list and the forms
  // are drawn again from this page's own HTML, in place (the message, and a new table's shuffler
  // token, stay on the screen).
  var fmt = Util.fmt;
  function refresh(keepForms) {
    return fetch(s2.listUrl, {credentials: "same-origin", cache: "no-store", headers: {"Accept": "text/html"}})
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var rows = doc.querySelector("#table-list tbody"), setup = doc.querySelector(".tables-setup"), here = document.querySelector(".tables-setup");
        if (rows) tbody.innerHTML = rows.innerHTML;
        if (setup && here && !keepForms) here.innerHTML = setup.innerHTML;
        var links = doc.getElementById("dealer-link-list"), linksHere = document.getElementById("dealer-link-list");
        if (links && linksHere) linksHere.innerHTML = links.innerHTML;
        document.getElementById("stale").hidden = true;
        var listed = doc.getElementById("tables-state");
        if (listed) load(JSON.parse(listed.textContent));
        view.tick();
        return Number(doc.getElementById("tables-data").dataset.seq);
      });
  }
  function act(button, call, done, then) {
    busy += 1;
    return api.press(button, call, done).then(function (answer) {
      if (answer && then) then(answer);
      return answer ? refresh().catch(function () { return null; }) : null;
    }).then(function (seq) {
      busy -= 1;
      var late = missed && (seq === null || shownSeq > seq);  // a change by someone else meanwhile
      if (seq !== null) shownSeq = Math.max(shownSeq, seq);
      if (!busy) missed = false;
      if (late) stale();
    });
  }
  document.getElementById("table-list").addEventListener("click", function (ev) {
    var button = ev.target.closest("button[data-set-in-play]");
    if (!button) return;
    var number = Number(button.dataset.table), inPlay = button.dataset.setInPlay === "1";
    act(button, function (key) { return api.post(s2.apiInPlay.replace("999999", number), {in_play: inPlay}, {key: key}); },
        function (a) { return fmt(a.in_play ? s2.doneInPlay : s2.doneOutOfPlay, {number: a.table}); });
  });
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (form.id === "break-order") {
      ev.preventDefault();
      var words = form.elements.order.value.split(/[\s,;]+/).filter(Boolean);
      if (words.some(function (w) { return !/^\d+$/.test(w); })) { api.say(s2.badOrder, false); return; }
      act(form.querySelector("button"), function (key) {
        return api.put(s2.apiBreakOrder, {order: words.map(Number)}, {key: key});
      }, function (a) { return fmt(s2.doneOrder, {order: a.order.join(", ")}); });
    } else if (form.id === "open-table") {
      ev.preventDefault();
      var body = {number: Number(form.elements.number.value), sends_hand_signals: form.elements.sends_hand_signals.checked,
                  accessible: form.elements.accessible.checked};
      if (form.elements.seats.value.trim()) body.seats = Number(form.elements.seats.value);
      act(form.querySelector("button"), function (key) { return api.post(s2.apiTables, body, {key: key}); },
          function (a) { return fmt(s2.doneOpen, {number: a.table}); },
          function (a) {  // the shuffler token: shown this once (the server keeps only its hash)
            document.getElementById("new-token-title").textContent = fmt(s2.opened, {n: a.table});
            document.getElementById("shuffler-token").textContent = a.shuffler_token;
            document.getElementById("new-token").hidden = false;
          });
    }
  });

  // Dealer links (the floor and the director): made and revoked through the JSON API (api.js). A new
  // link's URL is shown once: the server keeps only its hash.
  document.addEventListener("click", function (ev) {
    var make = ev.target.closest("button[data-dealer-link]"), revoke = ev.target.closest("button[data-revoke-link]");
    if (make) {
      var number = Number(make.dataset.dealerLink);
      api.press(make, function (key) { return api.post(s2.apiDealerLinks.replace("999999", number), {}, {key: key}); },
                function (a) { return fmt(s2.doneLink, {number: a.table}); }).then(function (a) {
        if (!a) return;
        document.getElementById("new-link-title").textContent = fmt(s2.linkTitle, {n: a.table});
        document.getElementById("new-link-url").textContent = a.url;
        document.getElementById("new-link").hidden = false;
        var li = document.createElement("li"), empty = document.getElementById("no-dealer-links");
        if (empty) empty.remove();
        li.dataset.link = a.id;
        li.textContent = fmt(s2.linkTitle, {n: a.table}) + " · " + a.created_by + " ";
        var button = document.createElement("button");
        button.type = "button"; button.className = "danger"; button.dataset.revokeLink = a.id; button.dataset.table = a.table;
        button.textContent = gettext("Revoke");
        li.appendChild(button);
        document.getElementById("dealer-link-list").appendChild(li);
      });
    } else if (revoke) {
      var table = revoke.dataset.table;
      if (!window.confirm(fmt(s2.confirmRevoke, {number: table}))) return;
      api.press(revoke, function (key) { return api.post(s2.apiRevokeLink.replace("999999", revoke.dataset.revokeLink), {}, {key: key}); },
                function (a) { return fmt(s2.doneRevoke, {number: a.table}); }).then(function (a) {
        if (a) revoke.closest("li").remove();
      });
    } else if (ev.target.id === "new-link-close") {
      document.getElementById("new-link").hidden = true;
    }
  });
})();
