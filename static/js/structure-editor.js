/* Structure editor: add, insert and move rows of the Django formsets, keep the row and level
   numbers (as the structure rules count them) up to date, and warn before leaving unsaved.
   Without this script the form still works: it shows a few empty rows to fill in. */
import * as Util from "./util.js";

(function () {
  "use strict";
  var form = document.getElementById("structure-form");
  if (!form) return;
  var levelsTable = document.getElementById("levels-table");
  var dirty = false;

  function rows(prefix) {
    return Array.prototype.slice.call(form.querySelectorAll("[data-row='" + prefix + "']"));
  }

  // Give every row the index of its place on the page, so the server reads them in this order.
  function renumber(prefix) {
    var re = new RegExp("^(id_)?" + prefix + "-(\\d+|__prefix__)-");
    rows(prefix).forEach(function (row, i) {
      row.querySelectorAll("[name],[id],[for]").forEach(function (el) {
        ["name", "id", "for"].forEach(function (attr) {
          var v = el.getAttribute(attr);
          if (v && re.test(v)) {
            el.setAttribute(attr, v.replace(re, function (m, id) { return (id || "") + prefix + "-" + i + "-"; }));
          }
        });
      });
    });
    form.querySelector("#id_" + prefix + "-TOTAL_FORMS").value = rows(prefix).length;
  }

  function field(row, name) { return row.querySelector("[name$='-" + name + "']"); }

  // Row and level numbers as the messages of the rules use them: deleted and empty rows do not count.
  function refreshLevels() {
    if (!levelsTable) return;
    var row = 0, level = 0;
    rows("levels").forEach(function (tbody) {
      var kind = field(tbody, "kind").value;
      var deleted = field(tbody, "DELETE").checked;
      var blank = kind === "level" && ["small_blind", "big_blind", "ante", "minutes", "color_up"].every(function (n) {
        return !field(tbody, n).value.trim();
      });
      tbody.classList.toggle("is-break", kind === "break");
      tbody.classList.toggle("is-deleted", deleted);
      var cell = tbody.querySelector(".rowlabel");
      cell.textContent = "";
      if (!deleted && !blank) {
        row += 1;
        var strong = document.createElement("strong");
        if (kind === "break") {
          strong.textContent = gettext("Break");
        } else {
          level += 1;
          strong.textContent = Util.fmt(gettext("Level {level}"), {level: level});
        }
        var small = document.createElement("small");
        small.textContent = Util.fmt(gettext("Row {row}"), {row: row});
        cell.appendChild(strong);
        cell.appendChild(small);
      }
    });
  }

  var COLOURS = {
    "zelená": "green", "černá": "black", "čierna": "black", "bílá": "white", "biela": "white", "červená": "red",
    "modrá": "blue", "žlutá": "yellow", "žltá": "yellow", "fialová": "purple", "oranžová": "orange",
    "růžová": "pink", "ružová": "pink", "šedá": "grey", "sivá": "grey", "hnědá": "brown", "hnedá": "brown",
    "světle modrá": "lightblue", "svetlomodrá": "lightblue", "tyrkysová": "turquoise"
  };
  function swatch(input) {
    var dot = input.parentNode.querySelector(".swatch");
    if (!dot) return;
    var name = input.value.trim().toLowerCase();
    dot.style.background = "";
    dot.style.background = COLOURS[name] || name;
  }

  function addRow(prefix, after, kind) {
    var template = document.getElementById(prefix + "-empty");
    var row = template.content.firstElementChild.cloneNode(true);
    if (after) {
      after.parentNode.insertBefore(row, after.nextSibling);
    } else if (prefix === "levels") {
      levelsTable.appendChild(row);
    } else {
      document.getElementById(prefix + "-rows").appendChild(row);
    }
    row.querySelectorAll(".js-only").forEach(function (el) { el.hidden = false; });
    renumber(prefix);
    if (kind) field(row, "kind").value = kind;
    refreshLevels();
    var first = kind === "break" ? field(row, "minutes") : row.querySelector("input:not([type=hidden]):not([type=checkbox])");
    if (first) first.focus();
  }

  function move(row, up) {
    var prefix = row.dataset.row;
    var list = rows(prefix);
    var i = list.indexOf(row);
    var other = list[up ? i - 1 : i + 1];
    if (!other) return;
    if (up) other.parentNode.insertBefore(row, other);
    else other.parentNode.insertBefore(other, row);
    renumber(prefix);
    refreshLevels();
    dirty = true;
  }

  form.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-add], button[data-move], button[data-insert]");
    if (!button) return;
    event.preventDefault();
    dirty = true;
    if (button.dataset.add) addRow(button.dataset.add, null, button.dataset.kind);
    else if (button.dataset.insert) addRow(button.dataset.insert, button.closest("[data-row]"));
    else move(button.closest("[data-row]"), button.dataset.move === "up");
  });

  function changed(event) {
    dirty = true;
    if (event.target.classList.contains("colour")) swatch(event.target);
    if (event.target.closest("[data-row='levels']")) refreshLevels();
  }
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
  // Save: the structure in the export format, to the JSON API (a template: structures/; a tournament's own:
  // tournaments/<id>/structure/). Empty numbers are zero and the rules say what is wrong; a field's message
  // goes under its input, a row's (the structure rules') under the row's kind.
  function typed(input) {
    var v = input.value.trim();
    return v === "" ? 0 : Util.whole(v);  // not a number: sent as typed, refused by the API
  }
  function used(prefix) {
    return rows(prefix).filter(function (row) {
      if (field(row, "DELETE").checked) return false;
      if (prefix === "chips") return field(row, "value").value.trim() || field(row, "colour").value.trim();
      return field(row, "kind").value !== "level" || ["small_blind", "big_blind", "ante", "minutes", "color_up"].some(
        function (n) { return field(row, n).value.trim(); });
    });
  }
  function chipValues(text) {
    return text.split(/[,;\s]+/).filter(Boolean).map(function (p) { return Util.whole(p); });
  }
  var sent = {chips: [], levels: []};
  function structure() {
    sent = {chips: used("chips"), levels: used("levels")};
    return {
      format: "poker-tournament-structure", version: Number(form.dataset.formatVersion),
      name: form.elements.namedItem("name").value.trim(),
      chips: sent.chips.map(function (row) {
        var chip = {colour: field(row, "colour").value.trim()}, value = field(row, "value").value.trim();
        if (value) chip.value = Util.whole(value);
        return chip;
      }),
      levels: sent.levels.map(function (row) {
        var kind = field(row, "kind").value, colorUp = chipValues(field(row, "color_up").value);
        if (kind === "break") return {kind: kind, minutes: typed(field(row, "minutes")), color_up: colorUp};
        var level = {kind: kind, minutes: typed(field(row, "minutes")), small_blind: typed(field(row, "small_blind")),
                     big_blind: typed(field(row, "big_blind")), ante: typed(field(row, "ante")),
                     ante_type: field(row, "ante_type").value};
        if (colorUp.length) level.color_up = colorUp;  // only a break colors up: the API says so at the field
        return level;
      }),
    };
  }
  function fieldOf(name) {  // "levels.2.minutes", "levels.2" (a row's problem), "chips.0.value", "name"
    var parts = name.split("."), row = sent[parts[0]] && sent[parts[0]][Number(parts[1])];
    if (!row) return parts[0] === "name" ? form.elements.namedItem("name") : null;
    return field(row, parts[2] || (parts[0] === "chips" ? "value" : "kind"));
  }
  form.apiBody = structure;  // sent by static/js/api-forms.js (the form's data-api)
  form.apiFieldOf = fieldOf;
  form.addEventListener("submit", function () { dirty = false; });
  var say = document.querySelector("[data-api-say]");
  if (say) say.addEventListener("api:said", function (event) { if (!event.detail.ok) dirty = true; });  // refused: still unsaved
  window.addEventListener("beforeunload", function (event) {
    if (dirty) { event.preventDefault(); event.returnValue = ""; }
  });

  document.querySelectorAll(".js-only").forEach(function (el) {
    if (!el.closest("template")) el.hidden = false;
  });
  form.querySelectorAll("input.colour").forEach(swatch);
  refreshLevels();
})();
