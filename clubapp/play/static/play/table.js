// The table's pages follow the other phones: every few seconds ask the journal's end
// (data-tip-url); when another phone booked a row, reload the page, unless this phone
// is entering a hand (a field changed, or a preview is shown): then say what was booked
// and leave the entry alone. No rule here; the page works without this script.
(function () {
  "use strict";
  var tip = document.getElementById("tip");
  if (!tip || !window.fetch) return;
  var known = tip.dataset.tipNumber;
  var entering = tip.dataset.entering === "1";
  var form = document.getElementById("entry");
  if (form) {
    form.addEventListener("input", function () { entering = true; });
    form.addEventListener("change", function () { entering = true; });
  }
  var every = parseInt(tip.dataset.tipEvery || "5000", 10);
  function poll() {
    if (document.hidden) return;
    fetch(tip.dataset.tipUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data || String(data.number) === known) return;
        if (!entering) { window.location.reload(); return; }
        known = String(data.number);
        tip.querySelector(".tip-text").textContent = data.text;
        tip.hidden = false;
      })
      .catch(function () { /* offline for a moment: ask again next time */ });
  }
  window.setInterval(poll, every);
})();
