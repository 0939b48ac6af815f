// Site-wide behaviour: htmx for partial updates, and the few progressive enhancements every
// page may use. Loaded on every page. No inline scripts or handlers anywhere (CSP): behaviour
// hangs off data attributes and classes.
import htmx from "htmx.org";

window.htmx = htmx;
// Inline scripts are forbidden by our CSP; htmx must not evaluate any either.
htmx.config.allowEval = false;
htmx.config.includeIndicatorStyles = false;
htmx.config.historyCacheSize = 0; // back/forward re-fetch the page, so lists never come back stale

document.documentElement.classList.add("js");

// Bars whose length is data: <span class="fill" data-fill="3" data-of="10">.
function sizeBars(root) {
  root.querySelectorAll("[data-fill]").forEach((bar) => {
    const value = Number(bar.dataset.fill);
    const of = Number(bar.dataset.of || 1);
    const share = of > 0 && Number.isFinite(value) ? Math.max(0, Math.min(1, value / of)) : 0;
    bar.style.width = `${(share * 100).toFixed(1)}%`;
  });
}

// <select class="js-autosubmit"> submits its form when changed (the Apply button is for no-JS).
function autosubmit(root) {
  root.querySelectorAll("select.js-autosubmit").forEach((select) => {
    if (select.dataset.autosubmit) return;
    select.dataset.autosubmit = "1";
    select.addEventListener("change", () => select.form && select.form.requestSubmit());
  });
}

// Polling ([data-poll]) pauses while the tab is hidden: htmx keeps its timer, we skip the
// requests. (hx-trigger filters would need eval, which the CSP forbids.)
document.addEventListener("htmx:beforeRequest", (event) => {
  const elt = event.detail && event.detail.elt;
  if (document.visibilityState === "hidden" && elt && elt.hasAttribute && elt.hasAttribute("data-poll")) {
    event.preventDefault();
  }
});

function enhance(root) {
  sizeBars(root);
  autosubmit(root);
}

document.addEventListener("DOMContentLoaded", () => enhance(document));
document.addEventListener("htmx:load", (event) => enhance(event.target));
