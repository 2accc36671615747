// A game's typed messages as the page's drawings read them. The server sends a view's,
// a belief report's or a status's game-specific part as `detail`, a google.protobuf.Any,
// which Connect's JSON writes as an object with "@type" (e.g.
// "type.googleapis.com/hzai.v3.LegendsView") beside the message's own fields (lowerCamelCase,
// zeros and empty lists left out). The drawing is chosen by that type, never by the
// game's name; the adapters below give board.js, legends.js and analysis.js the shapes
// they draw from (the game's view JSON's), holding exactly what the typed message holds.

// "hzai.v3.LegendsView" for a detail of that type; "" for none.
export function typeOf(detail) {
  const url = detail?.["@type"] || "";
  return url.slice(url.lastIndexOf("/") + 1);
}

const list = (x) => (Array.isArray(x) ? x : []);

// ---------- Hera and Zeus ----------
function hzCard(card, seats) {
  return card.owner === undefined ? { card: card.name } : { card: card.name, owner: seats[card.owner] };
}

function hzSlot(slot, seats) {
  if (slot.figure) return { card: "figure" };
  const out = { face_up: Boolean(slot.faceUp) };
  if (slot.card) Object.assign(out, hzCard(slot.card, seats));
  else if (slot.group !== undefined) out.group = slot.group;
  if (list(slot.excluded).length) out.excluded = slot.excluded;
  return out;
}

// A HeraZeusView as the board draws it: sides by seat name, groups with owner names.
export function heraZeusBoard(d, seats) {
  const sides = {};
  list(d.sides).forEach((side, i) => {
    sides[seats[i]] = {
      columns: list(side.columns).map((column) => list(column.slots).map((s) => hzSlot(s, seats))),
      hand: list(side.hand).map((s) => hzSlot(s, seats)),
      deck_size: side.deckSize ?? 0,
      discard: list(side.discard).map((c) => hzCard(c, seats)),
    };
  });
  const groups = list(d.groups).map((g) => ({ owner: seats[g.owner ?? 0], known: g.known || {},
                                              wildcards: list(g.wildcards).map((w) => ({ count: w.count ?? 0, excluded: list(w.excluded) })) }));
  return { sides, groups, phase: d.phase, turn: d.turn ?? 0 };
}

// A HeraZeusBelief as the heat map draws it (the report's JSON shape).
export function heraZeusBelief(d, seats) {
  const byChance = (a, b) => b.probability - a.probability || (a.card < b.card ? -1 : 1);
  return {
    opponent: seats[d.opponent ?? 0],
    hostage: { card: d.hostage, locations: list(d.hostageLocations).map((l) => ({ where: l.where, probability: l.probability ?? 0 })) },
    slots: list(d.slots).map((s) => ({ slot: s.slot, cards: Object.entries(s.cards || {}).map(([card, p]) => ({ card, probability: p })).sort(byChance) })),
    hand: { size: d.handSize ?? 0 },
  };
}

// ---------- Legends of Hellas ----------
const seatName = (i) => `p${(i ?? 0) + 1}`;

// A LegendsView (with the View around it: whose view, who moves) as the table draws it.
export function legendsTable(d, view) {
  const me = view.seat ?? 0;
  const seats = {};
  list(d.seats).forEach((s, i) => {
    seats[seatName(i)] = { hero: s.hero, disc: s.disc === undefined ? null : `m${s.disc}`, stranded: Boolean(s.stranded),
                           broken: Boolean(s.broken), hand: i === me ? list(s.hand) : (s.handSize ?? 0),
                           ...(i === me ? {} : { known_in_hand: list(s.knownInHand) }) };
  });
  return {
    seat: seatName(me), to_move: view.toMove === undefined ? null : seatName(view.toMove),
    mission: d.mission ?? 0, difficulty: d.difficulty, turn: d.turn ?? 0, pending: d.pending || null,
    result: d.result || null, reason: d.reason || null,
    normals_entered: d.normalsEntered ?? 0, normals_defeated: d.normalsDefeated ?? 0,
    monsters: list(d.monsters).map((m) => ({
      id: `m${m.id}`, cards: list(m.cards), requires: list(m.requires), size: m.size ?? 0, final: Boolean(m.final),
      status: m.defeated ? "defeated" : "in_play",
      played: list(m.played).map((p) => ({ card: p.card, as: p.countsAs || null, face: p.face, by: seatName(p.by) })),
    })),
    monster_deck: d.monsterDeck ?? 0, monster_deck_holds: list(d.monsterDeckHolds), seats,
    draw_pile: list(d.drawPile).map((p) => (p.card !== undefined ? p.card : p.unknown ?? 0)),
    draw_pile_size: d.drawPileSize ?? 0,
    discard_pile: list(d.discardPile).map((c) => ({ card: c.card, by: seatName(c.by) })),
    set_aside_di: d.setAsideDi ?? 0, oracle_revealed: list(d.oracleRevealed), moves: list(d.moves),
  };
}

// What to draw for a View (Connect JSON) whose seats are named `seats`:
// { kind: "board" | "legends", view } or null (no typed view: the board text is shown).
export function drawingOf(view, seats) {
  const d = view?.detail;
  switch (typeOf(d)) {
    case "hzai.v3.HeraZeusView": return { kind: "board", view: heraZeusBoard(d, seats) };
    case "hzai.v3.LegendsView": return { kind: "legends", view: legendsTable(d, view) };
    default: return null;
  }
}

// A Belief's typed report for the heat map, or null (no typed report: its JSON is shown).
export function beliefOf(belief, seats) {
  return typeOf(belief?.detail) === "hzai.v3.HeraZeusBelief" ? heraZeusBelief(belief.detail, seats) : null;
}
