/* The map read again (the API's /api/tournaments/<id>/map/), debounced, and the presses that lead to it. Every action goes through the
   documented JSON API with the shared client (static/js/api.js: one Idempotency-Key per press, the button busy
   meanwhile, a refusal's translated detail shown in #notice, a press kept on the device while offline); once done,
   the map is read again. `drawn()` draws the screen from st.data, the read just made. */
import * as api from "../api.js";

export function createRefresh(st, drawn) {
  let timer = null, drawing = null, redraw = null;

  // The promise settles when the map is drawn from a read made after the call (bench/floor_map_render.py and the
  // tests wait on it): a call while a read is under way is answered by one more read after it, shared by every
  // such call.
  function refetch() {
    if (drawing) {
      if (!redraw) redraw = drawing.then(function () { redraw = null; return refetch(); });
      return redraw;
    }
    drawing = fetch(st.urls.json, {cache: "no-store", credentials: "same-origin"})
      .then(function (r) { return r.json(); })
      .then(function (m) { st.data = m; drawn(); })
      .catch(function () { /* the next event or reconnect tries again */ })
      .then(function () { drawing = null; });
    return drawing;
  }
  function soon() { clearTimeout(timer); timer = setTimeout(refetch, 250); }
  document.addEventListener("press-queue:sent", soon);  // the presses kept offline reached the server (press-queue.js)

  // One press of a button: POST to the API, the done message from the answer, then refetch the map.
  function press(button, path, body, done) {
    return api.press(button, function (key) { return api.post(path, body || {}, {key: key}); }, done)
      .then(function (answer) { if (answer) soon(); return answer; });
  }

  return {refetch: refetch, soon: soon, press: press};
}
