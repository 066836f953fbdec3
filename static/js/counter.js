// The hand counter, enhanced: a tap-to-pick card grid (card-picker.js), and answers without a
// page reload. Without JavaScript the page is a plain GET form and works the same.
(function () {
  "use strict";
  const form = document.getElementById("counter-form");
  if (!form || !window.fetch || !window.PegboardCards) return;
  const { cards, grid, asker, pickCard } = window.PegboardCards;
  const hint = document.getElementById("picker-hint");
  const handInput = form.elements["hand"];
  const starterInput = form.elements["starter"];
  const cribInput = form.elements["crib"];
  const result = document.getElementById("count-result");

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
  const count = asker(form, result, announceCount);

  const picker = grid(document.getElementById("card-picker"), (card) => {
    const picked = pickCard(cards(handInput.value), cards(starterInput.value)[0] || "", card);
    if (!picked) {
      hint.textContent = "Hand and starter are full: tap a picked card to take it back.";
      return;
    }
    const { hand, starter } = picked;
    handInput.value = hand.join(" ");
    starterInput.value = starter;
    sync();
    if (hand.length >= 3 && starter) count();
  });

  function sync() {
    const hand = cards(handInput.value);
    const starter = cards(starterInput.value)[0] || "";
    picker.mark((card) => (hand.includes(card) ? "hand" : card === starter ? "starter" : ""));
    if (hand.length < 4) hint.textContent = `Tap ${4 - hand.length} more for the hand.`;
    else if (!starter) hint.textContent = "Now tap the starter.";
    else hint.textContent = "Tap a picked card to take it back.";
  }

  for (const input of [handInput, starterInput]) input.addEventListener("input", sync);
  cribInput.addEventListener("change", () => {
    if (handInput.value && starterInput.value) count();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    count();
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
