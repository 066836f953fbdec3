// The claim form (scoring:claim_new): the deal number and the play rows belong to a claim in the
// play only. Without JavaScript they are a <details> part to open; with it, they show (open)
// while "Play" is the kind chosen and are hidden otherwise. The server ignores them for a claim
// of another kind (scoring.forms.ClaimForm). No inline script: the site's
// Content-Security-Policy refuses it.
(function () {
  "use strict";
  const form = document.querySelector("[data-claim-form]");
  if (!form) return;
  const kind = form.querySelector("select[name='kind']");
  const play = form.querySelector("[data-claim-play]");
  if (!kind || !play) return;

  function show() {
    const isPlay = kind.value === "play";
    play.hidden = !isPlay;
    if (isPlay) play.open = true;
  }

  kind.addEventListener("change", show);
  show();
})();
