// Hand entry: show the blocks of the winners, steppers, the tile palette, and grey out
// the feature ticks that cannot combine. Which ticks exclude which, and which tiles are
// flowers, come from scoring (the page's "exclusions" data): no rule is written here. The page works
// without this script too.
(function () {
  "use strict";
  var form = document.getElementById("entry");
  if (!form) return;
  var rules = JSON.parse(document.getElementById("exclusions").textContent);

  function winners() {
    return Array.prototype.map.call(form.querySelectorAll("input[name=winners]:checked"), function (i) { return i.value; });
  }
  function showWinners() {
    var chosen = winners();
    form.querySelectorAll("fieldset.winner").forEach(function (fs) {
      fs.hidden = chosen.indexOf(fs.dataset.seat) < 0;
    });
  }
  function setWay(fs, way) {
    fs.querySelectorAll(".way").forEach(function (w) { w.hidden = !w.classList.contains(way); });
    fs.querySelectorAll(".tabs button").forEach(function (b) { b.classList.toggle("on", b.dataset.way === way); });
  }
  function greyFeatures(fs) {
    var boxes = fs.querySelectorAll(".features input");
    var ticked = Array.prototype.filter.call(boxes, function (b) { return b.checked; }).map(function (b) { return b.value; });
    var hard = parseInt(fs.querySelector("input.hard").value || "0", 10) || 0;
    boxes.forEach(function (b) {
      var blocked = ticked.some(function (t) { return (rules.excludes[t] || []).indexOf(b.value) >= 0; });
      if (hard > 0 && rules.without_hard_flowers.indexOf(b.value) >= 0) blocked = true;
      b.disabled = blocked && !b.checked;
    });
  }
  form.querySelectorAll("fieldset.winner").forEach(function (fs) {
    var concealed = fs.querySelector("input.concealed");
    var flowers = fs.querySelector("input.flowers");
    setWay(fs, concealed.value ? "tiles" : "quick");
    fs.querySelectorAll(".tabs button").forEach(function (b) {
      b.addEventListener("click", function () { setWay(fs, b.dataset.way); });
    });
    fs.querySelectorAll(".stepper").forEach(function (st) {
      var input = st.querySelector("input");
      st.querySelectorAll("button").forEach(function (b) {
        b.addEventListener("click", function () {
          var v = (parseInt(input.value || "0", 10) || 0) + parseInt(b.dataset.step, 10);
          input.value = Math.max(0, Math.min(parseInt(input.max || "40", 10), v));
          greyFeatures(fs);
        });
      });
    });
    fs.querySelectorAll(".palette button").forEach(function (b) {
      b.addEventListener("click", function () {
        var t = b.dataset.tile;
        if (t === "back") { concealed.value = concealed.value.slice(0, -2); return; }
        // flower tiles (scoring's list) go to the flowers field, the rest to the hand
        var into = rules.flowers.indexOf(t) >= 0 ? flowers : concealed;
        into.value += t;
      });
    });
    fs.addEventListener("change", function () { greyFeatures(fs); });
    fs.addEventListener("input", function () { greyFeatures(fs); });
    greyFeatures(fs);
  });
  form.addEventListener("change", function (e) { if (e.target.name === "winners") showWinners(); });
  showWinners();
  var preview = document.getElementById("preview");
  if (preview) preview.scrollIntoView();
})();
