/* The floor's chip-count page (templates/tables/chip_counts.html): one player's count, sent through the JSON API to
 * his entry's address (the entry number typed names it); the page reloads with the new count and checks. */
import * as Util from "./util.js";
import {send} from "./api-forms.js";

var form = document.getElementById("count-one");
form.addEventListener("submit", function (ev) {
  ev.preventDefault();
  var entry = Util.whole(form.elements.entry.value);
  send(form, {button: ev.submitter || undefined, path: Util.fmt(form.dataset.count, {entry: entry}),
              body: {chips: Util.whole(form.elements.chips.value)}});
});
