// The card grid the hand counter and the discard advisor share, and how their pages answer
// without a reload. Without JavaScript the grid stays hidden and each page is a plain GET form.
window.PegboardCards = (function () {
  "use strict";

  // Card text as the picker writes it: upper case, 10 for ten, suit letters.
  const SUITS = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };
  function normal(text) {
    let t = text.trim().toUpperCase().replace(/\uFE0F/g, "");
    t = t.replace(/[♠♥♦♣]/g, (s) => SUITS[s]);
    return t.replace(/^T/, "10");
  }
  function cards(text) {
    return text.split(/[\s,;]+/).filter(Boolean).map(normal);
  }

  // The grid is one tab stop (roving tabindex): arrows move between cards, Home and End go to a
  // row's ends; Enter and Space press the card, as for any button. `onPick(card)` hears each
  // press; `mark(roleOf)` shows each card's role ("" for none) as its pressed state.
  function grid(picker, onPick) {
    const buttons = Array.from(picker.querySelectorAll("button[data-card]"));
    const rows = Array.from(picker.querySelectorAll(".card-picker__row")).map((row) =>
      Array.from(row.querySelectorAll("button[data-card]")),
    );
    function focusCard(button) {
      for (const b of buttons) b.tabIndex = b === button ? 0 : -1;
      button.focus();
    }
    picker.addEventListener("keydown", (event) => {
      const button = event.target.closest("button[data-card]");
      if (!button) return;
      const r = rows.findIndex((row) => row.includes(button));
      const c = rows[r].indexOf(button);
      const moves = {
        ArrowRight: [r, Math.min(c + 1, rows[r].length - 1)],
        ArrowLeft: [r, Math.max(c - 1, 0)],
        ArrowDown: [Math.min(r + 1, rows.length - 1), c],
        ArrowUp: [Math.max(r - 1, 0), c],
        Home: [r, 0],
        End: [r, rows[r].length - 1],
      };
      if (!(event.key in moves)) return;
      event.preventDefault();
      const [nr, nc] = moves[event.key];
      focusCard(rows[nr][Math.min(nc, rows[nr].length - 1)]);
    });
    picker.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-card]");
      if (!button) return;
      focusCard(button);
      onPick(button.dataset.card);
    });
    picker.hidden = false;
    return {
      mark(roleOf) {
        for (const button of buttons) {
          const role = roleOf(button.dataset.card) || "";
          button.setAttribute("aria-pressed", role ? "true" : "false");
          button.dataset.role = role;
        }
      },
    };
  }

  // Ask the form's own address for just the answer (header X-Requested-With: fetch), put it in
  // `result`, then call `onAnswer`; the address bar gets the question's address, to share. A
  // failed request falls back to submitting the form.
  function asker(form, result, onAnswer) {
    let pending = null;
    return async function ask() {
      const params = new URLSearchParams(new FormData(form));
      const url = `${form.action}?${params}`;
      if (pending) pending.abort();
      pending = new AbortController();
      try {
        const response = await fetch(url, {
          headers: { "X-Requested-With": "fetch" },
          signal: pending.signal,
        });
        if (!response.ok) throw new Error(response.statusText);
        result.innerHTML = await response.text();
        onAnswer();
        history.replaceState(null, "", url);
      } catch (error) {
        if (error.name !== "AbortError") form.submit();
      }
    };
  }

  return { cards, grid, asker };
})();
