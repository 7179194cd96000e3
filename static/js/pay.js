/* Paying a prize (templates/payouts/pay.html): the signature pad; the form goes through static/js/api-forms.js. */
(function () {
  "use strict";
  var canvas = document.getElementById("signature");
  if (!canvas) return;
  var form = document.getElementById("pay-form"), ctx = canvas.getContext("2d"), drawing = false, inked = false, last = null;
  ctx.lineWidth = 3; ctx.lineCap = "round"; ctx.lineJoin = "round"; ctx.strokeStyle = "#000";
  function at(ev) {
    var r = canvas.getBoundingClientRect();
    return {x: (ev.clientX - r.left) * canvas.width / r.width, y: (ev.clientY - r.top) * canvas.height / r.height};
  }
  canvas.addEventListener("pointerdown", function (ev) {
    drawing = true; last = at(ev); canvas.setPointerCapture(ev.pointerId); ev.preventDefault();
  });
  canvas.addEventListener("pointermove", function (ev) {
    if (!drawing) return;
    var p = at(ev);
    ctx.beginPath(); ctx.moveTo(last.x, last.y); ctx.lineTo(p.x, p.y); ctx.stroke();
    last = p; inked = true;
    document.getElementById("sign-missing").hidden = true;
  });
  ["pointerup", "pointercancel", "pointerleave"].forEach(function (name) { canvas.addEventListener(name, function () { drawing = false; }); });
  document.getElementById("sign-clear").addEventListener("click", function () {
    ctx.clearRect(0, 0, canvas.width, canvas.height); inked = false;
  });
  // The signature goes with the form as a PNG; without ink the form is not sent (the API refuses it too).
  form.addEventListener("submit", function (ev) {
    if (!inked) { ev.preventDefault(); ev.stopImmediatePropagation(); document.getElementById("sign-missing").hidden = false; return; }
    document.getElementById("pay-signature").value = canvas.toDataURL("image/png");
  }, true);
  // The receipt's address comes with the answer: /receipts/0/ becomes /receipts/<number>/.
  form.setAttribute("data-next", form.getAttribute("data-next").replace(/\/0\/$/, "/{number}/"));
})();
