// Small behaviours every page may use, wired here rather than in inline handlers, which the
// site's Content-Security-Policy refuses (script-src 'self'). Loaded in <head> without `defer`
// so the page knows at once that scripts run (html.js), before it draws the navigation:
// - on a phone the navigation folds into a "Menu" button (html.js only: without scripts the
//   links stay listed); the button opens and closes it and says which (aria-expanded);
// - a button with data-print prints the page;
// - a select with data-autosubmit submits its form when changed (its form keeps a submit
//   button for browsers without JavaScript).
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  document.addEventListener("click", (event) => {
    const toggle = event.target.closest("[data-nav-toggle]");
    if (toggle) {
      const open = toggle.getAttribute("aria-expanded") !== "true";
      toggle.setAttribute("aria-expanded", String(open));
      document.documentElement.classList.toggle("nav-open", open);
      return;
    }
    const button = event.target.closest("[data-print]");
    if (!button) return;
    event.preventDefault();
    window.print();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !document.documentElement.classList.contains("nav-open")) return;
    const toggle = document.querySelector("[data-nav-toggle]");
    document.documentElement.classList.remove("nav-open");
    if (toggle) {
      toggle.setAttribute("aria-expanded", "false");
      toggle.focus();
    }
  });
  // A table wider than the phone scrolls inside its own box (.table-scroll): the box is then a
  // labelled region that takes keyboard focus (the arrow keys scroll it), named after the
  // heading above it, and says so on screen.
  const markScrollers = () => {
    for (const box of document.querySelectorAll(".table-scroll")) {
      const overflows = box.scrollWidth > box.clientWidth + 1;
      box.classList.toggle("table-scroll--overflows", overflows);
      if (overflows) {
        const section = box.closest("section, main");
        const heading = section && section.querySelector("h1, h2, h3");
        const name = heading ? heading.textContent.trim().replace(/\s+/g, " ") : "Table";
        box.setAttribute("role", "region");
        box.setAttribute("tabindex", "0");
        box.setAttribute("aria-label", `${name} (scrolls sideways)`);
      } else if (box.getAttribute("role") === "region") {
        box.removeAttribute("role");
        box.removeAttribute("tabindex");
        box.removeAttribute("aria-label");
      }
    }
  };
  document.addEventListener("DOMContentLoaded", markScrollers);
  window.addEventListener("resize", markScrollers);
  document.addEventListener("htmx:afterSettle", markScrollers);
  document.addEventListener("change", (event) => {
    const select = event.target.closest("select[data-autosubmit]");
    if (select && select.form) select.form.submit();
  });
})();
