// Site-wide behaviour: htmx for partial updates. Loaded on every page.
import htmx from "htmx.org";

window.htmx = htmx;
// Inline scripts are forbidden by our CSP; htmx must not evaluate any either.
htmx.config.allowEval = false;
htmx.config.includeIndicatorStyles = false;
