"""Information-set MCTS and PIMC bots, and analysis, over the native core.

The search itself runs in C++ with the GIL released (hzai/native/search/ismcts.hpp); this
module turns a player's view into the core's input, runs the budget in chunks (so
progress can be reported and a caller can stop it), and reads the answer back.
"""

from __future__ import annotations

import time
from typing import Callable

from hzai.belief import View
from hzai.native import native_game
from hzai.native.search import PLAYOUTS, flat_view, new_pimc, new_search
from hzai.rules import Game, Move
from hzai.rng import MASK64
from hzai.rules.actions import action_space
from hzai.search.analysis import Analysis, MoveInfo, wilson_interval
from hzai.search.bot import choice_option, number_option, whole_option
from hzai.search.limits import Limits

CHUNK = 512  # iterations between checks of the clock, the stop flag and progress
DEFAULT_EXPLORATION = 0.7
MAX_EXPLORATION = 10.0
# PIMC searches one tree per world, one after the other; more than this many worlds only
# thins each world's share of the budget to nothing.
MAX_WORLDS = 256
_GAMES: dict = {}


def game_of(view: View) -> Game:
    key = (view.deck_spec, view.variants)
    if key not in _GAMES:
        _GAMES[key] = view.game()
    return _GAMES[key]


def _options(exploration, playout) -> tuple[float, str]:
    """The exploration constant (option `c`) and playout policy, checked (BotError)."""
    return number_option("c", exploration, 0.0, MAX_EXPLORATION), choice_option("playout", playout, tuple(PLAYOUTS))


def run_budget(search, limits: Limits, every: int | None = None, on_chunk: Callable[[], None] | None = None,
               should_stop: Callable[[], bool] | None = None) -> tuple[int, float, bool]:
    """Spend `limits` on a native search in chunks. Returns (iterations, ms, finished).
    finished means the budget was spent as asked: all the iterations of an iteration
    budget (running into its wall-time cap first is not finishing), the whole time of a
    budget given only in time; a `should_stop` that ends the search is never finishing."""
    start = time.perf_counter()
    done = 0
    chunk = max(1, min(CHUNK, every or CHUNK))
    next_report = every or chunk  # on_chunk runs every `every` iterations (every chunk without it)
    while True:
        if should_stop is not None and should_stop():
            if done == 0:  # an answer needs at least one iteration behind it
                done += search.run(1, -1.0)
            return done, (time.perf_counter() - start) * 1000, False
        want = chunk if limits.iterations is None else min(chunk, limits.iterations - done)
        millis = -1.0
        if limits.millis is not None:
            millis = limits.millis - (time.perf_counter() - start) * 1000
            if millis <= 0:
                break
        if want <= 0:
            break
        ran = search.run(want, millis)
        done += ran
        if on_chunk is not None and done >= next_report:
            on_chunk()
            next_report = done + (every or chunk)
        if ran == 0:
            break
    finished = limits.iterations is None or done >= limits.iterations
    return done, (time.perf_counter() - start) * 1000, finished


def _read(search, game: Game, view: View, iterations: int, millis: float, seed: int, finished: bool) -> Analysis:
    core = native_game(game)
    me = search.root_player
    stats = search.root_stats()
    infos = []
    for action, visits, value, availability in stats:
        mean = value / visits if visits else 0.0
        low, high = wilson_interval(value, visits)
        pv = [core.action_text(a) for a in search.principal_variation(action)] or [core.action_text(action)]
        infos.append(MoveInfo(core.action_text(action), int(visits), mean, low, high, int(availability), 0, pv))
    infos.sort(key=lambda m: (-m.visits, -m.value, m.move))
    for order, info in enumerate(infos):
        info.order = order
    best = infos[0] if infos else None
    players = ("hera", "zeus")
    return Analysis(
        perspective=players[me],
        to_move=players[me],
        iterations=iterations,
        millis=round(millis, 3),
        best=best.move if best else "",
        value=best.value if best else 0.0,
        moves=infos,
        seed=seed,
        finished=finished,
    )


def analyze(view: View, limits: Limits, seed: int = 0, progress: Callable[[Analysis], None] | None = None,
            every: int | None = None, should_stop: Callable[[], bool] | None = None,
            exploration: float = DEFAULT_EXPLORATION, playout: str = "random", belief_samples: int = 0) -> Analysis:
    """Every legal move of the player to decide with visits, value (that player's win
    probability; draws count half), a 95% interval, and the principal variation.
    `progress` gets a partial answer every `every` iterations; `should_stop` is polled
    between chunks and ends the search early (the answer then has finished=False)."""
    if view.public["to_move"] is None:
        raise ValueError("nothing to decide in this position (game over, or a chance event comes next)")
    c, playout = _options(exploration, playout)
    game = game_of(view)
    seed &= MASK64  # the core takes a uint64
    search = new_search(game, flat_view(view, game), seed, limits.threads, c, playout)
    start = time.perf_counter()

    def report() -> None:
        if progress is not None:
            progress(_read(search, game, view, search.iterations, (time.perf_counter() - start) * 1000, seed, False))

    iterations, millis, finished = run_budget(search, limits, every, report if progress else None, should_stop)
    analysis = _read(search, game, view, search.iterations, millis, seed, finished)
    if belief_samples:
        from hzai.belief import belief_report

        analysis.belief = belief_report(view, belief_samples, seed)
    return analysis


class IsmctsBot:
    """Single-observer information-set MCTS (docs/search.md)."""

    name = "ismcts"

    def __init__(self, c: float | str = DEFAULT_EXPLORATION, playout: str = "random"):
        self.exploration, self.playout = _options(c, playout)
        self.last_iterations = 0  # iterations the latest `choose` ran (for the server's metrics)

    def decide(self, view: View, limits: Limits, seed: int = 0, should_stop: Callable[[], bool] | None = None) -> Move:
        move = self.choose(view, limits, seed, should_stop)[0]
        if move is None:
            raise ValueError("the search was stopped before it found a move")
        return move

    def choose(self, view: View, limits: Limits, seed: int = 0,
               should_stop: Callable[[], bool] | None = None) -> tuple[Move | None, bool]:
        """The move (None when stopped before any), and whether the budget was spent
        in full (see run_budget)."""
        analysis = analyze(view, limits, seed, should_stop=should_stop, exploration=self.exploration, playout=self.playout)
        self.last_iterations = analysis.iterations
        if not analysis.best:
            return None, False
        return _move(view, analysis.best), analysis.finished


class PimcBot:
    """Perfect-information Monte Carlo: draw `worlds` determinizations, search each as if
    every card were known (decks stay shuffled), and play the move most worlds chose.
    At most MAX_WORLDS worlds; the whole decision keeps to the budget's wall time (the
    worlds searched by then vote)."""

    name = "pimc"

    def __init__(self, worlds: int | str = 8, c: float | str = DEFAULT_EXPLORATION, playout: str = "random"):
        self.worlds = whole_option("worlds", worlds, 1, MAX_WORLDS)
        self.exploration, self.playout = _options(c, playout)
        self.last_iterations = 0  # iterations the latest `choose` ran, all worlds together

    def decide(self, view: View, limits: Limits, seed: int = 0, should_stop: Callable[[], bool] | None = None) -> Move:
        move = self.choose(view, limits, seed, should_stop)[0]
        if move is None:
            raise ValueError("the search was stopped before it found a move")
        return move

    def choose(self, view: View, limits: Limits, seed: int = 0,
               should_stop: Callable[[], bool] | None = None) -> tuple[Move | None, bool]:
        """The move, and whether every world was searched with its whole share."""
        game = game_of(view)
        start = time.perf_counter()
        share = Limits(
            None if limits.iterations is None else max(1, limits.iterations // self.worlds),
            None if limits.millis is None else max(1, limits.millis // self.worlds),
        )
        pimc = new_pimc(game, flat_view(view, game), seed, self.worlds, self.exploration, self.playout)
        finished = True
        self.last_iterations = 0
        for w in range(self.worlds):
            if pimc.voted and limits.millis is not None and (time.perf_counter() - start) * 1000 >= limits.millis:
                finished = False  # out of time: the worlds searched so far vote
                break
            search = pimc.world(w)
            ran, _, world_finished = run_budget(search, share, should_stop=should_stop)
            self.last_iterations += ran
            finished = world_finished and finished
            if not pimc.vote(search):
                continue
            if should_stop is not None and should_stop():
                finished = False
                break  # stopped: the worlds searched so far vote
        action = pimc.choice()
        if action < 0:
            return None, False
        return action_space(game.deck).decode(action), finished


def _move(view: View, text: str) -> Move:
    from hzai.rules import parse_move

    return parse_move(text, game_of(view).deck)
