/* The busts the dealers reported on their tablets that wait for the floor (tables/services/bust_reports.py, the house
   rule "a bust reported on the dealer tablet waits for the floor's confirmation"): each says table, seat, player and
   who won the pot; "Confirm" makes the bust with one press, "Reject" asks a reason. Read from the API's list on load
   and at each bust event. */
import {fmt, el} from "../util.js";
import * as api from "../api.js";
import {words} from "./words.js";
import {actionForm} from "./dom.js";
import {at} from "./state.js";

export function setupReports(st, press) {
  const panel = document.getElementById("reports-panel");
  if (!panel || !st.urls.bustReports) return {fetch: function () {}};

  function render(reports) {
    const list = document.getElementById("report-list");
    list.textContent = "";
    reports.forEach(function (r) {
      const li = el("li");
      li.dataset.report = r.report;
      const won = r.winner_seats.length ? r.winner_seats.join(", ") : words.reportNoWinner;
      li.appendChild(el("span", "slip", fmt(words.reportLine, {t: r.table, s: r.seat, e: r.entry, name: r.name, won: won, by: r.reported_by})));
      const acts = el("span", "acts");
      acts.appendChild(actionForm(words.reportConfirm, "primary confirm-report", [], null, function (b) {
        press(b, at(st.urls.bustReportConfirm, r.report), {}, function (a) { return fmt(words.reportConfirmed, {e: a.entry, name: a.name}); })
          .then(fetch);
      }));
      acts.append(" ");
      const reason = el("input");
      reason.name = "reason";
      reason.required = true;
      reason.setAttribute("aria-label", fmt(words.reportReason, {r: r.report}));
      reason.placeholder = words.reportReasonShort;
      acts.appendChild(actionForm(words.reportReject, "reject-report", [reason], null, function (b) {
        press(b, at(st.urls.bustReportReject, r.report), {reason: reason.value}, function () { return fmt(words.reportRejected, {r: r.report}); })
          .then(fetch);
      }));
      li.appendChild(acts);
      list.appendChild(li);
    });
    panel.hidden = reports.length === 0;
  }

  function fetch() {
    return api.get(st.urls.bustReports).then(function (answer) { if (Array.isArray(answer)) render(answer); }, function () {});
  }
  fetch();
  return {fetch: fetch};
}
