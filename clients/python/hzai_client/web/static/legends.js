// Legends of Hellas drawn from the seat's view (View.detail, a LegendsView, in the view
// JSON's shape that details.js gives it): the monsters in play with what they require and
// the cards on them, the piles, the vanquished monsters, every hero with its disc, the
// seat's own hand as cards and the teammates' hands as counts.
// Only what the view holds is drawn; a teammate's hand is never named, only counted.
// Moves map to clicks from their notation (see clickOfLegends); the rest are in the list.
import { el } from "./board.js";

const FACE = { up: "face up", sideways: "sideways (slay)", down: "face down" };

function playedCard(p) {
  const hidden = p.card === "?";
  const text = p.face === "sideways" ? `${p.card} ⟂` : p.face === "down" ? (hidden ? "?" : `(${p.card})`) : p.card;
  const counts = p.as && p.as !== p.card ? ` as ${p.as}` : "";
  return el("li", { class: `lg-played ${p.face}${hidden ? " back" : ""}`,
                    "aria-label": `${hidden ? "a hidden card" : p.card}${counts}, ${FACE[p.face] || p.face}, by ${p.by}` },
            `${text}${counts} · ${p.by}`);
}

function discsOn(view, id) {
  return Object.entries(view.seats || {}).filter(([, s]) => s.disc === id).map(([seat, s]) => `${s.hero} (${seat})`);
}

function drawMonster(view, m) {
  const box = el("div", { class: `lg-monster${m.final ? " final" : ""}`, "data-monster": m.id });
  const head = el("button", { type: "button", class: "lg-mhead", "data-key": `monster:${m.id}`,
                              "aria-label": `monster ${m.id}: ${m.cards.join(" and ")}` },
                  el("strong", { text: `${m.id} ${m.cards.join(" + ")}` }),
                  el("span", { text: ` needs ${m.size} cards${m.final ? " · final" : ""}` }));
  const requires = el("div", { class: "lg-requires", "aria-label": `${m.id} requires` },
    ...m.requires.map((attr) => el("button", { type: "button", class: "lg-attr", "data-key": `req:${m.id}:${attr}`,
                                               "aria-label": `${m.id} requires ${attr}` }, attr)));
  const played = el("ol", { class: "lg-cards", "aria-label": `cards on ${m.id}` }, ...m.played.map(playedCard));
  const discs = discsOn(view, m.id);
  box.append(head, requires, played, el("p", { class: "lg-discs", text: discs.length ? `discs: ${discs.join(", ")}` : "no disc" }));
  return box;
}

function drawSeat(view, name, seat, mine) {
  const where = seat.disc ? `disc on ${seat.disc}` : "disc not placed";
  const marks = [seat.stranded ? "stranded" : "", seat.broken ? "broken" : ""].filter(Boolean).join(", ");
  const box = el("div", { class: `lg-seat${mine ? " mine" : ""}${view.to_move === name ? " to-move" : ""}`, "data-seat": name });
  const head = el("div", { class: "side-head" }, el("strong", { text: `${seat.hero} (${name})${mine ? " · you" : ""}` }),
                  el("span", { text: where }), ...(marks ? [el("span", { class: "lg-mark", text: marks })] : []));
  box.append(head);
  if (mine) {
    head.append(el("button", { type: "button", class: "lg-ability", "data-key": "ability", "aria-label": `${seat.hero}'s ability` },
                   seat.broken ? "ability used" : "ability"));
    box.append(el("div", { class: "hand", "aria-label": "your hand" },
      ...seat.hand.map((card) => el("button", { type: "button", class: "handcard", "data-key": `hand:${card}`, "aria-label": `hand card ${card}` }, card))));
  } else {
    box.append(el("p", { class: "lg-count", "data-hand-size": String(seat.hand), text: `${seat.hand} card${seat.hand === 1 ? "" : "s"} in hand` }));
  }
  return box;
}

// The draw pile as the seat knows it, top first (the Oracle's order): names it knows,
// runs of unknown cards as counts; "" when it knows none of them.
function knownTop(pile) {
  if (!Array.isArray(pile) || !pile.some((x) => typeof x === "string")) return "";
  const shown = pile.slice(0, 6).map((x) => (typeof x === "string" ? x : `${x} unknown`));
  return ` (from the top: ${shown.join(", ")}${pile.length > 6 ? ", …" : ""})`;
}

function topOfDiscard(view) {
  const pile = view.discard_pile || [];
  return pile.length ? `${pile[pile.length - 1].card} by ${pile[pile.length - 1].by}` : "–";
}

// Draws the view into `root`.
export function drawLegends(root, view) {
  const inPlay = view.monsters.filter((m) => m.status !== "defeated");
  const beaten = view.monsters.filter((m) => m.status === "defeated");
  const toMove = view.to_move ? `${view.seats[view.to_move]?.hero} (${view.to_move})` : "nobody";
  const head = el("div", { class: "lg-head side-head" },
    el("strong", { text: `Mission ${view.mission} · ${view.difficulty}` }),
    el("span", { text: `turn ${view.turn}` }),
    el("span", { "data-to-move": view.to_move || "", text: `to move: ${toMove}` }),
    el("span", { text: `decision: ${view.pending ?? "none"}` }));
  const piles = el("div", { class: "lg-piles side-head" },
    el("span", { text: `monster deck ${view.monster_deck}` }),
    el("span", { "data-pile": "draw", text: `draw pile ${view.draw_pile_size}${knownTop(view.draw_pile)}` }),
    el("span", { text: `DI set aside ${view.set_aside_di}` }),
    el("span", { text: `discard ${(view.discard_pile || []).length} (top ${topOfDiscard(view)})` }),
    ...(view.oracle_revealed?.length ? [el("span", { text: `oracle showed ${view.oracle_revealed.join(", ")}` })] : []));
  const monsters = el("div", { class: "lg-monsters", "aria-label": "monsters in play" }, ...inPlay.map((m) => drawMonster(view, m)));
  const vanquished = el("div", { class: "lg-vanquished", "aria-label": "vanquished" },
    el("strong", { text: "Vanquished: " }), beaten.length ? beaten.map((m) => `${m.id} ${m.cards.join(" + ")}`).join(", ") : "none yet");
  const seats = el("div", { class: "lg-seats" },
    ...Object.entries(view.seats).map(([name, seat]) => drawSeat(view, name, seat, name === view.seat)));
  root.replaceChildren(el("div", { class: "legends" }, head, piles, monsters, vanquished, seats));
}

// What a move means as a click: {source, target} keys of the board, or null (move list only).
export function clickOfLegends(view) {
  const myDisc = view.seats?.[view.seat]?.disc;
  return (text) => {
    const w = text.split(" ");
    if (w[0] === "place" && w.length === 2) return { source: null, target: `monster:${w[1]}` };
    if (w[0] === "move" && w.length === 3) return { source: `hand:${w[2]}`, target: `monster:${w[1]}` };
    if (w[0] === "move" && w.length === 2) return { source: null, target: `monster:${w[1]}` };
    if (w[0] === "discard" && w.length === 2 && !w[1].includes(",")) return { source: null, target: `hand:${w[1]}` };
    if (w[0] !== "fight" || !myDisc) return null;
    if (w.length === 2 && w[1] === "di-slay") return { source: "hand:di", target: `monster:${myDisc}` };
    if (w.length === 2) return { source: `hand:${w[1]}`, target: `monster:${myDisc}` };
    if (w.length === 3 && w[1] === "di") return { source: "hand:di", target: `req:${myDisc}:${w[2]}` };
    if (w.length === 3 && w[1] === "ability") return { source: `hand:${w[2]}`, target: "ability" };
    return null;
  };
}

// The seats of a new mission: p1..pN for the heroes given.
export function legendsSeats(heroes) { return heroes.map((_, i) => `p${i + 1}`); }
