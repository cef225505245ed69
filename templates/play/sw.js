{% autoescape off %}// The table app's service worker (docs/play.md "Offline"). Its scope is /play/: the
// office pages are never under it. It keeps the static files (hashed names), the
// entry page of each table this phone records at (the last one fetched, cleared at
// logout by js/app.js), and the offline page. It never answers a POST.
"use strict";
var VERSION = "{{ version }}";
var STATIC = "play-static-" + VERSION;
var PAGES = "play-pages";
var FILES = {{ files }};
var OFFLINE = "{{ offline }}";
var ENTRY = /^\/play\/\d+\/hands\/new\/$/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(STATIC).then(function (cache) {
    return cache.addAll(FILES.concat([OFFLINE]));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("play-static-") === 0 && name !== STATIC;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function offlinePage() {
  return caches.match(OFFLINE, { cacheName: STATIC });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(caches.match(request, { cacheName: STATIC }).then(function (hit) {
      return hit || fetch(request);
    }));
    return;
  }
  if (request.mode !== "navigate") return;
  if (ENTRY.test(url.pathname) && !url.search) {
    // the entry page: fresh when the network answers, the kept one when it does not;
    // kept only when the server marks it as keepable (the recorder's own table page)
    event.respondWith(fetch(request).then(function (response) {
      if (response.ok && !response.redirected && response.headers.get("X-Offline-Keep") === "1") {
        var copy = response.clone();
        caches.open(PAGES).then(function (cache) { cache.put(url.pathname, copy); });
      }
      return response;
    }).catch(function () {
      return caches.match(url.pathname, { cacheName: PAGES }).then(function (hit) {
        return hit || offlinePage();
      });
    }));
    return;
  }
  event.respondWith(fetch(request).catch(offlinePage));
});
{% endautoescape %}
