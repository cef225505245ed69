// The entry page without a connection (docs/play.md "Offline"): registers the service
// worker (scope /play/); a hand "shown" with no network, or a confirm that got no
// answer, is kept on the phone (IndexedDB: what the recorder typed, its key, its
// basis, the login it was typed under) and listed here; when the network is back
// (online, a timer, "Send now") the kept hands go, oldest first, through the booking
// with a fresh CSRF token. The decisions are play/queue.js's.
(function () {
  "use strict";
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/play/" }).catch(function () {});
  }
  var form = document.getElementById("entry");
  var box = document.getElementById("queue");
  var Q = window.PlayQueue;
  if (!form || !box || !Q || !window.indexedDB || !window.fetch || !window.FormData) return;
  var table = form.dataset.table, user = form.dataset.user;
  var tip = { after: parseInt(form.dataset.after, 10), settled: parseInt(form.dataset.settled, 10) };
  var list = box.querySelector(".queue-list");
  var status = box.querySelector(".queue-status");
  var sendButton = box.querySelector(".queue-send");
  function text(name, n) { return box.dataset[name].replace("%(n)s", n); }
  function say(message) { status.textContent = message; if (message) box.hidden = false; }

  // ------------------------------------------------------------------ storage
  var opened = null;
  function db() {
    if (!opened) opened = new Promise(function (ok, ko) {
      var r = indexedDB.open("play-queue", 1);
      r.onupgradeneeded = function () { r.result.createObjectStore("entries", { keyPath: "key" }); };
      r.onsuccess = function () { ok(r.result); };
      r.onerror = function () { ko(r.error); };
    });
    return opened;
  }
  function tx(mode, fn) {
    return db().then(function (d) {
      return new Promise(function (ok, ko) {
        var t = d.transaction("entries", mode);
        var request = fn(t.objectStore("entries"));
        t.oncomplete = function () { ok(request ? request.result : undefined); };
        t.onerror = function () { ko(t.error); };
      });
    });
  }
  function all() { return tx("readonly", function (s) { return s.getAll(); }); }
  function put(entry) { return tx("readwrite", function (s) { s.put(entry); }); }
  function drop(key) { return tx("readwrite", function (s) { s.delete(key); }); }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 15) | 64; b[8] = (b[8] & 63) | 128;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return [h.slice(0, 8), h.slice(8, 12), h.slice(12, 16), h.slice(16, 20), h.slice(20)].join("-");
  }

  // keep a hand: ``data`` the form's FormData, ``key`` a confirm's (else a new one),
  // ``after`` a confirm's basis (else the page's tip and the hands waiting before it)
  var seq = 0;
  function keep(data, key, after) {
    return all().then(function (entries) {
      var b = after === null ? Q.basis(tip, Q.plan(entries, table, user).send) : { after: after, settled: tip.settled };
      var entry = {
        key: key || newKey(), table: table, user: user, after: b.after, settled: b.settled,
        number: b.after + 1, fields: Q.typed(Array.from(data.entries())),
        queuedAt: Date.now(), seq: seq++, held: null
      };
      return put(entry).then(function () { return entry; });
    });
  }

  // --------------------------------------------------------------------- list
  function button(label, onClick) {
    var b = document.createElement("button");
    b.type = "button"; b.className = "secondary"; b.textContent = label;
    b.addEventListener("click", onClick);
    return b;
  }
  function row(entry, kind) {
    var li = document.createElement("li");
    li.className = "queued " + kind;
    li.dataset.key = entry.key;
    var what = document.createElement("span");
    what.textContent = text(kind, entry.number);
    li.appendChild(what);
    if (kind === "held" && entry.held.length) {
      var why = document.createElement("span");
      why.className = "muted";
      why.textContent = " " + entry.held.join(" ");
      li.appendChild(why);
    }
    if (kind === "held") li.appendChild(button(box.dataset.review, function () { review(entry); }));
    li.appendChild(button(box.dataset.discard, function () {
      if (!window.confirm(box.dataset.confirmDiscard)) return;
      drop(entry.key).then(show);
    }));
    list.appendChild(li);
  }
  function show() {
    return all().then(function (entries) {
      var p = Q.plan(entries, table, user);
      list.textContent = "";
      p.send.forEach(function (e) { row(e, e.held ? "held" : "waiting"); });
      p.foreign.forEach(function (e) { row(e, "foreign"); });
      sendButton.hidden = !p.send.length;
      box.hidden = !p.send.length && !p.foreign.length && !status.textContent;
      return p;
    });
  }

  // ------------------------------------------------------------------- replay
  // a fresh token from the entry page, as the login now open sees it: the queue of
  // one login is never sent under another
  function token() {
    return fetch(form.dataset.entryUrl, { credentials: "same-origin", cache: "no-store" }).then(function (r) {
      if (r.redirected) throw { login: true };
      if (!r.ok) throw { wait: true };
      return r.text();
    }).then(function (html) {
      var page = new DOMParser().parseFromString(html, "text/html");
      var entry = page.getElementById("entry");
      var input = page.querySelector("#entry input[name=csrfmiddlewaretoken]");
      if (!entry || !input || entry.dataset.user !== user) throw { login: true };
      return input.value;
    });
  }
  function post(entry, csrf) {
    var body = new FormData();
    entry.fields.forEach(function (p) { body.append(p[0], p[1]); });
    body.append("key", entry.key);
    body.append("after", entry.after);
    body.append("settled", entry.settled);
    body.append("confirm", "1");
    return fetch(form.dataset.bookUrl, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "X-Entry-Queued": "1", "X-CSRFToken": csrf, Accept: "application/json" }
    }).then(function (r) {
      var type = r.headers.get("Content-Type") || "";
      if (type.indexOf("application/json") !== 0) return [r.status, null];
      return r.json().then(function (d) { return [r.status, d]; });
    }, function () { return [0, null]; });
  }
  var running = false, typing = false;
  function replay() {
    if (running) return Promise.resolve();
    running = true;
    sendButton.disabled = true;
    var booked = 0;
    return all().then(function (entries) {
      var send = Q.plan(entries, table, user).send;
      if (!send.length) return;
      say("");
      return token().then(function (csrf) {
        function next(i) {
          if (i >= send.length) return;
          var entry = send[i];
          return post(entry, csrf).then(function (answer) {
            var what = Q.decide(answer[0], answer[1]);
            if (what === "booked" || what === "already") {
              booked++;
              tip.after = Math.max(tip.after, answer[1].number);
              say(text(what, answer[1].number));
              return drop(entry.key).then(function () { return next(i + 1); });
            }
            if (what === "hold") {
              entry.held = answer[1].errors || [];
              return put(entry);
            }
            // no answer: everything stays for the next try
          });
        }
        return next(0);
      });
    }).catch(function (error) {
      if (error && error.login) say(box.dataset.login);
    }).then(function () {
      running = false;
      sendButton.disabled = false;
      return show();
    }).then(function () {
      // the table moved on: the page shows it, unless the recorder is typing a hand
      if (booked && !typing && !form.querySelector("#preview")) window.location.reload();
    });
  }

  // a held hand: its fresh preview on the table as it is now, under its own key (so
  // that, once booked from there, the queue finds it booked and drops it)
  function review(entry) {
    token().then(function (csrf) {
      var f = document.createElement("form");
      f.method = "post"; f.action = form.action; f.hidden = true;
      var fields = entry.fields.concat([["csrfmiddlewaretoken", csrf], ["queued_key", entry.key], ["preview", "1"]]);
      fields.forEach(function (p) {
        var input = document.createElement("input");
        input.type = "hidden"; input.name = p[0]; input.value = p[1];
        f.appendChild(input);
      });
      document.body.appendChild(f);
      f.submit();
    }).catch(function (error) {
      if (error && error.login) say(box.dataset.login);
    });
  }

  function cleared(entry) {
    say(text("kept", entry.number));
    var preview = form.querySelector("#preview");
    if (preview) preview.hidden = true;
    form.reset();
    typing = false;
    var first = form.querySelector("input[name=winners]");
    if (first) first.dispatchEvent(new Event("change", { bubbles: true }));
    window.scrollTo(0, 0);
    return show();
  }

  // "Show the result" with no network: kept (it is scored when booked)
  form.addEventListener("submit", function (e) {
    if (!e.submitter || e.submitter.name !== "preview" || navigator.onLine !== false) return;
    e.preventDefault();
    keep(new FormData(form), null, null).then(cleared);
  });
  // a confirm that got no answer (entry.js): kept with its key and its preview's basis
  form.addEventListener("entry:unsent", function (e) {
    e.preventDefault();
    var data = e.detail;
    keep(data, data.get("key"), parseInt(data.get("after"), 10)).then(cleared);
  });
  form.addEventListener("input", function () { typing = true; });
  form.addEventListener("change", function (e) { if (e.isTrusted) typing = true; });
  sendButton.addEventListener("click", replay);
  window.addEventListener("online", replay);
  window.setInterval(function () { if (navigator.onLine !== false) replay(); }, 30000);
  show().then(function () { if (navigator.onLine !== false) replay(); });
})();
