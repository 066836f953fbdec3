// Every tap target on the page now showing that is under 44 × 44 CSS px (the page crawl,
// tests/browser/test_crawl.py). Measured: every visible link, button, summary, select, text field and
// text area, and a checkbox or radio button by the larger of its box and its label's. Exempt
// (WCAG 2.5.8's inline exception): a link that runs inline inside a paragraph of text, that is
// a <p> whose text, less the text of the links and buttons in it, still has words of its own.
() => {
  const small = [];
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && el.checkVisibility({visibilityProperty: true});
  };
  const text = (el) =>
    (el.innerText || el.value || el.getAttribute("aria-label") || el.name || el.tagName)
      .replace(/\s+/g, " ").trim().slice(0, 40);
  const ownWords = (block) => {
    const copy = block.cloneNode(true);
    for (const el of copy.querySelectorAll("a, button, select, input, textarea, summary")) el.remove();
    return /[A-Za-z0-9]{2}/.test(copy.textContent);
  };
  const inSentence = (el) => {
    if (!el.matches("a") || getComputedStyle(el).display !== "inline") return false;
    let block = el.parentElement;
    while (block && getComputedStyle(block).display === "inline") block = block.parentElement;
    return Boolean(block && block.matches("p") && ownWords(block));
  };
  const targets = document.querySelectorAll(
    "a[href], button, summary, select, textarea, input:not([type=hidden])"
  );
  for (const el of targets) {
    if (!visible(el) || el.closest(".visually-hidden, .skip-link")) continue;
    const r = el.getBoundingClientRect();
    let w = r.width, h = r.height;
    if (el.matches("input[type=checkbox], input[type=radio]")) {
      for (const label of el.labels || []) {
        const lr = label.getBoundingClientRect();
        w = Math.max(w, lr.width); h = Math.max(h, lr.height);
      }
    }
    if ((w < 43.5 || h < 43.5) && !inSentence(el)) {
      small.push(`${el.tagName.toLowerCase()} "${text(el)}": ${Math.round(w)}x${Math.round(h)}`);
    }
  }
  return small;
}
