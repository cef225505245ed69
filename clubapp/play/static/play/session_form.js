// The new-table form: the 进园子 fields show only when 进园子 is chosen. Without
// script they all show (the server checks them anyway). No rule lives here.
(function () {
  "use strict";
  const form = document.querySelector("[data-session-form]");
  if (!form) return;
  const mode = form.querySelector("select[name=mode]");
  const blocks = form.querySelectorAll("[data-show-when-mode]");
  function show() {
    blocks.forEach(function (block) {
      block.hidden = !mode || block.dataset.showWhenMode !== mode.value;
    });
  }
  if (mode) mode.addEventListener("change", show);
  show();
})();
