"""Game review over any hzai.core game: replay a game's moves and, at every decision of
the chosen seats, analyse the position from that seat's view and set the move played
against the search's best.

    for row in review_moves(game, start, moves, Limits(iterations=1000), seed=7):
        ...  # one ReviewedDecision as soon as its analysis is done

The rule for seeds: the decision at move index i (counted over every move of the
game, chance outcomes included) is analysed with seed `decision_seed(seed, i)`, which is
`(seed + i) mod 2^64`. So reviewing a game equals calling `analyze` on the view of each
prefix `moves[:i]` with that seed and the same budget, one position at a time.

A mark (`?`, `??`) is given only where the search has a value for both moves and the
two separate: the played move and the best were each searched at least MIN_VISITS
times, the played move's 95% interval lies wholly below the best's, and the value lost
is over the threshold (DUBIOUS, BLUNDER). A played move that the analysis searched
fewer than MIN_VISITS times (a widened root offers few moves; a small budget spreads
thin) gets a search of its own: the analysing bot's search of the position with the
played move alone at the root (`RootMoves(allow=[played])`), as many iterations as the
best move got (at least MIN_VISITS, at most the budget), seeded `played_seed(seed of
the decision)`. Its visits, value and interval are the played move's in the row; the
row's `analysis` stays the analysis of the position, so a review still equals one
analysis per prefix. A played move that the chosen root moves leave out is not searched
again (no value, no mark).

The review of a seat reads only that seat's views (`State.view(seat)`): two games that
look the same from the seat's side get the same rows for it. A game with capability
review_belief adds a belief summary at each decision, `game.presentation.review_belief(view, seed)
-> dict` (JSON values; a game without it: no belief); see docs/analysis.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from contextlib import nullcontext
from typing import Callable, ContextManager, Iterable, Iterator, Mapping, Sequence

from hzai.core import Analysis, Game, Limits, Move, State, View
from hzai.core.bot import Analyst, RootMoves, Stop
from hzai.rng import MASK64, mix_seed
from hzai.search.ismcts import DEFAULT_EXPLORATION, analyze
from hzai.text import quoted, shorten, without_echo

BLUNDER = 0.15  # value lost that marks a move "??"
DUBIOUS = BLUNDER / 3  # value lost that marks a move "?"
MIN_VISITS = 20  # visits a move needs for its value to count toward a mark (module docstring)
PLAYED_SALT = 0x91A7ED  # the played move's own search is seeded mix_seed(decision seed, PLAYED_SALT)


class ReviewError(ValueError):
    """A move of the game that cannot be read or played; names its index and text."""

    def __init__(self, message: str, index: int, text: str):
        super().__init__(message)
        self.index, self.text = index, text


def decision_seed(seed: int, index: int) -> int:
    """The seed of the analysis at move index `index` (the rule above)."""
    return (seed + index) & MASK64


def played_seed(seed: int) -> int:
    """The seed of the played move's own search at a decision analysed with `seed`."""
    return mix_seed(seed, PLAYED_SALT)


def separate(low: tuple[float, float] | None, high: tuple[float, float] | None) -> bool:
    """Whether interval `low` lies wholly below interval `high`."""
    return low is not None and high is not None and low[1] < high[0]


def mark_of(loss: float | None, played_interval: tuple[float, float] | None = None,
            best_interval: tuple[float, float] | None = None, played_visits: int = 0, best_visits: int = 0) -> str:
    """"??" or "?" for a move that lost at least BLUNDER or DUBIOUS, only where both moves
    were searched MIN_VISITS times or more and the played move's interval lies wholly
    below the best's; "" otherwise."""
    if loss is None or loss < DUBIOUS or min(played_visits, best_visits) < MIN_VISITS:
        return ""
    if not separate(played_interval, best_interval):
        return ""
    return "??" if loss >= BLUNDER else "?"


@dataclass
class ReviewedDecision:
    """One decision of a reviewed game. Values are the deciding seat's win probability
    (draws half) with their 95% intervals; a played move the search never visited (a
    budget smaller than the number of legal moves) has no value and no loss."""

    index: int  # position in the game's moves
    seat: str
    played: str
    played_value: float | None
    played_interval: tuple[float, float] | None
    played_visits: int  # of its own search where it had one (module docstring)
    best: str
    best_value: float
    best_interval: tuple[float, float]
    loss: float | None  # best_value - played_value, at least 0
    pv: list[str]  # the best move, then the replies the search expects
    seed: int
    analysis: Analysis = field(repr=False)
    belief: dict | None = None
    best_visits: int = 0
    mark: str | None = None  # None: worked out from the values (mark_of); a service's rows bring their own

    def __post_init__(self):
        if self.mark is None:
            self.mark = mark_of(self.loss, self.played_interval, self.best_interval, self.played_visits,
                                self.best_visits)

    def to_json(self, with_analysis: bool = False, move_text: Callable[[Move], str] = str) -> dict:
        data = {
            "index": self.index, "seat": self.seat, "played": self.played, "played_value": self.played_value,
            "played_interval": None if self.played_interval is None else list(self.played_interval),
            "played_visits": self.played_visits, "best": self.best, "best_value": self.best_value,
            "best_interval": list(self.best_interval), "best_visits": self.best_visits, "loss": self.loss,
            "mark": self.mark, "pv": list(self.pv), "seed": self.seed, "belief": self.belief,
        }
        if with_analysis:
            data["analysis"] = self.analysis.to_json(move_text)
        return data


def resolve_move(state: State, move: Move | str) -> Move:
    """The legal move (or chance outcome) of `state` that `move` names: a notation text
    is read by the game; moves are matched by action id, after the game's
    `canonical_move(state, move)` (several spellings of one move)."""
    game = state.game
    if isinstance(move, str):
        move = game.parse_move(move)
    move = game.search.canonical_move(state, move)
    options = [m for m, _ in state.chance_outcomes()] if state.is_chance else state.legal_moves()
    try:
        action = game.action_of(move)
    except (ValueError, KeyError, IndexError):
        action = None
    for option in options:
        if game.action_of(option) == action:
            return option
    state.clone().apply(move)  # the game's own reason why the move is refused, if it has one
    raise ValueError(f"{game.move_text(move)}: not legal here")


def _searched(game: Game, analysis: Analysis | None, move: Move):
    """The MoveInfo of `move` in `analysis` when the search tried it (else None)."""
    if analysis is None:
        return None
    action = game.action_of(move)
    return next((m for m in analysis.moves if game.action_of(m.move) == action and m.visits > 0), None)


def played_budget(limits: Limits, best_visits: int) -> Limits:
    """The budget of the played move's own search: as many iterations as the best move
    got, at least MIN_VISITS, at most an iteration budget's; a wall-time budget stays a
    cap."""
    iterations = max(MIN_VISITS, best_visits)
    if limits.iterations is not None:
        iterations = min(iterations, max(MIN_VISITS, limits.iterations))
    return Limits(iterations, limits.millis, limits.threads)


def needs_own_search(game: Game, view: View, played: Move, analysis: Analysis,
                     chosen: RootMoves | None) -> bool:
    """Whether the played move gets a search of its own (module docstring): it is not
    the analysis' best, it got fewer than MIN_VISITS visits, and the chosen root moves
    (if any) keep it."""
    if not analysis.moves or game.action_of(analysis.moves[0].move) == game.action_of(played):
        return False
    mine = _searched(game, analysis, played)
    if mine is not None and mine.visits >= MIN_VISITS:
        return False
    if chosen is not None and chosen.restricts:
        action = game.action_of(played)
        return any(game.action_of(m) == action for m in chosen.select(view))
    return True


def _row(game: Game, state: State, index: int, played: Move, analysis: Analysis, seed: int,
         belief: dict | None, alone: Analysis | None = None) -> ReviewedDecision:
    """One row; `alone`: the played move's own search, whose numbers are the played
    move's when it tried it."""
    mine = _searched(game, alone, played) or _searched(game, analysis, played)
    best = analysis.moves[0]
    value = None if mine is None else mine.value
    return ReviewedDecision(
        index=index,
        seat=game.seats[state.current_seat],
        played=game.move_text(played),
        played_value=value,
        played_interval=None if mine is None else (mine.ci_low, mine.ci_high),
        played_visits=0 if mine is None else mine.visits,
        best=game.move_text(best.move),
        best_value=best.value,
        best_interval=(best.ci_low, best.ci_high),
        loss=None if value is None else max(0.0, best.value - value),
        pv=[game.move_text(m) for m in best.pv],
        seed=seed,
        analysis=analysis,
        belief=belief,
        best_visits=best.visits,
    )


def review_moves(game: Game, start: State, moves: Sequence[Move | str], limits: Limits, seed: int = 0,
                 seats: Iterable[int] | None = None, *, stop: Stop | None = None,
                 progress: Callable[[int, int], None] | None = None, belief: bool = False,
                 exploration: float = DEFAULT_EXPLORATION, playout: str | None = None,
                 root_moves: Mapping[int, RootMoves] | None = None,
                 guard: Callable[[], ContextManager] | None = None,
                 analyst: Analyst | None = None) -> Iterator[ReviewedDecision]:
    """Yield a ReviewedDecision for every decision of `seats` (all seats by default),
    each as soon as it is analysed. `start` is not changed. `stop` is polled before and
    during every analysis: once it answers True the review ends (a decision cut short
    is not yielded; those yielded stay valid). `progress(done, total)` after each move.
    `belief`: ask the game's `review_belief` at each decision (a game without capability
    review_belief: no belief, as without `belief`). A move that cannot
    be read or played raises ReviewError naming it (the rows before it were yielded).
    `root_moves`: chosen root moves by move index (RootMovesError when one is not legal
    there). `guard()`: a context manager each analysis runs in (a service's search slot,
    taken per decision so that other work can come between two decisions). `analyst`: a
    bot whose own search analyses each decision (`Analyst.analyze`: its best is the bot's
    move there; the service's AnalyzeGame), instead of `analyze` with `exploration` and
    `playout`."""
    chosen = set(range(len(game.seats)) if seats is None else (game.presentation.seat_index(s) for s in seats))
    state = start.clone()
    hook = game.presentation.review_belief if belief and game.capabilities.review_belief else None
    total = len(moves)
    for index, given in enumerate(moves):
        text = given if isinstance(given, str) else game.move_text(given)
        try:
            move = resolve_move(state, given)
        except ValueError as exc:
            reason = without_echo(str(exc), text)  # the game's messages often start with the move
            raise ReviewError(f"move {index} {quoted(text)}: {shorten(reason)}", index, text) from None
        seat = state.current_seat
        if seat is not None and seat in chosen:
            if stop is not None and stop():
                return
            view = state.view(seat)
            at = decision_seed(seed, index)
            chosen_root = None if root_moves is None else root_moves.get(index)

            def search(budget: Limits, seed: int, chosen: RootMoves | None) -> Analysis:
                if analyst is not None:
                    return analyst.analyze(view, budget, seed, stop, root_moves=chosen)
                return analyze(view, budget, seed, should_stop=stop, exploration=exploration, playout=playout,
                               root_moves=chosen)

            alone = None
            with guard() if guard is not None else nullcontext():
                analysis = search(limits, at, chosen_root)
                if stop is not None and not analysis.finished and stop():
                    return
                if needs_own_search(game, view, move, analysis, chosen_root):
                    alone = search(played_budget(limits, analysis.moves[0].visits), played_seed(at),
                                   RootMoves(allow=(move,)))
                    if stop is not None and not alone.finished and stop():
                        return
            yield _row(game, state, index, move, analysis, at, hook(view, at) if hook is not None else None, alone)
        state.apply(move)
        if progress is not None:
            progress(index + 1, total)
