/* A league's page and the players' standings page (templates/leagues/league.html, public.html), live: the standings
 * change when a tournament of the league is over or a place in a finished one changes (its "league.points" event). The
 * page hears the public lobby stream of each tournament of the league still in play (#lg-live names them) and then
 * reads the standings again from the JSON API (the staff's GET /api/leagues/<id>/, the players'
 * GET /api/public/leagues/<id>/standings/). The settings and new-league forms are static/js/api-forms.js's; here only
 * the points table field, which only the points-table formula takes, is off for the other formulas. */
import * as Util from "./util.js";
import * as api from "./api.js";
import * as Live from "./live.js";

(function () {
  "use strict";

  // Each form's points table: sent only with the points-table formula.
  Array.prototype.forEach.call(document.querySelectorAll("form"), function (form) {
    var table = form.querySelector('input[name="points_table"]');
    if (!table) return;
    function follow() {
      var chosen = form.querySelector('input[name="formula"]:checked');
      table.disabled = !!chosen && chosen.value !== "table";
    }
    form.addEventListener("change", function (ev) { if (ev.target.name === "formula") follow(); });
    follow();
  });

  var config = document.getElementById("lg-live");
  if (!config) return;
  config = JSON.parse(config.textContent);
  var badge = document.getElementById("live");
  var timer = null;

  function standings(rows) {
    var table = document.getElementById("lg-standings"), none = document.getElementById("lg-no-standings");
    var body = table.tBodies[0], heads = table.tHead.rows[0].cells;
    var fresh = document.createElement("tbody");
    rows.forEach(function (row) {
      var tr = document.createElement("tr");
      var name = Util.el("th", null, config.player ? null : row.name);
      name.scope = "row";
      if (config.player) {  // the staff's page: the name links to the player's results
        var link = Util.el("a", null, row.name);
        link.href = config.player.replace("/0/", "/" + row.player + "/");
        name.appendChild(link);
      }
      [Util.el("td", "num", String(row.rank)), name, Util.el("td", "num lg-strong", row.shown),
       Util.el("td", "num lg-opt", Live.number(row.played)), Util.el("td", "num lg-opt", Live.number(row.wins))].forEach(function (td, i) {
        td.setAttribute("data-label", heads[i].textContent);
        tr.appendChild(td);
      });
      fresh.appendChild(tr);
    });
    table.replaceChild(fresh, body);
    table.hidden = !rows.length;
    none.hidden = !!rows.length;
  }

  function given(tournaments) {
    tournaments.forEach(function (m) {
      var td = document.querySelector("#lg-t-" + m.tournament + ' [data-field="given"]');
      if (!td) return;
      td.textContent = m.points_given
        ? interpolate(ngettext("given to %(n)s player", "given to %(n)s players", m.points_given), {n: m.points_given}, true)
        : gettext("when play is over");
    });
  }

  function refresh() {
    return api.get(config.api).then(function (state) {
      standings(state.standings);
      if (Array.isArray(state.tournaments)) given(state.tournaments);  // the staff's answer lists them
    }, function () { /* the next event tries again */ });
  }
  function soon() { clearTimeout(timer); timer = setTimeout(refresh, 300); }

  if (!config.tournaments.length) {  // every tournament's points are in: nothing to hear
    if (badge) badge.hidden = true;
    return;
  }
  config.tournaments.forEach(function (tournament, i) {
    Live.connect({
      path: "/ws/s/" + tournament + "/", badge: i === 0 ? "#live" : null,
      onSnapshot: soon,  // a connect, a reconnect or a gap: the standings may be stale
      onEvent: function (m) { if (m.type === "league.points") soon(); }
    });
  });
  window.leaguePage = {refresh: refresh};
})();
