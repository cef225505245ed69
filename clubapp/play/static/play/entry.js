// Hand entry: show one winner's block at a time (a tab per winner), steppers, the page's
// one tile palette under that winner (into the active field: the hand, the winning
// tile, the melds with who fed them, the flowers), no 放炮者 chip for a winner,
// the tiles by their Chinese names, kong and penalty rows as needed, and grey out
// the feature ticks that cannot combine, and send the confirm again (same key) when
// no answer came. Which ticks exclude which, and which tiles are
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
  // one winner's fields at a time: with several winners (一炮多响) a tab per winner
  var tabs = form.querySelector(".winner-tabs");
  var current = null;
  var withErrors = form.querySelector("fieldset.winner .has-error");
  if (withErrors) current = withErrors.closest("fieldset.winner").dataset.seat;
  function showWinners() {
    var chosen = winners();
    if (chosen.indexOf(current) < 0) current = chosen.length ? chosen[0] : null;
    form.querySelectorAll("fieldset.winner").forEach(function (fs) {
      fs.hidden = fs.dataset.seat !== current;
    });
    tabs.textContent = "";
    chosen.forEach(function (seat) {
      var b = document.createElement("button");
      b.type = "button";
      b.setAttribute("role", "tab");
      b.dataset.winner = seat;
      b.textContent = form.querySelector("fieldset.winner[data-seat='" + seat + "'] legend").textContent;
      b.classList.toggle("on", seat === current);
      b.setAttribute("aria-selected", seat === current ? "true" : "false");
      b.addEventListener("click", function () { current = seat; showWinners(); });
      tabs.appendChild(b);
    });
    tabs.hidden = chosen.length < 2;
    // a winner did not deal in: their 放炮者 chip is not offered
    form.querySelectorAll("input[name=discarder]").forEach(function (input) {
      var out = input.value !== "" && chosen.indexOf(input.value) >= 0;
      input.closest("label").hidden = out;
      if (out && input.checked) {
        input.checked = false;
        form.querySelector("input[name=discarder][value='']").checked = true;
      }
    });
    placePalette();
  }
  function setWay(fs, way) {
    fs.querySelectorAll(".way").forEach(function (w) { w.hidden = !w.classList.contains("way-" + way); });
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
  // one palette for the page (the tile names are its keys' words); its keys type into
  // the tile fields of the winner shown
  var palette = form.querySelector(".palette");
  var names = {};
  palette.querySelectorAll("button[data-tile]").forEach(function (b) { names[b.dataset.tile] = b.textContent; });
  var handlers = {};
  function tilePalette(fs) {
    var fields = {};
    fs.querySelectorAll("input[data-field]").forEach(function (i) { fields[i.dataset.field] = i; });
    var from = {};
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
    render();
    return { type: type, remove: remove, render: render };
  }
  palette.querySelectorAll("button[data-tile]").forEach(function (b) {
    b.addEventListener("click", function () {
      var h = handlers[current];
      if (!h) return;
      if (b.dataset.tile === "back") h.remove(); else h.type(b.dataset.tile);
      h.render();
      form.dispatchEvent(new Event("input"));
    });
  });
  // one suit of keys at a time (all of them without this script)
  function showSuit(suit) {
    palette.querySelectorAll(".keys[data-suit]").forEach(function (k) { k.hidden = k.dataset.suit !== suit; });
    palette.querySelectorAll(".suits button").forEach(function (b) { b.classList.toggle("on", b.dataset.suit === suit); });
  }
  palette.querySelectorAll(".suits button").forEach(function (b) {
    b.addEventListener("click", function () { showSuit(b.dataset.suit); });
  });
  showSuit("m");
  // the palette goes under the tile fields of the winner shown, when entered by tiles
  function placePalette() {
    var fs = form.querySelector("fieldset.winner[data-seat='" + current + "']");
    var tiles = fs && !fs.hidden ? fs.querySelector(".way-tiles") : null;
    if (tiles && !tiles.hidden) { tiles.appendChild(palette); palette.hidden = false; } else { palette.hidden = true; }
  }
  form.querySelectorAll("fieldset.winner").forEach(function (fs) {
    var concealed = fs.querySelector("input.concealed");
    setWay(fs, concealed.value ? "tiles" : "quick");
    fs.querySelectorAll(".tabs button").forEach(function (b) {
      b.addEventListener("click", function () { setWay(fs, b.dataset.way); placePalette(); });
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
    handlers[fs.dataset.seat] = tilePalette(fs);
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

  // The confirm goes by fetch: when no answer comes (the network dropped it), it is sent
  // again with the same key, which books once. Its key is kept in the tab's storage until
  // an answer came; a page of this table that finds one still kept asks the server
  // (the entry page with ?key=) whether that hand was booked, and says so.
  var keep = "play-confirm:" + form.dataset.entryUrl;
  var kept = window.sessionStorage ? sessionStorage.getItem(keep) : null;
  if (kept && window.location.search.indexOf("key=") < 0) {
    sessionStorage.removeItem(keep);
    window.location.replace(form.dataset.entryUrl + "?key=" + encodeURIComponent(kept));
    return;
  }
  var confirm = form.querySelector("button[name=confirm]");
  var status = form.querySelector(".confirm-status");
  var waits = [1000, 2000, 3000, 5000, 8000];
  var sending = false;
  function say(text) { status.textContent = text; status.hidden = !text; }
  function plainly() {
    // a page for an answer (a fresh preview, an error): as the page does without script
    if (window.sessionStorage) sessionStorage.removeItem(keep);
    var field = document.createElement("input");
    field.type = "hidden"; field.name = confirm.name; field.value = confirm.value;
    form.appendChild(field);
    form.action = confirm.formAction;
    form.submit();
  }
  function send(data, tries) {
    fetch(confirm.formAction, {
      method: "POST", body: data, credentials: "same-origin",
      headers: { "X-Entry-Confirm": "1", Accept: "application/json" }
    }).then(function (r) {
      if (r.status >= 500) throw new Error("no answer");
      var type = r.headers.get("Content-Type") || "";
      if (type.indexOf("application/json") !== 0) { plainly(); return; }
      return r.json().then(function (d) {
        if (window.sessionStorage) sessionStorage.removeItem(keep);
        window.location.assign(d.location);
      });
    }).catch(function () {
      if (navigator.onLine === false || tries >= waits.length) {
        // no network, or no answer after the retries: play/offline.js keeps the hand on
        // the phone (with this key) and books it when the network is back
        var unsent = new CustomEvent("entry:unsent", { detail: data, cancelable: true });
        if (!form.dispatchEvent(unsent)) {
          if (window.sessionStorage) sessionStorage.removeItem(keep);
          say(""); sending = false; confirm.disabled = false;
          return;
        }
      }
      if (tries < waits.length) {
        say(status.dataset.retrying);
        window.setTimeout(function () { send(data, tries + 1); }, waits[tries]);
      } else {
        say(status.dataset.failed);
        sending = false;
        confirm.disabled = false;
      }
    });
  }
  if (confirm && window.fetch && window.FormData) {
    form.addEventListener("submit", function (e) {
      if (e.submitter !== confirm) return;
      e.preventDefault();
      if (sending) return;
      sending = true;
      confirm.disabled = true;
      var data = new FormData(form);
      data.append(confirm.name, confirm.value);
      if (window.sessionStorage) sessionStorage.setItem(keep, data.get("key"));
      say(status.dataset.sending);
      send(data, 0);
    });
  }
})();
