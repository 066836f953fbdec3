// The card grid the hand counter, the discard advisor and the claim forms share, and how their
// pages answer without a reload. Without JavaScript the grid stays hidden and each page is a
// plain form.
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

  // Fetch just the answer's fragment of a card tool's address (header X-Requested-With: fetch);
  // a newer question aborts the one still on its way (its promise rejects with AbortError).
  function answerer() {
    let pending = null;
    return async function answer(url) {
      if (pending) pending.abort();
      pending = new AbortController();
      const response = await fetch(url, {
        headers: { "X-Requested-With": "fetch" },
        signal: pending.signal,
      });
      if (!response.ok) throw new Error(response.statusText);
      return response.text();
    };
  }

  // Ask the form's own address for just the answer, put it in `result`, then call `onAnswer`;
  // the address bar gets the question's address, to share. A failed request falls back to
  // submitting the form.
  function asker(form, result, onAnswer) {
    const answer = answerer();
    return async function ask() {
      const params = new URLSearchParams(new FormData(form));
      const url = `${form.action}?${params}`;
      try {
        result.innerHTML = await answer(url);
        onAnswer();
        history.replaceState(null, "", url);
      } catch (error) {
        if (error.name !== "AbortError") form.submit();
      }
    };
  }

  // Ask the hand counter (`address`: its page) to count a hand or crib, as its own page does,
  // for a page that is not the counter: `onAnswer(total, spoken)` hears the count's total and
  // how it is said, or `onAnswer(null)` when the cards do not make a hand or the request
  // failed. No fallback and no change of address: the page's own form is not the counter's.
  function counter(address, onAnswer) {
    const answer = answerer();
    return async function count(hand, starter, crib) {
      const params = new URLSearchParams({ hand: hand.join(" "), starter });
      if (crib) params.set("crib", "on");
      try {
        const html = await answer(`${address}?${params}`);
        const fragment = new DOMParser().parseFromString(html, "text/html");  // inert: read only
        const total = fragment.querySelector("[data-testid=count-total]");
        const spoken = fragment.querySelector("[data-testid=count-spoken]");
        if (total) onAnswer(total.textContent.trim(), spoken ? spoken.textContent.trim() : "");
        else onAnswer(null);
      } catch (error) {
        if (error.name !== "AbortError") onAnswer(null);
      }
    };
  }

  // A tap on `card` with four cards and a starter to pick: a picked card is taken back, else it
  // fills the hand, then the starter. The new { hand, starter }, or null when both are full.
  function pickCard(hand, starter, card) {
    if (hand.includes(card)) return { hand: hand.filter((c) => c !== card), starter };
    if (starter === card) return { hand, starter: "" };
    if (hand.length < 4) return { hand: [...hand, card], starter };
    if (!starter) return { hand, starter: card };
    return null;
  }

  return { cards, grid, asker, counter, pickCard };
})();
