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
    end_level: gettext("The level in play is over: the next one has started."),
    previous: gettext("Moved back to the previous level."),
    jump: gettext("Level {level} is now in play."),
    announced: gettext("The announcement is on the screens."),
    cleared: gettext("The announcement is cleared."),
    dayEnd: gettext("The day ends after level {level}."),
    dayCleared: gettext("The day's end is cleared."),
    restart: gettext("The clock resumes by itself at {time} (venue time), at level {level}.")
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
  // The end of a day and the next day's start, each through its own endpoint (POST .../clock/day-end/ and
  // .../clock/restart/). The restart's date and time are typed in the venue's time zone (the form's data-zone)
  // and sent with their offset; the time left as mm:ss (or whole minutes) is sent in seconds.
  function secondsOf(text) {
    var m = /^\s*(\d{1,3})(?::([0-5]\d))?\s*$/.exec(text || "");
    return m ? Number(m[1]) * 60 + Number(m[2] || 0) : null;
  }
  function zoneOffset(zone, at) {  // the zone's offset from UTC, in ms, at the instant `at`
    var parts = {};
    new Intl.DateTimeFormat("en-US", {timeZone: zone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit",
                                      hour: "2-digit", minute: "2-digit", second: "2-digit"})
      .formatToParts(new Date(at)).forEach(function (p) { parts[p.type] = p.value; });
    return Date.UTC(+parts.year, parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second) - at;
  }
  function inZone(local, zone) {  // "2026-11-30T12:00" on the venue's wall clock, as an ISO instant
    var m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local || "");
    if (!m) return local;  // not a date and time: sent as typed, and the API says what it needs
    var wall = Date.UTC(+m[1], m[2] - 1, +m[3], +m[4], +m[5], +(m[6] || 0));
    var at = wall - zoneOffset(zone, wall);
    at = wall - zoneOffset(zone, at);  // once more: the offset at the instant itself (a change of summer time)
    return new Date(at).toISOString();
  }
  var dayForm = document.getElementById("day-end-form");
  dayForm.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var clear = !!(ev.submitter && ev.submitter.hasAttribute("data-clear"));
    var data = clear ? {level: null} : apiForms.body(dayForm);
    apiForms.send(dayForm, {button: ev.submitter || undefined, body: data, path: said.api + "day-end/",
                            done: function () { return clear ? said.dayCleared : fill(said.dayEnd, {level: data.level}); }})
      .then(function (clock) {
        if (!clock || clock === true) return;
        view.set(clock);
        dayForm.elements.level.value = clock.day_end_after_level === null ? "" : clock.day_end_after_level;
      });
  });
  var restartForm = document.getElementById("restart-form");
  var restartFields = {start_at: "start_at", level: "level", seconds_left: "time_left"};
  restartForm.apiFieldOf = function (name) { return restartForm.elements.namedItem(restartFields[name] || name); };
  restartForm.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var f = restartForm.elements, left = secondsOf(f.time_left.value), level = f.level.value.trim();
    var data = {start_at: inZone(f.start_at.value, restartForm.dataset.zone),
                level: /^\d+$/.test(level) ? Number(level) : level, seconds_left: left === null ? f.time_left.value : left};
    apiForms.send(restartForm, {button: ev.submitter || undefined, body: data, path: said.api + "restart/",
                                done: function () { return fill(said.restart, {level: data.level, time: f.start_at.value.replace("T", " ")}); }})
      .then(function (clock) { if (clock && clock !== true) view.set(clock); });
  });
  window.clockPage = {view: view, conn: conn};
})();
