// The expert workspace: line-range selection in code listings, section ↔ code highlighting,
// autosave nudges for the CodeMirror editor, and the active-time counter sent with every save.
// Bundles editor.js so the fix page has one CodeMirror instance to hook into. No inline
// scripts (CSP): everything hangs off data attributes.
import "./editor.js";
import { EditorView } from "@codemirror/view";
import { StateEffect } from "@codemirror/state";

const ROW = (n) => document.getElementById(`k-L${n}`);

// --- line selection in a listing -------------------------------------------------------------
let selection = null; // [start, end]

// `ranges` is a list of [from, to] pairs (or null).
function paint(className, ranges) {
  document.querySelectorAll(`[data-ws-code] tr.${className}`).forEach((row) => row.classList.remove(className));
  (ranges || []).forEach((range) => {
    for (let n = range[0]; n <= range[1]; n += 1) {
      const row = ROW(n);
      if (row) row.classList.add(className);
    }
  });
}

function lineOf(anchor) {
  const row = anchor.closest("tr[id^='k-L']");
  return row ? Number(row.id.slice(3)) : null;
}

function wireListing(root) {
  root.querySelectorAll("[data-ws-code]").forEach((pane) => {
    if (pane.dataset.wired) return;
    pane.dataset.wired = "1";
    pane.addEventListener("click", (event) => {
      const anchor = event.target.closest("td.ln a");
      if (!anchor) return;
      event.preventDefault();
      const line = lineOf(anchor);
      if (line === null) return;
      if (event.shiftKey && selection) {
        selection = [Math.min(selection[0], line), Math.max(selection[0], line)];
      } else {
        selection = [line, line];
      }
      paint("ws-sel", [selection]);
      document.body.dataset.wsSelection = `${selection[0]}-${selection[1]}`;
    });
  });
}

// "6-9, 14" or "6-9,14-14" -> [[6, 9], [14, 14]]
function parseRanges(text) {
  const out = [];
  (text || "").replace(/–/g, "-").split(",").forEach((part) => {
    const match = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(part);
    if (!match) return;
    const a = Number(match[1]);
    const b = Number(match[2] || match[1]);
    if (a > 0 && b > 0) out.push([Math.min(a, b), Math.max(a, b)]);
  });
  return out;
}

function formatRanges(ranges) {
  return ranges.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(", ");
}

function sectionRanges(section) {
  const input = section.querySelector("[data-lines-input]");
  return parseRanges(input ? input.value : section.dataset.lines);
}

function reveal(ranges) {
  paint("ws-linked", ranges);
  if (!ranges || !ranges.length) return;
  const row = ROW(ranges[0][0]);
  const scroller = row && row.closest(".ws-code-scroll");
  if (row && scroller) {
    const top = row.offsetTop - scroller.clientHeight / 4;
    scroller.scrollTo({ top: Math.max(0, top), behavior: "smooth" });
  }
}

function wireSections(root) {
  root.querySelectorAll(".ws-section[data-section], .ws-rsection[data-section]").forEach((section) => {
    if (section.dataset.wired) return;
    section.dataset.wired = "1";
    const show = () => reveal(sectionRanges(section));
    section.addEventListener("focusin", show);
    section.addEventListener("mouseenter", show);
    const chip = section.querySelector("[data-show-lines]");
    if (chip) chip.addEventListener("click", show);
    const link = section.querySelector("[data-link-lines]");
    if (link) {
      link.addEventListener("click", () => {
        if (!selection) {
          link.textContent = "Select lines first";
          setTimeout(() => { link.textContent = "Link selection"; }, 1600);
          return;
        }
        const input = section.querySelector("[data-lines-input]");
        const ranges = sectionRanges(section);
        if (!ranges.some(([a, b]) => a === selection[0] && b === selection[1])) ranges.push(selection);
        ranges.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
        input.value = formatRanges(ranges);
        section.dataset.lines = ranges.map(([a, b]) => `${a}-${b}`).join(",");
        input.dispatchEvent(new Event("change", { bubbles: true }));
        paintCoverage();
        reveal(ranges);
        selection = null;
        paint("ws-sel", null);
      });
    }
  });
}

// --- active time -----------------------------------------------------------------------------
// Seconds the page was visible with someone typing or clicking in the last minute; sent with
// each save as "spent" and reset once the server has it.
let spent = 0;
let lastActivity = Date.now();
["keydown", "pointerdown", "scroll", "input"].forEach((name) =>
  document.addEventListener(name, () => { lastActivity = Date.now(); }, { passive: true, capture: true }));
setInterval(() => {
  if (document.visibilityState === "visible" && Date.now() - lastActivity < 60000 && document.querySelector("[data-ws-form]")) {
    spent += 1;
  }
}, 1000);

document.addEventListener("htmx:configRequest", (event) => {
  const form = event.detail.elt && event.detail.elt.closest && event.detail.elt.closest("[data-ws-form]");
  if (!form) return;
  event.detail.parameters.spent = String(spent);
  event.detail.elt.dataset.wsSent = String(spent);
});
document.addEventListener("htmx:afterRequest", (event) => {
  const elt = event.detail.elt;
  if (elt && elt.dataset && elt.dataset.wsSent && event.detail.successful) {
    spent = Math.max(0, spent - Number(elt.dataset.wsSent));
    delete elt.dataset.wsSent;
  }
});
document.addEventListener("submit", (event) => {
  const form = event.target.closest && event.target.closest("[data-ws-form]");
  if (!form) return;
  const field = form.querySelector("[data-spent]");
  if (field) field.value = String(spent);
}, true);

// --- CodeMirror changes trigger the autosave ---------------------------------------------------
function wireEditors(root) {
  root.querySelectorAll("[data-ws-form] textarea[data-editor]").forEach((textarea) => {
    const view = textarea.akgenEditor;
    if (!view || textarea.dataset.wsHooked) return;
    textarea.dataset.wsHooked = "1";
    view.dispatch({
      effects: StateEffect.appendConfig.of(EditorView.updateListener.of((update) => {
        if (update.docChanged) textarea.form.dispatchEvent(new CustomEvent("ws-dirty", { bubbles: true }));
      })),
    });
  });
}

// Rows that some section points at get a mark in the gutter: what is explained, at a glance.
function paintCoverage() {
  const pane = document.querySelector("[data-ws-code]");
  if (!pane) return;
  pane.querySelectorAll("tr.ws-covered").forEach((row) => row.classList.remove("ws-covered"));
  document.querySelectorAll(".ws-section[data-section], .ws-rsection[data-section]").forEach((section) => {
    sectionRanges(section).forEach((range) => {
      for (let n = range[0]; n <= range[1]; n += 1) {
        const row = ROW(n);
        if (row && pane.contains(row)) row.classList.add("ws-covered");
      }
    });
  });
}
document.addEventListener("change", (event) => {
  if (event.target.closest && event.target.closest("[data-lines-input]")) paintCoverage();
});

function enhance(root) {
  paintCoverage();
  wireListing(root);
  wireSections(root);
  wireEditors(root);
}

document.addEventListener("DOMContentLoaded", () => enhance(document));
document.addEventListener("htmx:load", (event) => enhance(event.target));
