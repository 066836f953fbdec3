// "Find your name" on the round page: as you type, only the tables with a player whose name
// holds what you typed stay in the list, highlighted, and the line under the box says where they
// are (or that nobody of that name plays this round). The same as the server does for a GET
// `?name=` (games.views.RoundMixin.find_context), which is what the box sends without
// JavaScript. Names are compared with spacing collapsed and case ignored, as games.selectors
// name_key does. No inline script: the site's Content-Security-Policy refuses it.
(function () {
  "use strict";
  const input = document.querySelector("[data-find-name]");
  const list = document.querySelector("[data-find-list]");
  const result = document.querySelector("[data-find-result]");
  if (!input || !list || !result) return;
  const clear = document.querySelector("[data-find-clear]");
  const rows = Array.from(list.querySelectorAll("[data-names]"));
  const key = (text) => text.split(/\s+/).filter(Boolean).join(" ").toLocaleLowerCase();
  const names = new Map(rows.map((row) => [row, row.dataset.names.split("|").map(key)]));

  function show() {
    const wanted = key(input.value);
    const found = wanted ? rows.filter((row) => names.get(row).some((n) => n.includes(wanted))) : [];
    for (const row of rows) {
      const hit = found.includes(row);
      row.classList.toggle("table-line--found", hit);
      row.hidden = found.length > 0 && !hit;
    }
    if (clear) clear.hidden = !wanted;
    if (!wanted) {
      result.textContent = "";
    } else if (found.length) {
      const tables = found.map((row) => row.dataset.table).join(", ");
      result.textContent = `Found at ${found.length === 1 ? "table" : "tables"} ${tables}.`;
    } else {
      const typed = input.value.split(/\s+/).filter(Boolean).join(" ");
      result.textContent = `No player called \u201c${typed}\u201d in round ${result.dataset.round}.`;
    }
  }

  input.addEventListener("input", show);
  show();
})();
