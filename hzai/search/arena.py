"""Bot against bot for any two-seat hzai.core game: seat-swapped games in parallel
processes, with a 95% interval.

Game i starts from `game.new_state(seed + i)`; bot A takes the first seat in even games
and the second in odd ones, so both bots see the same deals from both seats. A referee
draws chance outcomes by their probabilities, from its own generator.
Every seed of a game follows from `seed` and its index alone, so the games come out the
same one after the other, in parallel processes or as Ray tasks on any worker (`ray=`,
see hzai.batch).

A cooperative game (every seat gets the team's result, as in Legends of Hellas) is
played by a team instead (`run_team`, `play_team_game`): one bot spec in every seat,
each seat deciding from its own View, or, for benchmarks only, from the full state
(`AllSeeingView`, `all_seeing=True`); the answer is the won share with a 95% interval.

When every seat is a native bot (random, light, ismcts with one tree and neither prior,
inference nor tree reuse, pimc; on an iteration budget) of a game whose twin has an
arena (`game.search.native.arena`), the games are played whole in C++
(hzai/native/search/arena.hpp) on threads, each seat deciding from its own view: the
same games, action for action, as the loop here, which plays everything else
(`native_bot` says which). The loop makes one bot object a seat for the whole game, so
`ismcts:reuse=1` keeps its tree between a seat's consecutive decisions here; the native
arena does not reuse trees and leaves such a bot to this loop, as it does tree=multi.
"""

from __future__ import annotations

import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field

from hzai.batch import run_tasks
from hzai.core import Limits, State, View, make_game, wilson_interval
from hzai.native.tables import ARENA_BOTS, PLAYOUTS
from hzai.rng import SplitMix64, mix_seed
from hzai.search.bot import make_bot
from hzai.search.simple import LightBot, RandomBot

try:  # the native arena and search, and the model files they read; only without a built core are they missing
    from hzai import _native
    from hzai.native.model import load_cached, shipped_path
    from hzai.search.ismcts import IsmctsBot, PimcBot, own_only_of
except ImportError:  # pragma: no cover - only without a built core
    _native = None


@dataclass
class GameResult:
    index: int
    seed: int
    seating: dict  # seat name -> bot label (A or B)
    winner: str  # a seat name, or draw
    moves: int
    turns: int  # the game's own turn count where it keeps one, else the moves
    think_seconds: dict = field(default_factory=dict)  # bot label -> seconds spent deciding
    decisions: dict = field(default_factory=dict)  # bot label -> decisions made
    reason: str | None = None
    actions: list | None = None  # every action id applied, chance included (keep_actions)

    @property
    def a_points(self) -> float:
        """Bot A's score in this game: 1 a win, 0.5 a draw, 0 a loss."""
        return 0.5 if self.winner == "draw" else float(self.seating[self.winner] == "A")


def referee_step(state: State, rng: SplitMix64) -> int:
    """Draw a chance outcome by its probability (sorted by action id: reproducible) and
    play it; its action id."""
    outcomes = sorted(state.chance_outcomes_actions())
    point = rng.next_u64() / 2**64
    for action, probability in outcomes:
        point -= probability
        if point < 0:
            break
    state.apply_action(action)
    return action


def play_game(game_name: str, params: dict | None, spec_a: str, spec_b: str, index: int, limits: Limits,
              seed: int, all_seeing: str | None = None, keep_actions: bool = False) -> GameResult:
    """Game `index` in the Python loop (any bots, any game); `all_seeing` ("A" or "B",
    benchmarks only) is the bot that decides from the whole state (AllSeeingView)
    instead of its seat's view: the ceiling."""
    game = make_game(game_name, **(params or {}))
    if len(game.seats) != 2:
        raise ValueError(f"the arena seats two bots; game {game.name} has {len(game.seats)} seats")
    game_seed = seed + index
    labels = ("A", "B") if index % 2 == 0 else ("B", "A")  # who sits in seat 0, seat 1
    specs = {"A": spec_a, "B": spec_b}
    bots = [make_bot(specs[labels[p]]) for p in (0, 1)]
    state = game.new_state(game_seed)
    referee = SplitMix64(game_seed ^ 0xA7E4A)
    think = {"A": 0.0, "B": 0.0}
    decisions = {"A": 0, "B": 0}
    moves = 0
    actions = [] if keep_actions else None
    while not state.is_terminal:
        if state.is_chance:
            action = referee_step(state, referee)
            if keep_actions:
                actions.append(action)
            continue
        p = state.current_seat
        view = AllSeeingView(state, p) if labels[p] == all_seeing else state.view(p)
        start = time.perf_counter()
        move = bots[p].decide(view, limits, mix_seed(game_seed, moves)).move
        think[labels[p]] += time.perf_counter() - start
        decisions[labels[p]] += 1
        if keep_actions:
            actions.append(game.action_of(move))
        state.apply(move)
        moves += 1
    return GameResult(index, game_seed, dict(zip(game.seats, labels)), _winner(game, state.returns()), moves,
                      getattr(state, "turn", moves), think, decisions, getattr(state, "reason", None), actions)


def _winner(game, returns) -> str:
    return "draw" if returns[0] == returns[1] else game.seats[0 if returns[0] > returns[1] else 1]


# ----- the native arena: every seat a native bot of a game with a twin -----------------
def native_bot(bot, limits: Limits, game=None):
    """The native arena's spec of `bot` (a _native.BotSpec), or None when it must decide
    in Python (a Python-only bot, a time budget). A bot with no playout of its own plays
    `game`'s default playout."""
    if _native is None:  # pragma: no cover - only without a built core
        raise ImportError("the native arena needs the native core (hzai._native), which is not built")
    if isinstance(bot, RandomBot):
        return _native.BotSpec(ARENA_BOTS["random"])
    if isinstance(bot, LightBot):
        return _native.BotSpec(ARENA_BOTS["light"])
    if limits.millis is not None or limits.iterations is None:
        return None  # a time budget depends on the clock: not reproducible either way
    playout = getattr(bot, "playout", None)
    if playout is None:
        playout = "random" if game is None else game.search.default_playout
    if isinstance(bot, IsmctsBot):
        infer = bot.infer if game is None else bot.infers(game)
        if bot.tree != "single" or bot.prior or infer or bot.reuse or bot.split or bot.pbi or bot.replicas > 1:
            # the native arena plays the plain single-observer search only (no tree reuse, no
            # split, no policy-weighted worlds, one replica): the Python loop plays the others
            return None
        own_only = bot.own_only if game is None else own_only_of(game, bot.own_only)
        guide = None if game is None else bot.guide(game)
        # A guided bot plays with the game's shipped model, the arena's model 0 (play_native).
        learned = {} if guide is None else {"model": 0, "use_value": guide.value, "use_policy": guide.policy,
                                            "use_cards": guide.cards, "cpuct": guide.cpuct, "pool": guide.pool,
                                            "mix": guide.mix, "partners": guide.partners}
        return _native.BotSpec(ARENA_BOTS["ismcts"], limits.iterations, bot.exploration, PLAYOUTS[playout],
                               threads=limits.threads, own_only=bool(own_only),
                               root_widen=-1.0 if bot.root_widen is None else bot.root_widen, **learned)
    if isinstance(bot, PimcBot):
        return _native.BotSpec(ARENA_BOTS["pimc"], limits.iterations, bot.exploration, PLAYOUTS[playout], bot.worlds)
    return None


def native_arena(game, specs: list[str], limits: Limits) -> list | None:
    """The BotSpecs of `specs` when the game has a twin (capability native: every twin
    binds an arena, hzai/native/game_bindings.hpp) that plays every one of them
    (`native.arena_kinds`); else None (the Python loop plays)."""
    native = game.search.native if game.capabilities.native else None
    if native is None:
        return None
    bots = [native_bot(make_bot(spec), limits, game) for spec in specs]
    return None if any(b is None or b.kind not in native.arena_kinds for b in bots) else bots


_RANKS: dict[tuple, list[int]] = {}  # (game name, params) -> text rank of every action id


def text_ranks(game) -> list[int]:
    """Where each action's notation sorts among all of them: analyze's last tie-break,
    for a twin that writes no notation (computed once per game and params)."""
    key = (game.name, json.dumps(game.params, sort_keys=True, default=str))
    if key not in _RANKS:
        texts = [game.move_text(game.move_of(a)) for a in range(game.num_actions)]
        ranks = [0] * len(texts)
        for rank, action in enumerate(sorted(range(len(texts)), key=texts.__getitem__)):
            ranks[action] = rank
        if len(_RANKS) >= 8:
            _RANKS.clear()
        _RANKS[key] = ranks
    return _RANKS[key]


def play_native(game, bots: list, seatings: list[list[int]], indices: list[int], seed: int, threads: int,
                keep_actions: bool = False) -> list:
    """Games `indices` in the native arena, game i from native_start(seed + i), bot
    seatings[k][p] in seat p of the k-th game: [(ArenaOutcome, final native state)]."""
    starts = [game.search.native_start(seed + i) for i in indices]
    extra = {"text_ranks": text_ranks(game)} if game.search.native.arena_needs_text_ranks else {}
    if any(getattr(b, "model", -1) >= 0 for b in bots):  # guided bots: the game's model (native_bot)
        extra["models"] = [load_cached(game, shipped_path(game))[1]]
    return game.search.native.arena(bots, starts, [seed + i for i in indices], seatings, threads, keep_actions, **extra)


def native_results(game, bots: list, indices: list[int], seed: int, threads: int,
                   keep_actions: bool = False) -> list[GameResult | None]:
    """The two-seat arena's games `indices`, natively; a game the twin could not play
    through (a seat's tracker gave up) is None: the caller plays it in the Python loop."""
    seatings = [[0, 1] if i % 2 == 0 else [1, 0] for i in indices]
    out = []
    for i, seating, (outcome, end) in zip(indices, seatings,
                                          play_native(game, bots, seatings, indices, seed, threads, keep_actions)):
        if outcome.error:
            out.append(None)
            continue
        labels = ("A", "B") if seating[0] == 0 else ("B", "A")
        think = {labels[p]: outcome.think_ms[p] / 1000 for p in (0, 1)}
        decisions = {labels[p]: outcome.decisions[p] for p in (0, 1)}
        out.append(GameResult(i, seed + i, dict(zip(game.seats, labels)), _winner(game, outcome.returns),
                              outcome.moves, getattr(end, "turn", outcome.moves), think, decisions,
                              getattr(end, "reason", None), list(outcome.actions) if keep_actions else None))
    return out


@dataclass
class ArenaResult:
    bot_a: str
    bot_b: str
    limits: str
    games: int
    seed: int
    a_wins: int
    b_wins: int
    draws: int
    a_score: float  # (wins + draws/2) / games
    a_score_ci95: tuple[float, float]
    a_wins_by_seat: dict  # seat name -> games A won from that seat
    mean_moves: float
    mean_turns: float
    ms_per_decision: dict
    seconds: float
    results: list[GameResult]

    def to_json(self) -> dict:
        return asdict(self)

    def summary(self) -> str:
        low, high = self.a_score_ci95
        return (
            f"{self.bot_a} vs {self.bot_b} ({self.limits}, {self.games} games): "
            f"{self.a_wins} wins, {self.draws} draws, {self.b_wins} losses; "
            f"score {self.a_score:.1%} [95% {low:.1%}..{high:.1%}]; "
            f"{self.mean_moves:.0f} moves, {self.mean_turns:.0f} turns a game; "
            f"ms per decision: A {self.ms_per_decision['A']:.1f}, B {self.ms_per_decision['B']:.1f}"
        )


def summarize(spec_a: str, spec_b: str, limits: Limits, seed: int, results: list[GameResult], seconds: float) -> ArenaResult:
    results = sorted(results, key=lambda r: r.index)
    n = len(results)
    a_wins = sum(1 for r in results if r.winner != "draw" and r.seating[r.winner] == "A")
    seats = list(results[0].seating) if results else []
    draws = sum(1 for r in results if r.winner == "draw")
    score = a_wins + draws / 2
    think = {k: sum(r.think_seconds[k] for r in results) for k in ("A", "B")}
    count = {k: sum(r.decisions[k] for r in results) for k in ("A", "B")}
    return ArenaResult(
        bot_a=spec_a,
        bot_b=spec_b,
        limits=str(limits),
        games=n,
        seed=seed,
        a_wins=a_wins,
        b_wins=n - a_wins - draws,
        draws=draws,
        a_score=score / n if n else 0.0,
        a_score_ci95=wilson_interval(score, n),
        a_wins_by_seat={seat: sum(1 for r in results if r.seating[seat] == "A" and r.winner == seat) for seat in seats},
        mean_moves=sum(r.moves for r in results) / n if n else 0.0,
        mean_turns=sum(r.turns for r in results) / n if n else 0.0,
        ms_per_decision={k: 1000 * think[k] / count[k] if count[k] else 0.0 for k in ("A", "B")},
        seconds=seconds,
        results=results,
    )


def _played(calls: list[tuple], jobs: int, ray: str | None):
    """The GameResult of each call to play_game, in the order they finish."""
    if ray is not None:
        yield from (result for _, result in run_tasks(play_game, calls, ray))
    elif jobs == 1:
        yield from (play_game(*call) for call in calls)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            yield from (future.result() for future in as_completed([pool.submit(play_game, *c) for c in calls]))


def run_arena(spec_a: str, spec_b: str, games: int, limits: Limits, seed: int = 0, jobs: int | None = None,
              params: dict | None = None, progress=None, game: str = "hera_zeus",
              ray: str | None = None, native: bool = True, all_seeing: str | None = None) -> ArenaResult:
    """Play `games` games; `progress(done, total, partial_summary)` after each one (after
    each batch in the native arena). `ray`: run the games as Ray tasks there (an address,
    or "local"); `jobs` is then unused. When both bots are native bots of a game with a
    twin (and `native`, and no all-seeing bot), the games are played by the native arena
    on `jobs` threads: the same games as the Python loop, move for move.
    `all_seeing`: "A" or "B", the bot that sees the whole state (benchmarks only)."""
    if all_seeing not in (None, "A", "B"):
        raise ValueError(f"all_seeing is A, B or None, not {all_seeing!r}")
    make_bot(spec_a), make_bot(spec_b)  # fail fast on a bad spec or game, before any process starts
    the_game = make_game(game, **(params or {}))
    jobs = max(1, jobs or os.cpu_count() or 1)
    start = time.perf_counter()
    results: list[GameResult] = []

    def report(result: GameResult) -> None:
        results.append(result)
        if progress:
            progress(len(results), games, summarize(spec_a, spec_b, limits, seed, results, time.perf_counter() - start))

    bots = native_arena(the_game, [spec_a, spec_b], limits) if native and ray is None and all_seeing is None else None
    if bots is not None:
        batch = max(8, 4 * jobs)
        for lo in range(0, games, batch):
            indices = list(range(lo, min(games, lo + batch)))
            for i, result in zip(indices, native_results(the_game, bots, indices, seed, jobs)):
                report(result or play_game(game, params, spec_a, spec_b, i, limits, seed))
        return summarize(spec_a, spec_b, limits, seed, results, time.perf_counter() - start)
    calls = [(game, params, spec_a, spec_b, i, limits, seed, all_seeing) for i in range(games)]
    for result in _played(calls, jobs, ray):
        report(result)
    return summarize(spec_a, spec_b, limits, seed, results, time.perf_counter() - start)


def print_progress(done: int, total: int, partial: ArenaResult) -> None:
    low, high = partial.a_score_ci95
    sys.stderr.write(
        f"\r[{done}/{total}] A {partial.a_wins} - B {partial.b_wins} - draws {partial.draws} "
        f"score {partial.a_score:.1%} [{low:.0%}..{high:.0%}] {partial.seconds:.0f}s"
    )
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


# ----- a team of bots, for cooperative games -----------------------------------------
class AllSeeingView(View):
    """The whole state offered as a seat's view: `sample` is the state itself. For
    measuring how much hidden information costs a team; never for play against people,
    and never a served bot. `all_seeing` tells a game's native_view so."""

    all_seeing = True

    def __init__(self, state: State, seat: int):
        self.game, self._state, self._seat = state.game, state, seat

    @property
    def seat(self) -> int:
        return self._seat

    @property
    def current_seat(self):
        return self._state.current_seat

    def legal_moves(self) -> list:
        return self._state.legal_moves() if self._state.current_seat == self._seat else []

    def to_json(self) -> dict:
        return {"all_seeing": True, "seat": self.game.seats[self._seat]}

    def sample(self, seed: int) -> State:
        return self._state.clone()


@dataclass
class TeamGame:
    index: int
    seed: int
    won: bool
    moves: int
    turns: int
    reason: str | None = None
    think_seconds: float = 0.0
    actions: list | None = None  # every action id applied, chance included (keep_actions)


@dataclass
class TeamResult:
    spec: str
    limits: str
    games: int
    seed: int
    all_seeing: bool
    won: int
    won_share: float
    won_ci95: tuple[float, float]
    mean_turns: float
    ms_per_decision: float
    results: list[TeamGame] = field(default_factory=list)

    def to_json(self) -> dict:
        return asdict(self)

    def summary(self) -> str:
        low, high = self.won_ci95
        who = "all-seeing team" if self.all_seeing else "team"
        return (f"{who} of {self.spec} ({self.limits}, {self.games} games): won {self.won} "
                f"({self.won_share:.1%} [95% {low:.1%}..{high:.1%}]); {self.mean_turns:.0f} turns a game; "
                f"{self.ms_per_decision:.1f} ms per decision")


def play_team_game(game_name: str, params: dict | None, spec: str, index: int, limits: Limits, seed: int,
                   all_seeing: bool = False, keep_actions: bool = False) -> TeamGame:
    """Game `index` from `new_state(seed + index)`, a bot of `spec` in every seat; a
    referee draws the chance outcomes from its own generator."""
    game = make_game(game_name, **(params or {}))
    game_seed = seed + index
    bots = [make_bot(spec) for _ in game.seats]
    state = game.new_state(game_seed)
    referee = SplitMix64(game_seed ^ 0xA7E4A)
    moves, think = 0, 0.0
    actions = [] if keep_actions else None
    while not state.is_terminal:
        if state.is_chance:
            action = referee_step(state, referee)
            if keep_actions:
                actions.append(action)
            continue
        p = state.current_seat
        view = AllSeeingView(state, p) if all_seeing else state.view(p)
        start = time.perf_counter()
        move = bots[p].decide(view, limits, mix_seed(game_seed, moves)).move
        think += time.perf_counter() - start
        if keep_actions:
            actions.append(game.action_of(move))
        state.apply(move)
        moves += 1
    won = state.returns()[0] == 1.0
    return TeamGame(index, game_seed, won, moves, getattr(state, "turn", moves), getattr(state, "reason", None), think,
                    actions)


def native_team_results(game, bot, indices: list[int], seed: int, threads: int,
                        keep_actions: bool = False) -> list[TeamGame | None]:
    """Team games `indices` (the native BotSpec `bot` in every seat) in the native
    arena; None for a game the twin could not play through."""
    seatings = [[0] * len(game.seats) for _ in indices]
    out = []
    for i, (outcome, end) in zip(indices, play_native(game, [bot], seatings, indices, seed, threads, keep_actions)):
        if outcome.error:
            out.append(None)
            continue
        out.append(TeamGame(i, seed + i, outcome.returns[0] == 1.0, outcome.moves, getattr(end, "turn", outcome.moves),
                            getattr(end, "reason", None), sum(outcome.think_ms) / 1000,
                            list(outcome.actions) if keep_actions else None))
    return out


def run_team(spec: str, games: int, limits: Limits, seed: int = 0, params: dict | None = None,
             game: str = "legends", all_seeing: bool = False, jobs: int = 1, native: bool = True) -> TeamResult:
    """`games` games of one team (each seed follows from `seed`): in the native arena on
    `jobs` threads when the bot is a native bot of a game with a twin (and `native`,
    not `all_seeing`), the same games as the Python loop; else one after the other.
    Every game is played: a game the native arena could not play through is played again
    in the Python loop, where any error (a sampler finding no world for a seat's view
    too: it never should, docs/legends.md) ends the run."""
    make_bot(spec)
    the_game = make_game(game, **(params or {}))
    bots = native_arena(the_game, [spec], limits) if native and not all_seeing else None
    if bots is not None:
        natively = native_team_results(the_game, bots[0], list(range(games)), seed, max(1, jobs))
        results = [r or play_team_game(game, params, spec, i, limits, seed) for i, r in enumerate(natively)]
    else:
        results = [play_team_game(game, params, spec, i, limits, seed, all_seeing) for i in range(games)]
    won, n = sum(r.won for r in results), len(results)
    decisions = sum(r.moves for r in results)
    return TeamResult(spec, str(limits), games, seed, all_seeing, won, won / n if n else 0.0,
                      wilson_interval(won, n), sum(r.turns for r in results) / n if n else 0.0,
                      1000 * sum(r.think_seconds for r in results) / decisions if decisions else 0.0, results)
