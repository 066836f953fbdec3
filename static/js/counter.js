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
      if (pushUrl) history.replaceState(null, "", url);
    } catch (error) {
      if (error.name !== "AbortError") form.submit(); // fall back to a plain request
    }
  }

  picker.hidden = false;
  picker.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-card]");
    if (!button) return;
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
    history.replaceState(null, "", form.action);
    sync();
  });
  sync();
})();
