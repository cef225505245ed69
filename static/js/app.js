// Small behaviours of every page, bound here because the Content-Security-Policy
// allows no inline script: a button with data-print prints the page.
document.addEventListener("click", function (event) {
  var target = event.target.closest("[data-print]");
  if (target) {
    event.preventDefault();
    window.print();
  }
});

// Signed out (the login page, a logged-out page): the table pages this phone kept for
// offline use go (docs/play.md "Offline"): the next login never sees them.
if (document.body && document.body.dataset.signedOut && window.caches) {
  window.caches.delete("play-pages");
}
