/* A screen's forms change state through the documented JSON API, with the one client
 * (static/js/api.js: CSRF, one Idempotency-Key per press, the button busy meanwhile, the answer or
 * the refusal said the same way on every screen). No form here posts to the page. A module that sends a form
 * itself imports send from here. A form says:
 *
 *   <form method="post" data-api="tournaments/3/entries/5/rebuy/"  the path under /api/
 *         data-method="delete"                       optional; post by default
 *         data-says="rebuy-paid"                     its sentences, from static/js/form-words.js (Django's
 *                                                    JavaScript catalogue): the confirm asked first, the done said
 *                                                    on success; {name} in them: a field of the answer, else of the
 *                                                    body, else the form's own data-* ({player.display_name}: a
 *                                                    field inside one); a name with no sentence: a console error
 *         data-entry="5"                             plain values a sentence needs that the answer and body lack
 *         data-next="reload" | "/t/3/receipts/{number}/">  then reload or go there; the message is said there
 *
 * A script sending a form itself may pass options.confirm (a text to fill) and options.done (a function of the
 * answer and the body): they win over the form's data-says.
 * The body: each named input; a checkbox is true or false; an input with data-json sends its value as
 * JSON (true, 3); a number field (type=number, inputmode=numeric) a number; one with data-scale="100" the
 * number typed times 100, whole (15 % as 1500 basis points, 12,50 EUR as 1250 cents); a blank field is left out
 * (with data-blank: sent as "", or as the JSON in it: data-blank="0" or "null"). A form with
 * enctype="multipart/form-data" is sent as it is (a file upload). A screen's script may build the body itself:
 * form.apiBody() gives it, form.apiFieldOf(name) the element a field's message goes under (or options.body). A dotted name ("new_player.first_name") goes into a nested object
 * ({"new_player": {"first_name": ...}}), as the API's field messages name it back. A refusal shows the
 * API's translated message; for invalid input each field's message also appears under its field. (method="post" only keeps a form without JavaScript
 * from putting its fields in a URL: the page refuses the post and nothing changes.)
 */
import * as Util from "./util.js";
import * as api from "./api.js";
import {SAYS} from "./form-words.js";

const FLASH = "api-said";

const fill = Util.fmt;  // "{number}", or a dotted path into the answer: "{player.display_name}"

function body(form) {
  var out = {};
  function put(name, value) {  // "new_player.first_name": out.new_player.first_name
    var path = name.split("."), at = out;
    path.slice(0, -1).forEach(function (key) { at = at[key] = at[key] && typeof at[key] === "object" ? at[key] : {}; });
    at[path[path.length - 1]] = value;
  }
  Array.prototype.forEach.call(form.elements, function (el) {
    if (!el.name || el.disabled || el.name === "csrfmiddlewaretoken" || el.tagName === "BUTTON"
        || el.type === "submit" || el.type === "button") return;
    if (el.type === "checkbox") { put(el.name, el.checked); return; }
    if (el.type === "radio") { if (el.checked) put(el.name, el.value); return; }
    if (el.hasAttribute("data-json")) {  // not JSON: sent as typed, and the API says what is wrong
      if (!el.value.trim()) return;
      try { put(el.name, JSON.parse(el.value)); } catch { put(el.name, el.value); }
      return;
    }
    var value = el.value;
    if (!value.trim()) {  // data-blank: sent as "" (or as the JSON it holds: data-blank="0", "null")
      if (el.hasAttribute("data-blank")) put(el.name, el.getAttribute("data-blank") ? JSON.parse(el.getAttribute("data-blank")) : "");
      return;
    }
    if (el.hasAttribute("data-money")) {  // major units typed, minor units sent, by the currency's decimals
      var minor = Util.parseMoney(value, el.getAttribute("data-money"));
      put(el.name, minor === null ? value : minor);  // not an amount: sent as typed, and the API says why
      return;
    }
    if (el.hasAttribute("data-scale")) {  // a person's unit to the API's: 15 % -> 1500 basis points
      // Spaces group digits ("1 100"); a decimal comma is a point ("1100,50").
      var n = Number(value.replace(/[\s\u00a0\u202f']/g, "").replace(",", "."));
      put(el.name, isFinite(n) ? Math.round(n * Number(el.getAttribute("data-scale"))) : value);
      return;
    }
    var numeric = el.type === "number" || el.inputMode === "numeric";
    put(el.name, numeric && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value);
  });
  return out;
}

/* A form with enctype="multipart/form-data" (a file upload): its fields as they are, the CSRF token in the header. */
function upload(form) {
  var data = new FormData(form);
  data.delete("csrfmiddlewaretoken");
  return data;
}

function clearFields(form) {
  form.querySelectorAll(".errorlist[data-api-field]").forEach(function (list) { list.remove(); });
  form.querySelectorAll("[aria-invalid=true]").forEach(function (el) { el.removeAttribute("aria-invalid"); });
}

/* Invalid input: each field's messages under the field; the messages once each, for api.say. */
function showFields(form, fields, fieldOf) {
  var all = [];
  Object.keys(fields).forEach(function (name) {
    var messages = fields[name] || [];
    messages.forEach(function (m) { if (all.indexOf(m) < 0) all.push(m); });
    var input = (fieldOf && fieldOf(name)) || form.elements.namedItem(name);
    if (input && !input.tagName && input.length) input = input[0].closest("fieldset") || input[0];  // radios: their group
    if (!input || !input.tagName) return;
    var list = document.createElement("ul");
    list.className = "errorlist";
    list.setAttribute("data-api-field", name);
    messages.forEach(function (m) { var li = document.createElement("li"); li.textContent = m; list.appendChild(li); });
    input.setAttribute("aria-invalid", "true");
    (input.closest("label") || input).insertAdjacentElement("afterend", list);
  });
  return all;
}

/* A form's sentence, "confirm" or "done" (static/js/form-words.js, the one its data-says names), filled with values;
 * "" for a form that says none. A name with no sentence there is a mistake in the template: said in the console. */
function says(form, which, values) {
  var name = form.getAttribute("data-says");
  if (!name) return "";
  var words = SAYS[name];
  if (!words) { console.error('data-says="' + name + '" names no sentence of static/js/form-words.js'); return ""; }
  var said = words[which];
  return typeof said === "function" ? said(values) : said ? fill(said, values) : "";
}

function flash(message) {
  if (!message) return;
  try { window.sessionStorage.setItem(FLASH, message); } catch { /* private mode: the next page says nothing */ }
}

/* One press: confirm, call, say; resolves to the answer (true for an empty one) or null when refused or not confirmed. */
function send(form, options) {
  options = options || {};
  var button = options.button || form.querySelector("button:not([type=button])");
  var data = options.body || (form.apiBody ? form.apiBody() : form.enctype === "multipart/form-data" ? upload(form) : body(form));
  var own = Object.assign({}, form.dataset), asked = Object.assign({}, own, data);  // the body's values first
  var question = options.confirm !== undefined ? fill(options.confirm, asked) : says(form, "confirm", asked);
  if (question && !window.confirm(question)) return Promise.resolve(null);
  var method = (options.method || form.getAttribute("data-method") || "post").toLowerCase();
  var path = options.path || form.getAttribute("data-api");
  var next = options.next !== undefined ? options.next : form.getAttribute("data-next");
  var ok = false, leaving = null;
  clearFields(form);
  return api.press(button, function (key) {
    var call = method === "delete" ? api.del(path, {key: key}) : api[method](path, data, {key: key});
    return call.then(function (answer) { ok = true; return answer; }, function (error) {
      var fields = error && error.data && error.data.fields;
      if (fields) {
        var messages = showFields(form, fields, form.apiFieldOf);
        if (messages.length) error.message = messages.join(" ");
      }
      throw error;
    });
  }, function (answer) {
    var values = Object.assign({}, asked, answer && typeof answer === "object" ? answer : {});  // the answer's first
    var message = options.done ? options.done(answer, data) : says(form, "done", values);
    if (!next) return message;
    leaving = {message: message, url: next === "reload" ? null : fill(next, values)};
    return null;
  }).then(function (answer) {
    if (!ok) return null;
    if (leaving) {
      if (button) button.disabled = true;
      flash(leaving.message);
      if (leaving.url) window.location.assign(leaving.url); else window.location.reload();
    }
    return answer === null || answer === undefined ? true : answer;
  });
}

document.addEventListener("submit", function (ev) {
  var form = ev.target;
  if (!form.matches || !form.matches("form[data-api]")) return;
  ev.preventDefault();
  send(form, {button: ev.submitter || undefined});
});

// A name with no sentence is found when the page loads, not only when its form is pressed.
document.querySelectorAll("[data-says]").forEach(function (form) {
  if (!SAYS[form.getAttribute("data-says")]) says(form, "done", {});
});

// What the page before said, after its data-next.
try {
  var said = window.sessionStorage.getItem(FLASH);
  if (said) { window.sessionStorage.removeItem(FLASH); api.say(said, true); }
} catch { /* no storage: nothing to say */ }

export {send, body, fill};
