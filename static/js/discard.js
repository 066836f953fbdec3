// The discard advisor, enhanced: tap the dealt cards on the grid (card-picker.js) and the advice
// appears, without a page reload, once the hand is whole. Without JavaScript the page is a plain
// GET form and works the same.
(function () {
  "use strict";
  const form = document.getElementById("discard-form");
  if (!form || !window.fetch || !window.PegboardCards) return;
  const { cards, grid, asker } = window.PegboardCards;
  const hint = document.getElementById("picker-hint");
  const cardsInput = form.elements["cards"];
  const playersInput = form.elements["players"];
  const result = document.getElementById("discard-result");
  const announce = document.getElementById("discard-announce");

  function needed() {
    return playersInput.value === "2" ? 6 : 5;
  }

  // A screen reader hears the best lay-away once the advice arrives; the table can be read at
  // leisure (errors are an alert and speak for themselves).
  function announceBest() {
    const best = result.querySelector("[data-testid=discard-best]");
    announce.textContent = best ? best.textContent.replace(/\s+/g, " ").trim() : "";
  }
  const advise = asker(form, result, announceBest);

  const picker = grid(document.getElementById("card-picker"), (card) => {
    let dealt = cards(cardsInput.value);
    if (dealt.includes(card)) dealt = dealt.filter((c) => c !== card);
    else if (dealt.length < needed()) dealt.push(card);
    else {
      hint.textContent = `That is ${needed()} cards: tap a picked card to take it back.`;
      return;
    }
    cardsInput.value = dealt.join(" ");
    sync();
    if (dealt.length === needed()) advise();
  });

  function sync() {
    const dealt = cards(cardsInput.value);
    picker.mark((card) => (dealt.includes(card) ? "hand" : ""));
    const more = needed() - dealt.length;
    if (more > 0) hint.textContent = `Tap ${more} more card${more === 1 ? "" : "s"} you were dealt.`;
    else hint.textContent = "Tap a picked card to take it back.";
  }

  cardsInput.addEventListener("input", sync);
  form.addEventListener("change", (event) => {
    if (event.target === cardsInput) return;
    sync();
    if (cards(cardsInput.value).length === needed()) advise();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    advise();
  });
  document.getElementById("discard-clear").addEventListener("click", (event) => {
    event.preventDefault();
    cardsInput.value = "";
    result.innerHTML = "";
    announce.textContent = "";
    history.replaceState(null, "", form.action);
    sync();
  });
  sync();
})();
