// Charts drawn from JSON embedded in the page (<script type="application/json">), never from
// inline code, so the CSP can forbid inline scripts.
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

function readJson(id) {
  const node = document.getElementById(id);
  if (!node) return null;
  try {
    return JSON.parse(node.textContent);
  } catch {
    return null;
  }
}

// One colour per pipe, the same on every page (and in app.css's .pipe-* bars).
export const PIPE_COLOURS = {
  MTE2: "#2563eb",
  MTE1: "#0891b2",
  V: "#16a34a",
  M: "#9333ea",
  FIX: "#ca8a04",
  MTE3: "#ea580c",
  S: "#64748b",
};
const FALLBACK = ["#db2777", "#0d9488", "#7c3aed", "#4b5563"];
const PIPE_ORDER = ["MTE2", "MTE1", "V", "M", "FIX", "MTE3", "S"];

function colourOf(pipe, index) {
  return PIPE_COLOURS[pipe] || FALLBACK[index % FALLBACK.length];
}

function niceStep(span, target) {
  const raw = span / Math.max(1, target);
  const power = 10 ** Math.floor(Math.log10(raw || 1));
  const unit = [1, 2, 2.5, 5, 10].find((m) => m * power >= raw) || 10;
  return unit * power;
}

function formatCycles(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(n % 1e6 ? 1 : 0)}M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(n % 1e3 ? 1 : 0)}k`;
  return String(Math.round(n));
}

function pipeOrder(a, b) {
  const ia = PIPE_ORDER.indexOf(a);
  const ib = PIPE_ORDER.indexOf(b);
  return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
}

// A per-pipe timeline of one core: one lane per pipe, one bar per instruction. Hovering a bar
// names the instruction; clicking one that carries a kernel line jumps to that line.
export function drawTimeline(container) {
  if (container.dataset.drawn) return;
  container.dataset.drawn = "1";
  const data = readJson(container.dataset.source);
  const events = (data && Array.isArray(data.events) ? data.events : []).filter(
    (e) => Number.isFinite(e.start) && Number.isFinite(e.end),
  );
  if (events.length === 0) {
    container.textContent = "No timeline recorded.";
    return;
  }
  const anchor = data.anchor || "k-L";
  const coreEnd = new Map();
  for (const e of events) coreEnd.set(e.core ?? 0, Math.max(coreEnd.get(e.core ?? 0) || 0, e.end));
  const cores = [...coreEnd.keys()].sort((a, b) => a - b);
  const slowest = cores.reduce((best, c) => (coreEnd.get(c) > coreEnd.get(best) ? c : best), cores[0]);
  const end = Math.max(data.cycles || 0, ...coreEnd.values());

  const wrapper = document.createElement("div");
  wrapper.className = "timeline-chart";
  const controls = document.createElement("div");
  controls.className = "timeline-controls";
  let core = slowest;
  if (cores.length > 1) {
    const label = document.createElement("label");
    label.textContent = "Core ";
    const select = document.createElement("select");
    select.setAttribute("data-testid", "timeline-core");
    for (const c of cores) {
      const option = document.createElement("option");
      option.value = String(c);
      option.textContent = `${c}${c === slowest ? " (slowest)" : ""} · ${formatCycles(coreEnd.get(c))} cycles`;
      if (c === slowest) option.selected = true;
      select.append(option);
    }
    select.addEventListener("change", () => {
      core = Number(select.value);
      render();
    });
    label.append(select);
    controls.append(label);
  }
  const legend = document.createElement("span");
  legend.className = "timeline-legend";
  const pipesAll = [...new Set(events.map((e) => e.pipe))].sort(pipeOrder);
  pipesAll.forEach((pipe, i) => {
    const item = document.createElement("span");
    const swatch = document.createElement("i");
    swatch.style.background = colourOf(pipe, i);
    item.append(swatch, document.createTextNode(pipe));
    legend.append(item);
  });
  controls.append(legend);

  const canvas = document.createElement("canvas");
  const tip = document.createElement("div");
  tip.className = "timeline-tip";
  tip.hidden = true;
  const stage = document.createElement("div");
  stage.className = "timeline-stage";
  stage.append(canvas, tip);
  wrapper.append(controls, stage);
  container.replaceChildren(wrapper);

  const laneHeight = 28;
  const left = 64;
  const right = 12;
  const top = 6;
  const axis = 34;
  let boxes = [];

  function render() {
    const mine = events.filter((e) => (e.core ?? 0) === core);
    const pipes = pipesAll.filter((p) => mine.some((e) => e.pipe === p));
    const width = Math.max(320, stage.clientWidth || container.clientWidth || 800);
    const height = top + pipes.length * laneHeight + axis;
    const scale = window.devicePixelRatio || 1;
    canvas.width = width * scale;
    canvas.height = height * scale;
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
    const ctx = canvas.getContext("2d");
    ctx.setTransform(scale, 0, 0, scale, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const plot = width - left - right;
    const x = (c) => left + (plot * c) / end;

    // Lanes and grid.
    ctx.font = "12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace";
    ctx.textBaseline = "middle";
    pipes.forEach((pipe, i) => {
      const y = top + i * laneHeight;
      ctx.fillStyle = i % 2 ? "#f8fafc" : "#f1f5f9";
      ctx.fillRect(left, y, plot, laneHeight);
      ctx.fillStyle = "#334155";
      ctx.fillText(pipe, 8, y + laneHeight / 2);
    });
    const step = niceStep(end, Math.max(2, Math.floor(plot / 110)));
    ctx.strokeStyle = "#e2e8f0";
    ctx.fillStyle = "#64748b";
    ctx.textBaseline = "top";
    ctx.font = "11px system-ui, sans-serif";
    for (let c = 0; c <= end + 1e-9; c += step) {
      const gx = Math.round(x(c)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(gx, top);
      ctx.lineTo(gx, top + pipes.length * laneHeight + 4);
      ctx.stroke();
      const text = formatCycles(c);
      const tw = ctx.measureText(text).width;
      ctx.fillText(text, Math.min(width - right - tw, Math.max(left, gx - tw / 2)), top + pipes.length * laneHeight + 8);
    }
    ctx.textAlign = "left";

    // Bars.
    boxes = [];
    for (const e of mine) {
      const lane = pipes.indexOf(e.pipe);
      const bx = x(e.start);
      // Back-to-back instructions stay distinguishable: a 1px gap once bars are wide enough.
      const full = x(e.end) - bx;
      const bw = Math.max(1, full > 4 ? full - 1 : full);
      const by = top + lane * laneHeight + 5;
      const bh = laneHeight - 10;
      ctx.fillStyle = colourOf(e.pipe, pipesAll.indexOf(e.pipe));
      ctx.fillRect(bx, by, bw, bh);
      boxes.push({ x: bx, y: by, w: bw, h: bh, e });
    }
    ctx.fillStyle = "#64748b";
    ctx.textAlign = "right";
    ctx.fillText("cycles", width - right, top + pipes.length * laneHeight + 21);
    ctx.textAlign = "left";
  }

  function hit(event) {
    const rect = canvas.getBoundingClientRect();
    const px = event.clientX - rect.left;
    const py = event.clientY - rect.top;
    let found = null;
    for (const b of boxes) {
      if (py >= b.y && py <= b.y + b.h && px >= b.x - 2 && px <= b.x + b.w + 2) {
        found = b;
        if (px >= b.x && px <= b.x + b.w) break;
      }
    }
    return { found, px, py };
  }

  canvas.addEventListener("mousemove", (event) => {
    const { found, px, py } = hit(event);
    if (!found) {
      tip.hidden = true;
      canvas.style.cursor = "default";
      return;
    }
    const e = found.e;
    tip.textContent = "";
    const title = document.createElement("strong");
    title.textContent = `${e.pipe} · ${e.op || "instruction"}`;
    const detail = document.createElement("span");
    detail.textContent = `cycles ${formatCycles(e.start)}–${formatCycles(e.end)} (${formatCycles(e.end - e.start)})${e.line ? ` · line ${e.line}` : ""}`;
    tip.append(title, detail);
    tip.hidden = false;
    const maxLeft = stage.clientWidth - tip.offsetWidth - 4;
    tip.style.left = `${Math.max(0, Math.min(maxLeft, px + 12))}px`;
    tip.style.top = `${py + 14}px`;
    canvas.style.cursor = e.line ? "pointer" : "default";
  });
  canvas.addEventListener("mouseleave", () => {
    tip.hidden = true;
  });
  canvas.addEventListener("click", (event) => {
    const { found } = hit(event);
    if (found && found.e.line && document.getElementById(`${anchor}${found.e.line}`)) {
      window.location.hash = `${anchor}${found.e.line}`;
    }
  });

  render();
  if (window.ResizeObserver) {
    let last = stage.clientWidth;
    new ResizeObserver(() => {
      if (Math.abs(stage.clientWidth - last) > 4) {
        last = stage.clientWidth;
        render();
      }
    }).observe(stage);
  }
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
  const scope = root.matches && root.matches("[data-chart]") ? [root] : [];
  const find = (sel) => [...scope.filter((n) => n.matches(sel)), ...root.querySelectorAll(sel)];
  find("[data-chart=timeline]").forEach(drawTimeline);
  find("[data-chart=series]").forEach(drawSeries);
}

document.addEventListener("DOMContentLoaded", () => drawAll(document));
document.addEventListener("htmx:load", (event) => drawAll(event.target));
