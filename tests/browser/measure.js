// What a page must not do on a phone (tests/browser/test_crawl.py): scroll sideways, show text
// under 16 px. Its tap targets are measured by tap_targets.js.
() => {
  const out = {width: document.documentElement.scrollWidth, small_text: []};
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none";
  };
  const where = (el) => {
    const p = el.parentElement;
    return p ? `${p.tagName.toLowerCase()}${p.classList[0] ? "." + p.classList[0] : ""}` : "";
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!el || !node.textContent.trim() || seen.has(el)) continue;
    seen.add(el);
    if (el.closest("svg, .visually-hidden, script, style, noscript, .print-only") || !visible(el)) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 15.95) out.small_text.push(`${where(el)}>${el.tagName.toLowerCase()} "${node.textContent.trim().slice(0, 30)}" ${size}px`);
  }
  if (out.width > window.innerWidth) {  // name what sticks out (outside any scrolling box)
    const scrolls = (el) => { for (let p = el.parentElement; p; p = p.parentElement) { if (p.scrollWidth > p.clientWidth + 1 && getComputedStyle(p).overflowX !== "visible") return true; } return false; };
    out.wide = [...document.body.querySelectorAll("*")].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !scrolls(el)).slice(-3).map((el) => `${where(el)}>${el.tagName.toLowerCase()}${el.className ? "." + String(el.className).split(" ")[0] : ""}`);
  }
  return out;
}
