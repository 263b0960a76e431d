// Graph drawing for the task page: a layered layout (nodes come in topological order), an SVG
// picture for the tileable graph and a canvas one (zoom, pan, hover) for the subtask graph,
// which stays quick with thousands of nodes.
"use strict";

// Layers by longest path from the sources; within a layer, nodes sit near their inputs; a layer
// wider than `wrap` continues on further rows. Returns {x, y, rows, cols} per node in grid units.
function layeredLayout(count, edges, wrap = 40) {
  const preds = Array.from({ length: count }, () => []);
  for (const [src, dst] of edges) if (src < count && dst < count) preds[dst].push(src);
  const layer = new Array(count).fill(0);
  for (let i = 0; i < count; i++) for (const p of preds[i]) layer[i] = Math.max(layer[i], layer[p] + 1);
  const layers = [];
  for (let i = 0; i < count; i++) (layers[layer[i]] ||= []).push(i);
  const pos = new Array(count);
  let row = 0;
  let width = 1;
  for (const members of layers) {
    if (!members) continue;
    const key = (i) => preds[i].length ? preds[i].reduce((s, p) => s + pos[p].order, 0) / preds[i].length : i;
    members.sort((a, b) => key(a) - key(b));
    const perRow = Math.min(wrap, members.length);
    members.forEach((node, k) => {
      pos[node] = { col: k % perRow, row: row + Math.floor(k / perRow), order: k / members.length * wrap, perRow };
    });
    row += Math.ceil(members.length / perRow);
    width = Math.max(width, perRow);
  }
  for (const p of pos) if (p) p.col += (width - p.perRow) / 2;  // centre each layer
  return { pos, rows: row, cols: width };
}

const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// The tileable graph: one labelled box per operation, arrows from inputs.
function drawTileableGraph(container, graph) {
  const boxW = 170, boxH = 38, gapX = 30, gapY = 36;
  const { pos, rows, cols } = layeredLayout(graph.nodes.length, graph.edges, 6);
  const width = cols * (boxW + gapX) + gapX, height = rows * (boxH + gapY) + gapY;
  const svg = svgEl("svg", { width, height, viewBox: `0 0 ${width} ${height}`, id: "tileable-svg" });
  svg.append(svgEl("defs", {}));
  svg.firstChild.innerHTML = '<marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0L10,5L0,10z" fill="#888"/></marker>';
  const at = (i) => ({ x: gapX + pos[i].col * (boxW + gapX), y: gapY / 2 + pos[i].row * (boxH + gapY) });
  for (const [src, dst] of graph.edges) {
    const a = at(src), b = at(dst);
    svg.append(svgEl("line", { x1: a.x + boxW / 2, y1: a.y + boxH, x2: b.x + boxW / 2, y2: b.y,
      stroke: "#888", "marker-end": "url(#arrow)" }));
  }
  graph.nodes.forEach((node, i) => {
    const { x, y } = at(i);
    const g = svgEl("g", { class: "tileable-node", "data-state": node.state });
    g.append(svgEl("rect", { x, y, width: boxW, height: boxH, rx: 5,
      fill: STATE_COLORS[node.state] || "#ccc", stroke: "#555" }));
    g.append(svgEl("text", { x: x + 6, y: y + 15 }, `#${i} ${node.op}`.slice(0, 26)));
    const shape = "(" + node.shape.map((s) => (s === null ? "?" : s)).join(", ") + ")";
    g.append(svgEl("text", { x: x + 6, y: y + 31, fill: "#333" }, shape.slice(0, 26)));
    g.append(svgEl("title", {}, `#${i} ${node.op} ${shape}`));
    svg.append(g);
  });
  container.replaceChildren(svg);
}

// The fused subtask graph on a canvas: nodes coloured by state, edges from inputs; the wheel
// zooms, dragging pans, hovering names the subtask, the node that ran it and for how long.
class SubtaskGraphView {
  constructor(canvas, tooltip) {
    this.canvas = canvas;
    this.tooltip = tooltip;
    this.graph = { nodes: [], edges: [] };
    this.layout = null;
    this.view = { scale: 1, x: 0, y: 0 };
    this.cell = { w: 26, h: 18, gx: 8, gy: 30 };
    this.bindEvents();
  }

  update(graph) {
    const relayout = !this.layout || graph.nodes.length !== this.graph.nodes.length;
    this.graph = graph;
    if (relayout) {
      this.layout = layeredLayout(graph.nodes.length, graph.edges, 50);
      this.fit();
    }
    this.draw();
  }

  nodeBox(i) {
    const p = this.layout.pos[i], c = this.cell;
    return { x: p.col * (c.w + c.gx), y: p.row * (c.h + c.gy), w: c.w, h: c.h };
  }

  fit() {
    const c = this.cell, rect = this.canvas.getBoundingClientRect();
    const width = this.layout.cols * (c.w + c.gx), height = this.layout.rows * (c.h + c.gy);
    const scale = Math.min(rect.width / (width + 20), rect.height / (height + 20), 3);
    this.view = { scale, x: (rect.width - width * scale) / 2, y: 10 };
  }

  draw() {
    const canvas = this.canvas, ratio = window.devicePixelRatio || 1;
    const rect = canvas.getBoundingClientRect();
    canvas.width = rect.width * ratio;
    canvas.height = rect.height * ratio;
    const ctx = canvas.getContext("2d");
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, rect.width, rect.height);
    ctx.translate(this.view.x, this.view.y);
    ctx.scale(this.view.scale, this.view.scale);
    ctx.strokeStyle = "rgba(90, 90, 90, 0.35)";
    ctx.lineWidth = 1 / this.view.scale;
    ctx.beginPath();
    for (const [src, dst] of this.graph.edges) {
      if (!this.layout.pos[src] || !this.layout.pos[dst]) continue;
      const a = this.nodeBox(src), b = this.nodeBox(dst);
      ctx.moveTo(a.x + a.w / 2, a.y + a.h);
      ctx.lineTo(b.x + b.w / 2, b.y);
    }
    ctx.stroke();
    this.graph.nodes.forEach((node, i) => {
      const b = this.nodeBox(i);
      ctx.fillStyle = STATE_COLORS[node.state] || "#ccc";
      ctx.fillRect(b.x, b.y, b.w, b.h);
    });
    if (this.view.scale > 1.2) {  // labels once they are readable
      ctx.fillStyle = "#111";
      ctx.font = "7px system-ui";
      this.graph.nodes.forEach((node, i) => {
        const b = this.nodeBox(i);
        ctx.fillText(node.label.replace(/^m[td]\./, "").slice(0, 6), b.x + 1, b.y + 11, b.w - 2);
      });
    }
  }

  hit(clientX, clientY) {
    const rect = this.canvas.getBoundingClientRect();
    const x = (clientX - rect.left - this.view.x) / this.view.scale;
    const y = (clientY - rect.top - this.view.y) / this.view.scale;
    for (let i = 0; i < this.graph.nodes.length; i++) {
      const b = this.nodeBox(i);
      if (x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h) return i;
    }
    return -1;
  }

  bindEvents() {
    let drag = null;
    this.canvas.addEventListener("wheel", (event) => {
      event.preventDefault();
      const rect = this.canvas.getBoundingClientRect();
      const factor = event.deltaY < 0 ? 1.2 : 1 / 1.2;
      const mx = event.clientX - rect.left, my = event.clientY - rect.top;
      this.view.x = mx - (mx - this.view.x) * factor;
      this.view.y = my - (my - this.view.y) * factor;
      this.view.scale *= factor;
      this.draw();
    }, { passive: false });
    this.canvas.addEventListener("mousedown", (e) => { drag = { x: e.clientX, y: e.clientY }; });
    window.addEventListener("mouseup", () => { drag = null; });
    this.canvas.addEventListener("mousemove", (event) => {
      if (drag) {
        this.view.x += event.clientX - drag.x;
        this.view.y += event.clientY - drag.y;
        drag = { x: event.clientX, y: event.clientY };
        this.draw();
        return;
      }
      const i = this.hit(event.clientX, event.clientY);
      if (i < 0) { this.tooltip.style.display = "none"; return; }
      const node = this.graph.nodes[i];
      this.tooltip.textContent = `subtask ${i} ${node.label} (stage ${node.stage})\n${node.state}` +
        (node.node_id ? `\nnode ${node.node_id.slice(0, 12)}, ${seconds(node.duration)}` : "");
      const rect = this.canvas.getBoundingClientRect();
      this.tooltip.style.left = (event.clientX - rect.left + 12) + "px";
      this.tooltip.style.top = (event.clientY - rect.top + 12) + "px";
      this.tooltip.style.display = "block";
    });
    this.canvas.addEventListener("mouseleave", () => { this.tooltip.style.display = "none"; });
    this.canvas.addEventListener("dblclick", () => { this.fit(); this.draw(); });
  }
}
