// The claim forms' cards by tap (the game page's claim form, the table page's "File a claim"):
// the card grid (card-picker.js) fills the typed fields, and the typed fields show on the grid.
// A hand or crib: four cards, then the starter; his heels: the starter alone; a claim in the
// play keeps its typed rows (the grid hides). Once the hand and the starter are whole, the hand
// counter's own answer is shown beside "Points claimed": "These cards count N". What is filed
// is still the points claimed, the count announced at the table (docs/decisions/claims.md).
// Without JavaScript the grid stays hidden and the typed fields work alone.
(function () {
  "use strict";
  if (!window.fetch || !window.PegboardCards) return;
  const { cards, grid, counter, pickCard } = window.PegboardCards;

  function enhance(form) {
    const handInput = form.elements["hand"];
    const starterInput = form.elements["starter"];
    const kindInput = form.elements["kind"];  // a select, or radios (a RadioNodeList)
    const pickerElement = form.querySelector(".card-picker");
    const shown = form.querySelector("[data-claim-count]");
    if (!handInput || !starterInput || !kindInput || !pickerElement || !shown) return;
    const hint = pickerElement.querySelector(".card-picker__say");
    const total = shown.querySelector("[data-claim-count-total]");
    const spoken = shown.querySelector("[data-claim-count-spoken]");

    function kind() {
      return kindInput.value || "hand";  // no kind chosen yet: the cards of a hand or crib
    }
    function typed() {
      return { hand: cards(handInput.value), starter: cards(starterInput.value)[0] || "" };
    }

    const count = counter(form.dataset.countUrl, (points, said) => {
      const now = typed();
      if (points === null || kind() === "heels" || kind() === "play" || !complete(now)) {
        shown.hidden = true;
        return;
      }
      total.textContent = points;
      spoken.textContent = said;
      shown.hidden = false;
    });
    function complete(now) {
      return now.hand.length === 4 && now.starter !== "";
    }

    const picker = grid(pickerElement, (card) => {
      const now = typed();
      const picked =
        kind() === "heels"
          ? { hand: now.hand, starter: now.starter === card ? "" : card }
          : pickCard(now.hand, now.starter, card);
      if (!picked) {
        hint.textContent = "Cards and starter are full: tap a picked card to take it back.";
        return;
      }
      const { hand, starter } = picked;
      handInput.value = hand.join(" ");
      starterInput.value = starter;
      // As if typed: the page's other scripts hear it too (table-offline.js keeps what is typed).
      for (const input of [handInput, starterInput]) {
        input.dispatchEvent(new Event("input", { bubbles: true }));
      }
    });

    let asked = "";  // the cards last sent to the counter: typing a space asks nothing new
    function sync() {
      const { hand, starter } = typed();
      const heels = kind() === "heels";
      pickerElement.hidden = kind() === "play";
      picker.mark((card) =>
        !heels && hand.includes(card) ? "hand" : card === starter ? "starter" : "",
      );
      const what = kind() === "crib" ? "crib" : "hand";
      if (heels) {
        hint.textContent = starter
          ? "Tap the starter again to take it back."
          : "Tap the starter (a jack scores his heels).";
      } else if (hand.length < 4) hint.textContent = `Tap ${4 - hand.length} more for the ${what}.`;
      else if (!starter) hint.textContent = "Now tap the starter.";
      else hint.textContent = "Tap a picked card to take it back.";

      const question = heels || kind() === "play" ? "" : [...hand, starter, what].join(" ");
      if (question && complete({ hand, starter })) {
        if (question !== asked) count(hand, starter, what === "crib");
      } else shown.hidden = true;
      asked = complete({ hand, starter }) ? question : "";
    }

    for (const input of [handInput, starterInput]) input.addEventListener("input", sync);
    form.addEventListener("change", (event) => {
      if (event.target.name === "kind") sync();
    });
    sync();  // what the page holds already: a refused post's cards, or those kept on the phone
  }

  document.querySelectorAll("form[data-claim-cards]").forEach(enhance);
})();
