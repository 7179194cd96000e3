/* The floor's penalties page (templates/tables/penalties.html), live over the floor socket. */
import * as Util from "./util.js";
import * as api from "./api.js";
import * as apiForms from "./api-forms.js";
import * as Live from "./live.js";

(function () {
  "use strict";
  // The rounds count only for Rounds, the chips only for a disqualification: the other kinds grey them out.
  var form = document.getElementById("give-form"), rounds = document.getElementById("field-rounds");
  var chips = document.getElementById("field-chips");
  function sync() {
    var kind = form.querySelector("input[name=kind]:checked");
    rounds.disabled = !!kind && kind.value !== "rounds";
    chips.disabled = !kind || kind.value !== "dq";
  }
  form.addEventListener("change", sync);
  sync();

  // Give: through the JSON API (web/tables/penalty_api.py). Who: an entry number ("12", "#12"), a table and
  // a seat, or a name. A name is looked up by the page (?who=): one player in play it matches gets the
  // penalty; several are listed to choose from, and nothing is sent until one is chosen.
  var slot = document.getElementById("candidates-slot"), NUMBER = /^#? ?([0-9]{1,6})$/;
  function lookUp(name) {
    return fetch(location.pathname + "?who=" + encodeURIComponent(name),
                 {credentials: "same-origin", cache: "no-store", headers: {"Accept": "text/html"}})
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
        var got = new DOMParser().parseFromString(html, "text/html").getElementById("candidates-slot");
        slot.innerHTML = got ? got.innerHTML : "";
        var nobody = slot.querySelector("#who-nobody"), open = slot.querySelectorAll("input[name=entry]:not(:disabled)");
        if (nobody) { api.say(nobody.textContent, false); return null; }
        if (slot.querySelectorAll("input[name=entry]").length === 1 && open.length === 1) return Number(open[0].value);
        return null;  // several: the floor chooses
      });
  }
  function number(name) {
    var el = form.elements.namedItem(name), value = el ? el.value.trim() : "";
    return value === "" ? undefined : Util.whole(value);
  }
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var kind = form.querySelector("input[name=kind]:checked"), rounds = form.querySelector("input[name=rounds]:checked");
    var data = {kind: kind ? kind.value : "", reason: form.elements.namedItem("reason").value};
    if (kind && kind.value === "rounds" && rounds) data.rounds = Number(rounds.value);
    ["table", "seat"].forEach(function (name) { if (number(name) !== undefined) data[name] = number(name); });
    if (kind && kind.value === "dq" && number("chips") !== undefined) data.chips = number("chips");
    var who = form.elements.namedItem("who").value.split(/\s+/).join(" ").trim(), numbered = NUMBER.exec(who);
    var listed = slot.querySelector("#candidates"), picked = slot.querySelector("input[name=entry]:checked");
    var entry = Promise.resolve(null);
    if (numbered) entry = Promise.resolve(Number(numbered[1]));
    else if (who && listed && listed.getAttribute("data-name") === who && picked) entry = Promise.resolve(Number(picked.value));
    else if (who) entry = lookUp(who).then(function (found) { return found === null ? false : found; });
    else slot.innerHTML = "";
    entry.then(function (found) {
      if (found === false) return;  // a name still to choose, or nobody by that name: nothing sent
      if (found !== null) data.entry = found;
      // Said: a warning, or the hands to sit out (static/js/form-words.js, "penalty-give").
      apiForms.send(form, {body: data, path: form.getAttribute("data-give"), next: "reload"});
    }, function () { api.say(gettext("No connection to the server: try again."), false); });
  });

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
