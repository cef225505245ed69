// Hand entry: show the blocks of the winners, steppers, the tile palette, and grey
// out the feature ticks that cannot combine. The page works without it too.
(function () {
  "use strict";
  var form = document.getElementById("entry");
  if (!form) return;
  var conflicts = JSON.parse(document.getElementById("conflicts").textContent);

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
    var hard = parseInt((fs.querySelector("input[name^=hard_]") || {}).value || "0", 10) || 0;
    boxes.forEach(function (b) {
      var blocked = ticked.some(function (t) { return (conflicts[t] || []).indexOf(b.value) >= 0; });
      if (b.value === "wuhuaguo" && hard > 0) blocked = true;
      b.disabled = blocked && !b.checked;
    });
  }
  form.querySelectorAll("fieldset.winner").forEach(function (fs) {
    var concealed = fs.querySelector("input[name^=concealed_]");
    setWay(fs, concealed && concealed.value ? "tiles" : "quick");
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
    fs.querySelectorAll(".palette").forEach(function (pal) {
      var target = document.getElementById(pal.dataset.target);
      pal.querySelectorAll("button").forEach(function (b) {
        b.addEventListener("click", function () {
          var t = b.dataset.tile;
          // flowers go to the flowers field, playing tiles to the concealed tiles
          var into = t.slice(-1) === "f" || t === "5z" || t === "6z" || t === "7z"
            ? fs.querySelector("input[name^=flowers_]") : target;
          if (t === "back") { target.value = target.value.slice(0, -2); return; }
          into.value += t;
        });
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
