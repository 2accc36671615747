// A move built piece by piece: a setup card by card (`setup Hydra Cyclops Satyr`), an
// Oracle's discard and then its order card by card (`discard arms order speed,guile`), a
// Support's cards one at a time. The pieces are the words of the legal moves' texts, a
// comma-separated list counting each card as a piece, so the builder needs no rules of
// any game: after the pieces chosen so far it offers every piece that some legal move has
// next, and plays the move once the pieces spell one.

// "discard arms order speed,guile" -> [["discard", " "], ["arms", " "], ["order", " "], ["speed", ","], ["guile", ""]]
export function pieces(text) {
  const out = [];
  const words = text.split(" ");
  words.forEach((word, w) => {
    const parts = word.split(",");
    parts.forEach((part, p) => out.push([part, p < parts.length - 1 ? "," : w < words.length - 1 ? " " : ""]));
  });
  return out;
}

const spell = (chosen) => chosen.map(([piece, sep]) => piece + sep).join("").trim();
const samePrefix = (move, chosen) => chosen.every(([piece, sep], i) => move[i] && move[i][0] === piece && move[i][1] === sep);

// The choices after `chosen`: [{piece, sep, count}] and the legal move `chosen` spells (or null).
export function nextPieces(moves, chosen) {
  const fitting = moves.map((m) => ({ move: m, split: pieces(m.text) })).filter((m) => samePrefix(m.split, chosen));
  const next = new Map();
  let complete = null;
  for (const { move, split } of fitting) {
    if (split.length === chosen.length) { complete = move; continue; }
    const [piece, sep] = split[chosen.length];
    const key = `${piece}\u0000${sep}`;
    next.set(key, { piece, sep, count: (next.get(key)?.count || 0) + 1 });
  }
  return { choices: [...next.values()], complete, fitting: fitting.length };
}

// Draws the builder into `root` for the legal `moves`; `play(move)` sends the move built.
// Returns {pick(piece)}: the same step as clicking that piece's button (a card clicked on
// the board), false when the piece is not a choice now.
export function drawBuilder(root, moves, play, el) {
  let chosen = [];
  let current = [];
  const render = () => {
    const { choices, complete, fitting } = nextPieces(moves, chosen);
    current = choices;
    const so = chosen.length ? spell(chosen) : "";
    const head = el("p", { class: "builder-so-far" },
      el("strong", { text: "Build a move: " }),
      el("code", { "data-built": so, text: so ? `${so} …` : "pick its first word" }),
      ` (${fitting} legal move${fitting === 1 ? "" : "s"} start so)`);
    const options = el("div", { class: "builder-choices", role: "group", "aria-label": "what comes next" },
      ...choices.map((c) => {
        const b = el("button", { type: "button", class: "builder-piece", "data-piece": c.piece,
                                 title: `${c.count} move${c.count === 1 ? "" : "s"}` }, c.piece === "-" ? "- (empty)" : c.piece);
        b.addEventListener("click", () => { chosen = [...chosen, [c.piece, c.sep]]; render(); });
        return b;
      }));
    const tools = el("div", { class: "builder-tools" });
    if (complete) {
      const go = el("button", { type: "button", class: "builder-play", "data-move": complete.text }, `Play ${complete.text}`);
      go.addEventListener("click", () => play(complete));
      tools.append(go);
    }
    if (chosen.length) {
      const back = el("button", { type: "button", class: "builder-back" }, "Undo the last piece");
      back.addEventListener("click", () => { chosen = chosen.slice(0, -1); render(); });
      tools.append(back);
    }
    root.replaceChildren(head, options, tools);
  };
  render();
  return {
    pick(piece) {
      // the first word first: a card clicked at the start of a setup begins it
      if (!chosen.length && current.length === 1 && !current.some((c) => c.piece === piece)) {
        chosen = [[current[0].piece, current[0].sep]];
        render();
      }
      const choice = current.find((c) => c.piece === piece);
      if (!choice) return false;
      chosen = [...chosen, [choice.piece, choice.sep]];
      render();
      return true;
    },
  };
}
