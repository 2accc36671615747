"""Write the golden files: what the bots choose and what a game looks like step by step,
so a refactor can show it changed no behaviour (tests/golden/test_golden.py compares the
live code with these files, exactly).

    python tests/golden/make_golden.py          # rewrites tests/golden/*.json

Only rerun it on purpose, when a change of behaviour is intended; say so in the commit.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
BUDGETS = (200, 1000)
SEEDS = (1, 7)
PLAYTHROUGH_SEEDS = (3, 11, 42)
PHASE_TURNS = (2, 5, 9, 14, 20, 28)  # random games stopped at these turns (early .. late)


def digest(data) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]


def positions() -> list[tuple[str, object]]:
    """A dozen (name, view of the seat to decide) pairs: prefixes of the hand-made game
    and random games stopped at several turns."""
    from hzai.games.hera_zeus.belief import view_of
    from hzai.rng import SplitMix64
    from hzai.games.hera_zeus.rules import Game, Record
    from hzai.games.hera_zeus.rules.playout import random_step

    found = []
    handmade = Record.from_json(json.loads((REPO / "tests/data/handmade_game.json").read_text()))
    for upto in (0, 4, 9, 14):
        state = handmade.replay(upto)
        if state.to_move is not None:
            found.append((f"handmade@{upto}", view_of(state, state.to_move)))
    game = Game.create()
    seed = 100
    for turn in PHASE_TURNS:
        while True:
            seed += 1
            state = Record(game, seed=seed).start()
            rng = SplitMix64(seed)
            while not state.is_over and (state.turn < turn or state.to_move is None):
                random_step(state, rng)
            if not state.is_over:
                found.append((f"random{seed}@turn{state.turn}", view_of(state, state.to_move)))
                break
    for zeus_first in (1, 2):  # Zeus to move at the start, under a variant
        state = Record(Game.create({"first_player": "zeus"}), seed=zeus_first).start()
        found.append((f"zeus_first{zeus_first}@0", view_of(state, state.to_move)))
    return found


def decisions() -> list[dict]:
    from hzai.search import Limits, analyze, make_bot

    rows = []
    for name, view in positions():
        for seed in SEEDS:
            for bot in ("random", "heuristic"):
                move = make_bot(bot).decide(view, Limits(iterations=1), seed=seed).move
                rows.append({"position": name, "bot": bot, "seed": seed, "move": str(move)})
            for budget in BUDGETS:
                limits = Limits(iterations=budget, threads=1)
                answer = analyze(view, limits, seed=seed, guide=None, replicas=1)  # the unguided single search (ismcts-v1)
                visits = {str(m.move): m.visits for m in answer.moves}
                # "ismcts" in the rows is the name the bot had when the file was made:
                # today's ismcts-v1, which must keep playing these moves.
                move = make_bot("ismcts-v1").decide(view, limits, seed=seed).move
                rows.append({"position": name, "bot": "ismcts", "seed": seed, "budget": budget,
                             "move": str(move), "visits": dict(sorted(visits.items()))})
                move = make_bot("pimc").decide(view, limits, seed=seed).move
                rows.append({"position": name, "bot": "pimc", "seed": seed, "budget": budget, "move": str(move)})
    return rows


LEARNED_BUDGETS = (100, 400)


def learned_decisions(bot: str = "ismcts-v3") -> list[dict]:
    """The moves of the learned default as it was before the history-reading model
    (hz@2, kept as ismcts-v3), with its root visits. Made with `ismcts` while hz@2 was
    still the default (the two played the same moves then); ismcts-v3 must keep them."""
    from hzai.search import Limits, make_bot

    rows = []
    for name, view in positions():
        for seed in SEEDS:
            for budget in LEARNED_BUDGETS:
                result = make_bot(bot).decide(view, Limits(iterations=budget, threads=1), seed=seed)
                visits = {str(m.move): m.visits for m in result.analysis.moves}
                rows.append({"position": name, "bot": "ismcts-v3", "seed": seed, "budget": budget,
                             "move": str(result.move), "visits": dict(sorted(visits.items()))})
    return rows


def playthrough(seed: int) -> dict:
    """A seeded random game as OpenSpiel's playthrough files keep one: at every step the
    seat to act (-1 at chance), the sorted legal action ids and their texts, digests of
    the state JSON and of each seat's view JSON, and the action a seeded policy took."""
    from hzai.games.hera_zeus.belief import view_of
    from hzai.games.hera_zeus.belief.knowledge import Knowledge
    from hzai.rng import SplitMix64
    from hzai.games.hera_zeus.rules import Game, Record, state_to_json
    from hzai.games.hera_zeus.rules.actions import action_space

    game = Game.create()
    space = action_space(game.deck)
    state = Record(game, seed=seed).start()
    knowledge = [Knowledge.of(state, 0), Knowledge.of(state, 1)]
    rng = SplitMix64(seed ^ 0x61A1)
    steps = []
    while not state.is_over:
        if state.is_chance:
            options = sorted(space.encode(m) for m, _ in state.chance_outcomes())
        else:
            options = sorted(space.encode(m) for m in state.legal_moves())
        views = [digest(view_of(state, p, knowledge[p].update(state)).to_json()) for p in (0, 1)]
        action = options[rng.below(len(options))]
        steps.append({
            "seat": -1 if state.to_move is None else state.to_move,
            "legal": options,
            "texts": [str(space.decode(a)) for a in options],
            "state": digest(state_to_json(state)),
            "views": views,
            "action": action,
        })
        state.push(space.decode(action))
    return {"seed": seed, "steps": steps, "final": digest(state_to_json(state)),
            "winner": state.winner, "reason": state.reason}


def build() -> dict[str, object]:
    return {
        "decisions.json": decisions(),
        "learned_decisions.json": learned_decisions(),
        **{f"playthrough_{s}.json": playthrough(s) for s in PLAYTHROUGH_SEEDS},
    }


def main() -> int:
    for name, data in build().items():
        (HERE / name).write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n", encoding="utf-8")
        print("written", HERE / name)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    sys.exit(main())
