/* The director's clock (templates/clock/director.html): the clock live, every button through the clock's API.
 * Its socket, API path and words come from #clock-said's data-*. */
import * as Util from "./util.js";
import * as apiForms from "./api-forms.js";
import * as Live from "./live.js";
import * as Clock from "./clock.js";

(function () {
  "use strict";
  var said = Object.assign({
    start: gettext("The clock is running."),
    pause: gettext("The clock is paused."),
    resume: gettext("The clock is running again."),
    added: gettext("{minutes} min added."),
    removed: gettext("{minutes} min removed."),
    next: gettext("Moved to the next level."),
    previous: gettext("Moved back to the previous level."),
    jump: gettext("Level {level} is now in play."),
    announced: gettext("The announcement is on the screens."),
    cleared: gettext("The announcement is cleared.")
  }, document.getElementById("clock-said").dataset), fill = Util.fmt;
  var strings = Clock.strings(), initial = JSON.parse(document.getElementById("clock-state").textContent);
  var sync = null;
  var view = Clock.run({now: function () { return sync.now(); }, render: function (st) { Clock.fill(document, st, strings); }});
  var conn = Live.connect({
    path: said.socket, badge: "#live", sync: true,
    onSnapshot: function (s) { view.set(s.clock); },
    onEvent: function (m) { if (m.event.payload && m.event.payload.clock) view.set(m.event.payload.clock); }
  });
  sync = conn.sync;
  sync.guess(initial.server_time);
  view.set(initial);

  // Every button calls the clock's API (POST /api/tournaments/<id>/clock/), the same door as any other client.
  function doneMessage(data) {
    if (data.action === "adjust") return fill(data.seconds > 0 ? said.added : said.removed, {minutes: String(Math.abs(data.seconds) / 60)});
    if (data.action === "jump") return fill(said.jump, {level: data.level});
    if (data.action === "announce") return (data.text || "").trim() ? said.announced : said.cleared;
    return said[data.action];
  }
  document.querySelectorAll("form[data-clock]").forEach(function (form) {
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var data = apiForms.body(form);
      if (ev.submitter && ev.submitter.hasAttribute("data-clear")) data.text = "";
      apiForms.send(form, {button: ev.submitter || undefined, body: data, path: said.api,
                           done: function () { return doneMessage(data); }})
        .then(function (clock) {
          if (!clock || clock === true) return;
          view.set(clock);
          if (data.action === "announce") document.getElementById("announce-text").value = clock.announcement;
        });
    });
  });
  window.clockPage = {view: view, conn: conn};
})();
