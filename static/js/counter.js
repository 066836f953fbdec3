// The hand counter, enhanced: a tap-to-pick card grid, and answers without a page reload.
// Without JavaScript the page is a plain GET form and works the same.
(function () {
  "use strict";
  const form = document.getElementById("counter-form");
  if (!form || !window.fetch) return;
  const picker = document.getElementById("card-picker");
  const hint = document.getElementById("picker-hint");
  const handInput = form.elements["hand"];
  const starterInput = form.elements["starter"];
  const cribInput = form.elements["crib"];
  const result = document.getElementById("count-result");
  const buttons = Array.from(picker.querySelectorAll("button[data-card]"));
  const byCard = new Map(buttons.map((b) => [b.dataset.card, b]));

  // Card text as the picker writes it: upper case, T for ten, suit letters.
  const SUITS = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };
  function normal(text) {
    let t = text.trim().toUpperCase().replace(/\uFE0F/g, "");
    t = t.replace(/[♠♥♦♣]/g, (s) => SUITS[s]);
    return t.replace(/^T/, "10");
  }
  function cards(text) {
    return text.split(/[\s,;]+/).filter(Boolean).map(normal);
  }

  function sync() {
    const hand = cards(handInput.value);
    const starter = cards(starterInput.value)[0] || "";
    for (const [card, button] of byCard) {
      const role = hand.includes(card) ? "hand" : card === starter ? "starter" : "";
      button.setAttribute("aria-pressed", role ? "true" : "false");
      button.dataset.role = role;
    }
    if (hand.length < 4) hint.textContent = `Tap ${4 - hand.length} more for the hand.`;
    else if (!starter) hint.textContent = "Now tap the starter.";
    else hint.textContent = "Tap a picked card to take it back.";
  }

  let pending = null;
  async function count(pushUrl) {
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
      announceCount();
      if (pushUrl) history.replaceState(null, "", url);
    } catch (error) {
      if (error.name !== "AbortError") form.submit(); // fall back to a plain request
    }
  }

  // What a screen reader hears once a count arrives: its total and how it is said, not the
  // whole breakdown (the result card itself is not a live region; it can be read at leisure).
  const announce = document.getElementById("count-announce");
  function announceCount() {
    const total = result.querySelector("[data-testid=count-total]");
    const spoken = result.querySelector("[data-testid=count-spoken]");
    const errors = result.querySelector("[data-testid=count-errors]");
    if (errors) announce.textContent = "";  // the errors are an alert: they speak for themselves
    else if (total) announce.textContent = `${total.textContent} points: ${spoken ? spoken.textContent : ""}`;
    else announce.textContent = "";
  }

  // The grid is one tab stop (roving tabindex): arrows move between cards, Home and End go to
  // a row's ends; Enter and Space press the card, as for any button.
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

  picker.hidden = false;
  picker.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-card]");
    if (!button) return;
    focusCard(button);
    const card = button.dataset.card;
    let hand = cards(handInput.value);
    let starter = cards(starterInput.value)[0] || "";
    if (hand.includes(card)) hand = hand.filter((c) => c !== card);
    else if (starter === card) starter = "";
    else if (hand.length < 4) hand.push(card);
    else if (!starter) starter = card;
    else {
      hint.textContent = "Hand and starter are full: tap a picked card to take it back.";
      return;
    }
    handInput.value = hand.join(" ");
    starterInput.value = starter;
    sync();
    if (hand.length >= 3 && starter) count(true);
  });
  for (const input of [handInput, starterInput]) input.addEventListener("input", sync);
  cribInput.addEventListener("change", () => {
    if (handInput.value && starterInput.value) count(true);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    count(true);
  });
  document.getElementById("counter-clear").addEventListener("click", (event) => {
    event.preventDefault();
    handInput.value = "";
    starterInput.value = "";
    cribInput.checked = false;
    result.innerHTML = "";
    announce.textContent = "";
    history.replaceState(null, "", form.action);
    sync();
  });
  sync();
})();
