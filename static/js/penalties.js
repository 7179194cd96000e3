/* The floor's penalties page (templates/tables/penalties.html), live over the floor socket. */
(function () {
  "use strict";
  // The rounds count only for Rounds: the other kinds grey them out (the server ignores them anyway).
  var form = document.getElementById("give-form"), rounds = document.getElementById("field-rounds");
  function sync() {
    var kind = form.querySelector("input[name=kind]:checked");
    rounds.disabled = !!kind && kind.value !== "rounds";
  }
  form.addEventListener("change", sync);
  sync();

  // Live: a penalty given or cancelled anywhere, a hand started, a bust or a move changes the hands left
  // and the seats; the two lists are read again from this page (never while a cancel is being typed).
  var TOUCHES = /^(penalty\.|table\.hand_start|entry\.|move\.|seat\.|table\.breaking)/, stale = false;
  function busy() {
    var active = document.activeElement;
    return !!document.querySelector("#serving details[open], #others details[open]")
      || !!(active && active.closest && active.closest("#serving, #others"));
  }
  function refresh() {
    if (busy()) { stale = true; return; }
    stale = false;
    fetch(location.pathname, {credentials: "same-origin", cache: "no-store", headers: {"Accept": "text/html"}})
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
        if (busy()) { stale = true; return; }
        var fresh = new DOMParser().parseFromString(html, "text/html");
        ["serving", "others"].forEach(function (id) {
          var now = document.getElementById(id), got = fresh.getElementById(id);
          if (now && got) now.innerHTML = got.innerHTML;
        });
      })
      .catch(function () { stale = true; });
  }
  document.addEventListener("toggle", function () { if (stale) refresh(); }, true);
  document.addEventListener("focusout", function () { if (stale) setTimeout(refresh, 0); });
  Live.connect({
    path: document.getElementById("live").dataset.socket, badge: "#live",
    onSnapshot: refresh,
    onEvent: function (m) { if (TOUCHES.test(m.event.type)) refresh(); }
  });
})();
