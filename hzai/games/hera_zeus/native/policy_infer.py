"""Policy-based inference (docs/learning.md, "Policy-based inference"): the worlds a
seat's search draws, weighted by how likely the opponent's observed decisions are under
the learned policy evaluated from the opponent's information set in each world
(hzai/games/hera_zeus/native/policy_infer.hpp says which decisions, and why exactly).

The evidence is built from the game's deal and moves, replayed in the core with the
opponent's own knowledge tracker; a view keeps what it needs for that privately (a
reference view: `attach_history`, from its state; the service's native view: its
record) and drops it once the evidence is built, as the native decision view drops its
record (hzai.games.hera_zeus.native.decision). Nothing of it reaches the search but the
evidence, which holds no private card of the opponent.
"""

from __future__ import annotations

import math
import threading

from hzai import _native
from hzai.core.view import WeightedView
from hzai.games.hera_zeus.cards import PLAYERS
from hzai.games.hera_zeus.native.search import flat_view
from hzai.games.hera_zeus.native.state import NativeState, native_game, record_start
from hzai.rng import MASK64, mix_seed

DEFAULT_TEMPERATURE = 1.0
DEFAULT_EPSILON = 0.25
MIN_TEMPERATURE, MAX_TEMPERATURE = 0.1, 10.0  # policy_infer.hpp: PBI_MIN_TEMPERATURE..
MIN_EPSILON, MAX_EPSILON = 0.01, 1.0
SALT = 0x9B1F  # the pool's seed without a card model: mix_seed(search seed, SALT)


class _Source:
    """What a view keeps privately until its evidence is built: the deal and the moves
    of its game (a reference State's history, or a record), read once."""

    def __init__(self, build):
        self._build = build
        self._evidence = None
        self._lock = threading.Lock()

    def evidence(self, seat: int):
        with self._lock:
            if self._evidence is None and self._build is not None:
                build, self._build = self._build, None  # the deal is dropped: the evidence is all that is kept
                try:
                    start, actions = build()
                    self._evidence = _native.pbi_evidence(start, actions, seat)
                except (RuntimeError, ValueError):  # a history the core cannot replay, or its
                    self._evidence = False          # tracker gave up on: nothing to score
            return self._evidence or None


def _from_state(state):
    """(native start, action ids) of a reference State: the deal's hands from its `dealt`
    events, each deck in the order its cards were drawn and then as it lies now."""
    game = state.game
    names = [card.name for card in game.deck.cards]
    hands: dict[int, list[int]] = {}
    drawn: list[list[int]] = [[], []]
    for e in state.events:
        if e.kind == "dealt" and e.src is not None and e.src[1] not in hands:
            hands[e.src[1]] = list(e.cards)
        elif e.kind == "move" and e.src is not None and e.src[0] == "deck":
            drawn[e.src[1]].append(e.card)
    decks = [d[:] for d in state.decks]
    history = list(state.history)

    def build():
        setup = {PLAYERS[p]: {"hand": [names[c] for c in hands.get(p, [])],
                              "deck": [names[c] for c in drawn[p] + decks[p]]} for p in (0, 1)}
        start = NativeState.from_setup(game, setup).core
        return start, [game.action_of(m) for m in history]

    return build


def attach_history(view, state) -> None:
    """Let `view` (a reference view of `state`) build its policy-based evidence later."""
    view._pbi_source = _Source(_from_state(state))


def attach_record(view, record) -> None:
    """Let `view` (the native decision view after `record`) build its evidence later."""
    def build():
        core = native_game(record.game)
        return record_start(record), [_native.action_of_text(core, text) for text in record.moves]

    view._pbi_source = _Source(build)


def evidence_of(view):
    """The seat's evidence (a _native.PbiEvidence), or None for a view that knows no
    history (read back from JSON, built from a position alone)."""
    source = getattr(view, "_pbi_source", None)
    if source is None and isinstance(view, WeightedView):
        source = getattr(view.base, "_pbi_source", None)
    if source is None:
        return None
    return source.evidence(view.seat)


def check_options(temperature: float, epsilon: float) -> tuple[float, float]:
    """ValueError naming a temperature or epsilon out of its bounds."""
    t, e = float(temperature), float(epsilon)
    if not MIN_TEMPERATURE <= t <= MAX_TEMPERATURE:
        raise ValueError(f"pbi_temp must be within {MIN_TEMPERATURE:g}..{MAX_TEMPERATURE:g}, not {temperature!r}")
    if not MIN_EPSILON <= e <= MAX_EPSILON:
        raise ValueError(f"pbi_eps must be within {MIN_EPSILON:g}..{MAX_EPSILON:g}, not {epsilon!r}")
    return t, e


class PolicyView(WeightedView):
    """`weighted` (the seat's view, or it weighted by the card model) with its pool's
    worlds also weighted by the policy-based inference; `stats` says how (worlds,
    decisions scored, effective pool, ms)."""

    OWN = WeightedView.OWN + ("native_spec", "stats", "temperature")

    def __init__(self, weighted, spec, stats: dict):
        super().__init__(weighted)
        self.temperature = None
        self.native_spec = spec
        self.stats = stats

    def sample(self, seed: int):
        core_state = _native.sample_view(native_game(self.game), self.native_spec, seed & MASK64)
        return NativeState(self.game, core_state).to_state()


def policy_view(seen, weighted, model, pool: int, seed: int, temperature: float = DEFAULT_TEMPERATURE,
                epsilon: float = DEFAULT_EPSILON, threads: int = 1, ratio: bool = True):
    """`weighted` (a view of `seen`'s seat: itself, or its card-model view) with the
    policy-based weights over its pool (or a pool of `pool` worlds drawn with
    mix_seed(seed, SALT)); `seen` unchanged where it knows no history. `ratio`: a
    decision's factor is n * p'(move), the ratio to a uniform player; else p'(move)."""
    temperature, epsilon = check_options(temperature, epsilon)
    ev = evidence_of(seen)
    if ev is None or ev.decisions == 0:
        return weighted
    game = seen.game
    spec = getattr(weighted, "native_spec", None)
    if spec is None:
        spec = flat_view(weighted, game)
    out, stats = _native.pbi_view(model, native_game(game), spec, ev, max(1, pool), mix_seed(seed & MASK64, SALT),
                                  temperature, epsilon, threads, ratio)
    return PolicyView(weighted, out, stats)


def hostage_distribution(view, model, samples: int, seed: int, temperature: float = DEFAULT_TEMPERATURE,
                         epsilon: float = DEFAULT_EPSILON, ratio: bool = True) -> tuple[dict[str, float], dict] | None:
    """(the opponent's hostage by location, as the belief report names them, over
    `samples` uniform worlds of the view weighted by the policy-based inference; stats),
    or None where the view knows no history to score."""
    temperature, epsilon = check_options(temperature, epsilon)
    ev = evidence_of(view)
    if ev is None or ev.decisions == 0:
        return None
    game = view.game
    pairs, stats = _native.pbi_weighted_hostage(model, native_game(game), flat_view(view, game), ev, samples,
                                                seed & MASK64, temperature, epsilon, 1, ratio)
    if not pairs:
        return None
    top = max(w for w, _ in pairs)
    weights = [math.exp(w - top) for w, _ in pairs]
    total = sum(weights)
    out: dict[str, float] = {}
    for (_, where), w in zip(pairs, weights):
        key = ("deck", "hand", "discard", "face up")[where] if where < 10 else \
            f"c{(where - 10) // 4 + 1}r{(where - 10) % 4 + 1}"
        out[key] = out.get(key, 0.0) + w / total
    return out, stats
