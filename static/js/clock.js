/* The blind clock on a screen: computed locally from the server's clock state and an
   estimate of the offset to server time, on every animation frame and whenever the page
   becomes visible again. The same walk through the rows as clock/rules/timeline.py
   (position_at), so a screen changes level at the right moment even before the
   server's announcement arrives. No dependencies. */
var LEVEL = "level", BREAK = "break", ONE_MINUTE = 60;

// --- the timeline (a port of clock/rules/timeline.py; keep them in step) -----------------------

function isPaused(anchor) { return anchor.paused_at !== null && anchor.paused_at !== undefined; }

function position(rows, anchor, t) {
  if (!rows.length) throw new Error("a clock needs at least one row");
  var now = isPaused(anchor) ? anchor.paused_at : t;
  var index = Math.min(Math.max(anchor.index, 0), rows.length - 1);
  var start = anchor.started_at;
  // A paused clock stands at its row: one stopped at the very end of a level (the day ended) shows it with 0:00.
  while (index < rows.length - 1 && !isPaused(anchor) && now >= start + rows[index].seconds) {
    start += rows[index].seconds;
    index += 1;
  }
  var end = start + rows[index].seconds;
  var remaining = Math.max(0, end - now);
  return {index: index, remaining: remaining, endsAt: isPaused(anchor) ? null : end, startedAt: start,
          finished: index === rows.length - 1 && remaining === 0};
}

function nextLevelIndex(rows, index) {
  for (var i = index + 1; i < rows.length; i++) if (rows[i].kind === LEVEL) return i;
  return null;
}

function levelInForce(rows, index) {
  if (rows[index].kind === LEVEL) return index;
  var following = nextLevelIndex(rows, index);
  if (following !== null) return following;
  for (var i = index - 1; i >= 0; i--) if (rows[i].kind === LEVEL) return i;
  return null;
}

function secondsToNextBreak(rows, pos) {
  if (rows[pos.index].kind === BREAK) return 0;
  var total = pos.remaining;
  for (var i = pos.index + 1; i < rows.length; i++) {
    if (rows[i].kind === BREAK) return total;
    total += rows[i].seconds;
  }
  return null;
}

/* Everything a screen shows, at server time t (seconds since the epoch). */
function state(clock, t) {
  var rows = (clock && clock.rows) || [];
  if (!rows.length) return null;
  var started = !!clock.anchor;
  var anchor = clock.anchor || {index: 0, started_at: t, paused_at: t};
  var pos = position(rows, anchor, t);
  var row = rows[pos.index];
  var running = started && !isPaused(anchor);
  return {
    version: clock.version, status: clock.status, started: started, running: running,
    paused: started && isPaused(anchor), index: pos.index, row: row, rows: rows,
    remaining: pos.remaining, endsAt: pos.endsAt, finished: pos.finished,
    isBreak: row.kind === BREAK,
    levelIndex: levelInForce(rows, pos.index),
    nextLevelIndex: nextLevelIndex(rows, pos.index),
    nextBreakIn: secondsToNextBreak(rows, pos),
    lastMinute: running && row.seconds > ONE_MINUTE && pos.remaining <= ONE_MINUTE && pos.index < rows.length - 1,
    announcement: clock.announcement || "",
    // The end of a day: the level after which the clock stops, the level it stopped after, when it resumes.
    dayEndAfter: clock.day_end_after_level || null,
    dayEnded: clock.day_ended_level || null,
    resumeAt: clock.resume_at || null,
    serverNow: t
  };
}

/* A newer clock replaces an older one; events carry the clock without its rows. */
function merge(current, incoming) {
  if (!incoming) return current;
  if (current && typeof incoming.version === "number" && incoming.version < current.version) return current;
  var next = {};
  Object.keys(incoming).forEach(function (k) { next[k] = incoming[k]; });
  if (!next.rows && current) next.rows = current.rows;
  return next;
}

// --- text ----------------------------------------------------------------------------

function lang() { return document.documentElement.lang || undefined; }

/* The whole seconds a countdown shows: 20:00 for the level's first second, 0:00 when it is over. */
function shownSeconds(remaining) { return Math.max(0, Math.ceil(remaining - 0.0005)); }

function format(remaining) {
  var s = shownSeconds(remaining), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  var two = function (n) { return (n < 10 ? "0" : "") + n; };
  return h ? h + ":" + two(m) + ":" + two(sec) : two(m) + ":" + two(sec);
}

var numberFormat = null;
function num(n) {
  if (!numberFormat) numberFormat = new Intl.NumberFormat(lang());
  return numberFormat.format(n);
}

// The clock's words, from Django's JavaScript catalogue; the chips' colours from the page (#clock-chips).
function strings() {
  var out = {
    levelN: gettext("Level {n}"),
    breakTitle: gettext("Break"),
    paused: gettext("Paused"),
    notStarted: gettext("Not started"),
    finished: gettext("Time is up"),
    bbAnte: gettext("BB ante"),
    ante: gettext("Ante"),
    colorUp: gettext("Color-up: {chips} chips leave play"),
    lastLevel: gettext("Last level"),
    dayEndsAfter: gettext("Day ends after level {n}"),
    dayOver: gettext("Play has stopped for the day"),
    resumesAt: gettext("Play resumes at {time} (venue time), level {n}")
  };
  out.chips = {};
  document.querySelectorAll("#clock-chips [data-value]").forEach(function (c) { out.chips[c.dataset.value] = c.textContent; });
  return out;
}

function levelTitle(rows, index, s) {
  if (index === null || index === undefined) return "";
  var row = rows[index];
  return row.kind === BREAK ? (s.breakTitle || "Break") : (s.levelN || "Level {n}").replace("{n}", row.number);
}
/* The day's line: a restart scheduled, else the day over, else the level it ends after; "" for none. The
   restart's time is the venue's wall clock, as the server wrote it (ISO with the venue's offset). */
function dayLine(st, s) {
  if (st.resumeAt && st.started && !st.running) {
    var level = st.levelIndex === null ? "" : st.rows[st.levelIndex].number;
    return (s.resumesAt || "Play resumes at {time}, level {n}").replace("{time}", String(st.resumeAt).slice(11, 16)).replace("{n}", level);
  }
  if (st.dayEnded && !st.running) return s.dayOver || "Play has stopped for the day";
  if (st.dayEndAfter) return (s.dayEndsAfter || "Day ends after level {n}").replace("{n}", st.dayEndAfter);
  return "";
}
function blinds(row) { return row && row.kind === LEVEL ? num(row.small_blind) + " / " + num(row.big_blind) : ""; }
function ante(row, s) {
  if (!row || row.kind !== LEVEL || !row.ante) return "";
  return (row.ante_type === "bba" ? (s.bbAnte || "BB ante") : (s.ante || "Ante")) + " " + num(row.ante);
}
function colorUp(row, s) {
  if (!row || row.kind !== BREAK || !row.color_up || !row.color_up.length) return "";
  var chips = row.color_up.map(function (v) { return s.chips[v] ? num(v) + " (" + s.chips[v] + ")" : num(v); }).join(", ");
  return (s.colorUp || "Color-up: {chips}").replace("{chips}", chips);
}

// --- filling a page: elements marked data-clock="..." ------------------------------------

function setText(el, text) { if (el.textContent !== text) { el.textContent = text; return true; } return false; }

/* Shrink a text until it fits its box (call after its text changed, or its box did): one line
   wide, or with data-fit-lines or a stylesheet that lets it wrap (a portrait screen), the height its
   CSS allows (never below data-fit-min of the first size). */
function fit(el) {
  if (!el) return;
  el.style.fontSize = "";  // start from the size the stylesheet gives (it may depend on the box)
  var words = el.dataset.fitWords;  // data-fit-words: the whole text, cut only between its words (below)
  if (words !== undefined && el.textContent !== words) el.textContent = words;
  var css = getComputedStyle(el);
  var max = parseFloat(css.fontSize), size = max, least = max * parseFloat(el.dataset.fitMin || "0.25");
  var lines = el.hasAttribute("data-fit-lines") || !/^(nowrap|pre)$/.test(css.whiteSpace);
  // Wrapped, it is the height that overflows, or the width too where one word is wider than the box.
  var over = lines ? function () { return el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1; }
    : function () { return el.scrollWidth > el.clientWidth + 1; };
  if (!over()) return;
  while (over() && size * 0.92 >= least) {
    size *= 0.92;
    el.style.fontSize = size + "px";
  }
  // Still too long at the least size: with data-fit-words, the last words go and an ellipsis says so ("Emil Horák…",
  // never "Emil Ho"); a first word longer than the box alone stays (the stylesheet clips it).
  if (words === undefined || !over()) return;
  var kept = words.split(/\s+/);
  while (kept.length > 1 && over()) {
    kept.pop();
    el.textContent = kept.join(" ") + "\u2026";
  }
}

function fill(root, st, s) {
  root = root || document;
  var rows = st.rows, next = st.nextLevelIndex !== null ? rows[st.nextLevelIndex] : null;
  var texts = {
    "time": format(st.remaining),
    "title": levelTitle(rows, st.index, s),
    "blinds": st.isBreak ? "" : blinds(st.row),
    "ante": st.isBreak ? "" : ante(st.row, s),
    "next-title": next ? levelTitle(rows, st.nextLevelIndex, s) : (s.lastLevel || ""),
    "next-blinds": blinds(next),
    "next-ante": ante(next, s),
    "break-in": st.nextBreakIn === null || st.isBreak ? "" : format(st.nextBreakIn),
    "status": !st.started ? (s.notStarted || "Not started") : st.paused ? (s.paused || "Paused")
      : st.finished ? (s.finished || "Time is up") : "",
    "color-up": colorUp(st.row, s),
    "announcement": st.announcement,
    "level-in-force": levelTitle(rows, st.levelIndex, s),
    "day": dayLine(st, s)
  };
  root.querySelectorAll("[data-clock]").forEach(function (el) {
    var key = el.dataset.clock;
    if (!(key in texts)) return;
    var box = el.closest("[data-clock-box]");
    if (box) box.hidden = texts[key] === "";
    if (setText(el, texts[key]) && el.hasAttribute("data-fit")) fit(el);
    if (key === "time") {
      el.dataset.remaining = Math.round(st.remaining * 1000);
      el.dataset.index = st.index;
      el.dataset.version = st.version;
      el.dataset.status = st.status;
    }
  });
  var cls = root === document ? document.body : root;
  cls.classList.toggle("is-break", st.isBreak);
  cls.classList.toggle("is-paused", st.paused);
  cls.classList.toggle("is-not-started", !st.started);
  cls.classList.toggle("is-running", st.running);
  cls.classList.toggle("is-last-minute", st.lastMinute);
  cls.classList.toggle("is-finished", st.finished);
  cls.classList.toggle("is-day-over", !!(st.dayEnded || st.resumeAt) && !st.running);
  root.querySelectorAll("[data-row-index]").forEach(function (tr) {
    var i = Number(tr.dataset.rowIndex);
    tr.classList.toggle("current", i === st.index);
    tr.classList.toggle("past", i < st.index);
    if (i === st.index) tr.setAttribute("aria-current", "step"); else tr.removeAttribute("aria-current");  // said, not only coloured
  });
}

// --- sound and staying awake ----------------------------------------------------------

var audioCtx = null, beeps = [];
function audio() {
  var AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return null;
  if (!audioCtx) audioCtx = new AC();
  if (audioCtx.state === "suspended") audioCtx.resume().catch(function () {});
  return audioCtx;
}
/* Browsers start audio only after a gesture unless the kiosk allows autoplay
   (chromium --autoplay-policy=no-user-gesture-required): any touch or key unlocks it. */
["pointerdown", "keydown", "touchstart"].forEach(function (type) {
  window.addEventListener(type, function () { audio(); }, {passive: true});
});
function tones(pattern) {
  var c = audio();
  beeps.push({at: Date.now(), tones: pattern.length, state: c ? c.state : "none"});
  if (!c) return false;
  var t = c.currentTime + 0.05;
  pattern.forEach(function (p) {
    var o = c.createOscillator(), g = c.createGain();
    o.type = "sine";
    o.frequency.value = p[0];
    g.gain.setValueAtTime(0.0001, t);
    g.gain.exponentialRampToValueAtTime(0.6, t + 0.02);
    g.gain.exponentialRampToValueAtTime(0.0001, t + p[1]);
    o.connect(g);
    g.connect(c.destination);
    o.start(t);
    o.stop(t + p[1] + 0.05);
    t += p[1] + 0.12;
  });
  return c.state === "running";
}
var sounds = {
  level: function () { return tones([[660, 0.35], [880, 0.35], [1100, 0.7]]); },
  warning: function () { return tones([[880, 0.25], [880, 0.25]]); },
  get available() { var c = audio(); return !!c && c.state === "running"; }
};

function keepAwake() {
  if (!("wakeLock" in navigator)) return;
  var lock = null;
  function request() {
    if (lock || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      l.addEventListener("release", function () { lock = null; });
    }).catch(function () {});
  }
  request();
  document.addEventListener("visibilitychange", request);
  setInterval(request, 60000);
}

// --- the loop ----------------------------------------------------------------------------

/* opts.now(): server time in seconds; opts.render(state, previous). Runs on every frame,
   on a slow timer (frames stop in background tabs) and when the page becomes visible. */
function run(opts) {
  var clock = null, last = null;
  function tick() {
    if (!clock) return null;
    var st = state(clock, opts.now());
    if (st) { opts.render(st, last); last = st; }
    return st;
  }
  function frame() { tick(); window.requestAnimationFrame(frame); }
  window.requestAnimationFrame(frame);
  setInterval(tick, 250);
  document.addEventListener("visibilitychange", tick);
  window.addEventListener("focus", tick);
  return {
    set: function (incoming) { clock = merge(clock, incoming); return tick(); },
    tick: tick,
    get clock() { return clock; },
    get state() { return last; }
  };
}

/* What changed between two frames: a new row (level or break), or the last minute began
   as time passed (not because the director removed time). */
function changes(st, prev) {
  if (!prev) return {};
  return {
    row: st.index !== prev.index,
    oneMinute: st.lastMinute && !prev.lastMinute && st.index === prev.index && st.version === prev.version
      && prev.remaining > ONE_MINUTE
  };
}

export {position, levelInForce, nextLevelIndex, secondsToNextBreak, state, merge, format, shownSeconds, num, strings, levelTitle, dayLine, blinds, ante, colorUp, fill, fit, run, changes, sounds, beeps, keepAwake};
