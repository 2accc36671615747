// Hera and Zeus drawn from the seat's view (View.detail, a HeraZeusView, in the view
// JSON's shape that details.js gives it): both fields in columns, both hands (the
// opponent's as backs), decks and discard tops. Only what the view holds is drawn, so a
// hidden card has no name anywhere in the page.
// Moves map to clicks from their notation: a source (a hand card or an own slot) and a
// target (a slot); moves with no such pair are played from the move list.
const ROWS = 4;

// `style` is an object of CSS properties, set through the CSSOM (node.style.setProperty):
// the page's Content-Security-Policy (default-src 'self') refuses inline style attributes,
// so a string there is refused here too rather than silently dropped by the browser.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "style") {
      if (typeof value !== "object") throw new TypeError("el(): give style as an object of properties");
      for (const [property, v] of Object.entries(value)) node.style.setProperty(property, String(v));
    } else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function cardName(entry, sideName) {
  // "Hydra", or "Hydra@zeus" on Hera's side or in her hand: a card away from its owner's
  // side (taken from the other player), as moves name it. Compared with the side the card
  // lies on, not with the viewer: Zeus's own cards on his side carry no mark.
  const owner = entry.owner && entry.owner !== sideName ? `@${entry.owner}` : "";
  return `${entry.card}${owner}`;
}

function topOfDiscard(pile) {
  if (!pile || !pile.length) return "–";
  const top = pile[pile.length - 1];
  return typeof top === "string" ? top : (top.card || "?");
}

// what a move means as a click: {source, target} with keys like "hand:Hydra", "mine:c1r2", "opp:c2r1"
export function clickOf(text) {
  const words = text.split(" ");
  const kind = words[0];
  const slot = (w) => (/^c\dr\d$/.test(w) ? w : null);
  if (kind === "play" && words.length === 3 && slot(words[2])) return { source: `hand:${words[1]}`, target: `mine:${words[2]}` };
  if (kind === "dionysus" && words.length === 3) return { source: `mine:${words[1]}`, target: `mine:${words[2]}` };
  if (kind === "challenge" && words.length === 2) return { source: `mine:${words[1]}r1`, target: `opp:${words[1]}r1` };
  if ((kind === "pegasus" || kind === "pythia") && /^c\d$/.test(words[1] || "")) {
    const card = kind === "pegasus" ? "Pegasus" : "Pythia";
    return { source: `hand:${card}`, target: `opp:${words[1]}r1` };
  }
  if (kind === "place" && words.length === 2) return { source: null, target: `opp:${words[1]}r1` };
  return null;
}

function slotContent(entry, sideName) {
  if (!entry) return { cls: "slot", label: "empty" , text: "" };
  if (entry.card === "figure" || entry.figure) return { cls: "slot card figure", label: "figure", text: "figure" };
  if (entry.card) {
    const name = cardName(entry, sideName);
    return entry.face_up ? { cls: "slot card up", label: `${name}, face up`, text: name }
                         : { cls: "slot card down", label: `${name}, face down`, text: `(${name})` };
  }
  return { cls: "slot card back", label: "a hidden card", text: "?" };
}

function drawSide(side, who, previous) {
  const mine = who === "mine";
  const columns = side.columns || [];
  const cols = Math.max(columns.length, 3);
  const box = el("div", { class: `side ${who}`, "data-side": who });
  const pile = topOfDiscard(side.discard);
  const head = el("div", { class: "side-head" }, el("strong", { text: side.__name }),
    el("span", { text: `deck ${side.deck_size ?? "?"}` }),
    el("span", { text: `discard ${(side.discard || []).length} (top ${pile})`, "data-pile": who }));
  if (side.figure) head.append(el("span", { text: `figure at ${side.figure}` }));
  const field = el("div", { class: "field", style: { "--cols": cols } });
  const order = [...Array(ROWS).keys()].map((i) => i + 1);
  const rows = mine ? order : order.reverse(); // the opponent's front row faces ours
  const labels = () => { field.append(el("span")); for (let c = 1; c <= cols; c++) field.append(el("span", { class: "colname", text: `c${c}` })); };
  if (!mine) labels();
  for (const row of rows) {
    field.append(el("span", { class: "rowname", text: `r${row}` }));
    for (let c = 1; c <= cols; c++) {
      const entry = (columns[c - 1] || [])[row - 1];
      const content = slotContent(entry, side.__name);
      const key = `${who}:c${c}r${row}`;
      const slot = el("button", { type: "button", class: content.cls, "data-key": key,
                                   "aria-label": `${who === "mine" ? "your" : "opponent's"} c${c}r${row}: ${content.label}` },
                      content.text);
      if (previous && previous.get(key) !== undefined && previous.get(key) !== content.text) slot.classList.add("changed");
      field.append(slot);
    }
  }
  if (mine) labels();
  const hand = el("div", { class: "hand", "aria-label": `${side.__name}'s hand` });
  for (const entry of side.hand || []) {
    if (entry.card) {
      const name = cardName(entry, side.__name);
      hand.append(el("button", { type: "button", class: "handcard", "data-key": `hand:${name}`, "aria-label": `hand card ${name}` }, name));
    } else {
      hand.append(el("span", { class: "handcard back", "aria-label": "a card in the opponent's hand" }, "?"));
    }
  }
  box.append(head);
  if (mine) box.append(field, hand); else box.append(hand, field);
  return box;
}

// What the seat has learned of the opponent's hidden cards, from its view: names known to
// be among some places (a group's `known`), names known not to be in a slot (`excluded`).
export function learnedLines(view, oppName) {
  const side = view.sides?.[oppName] || {};
  const places = new Map(), absent = new Map(), inHand = new Map();
  (side.columns || []).forEach((column, c) => column.forEach((slot, r) => {
    if (slot.group === undefined) return;
    const where = `c${c + 1}r${r + 1}`;
    places.set(slot.group, [...(places.get(slot.group) || []), where]);
    for (const name of slot.excluded || []) absent.set(name, [...(absent.get(name) || []), where]);
  }));
  for (const slot of side.hand || []) if (slot.group !== undefined) inHand.set(slot.group, (inHand.get(slot.group) || 0) + 1);
  const lines = [];
  (view.groups || []).forEach((group, g) => {
    const names = Object.entries(group.known || {});
    if (group.owner !== oppName || !names.length) return;
    const where = [...(places.get(g) || []), ...(inHand.get(g) ? [`${inHand.get(g)} in hand`] : [])];
    lines.push(`${names.map(([n, k]) => (k > 1 ? `${n} ×${k}` : n)).join(", ")} among ${where.join(", ") || "these cards"}`);
  });
  for (const [name, where] of [...absent].sort()) lines.push(`no ${name} at ${where.join(", ")}`);
  return lines;
}

// Draws the board into `root`; returns a map of slot texts to spot changes next time.
export function drawBoard(root, view, seatName, previous) {
  const names = Object.keys(view.sides || {});
  const oppName = names.find((n) => n !== seatName) || names[0];
  const mine = { ...view.sides[seatName], __name: seatName };
  const opp = { ...view.sides[oppName], __name: oppName };
  const oppBox = drawSide(opp, "opp", previous);
  const learned = learnedLines(view, oppName);
  if (learned.length) {
    oppBox.querySelector(".side-head").after(el("p", { class: "learned", "data-learned": "true" },
                                                `You know: ${learned.join("; ")}.`));
  }
  root.replaceChildren(oppBox, drawSide(mine, "mine", previous));
  const texts = new Map();
  for (const node of root.querySelectorAll(".slot")) texts.set(node.dataset.key, node.textContent);
  return texts;
}

// Wires card-then-slot clicks for `moves` (Move messages); `play(move)` sends one;
// `meaning(text)` maps a move's text to its click (Hera and Zeus's by default).
export function wireClicks(root, moves, play, meaning = clickOf) {
  const bySource = new Map();
  const direct = new Map();
  for (const move of moves) {
    const click = meaning(move.text);
    if (!click) continue;
    if (click.source) {
      if (!bySource.has(click.source)) bySource.set(click.source, new Map());
      bySource.get(click.source).set(click.target, move);
    } else direct.set(click.target, move);
  }
  let selected = null;
  const clear = () => root.querySelectorAll(".selected, .target").forEach((n) => n.classList.remove("selected", "target"));
  for (const node of root.querySelectorAll("[data-key]")) {
    const key = node.dataset.key;
    if (bySource.has(key)) node.classList.add("source");
    node.addEventListener("click", () => {
      if (selected && bySource.get(selected).has(key)) { const move = bySource.get(selected).get(key); selected = null; clear(); play(move); return; }
      if (bySource.has(key)) {
        clear(); selected = key; node.classList.add("selected");
        for (const target of bySource.get(key).keys()) root.querySelector(`[data-key="${target}"]`)?.classList.add("target");
        return;
      }
      if (direct.has(key)) { clear(); selected = null; play(direct.get(key)); return; }
      clear(); selected = null;
    });
  }
  for (const target of direct.keys()) root.querySelector(`[data-key="${target}"]`)?.classList.add("target");
}
