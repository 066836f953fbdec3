// Small behaviours every page may use, wired here rather than in inline handlers, which the
// site's Content-Security-Policy refuses (script-src 'self'):
// - a button with data-print prints the page;
// - a select with data-autosubmit submits its form when changed (its form keeps a submit
//   button for browsers without JavaScript).
(function () {
  "use strict";
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-print]");
    if (!button) return;
    event.preventDefault();
    window.print();
  });
  document.addEventListener("change", (event) => {
    const select = event.target.closest("select[data-autosubmit]");
    if (select && select.form) select.form.submit();
  });
})();
