/* Lobby screens (templates/tournament/displays.html). */
/* The new link is in the creation answer only (the server keeps its hash): show it here, add its row, stay on the page. */
import * as apiForms from "./api-forms.js";

(function () {
  "use strict";
  var form = document.getElementById("display-create");
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    ev.stopImmediatePropagation();
    apiForms.send(form, {button: ev.submitter || undefined, next: ""}).then(function (answer) {
      if (!answer || !answer.url) return;
      document.getElementById("new-link-label").textContent = answer.label;
      var link = document.getElementById("new-link-url");
      link.href = answer.url;
      link.textContent = answer.url;
      document.getElementById("new-link").hidden = false;
      var none = document.getElementById("display-none");
      if (none) none.remove();
      var row = document.createElement("tr");
      row.className = "new";
      row.setAttribute("data-display", answer.id);
      [answer.label, answer.prefix + "…"].forEach(function (text) {
        var cell = document.createElement("td");
        cell.textContent = text;
        row.appendChild(cell);
      });
      var revoke = document.createElement("td");
      revoke.innerHTML = document.getElementById("display-revoke").innerHTML.split("{id}").join(String(answer.id));
      row.appendChild(revoke);
      var list = document.querySelector("#display-list tbody");
      list.insertBefore(row, list.firstChild);
      form.reset();
    });
  }, true);
})();
