/* A Day 1 flight's line "N players left: this flight ends at the end of this level" (templates/flights/
 * _flight_line.html) on the table map and the overview: read again on the floor socket's flight.ending, on each
 * entry event while it shows (its N follows the players left), and on a (re)connect. */
export function watch() {
  var ending = document.getElementById("flight-ending"), timer = null;
  function fetchEnding() {
    if (!ending || !ending.dataset.url) return Promise.resolve();
    return fetch(ending.dataset.url, {cache: "no-store", credentials: "same-origin"})
      .then(function (r) { return r.json(); })
      .then(function (d) {
        ending.hidden = !d.ending;
        document.getElementById("flight-ending-text").textContent = d.ending ? d.ending.message : "";
      })
      .catch(function () { /* the next event or reconnect tries again */ });
  }
  function soon() { clearTimeout(timer); timer = setTimeout(fetchEnding, 250); }
  return {
    snapshot: soon,
    event: function (type) {
      if (type === "flight.ending" || (ending && !ending.hidden && /^entry\./.test(type))) soon();
    }
  };
}
