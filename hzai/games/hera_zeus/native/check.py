"""Differential check of the native core against the reference engine.

Both engines play the same random game side by side; after every step the legal moves
(text and action id), the chance outcomes, the raw card placement (instance ids) and the
state JSON of both must be equal. Used by tests/native and, for long runs, as a command:

    python -m hzai.games.hera_zeus.native.check --games 5000 --seed 0

It prints one line per variant set and a closing line `N passed, M failed`.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time

from hzai.games.hera_zeus.native.state import NativeState, raw_of
from hzai.games.hera_zeus.rules import Game, Record, state_to_json
from hzai.games.hera_zeus.rules.actions import action_space
from hzai.games.hera_zeus.rules.effects import apply_legal
from hzai.games.hera_zeus.rules.moves import Move
from hzai.games.hera_zeus.rules.state import State

VARIANT_SETS = [
    {"first_player": f, "figure_removal": r, "pythia_defence": d}
    for f, r, d in itertools.product(("hera", "zeus"), ("action", "pegasus"), ("normal", "always_loses"))
]


class Mismatch(AssertionError):
    pass


def python_raw(state: State) -> dict:
    """The reference state in the shape of NativeState.raw()."""
    return raw_of(state)


def compare_moves(ps: State, ns: NativeState, where: str) -> list[Move]:
    """Legal moves and chance outcomes of both engines; returns the reference moves."""
    space = action_space(ps.deck)
    moves = ps.legal_moves()
    texts = sorted(str(m) for m in moves)
    native_texts = sorted(ns.legal_texts())
    if texts != native_texts:
        raise Mismatch(f"{where}: legal moves differ\n  only reference: {sorted(set(texts) - set(native_texts))}"
                       f"\n  only native:    {sorted(set(native_texts) - set(texts))}")
    # Both lists come sorted by text, so ids must agree position by position; that the
    # id of each text is the same on both sides is checked for every id in tests/native.
    if [space.encode(m) for m in moves] != ns.legal_actions():
        raise Mismatch(f"{where}: legal action ids differ")
    outcomes = [(str(m), p) for m, p in ps.chance_outcomes()]
    native_outcomes = [(ns.action_text(a), p) for a, p in ns.chance_outcomes()]
    if outcomes != native_outcomes:
        raise Mismatch(f"{where}: chance outcomes differ\n  reference: {outcomes}\n  native:    {native_outcomes}")
    if ps.is_chance != ns.is_chance or ps.is_over != ns.is_over:
        raise Mismatch(f"{where}: chance/over flags differ")
    return moves


def compare_states(ps: State, ns: NativeState, where: str, check_json: bool = True) -> None:
    raw, native_raw = python_raw(ps), ns.raw()
    if raw != native_raw:
        diff = {k: (raw[k], native_raw[k]) for k in raw if raw[k] != native_raw.get(k)}
        raise Mismatch(f"{where}: states differ (reference, native): {diff}")
    if check_json:
        a, b = state_to_json(ps), ns.to_json()
        if a != b:
            raise Mismatch(f"{where}: state JSON differs\n  reference: {a}\n  native:    {b}")


def play_both(ps: State, ns: NativeState, chooser: random.Random, where: str, check_json: bool = True,
              max_steps: int | None = None) -> int:
    """Play one random game in both engines from equal states; returns the steps."""
    space = action_space(ps.deck)
    history: list[str] = []
    steps = 0
    compare_states(ps, ns, f"{where} start", check_json)
    while not ps.is_over and (max_steps is None or steps < max_steps):
        here = f"{where} step {steps} after {history[-6:]}"
        moves = compare_moves(ps, ns, here)
        if ps.is_chance:
            owner = 1 - ps.pending[0].player
            hand = ps.hands[owner]
            drawn = hand[chooser.randrange(len(hand))]
            move = Move("chance", card=ps.card_ref(drawn, hand, owner))
        else:
            move = moves[chooser.randrange(len(moves))]
        apply_legal(ps, move)
        ns.apply(space.encode(move))
        history.append(str(move))
        steps += 1
        compare_states(ps, ns, f"{where} step {steps} after {history[-6:]}", check_json)
    if not ps.is_over:
        compare_moves(ps, ns, f"{where} final")
    return steps


_GAMES: dict[tuple, Game] = {}


def game_for(variants: dict) -> Game:
    key = tuple(sorted(variants.items()))
    if key not in _GAMES:
        _GAMES[key] = Game.create(variants)
    return _GAMES[key]


def check_game(variants: dict, seed: int, check_json: bool = True) -> int:
    """Deal `seed` in both engines (and the core's own deal), then play one random game."""
    game = game_for(variants)
    ps = Record(game, seed=seed).start()
    ns = NativeState.from_state(ps)
    dealt = NativeState.deal(game, seed)
    if dealt.raw() != ns.raw():
        raise Mismatch(f"seed {seed}: the core's deal differs from record.deal")
    return play_both(ps, ns, random.Random(seed * 7919 + 1), f"{variants} seed {seed}", check_json)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per run, spread over all variant sets")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    parser.add_argument("--no-json", action="store_true", help="compare raw states only (faster)")
    args = parser.parse_args(argv)
    combos = [dict(v) for v in VARIANT_SETS] + [dict(v, turn_limit=t) for v in VARIANT_SETS[:4] for t in (3, 8, 20)]
    passed = failed = steps = 0
    start = time.perf_counter()
    for i in range(args.games):
        variants = combos[i % len(combos)]
        seed = args.seed + i
        try:
            steps += check_game(variants, seed, not args.no_json)
            passed += 1
        except Mismatch as exc:
            failed += 1
            print(f"FAIL {exc}", file=sys.stderr)
    took = time.perf_counter() - start
    print(f"{steps} steps compared in {took:.1f} s")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
