// The live board (web/board.py): htmx refreshes its parts; this only says on the board when the
// site cannot be reached, so a TV that lost its network does not go on showing old figures as
// if they were live, and says so again once a refresh gets through.
(function () {
  "use strict";
  const status = document.querySelector("[data-board-status]");
  if (!status) return;
  const live = status.textContent;
  const lost = "Connection lost: retrying";
  function show(text, offline) {
    if (status.textContent !== text) status.textContent = text;
    document.body.classList.toggle("board--offline", offline);
  }
  document.body.addEventListener("htmx:sendError", () => show(lost, true));
  document.body.addEventListener("htmx:timeout", () => show(lost, true));
  document.body.addEventListener("htmx:responseError", () => show(lost, true));
  document.body.addEventListener("htmx:afterRequest", (event) => {
    if (event.detail.successful) show(live, false);
  });
})();
