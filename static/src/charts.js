// Charts drawn from JSON embedded in the page (<script type="application/json">), never from
// inline code, so the CSP can forbid inline scripts.
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

function readJson(id) {
  const node = document.getElementById(id);
  return node ? JSON.parse(node.textContent) : null;
}

// A per-pipe timeline: one horizontal lane per pipe, one bar per instruction.
export function drawTimeline(container) {
  const data = readJson(container.dataset.source);
  if (!data || !data.events || data.events.length === 0) {
    container.textContent = "No timeline recorded.";
    return;
  }
  const pipes = [...new Set(data.events.map((e) => e.pipe))];
  const width = container.clientWidth || 800;
  const laneHeight = 26;
  const end = Math.max(...data.events.map((e) => e.end));
  const canvas = document.createElement("canvas");
  const scale = window.devicePixelRatio || 1;
  canvas.width = width * scale;
  canvas.height = (pipes.length * laneHeight + 24) * scale;
  canvas.style.width = `${width}px`;
  canvas.style.height = `${pipes.length * laneHeight + 24}px`;
  const ctx = canvas.getContext("2d");
  ctx.scale(scale, scale);
  const left = 56;
  const colours = ["#2563eb", "#16a34a", "#d97706", "#9333ea", "#dc2626", "#0891b2", "#4b5563"];
  ctx.font = "12px system-ui, sans-serif";
  pipes.forEach((pipe, i) => {
    ctx.fillStyle = "#374151";
    ctx.fillText(pipe, 4, i * laneHeight + 17);
  });
  for (const e of data.events) {
    const lane = pipes.indexOf(e.pipe);
    const x = left + ((width - left - 8) * e.start) / end;
    const w = Math.max(1, ((width - left - 8) * (e.end - e.start)) / end);
    ctx.fillStyle = colours[lane % colours.length];
    ctx.fillRect(x, lane * laneHeight + 5, w, laneHeight - 10);
  }
  ctx.fillStyle = "#6b7280";
  ctx.fillText(`0 … ${end} cycles`, left, pipes.length * laneHeight + 18);
  container.replaceChildren(canvas);
}

export function drawSeries(container) {
  const spec = readJson(container.dataset.source);
  if (!spec) return;
  const opts = {
    width: container.clientWidth || 800,
    height: 260,
    series: [{}, ...spec.series.map((s) => ({ label: s.label, stroke: s.colour || "#2563eb" }))],
    axes: [{ label: spec.xLabel || "" }, { label: spec.yLabel || "" }],
  };
  container.replaceChildren();
  new uPlot(opts, [spec.x, ...spec.series.map((s) => s.values)], container);
}

function drawAll(root) {
  root.querySelectorAll("[data-chart=timeline]").forEach(drawTimeline);
  root.querySelectorAll("[data-chart=series]").forEach(drawSeries);
}

document.addEventListener("DOMContentLoaded", () => drawAll(document));
document.addEventListener("htmx:load", (event) => drawAll(event.target));
