// The decisions of the offline queue (docs/play.md "Offline"), kept apart from the
// page so that they can be tested alone (clubapp/play/tests/test_queue_js.py runs them
// under node): which entries to send and in which order, each one's basis, and what
// an answer means. No storage, no page here.
(function (root) {
  "use strict";

  // oldest first: the order they were recorded in (seq breaks a tie of the clock)
  function ordered(entries) {
    return entries.slice().sort(function (a, b) {
      return a.queuedAt - b.queuedAt || a.seq - b.seq;
    });
  }

  // the basis of a new entry: the row it follows is the table's last row as the page
  // saw it plus the entries already waiting for this table (they go first)
  function basis(tip, waiting) {
    var after = tip.after + waiting.length;
    return { after: after, settled: tip.settled, number: after + 1 };
  }

  // what this phone may send now: this table's entries, oldest first, of the user who
  // is logged in; another login's entries are never sent (shown, to be discarded)
  function plan(entries, table, user) {
    var mine = [], foreign = [];
    ordered(entries).forEach(function (e) {
      if (e.table !== table) return;
      (e.user === user ? mine : foreign).push(e);
    });
    return { send: mine, foreign: foreign };
  }

  // an answer → what to do with the entry and the queue:
  //   "booked" / "already": drop the entry, go on with the next one;
  //   "hold": keep it for the recorder's review, stop the queue (the next ones' basis
  //           follows it);
  //   "wait": no answer (offline, a timeout, 502/503/504, not the JSON expected, the
  //           login page): keep everything, try again later.
  function decide(status, body) {
    if (!status || status >= 500 || status === 408 || status === 429) return "wait";
    if (!body || typeof body.outcome !== "string") return "wait";
    if (body.outcome === "booked" || body.outcome === "already") return body.outcome;
    if (body.outcome === "changed" || body.outcome === "invalid" || body.outcome === "closed") return "hold";
    return "wait";
  }

  // the fields kept: what the recorder typed, never the page's token nor its buttons
  var SKIPPED = ["csrfmiddlewaretoken", "preview", "confirm", "key", "previewed", "after", "settled", "queued_key"];
  function typed(pairs) {
    return pairs.filter(function (p) {
      return SKIPPED.indexOf(p[0]) < 0 && typeof p[1] === "string";
    });
  }

  var api = { ordered: ordered, basis: basis, plan: plan, decide: decide, typed: typed };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else root.PlayQueue = api;
})(this);
