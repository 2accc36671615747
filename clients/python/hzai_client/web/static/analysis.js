// The analysis panel: the bot's evaluation of a position (every legal move with its win
// probability and 95% interval), the belief about the opponent's hidden cards as a heat
// map, and the win probability over the game as a graph.
import { el } from "./board.js";
import { beliefOf } from "./details.js";

const pct = (x) => `${Math.round(100 * x)}%`;

const SHOWN = 12; // the best moves drawn; the rest behind "show all"

export function drawMoves(list, analysis, onPick, all = false) {
  list.replaceChildren();
  const moves = analysis.moves || [];
  for (const info of all ? moves : moves.slice(0, SHOWN)) {
    const value = info.value ?? 0, low = info.ciLow ?? 0, high = info.ciHigh ?? 0;
    const bar = el("div", { class: "bar", role: "img", "aria-label": `win probability ${pct(value)}, 95% interval ${pct(low)} to ${pct(high)}` },
      el("div", { class: "fill", style: { width: `${100 * value}%` } }),
      el("div", { class: "ci", style: { left: `${100 * low}%`, width: `${Math.max(100 * (high - low), 0.5)}%` } }));
    const label = onPick ? el("button", { type: "button", title: "play this move" }, el("code", { text: info.move.text }))
                         : el("code", { text: info.move.text });
    if (onPick) label.addEventListener("click", () => onPick(info.move));
    const row = el("li", {}, label, bar,
      el("span", { text: `${pct(value)} [${pct(low)}–${pct(high)}] · ${info.visits ?? 0} visits` }));
    if (info.pvWords?.length) {
      // what the search expects after this move, in the game's own narration (MoveInfo.pv_words)
      row.append(el("details", { class: "pv-words" }, el("summary", { text: "what follows, in words" }),
                    ...info.pvWords.map((line) => el("p", { text: line }))));
    }
    list.append(row);
  }
  if (!all && moves.length > SHOWN) {
    const more = el("button", { type: "button", class: "more" }, `show all ${moves.length} moves`);
    more.addEventListener("click", () => drawMoves(list, analysis, onPick, true));
    list.append(el("li", { class: "more-row" }, more));
  }
}

function heatColour(p) {
  // white (0) to deep red (1)
  const shade = Math.round(255 * (1 - Math.min(Math.max(p, 0), 1)));
  return `rgb(255, ${shade}, ${Math.round(shade * 0.8)})`;
}

function cell(label, probability, detail) {
  const node = el("div", { class: "cell", "data-where": label,
                           "data-probability": probability.toFixed(3), style: { "background-color": heatColour(probability) },
                           title: detail || "" },
    el("strong", { text: label }), el("br"), `${pct(probability)}`);
  if (detail) node.append(el("br"), el("small", { text: detail }));
  return node;
}

// The hostage heat map of a belief report typed as hzai.v3.HeraZeusBelief (its `detail`,
// details.js): one cell per face-down slot of the opponent that the report covers, then
// the hand and the deck. A report with no typed detail: its JSON as it came.
export function drawBelief(root, belief, seats = [], columns = 3) {
  root.replaceChildren();
  if (!belief || !belief.json) return;
  const report = beliefOf(belief, seats);
  if (!report) {
    root.append(el("h3", { text: "Where the hidden cards probably are" }),
                el("pre", { text: JSON.stringify(JSON.parse(belief.json), null, 1) }));
    return;
  }
  const where = new Map((report.hostage.locations || []).map((l) => [l.where, l.probability]));
  const likely = new Map(report.slots.map((s) => [s.slot, (s.cards || []).slice(0, 3).map((c) => `${c.card} ${pct(c.probability)}`).join(", ")]));
  const slots = [...new Set([...report.slots.map((s) => s.slot), ...[...where.keys()].filter((w) => /^c\dr\d$/.test(w))])];
  const rows = Math.max(1, ...slots.map((s) => Number(s[3])));
  const whose = report.opponent ? report.opponent[0].toUpperCase() + report.opponent.slice(1) : "the opponent";
  root.append(el("h3", { text: `Where ${whose}'s ${report.hostage.card || "hostage"} probably is (${belief.samples} samples)` }));
  const grid = el("div", { class: "heat", style: { "--cols": columns }, role: "group", "aria-label": "hostage heat map over the opponent's face-down slots" });
  for (let row = rows; row >= 1; row--) {
    for (let c = 1; c <= columns; c++) {
      const key = `c${c}r${row}`;
      if (slots.includes(key)) grid.append(cell(key, where.get(key) || 0, likely.get(key)));
      else grid.append(el("div", { class: "cell blank", "aria-hidden": "true" }));
    }
  }
  const extra = el("div", { class: "heat-extra" }, cell("hand", where.get("hand") || 0,
    report.hand ? `${report.hand.size} card${report.hand.size === 1 ? "" : "s"}` : ""), cell("deck", where.get("deck") || 0, ""));
  for (const [key, p] of where) if (!/^c\dr\d$/.test(key) && key !== "hand" && key !== "deck") extra.append(cell(key, p, ""));
  root.append(grid, extra);
}

// points: [[moveNumber, probability], ...] sorted; drawn as a line with dots over labelled
// axes: the win probability (0, 50, 100%) up the left, the move number along the bottom.
export function drawGraph(root, points, lastMove, whose = "") {
  const width = 320, height = 130, left = 34, right = 8, top = 8, bottom = 30;
  const maxX = Math.max(lastMove || 1, ...points.map((p) => p[0]), 1);
  const x = (n) => left + (width - left - right) * (n / maxX);
  const y = (v) => height - bottom - (height - top - bottom) * v;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  const add = (tag, attrs, text) => {
    const node = document.createElementNS(ns, tag);
    Object.entries(attrs).forEach(([k, v]) => node.setAttribute(k, v));
    if (text !== undefined) node.textContent = text;
    svg.append(node);
    return node;
  };
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", points.length ? `win probability at ${points.length} positions, last ${pct(points[points.length - 1][1])}` : "no position evaluated yet");
  add("line", { x1: left, x2: left, y1: top, y2: height - bottom, stroke: "#555" });
  add("line", { x1: left, x2: width - right, y1: height - bottom, y2: height - bottom, stroke: "#555" });
  for (const v of [0, 0.5, 1]) {
    add("text", { x: left - 4, y: y(v) + 3, "text-anchor": "end", "font-size": 9, class: "tick y" }, pct(v));
    if (v === 0.5) add("line", { x1: left, x2: width - right, y1: y(v), y2: y(v), stroke: "#999", "stroke-dasharray": "3 3" });
  }
  const xTicks = [...new Set([0, Math.round(maxX / 2), maxX])];
  for (const n of xTicks) add("text", { x: x(n), y: height - bottom + 11, "text-anchor": "middle", "font-size": 9, class: "tick x" }, String(n));
  add("text", { x: (left + width - right) / 2, y: height - 3, "text-anchor": "middle", "font-size": 9, class: "axis-label x" }, "move number");
  add("text", { x: 9, y: (top + height - bottom) / 2, "text-anchor": "middle", "font-size": 9, class: "axis-label y",
                transform: `rotate(-90 9 ${(top + height - bottom) / 2})` }, whose ? `${whose}'s win %` : "win probability");
  if (points.length) {
    add("polyline", { points: points.map(([n, v]) => `${x(n)},${y(v)}`).join(" "), fill: "none", stroke: "#0b5cad", "stroke-width": 2 });
    for (const [n, v] of points) {
      const dot = add("circle", { cx: x(n), cy: y(v), r: 2.5, fill: "#0b5cad", class: "point" });
      const title = document.createElementNS(ns, "title");
      title.textContent = `move ${n}: ${pct(v)}`;
      dot.append(title);
    }
  }
  root.replaceChildren(svg);
}
