// Hand entry: show the blocks of the winners, steppers, the tile palette (into the
// active field: the hand, the winning tile, the melds with who fed them, the flowers),
// the tiles by their Chinese names, kong and penalty rows as needed, and grey out
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
  // MPSZ text → tile codes ("123m5p" → 1m 2m 3m 5p): how the fields are written, no rule
  function tilesOf(text) {
    var out = [], digits = [];
    text.replace(/\s/g, "").split("").forEach(function (ch) {
      if (/[0-9]/.test(ch)) digits.push(ch);
      else if (/[mpszf]/i.test(ch)) { digits.forEach(function (d) { out.push(d + ch.toLowerCase()); }); digits = []; }
    });
    return out;
  }
  var MELD_KINDS = { P: "碰", K: "杠", U: "补杠" };
  function tilePalette(fs) {
    var fields = {};
    fs.querySelectorAll("input[data-field]").forEach(function (i) { fields[i.dataset.field] = i; });
    var names = {}, from = {};
    fs.querySelectorAll(".palette button[data-tile]").forEach(function (b) { names[b.dataset.tile] = b.textContent; });
    fs.querySelectorAll(".meld-from button").forEach(function (b) { from[b.dataset.from] = b.textContent; });
    var active = "concealed", meld = null, feeder = null;
    function shown(name) {
      var value = fields[name] ? fields[name].value : "";
      if (name !== "melds") return tilesOf(value).map(function (t) { return names[t] || t; }).join(" ");
      return value.split(/[\s,，]+/).filter(Boolean).map(function (token) {
        var m = /^([PKU])([1-9][mpsz])([ESWN])?$/i.exec(token);
        if (!m) return token;
        var kind = m[1].toUpperCase(), tile = names[m[2].toLowerCase()] || m[2];
        if (kind === "K" && !m[3]) return "暗杠 " + tile;
        return MELD_KINDS[kind] + " " + tile + (m[3] ? " ← " + (from[m[3].toUpperCase()] || m[3]) : "");
      }).join(" · ");
    }
    function render() {
      fs.querySelectorAll("[data-shows]").forEach(function (el) {
        el.textContent = shown(el.dataset.shows) || "—";
        el.classList.toggle("active", el.dataset.shows === active);
      });
    }
    function setActive(name) { active = name; render(); }
    function meldState(kind, who) {
      meld = kind; feeder = who;
      fs.querySelectorAll(".meld-kind button").forEach(function (b) { b.classList.toggle("on", b.dataset.meld === meld); });
      fs.querySelectorAll(".meld-from button").forEach(function (b) { b.classList.toggle("on", b.dataset.from === feeder); });
      fs.querySelector(".meld-from").hidden = !meld || meld === "A";
      fs.querySelector(".meld-hint").hidden = !meld || (meld !== "A" && !feeder);
      if (meld) setActive("melds"); else render();
    }
    function remove() {
      var input = fields[active];
      if (!input) return;
      if (active === "melds") {
        input.value = input.value.trim().split(/[\s,，]+/).slice(0, -1).join(" ");
      } else {
        input.value = tilesOf(input.value).slice(0, -1).join("");
      }
    }
    function type(t) {
      if (active === "melds" && meld) {
        if (meld !== "A" && !feeder) return; // who fed it first
        var token = (meld === "A" ? "K" : meld) + t + (meld === "A" ? "" : feeder);
        fields.melds.value = (fields.melds.value.trim() + " " + token).trim();
        meldState(null, null);
        setActive("concealed");
        return;
      }
      if (rules.flowers.indexOf(t) >= 0 && active !== "ponged") { fields.flowers.value += t; return; }
      if (active === "winning") { fields.winning.value = t; setActive("concealed"); return; }
      var into = fields[active] && active !== "melds" ? fields[active] : fields.concealed;
      into.value += t;
    }
    fs.querySelectorAll(".palette button[data-tile]").forEach(function (b) {
      b.addEventListener("click", function () {
        if (b.dataset.tile === "back") remove(); else type(b.dataset.tile);
        render();
      });
    });
    fs.querySelectorAll("[data-shows]").forEach(function (el) {
      function pick() { if (el.dataset.shows !== "melds") meldState(null, null); setActive(el.dataset.shows); }
      el.addEventListener("click", pick);
      el.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); } });
    });
    Object.keys(fields).forEach(function (name) {
      fields[name].addEventListener("focus", function () { setActive(name); });
      fields[name].addEventListener("input", render);
    });
    fs.querySelectorAll(".meld-kind button").forEach(function (b) {
      b.addEventListener("click", function () { meldState(meld === b.dataset.meld ? null : b.dataset.meld, null); });
    });
    fs.querySelectorAll(".meld-from button").forEach(function (b) {
      b.addEventListener("click", function () { meldState(meld, b.dataset.from); });
    });
    // one suit of keys at a time (all of them without this script)
    function showSuit(suit) {
      fs.querySelectorAll(".palette .keys[data-suit]").forEach(function (k) { k.hidden = k.dataset.suit !== suit; });
      fs.querySelectorAll(".palette .suits button").forEach(function (b) { b.classList.toggle("on", b.dataset.suit === suit); });
    }
    fs.querySelectorAll(".palette .suits button").forEach(function (b) {
      b.addEventListener("click", function () { showSuit(b.dataset.suit); });
    });
    showSuit("m");
    render();
  }
  form.querySelectorAll("fieldset.winner").forEach(function (fs) {
    var concealed = fs.querySelector("input.concealed");
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
    tilePalette(fs);
    fs.addEventListener("change", function () { greyFeatures(fs); });
    fs.addEventListener("input", function () { greyFeatures(fs); });
    greyFeatures(fs);
  });
  // kong and penalty rows: the first shows, each further one once the one before is used
  function chipRows(kind) {
    var rows = form.querySelectorAll(".chiprow[data-row=" + kind + "]");
    var used = function (row) { return Array.prototype.some.call(row.querySelectorAll("input:checked"), function (i) { return i.value; }); };
    rows.forEach(function (row, n) { row.hidden = n > 0 && !used(rows[n - 1]) && !used(row); });
  }
  ["kong", "penalty"].forEach(function (kind) {
    chipRows(kind);
    form.addEventListener("change", function () { chipRows(kind); });
  });
  form.addEventListener("change", function (e) { if (e.target.name === "winners") showWinners(); });
  showWinners();
  var preview = document.getElementById("preview");
  if (preview) preview.scrollIntoView();
})();
