// Small behaviours of every page, bound here because the Content-Security-Policy
// allows no inline script: a button with data-print prints the page.
document.addEventListener("click", function (event) {
  var target = event.target.closest("[data-print]");
  if (target) {
    event.preventDefault();
    window.print();
  }
});
