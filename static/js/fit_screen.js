// The tabletop takes the height left below the game's header and tracker, so that the board, the
// action panel and the side tabs fit the window without scrolling at any header height (issue 15).
// Below 56rem (portrait tablets, phones) the panels go under the board and the page scrolls.
// Layout only.
const NARROW = "(max-width: 56rem)";

export function fitToWindow(tabletop, above, { margin = 8, min = 448 } = {}) {
  const narrow = window.matchMedia(NARROW);
  const fit = () => {
    if (narrow.matches) {
      tabletop.style.removeProperty("height");
      return;
    }
    const top = tabletop.getBoundingClientRect().top + window.scrollY;
    tabletop.style.setProperty("height", `${Math.max(min, Math.floor(window.innerHeight - top - margin))}px`);
  };
  window.addEventListener("resize", fit);
  narrow.addEventListener("change", fit);
  if (typeof ResizeObserver !== "undefined") {
    const watch = new ResizeObserver(fit);
    for (const element of above) if (element) watch.observe(element);
  }
  fit();
}
