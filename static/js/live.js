/* Live updates over a WebSocket: snapshot on connect, events with sequence numbers,
   a gap or a reconnect means a fresh snapshot. No dependencies. */
(function () {
  "use strict";
  function connect(opts) {
    var seq = null, ws = null, attempt = 0, closedForGood = false;
    var badge = opts.badge ? document.querySelector(opts.badge) : null;
    function setStatus(online) {
      if (!badge) return;
      badge.textContent = online ? badge.dataset.online : badge.dataset.offline;
      badge.className = "badge " + (online ? "live" : "offline");
    }
    function open() {
      var proto = location.protocol === "https:" ? "wss://" : "ws://";
      ws = new WebSocket(proto + location.host + opts.path);
      ws.onopen = function () { attempt = 0; setStatus(true); };
      ws.onmessage = function (msg) {
        var data = JSON.parse(msg.data);
        if (data.kind === "snapshot") {
          seq = data.seq;
          opts.onSnapshot(data);
        } else if (data.kind === "event") {
          if (seq !== null && data.seq !== seq + 1) {
            if (data.seq > seq + 1) ws.send(JSON.stringify({action: "snapshot"}));
            return; // an old or repeated event: the snapshot covers it
          }
          seq = data.seq;
          opts.onEvent(data);
        }
      };
      ws.onclose = function (ev) {
        setStatus(false);
        if (ev.code === 4003) { closedForGood = true; if (opts.onRefused) opts.onRefused(); return; }
        attempt += 1;
        var delay = Math.min(30000, 500 * Math.pow(2, attempt)) * (0.5 + Math.random());
        setTimeout(open, delay);
      };
    }
    open();
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden && ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({action: "snapshot"}));
    });
    return { get seq() { return seq; }, get closed() { return closedForGood; } };
  }
  function money(amount, currency) {
    // In the page's language; whole amounts without decimals: a TV reads "100 000 CZK".
    var cents = amount % 100, lang = document.documentElement.lang || undefined;
    var text = new Intl.NumberFormat(lang, {minimumFractionDigits: cents ? 2 : 0, maximumFractionDigits: 2}).format(amount / 100);
    return text + " " + currency;
  }
  function fillStats(stats) {
    if (!stats) return;
    document.querySelectorAll("[data-stat]").forEach(function (el) {
      var key = el.dataset.stat, value = stats[key];
      if (value === undefined) return;
      el.textContent = el.dataset.money !== undefined ? money(value, stats.currency)
        : Number(value).toLocaleString(document.documentElement.lang || undefined);
    });
  }
  window.Live = { connect: connect, fillStats: fillStats, money: money };
})();
