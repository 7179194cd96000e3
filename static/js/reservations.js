/* The desk's list of places reserved from phones (templates/tournament/reservations.html). Left open, it follows the
 * tournament's live stream (the floor's socket, or the public one for the cashier): when a reservation is made, claimed,
 * cancelled or expires (or an entry or a waiting place is taken, which claims one), or the socket (re)connects, the page
 * is read again and its figures and list replaced in place; never while a cancel reason is being typed (then once the
 * person is done). Its cancel buttons are api-forms.js's (data-api, data-says). */
import * as Live from "./live.js";

const TOUCHES = /^(reservation\.|entry\.registered|waiting\.joined|tournament\.)/;
const PARTS = ["rv-figures", "rv-list", "rv-none"];
let pending = false;

function typing() {
  const list = document.getElementById("rv-list");
  return Array.prototype.some.call(list ? list.querySelectorAll("input[name=reason]") : [], function (input) {
    return input.value.trim() !== "" || input === document.activeElement;
  });
}

async function refresh() {
  if (typing()) { pending = true; return; }
  pending = false;
  const answer = await fetch(location.href, {credentials: "same-origin", headers: {"Accept": "text/html"}});
  if (!answer.ok) return;
  const fresh = new DOMParser().parseFromString(await answer.text(), "text/html");
  PARTS.forEach(function (id) {
    const now = document.getElementById(id), next = fresh.getElementById(id);
    if (now && next) now.replaceWith(document.importNode(next, true));
    else if (now && !next) now.remove();
    else if (!now && next) {
      const list = document.getElementById("rv-list");
      if (list) list.before(document.importNode(next, true));
    }
  });
}

document.addEventListener("focusout", function () { if (pending) setTimeout(refresh, 300); });

Live.connect({
  path: document.getElementById("live").dataset.socket, badge: "#live",
  onSnapshot: refresh,
  onEvent: function (m) {
    const type = m.event ? m.event.type : m.type;
    if (TOUCHES.test(type || "")) refresh();
  }
});
