"""The one protocol every bot speaks, and what an analysis answer holds.

    decide(view, limits, seed, stop=None, progress=None) -> PlayResult

`root_moves` (keyword, optional) restricts the decision to chosen moves (`RootMoves`:
allow only some, or avoid some); without it every legal move is considered.

A bot reads a View only (never a State): two positions that look the same to the seat
get the same move for the same seed and budget. `stop` is polled while a search runs
(True: answer with the best move so far); `progress` receives partial Analysis answers
from bots that search. Analysis values are from the deciding seat's point of view.

A bot that searches also speaks `Analyst`:

    analyze(view, limits, seed, stop=None, progress=None, every=None, *, root_moves=None) -> Analysis

the same search as its `decide`, read as an analysis whose best is the bot's move, so
that what an analysis says of a position and what the bot plays there agree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Iterable, Protocol

from hzai.core.game import Move
from hzai.core.limits import Limits
from hzai.core.view import View
from hzai.text import quoted, shorten, without_echo


class BotError(ValueError):
    """An unknown bot or a bad bot option; the message names it."""


MAX_ROOT_MOVES = 4096  # moves one RootMoves may name (allow and avoid each)


class RootMovesError(ValueError):
    """A chosen root move that cannot be read or is not legal here; the message names it."""


@dataclass(frozen=True)
class RootMoves:
    """Which moves a decision or an analysis may consider at its root, as KataGo's
    allowMoves / avoidMoves: `allow` (None: every legal move) minus `avoid`. Moves are the
    game's values; `parse` reads them from notation. They are matched to the legal moves
    by action id, so a move is named as the game's legal-move list writes it."""

    allow: tuple[Move, ...] | None = None
    avoid: tuple[Move, ...] = ()

    def __post_init__(self):
        if self.allow is not None:
            object.__setattr__(self, "allow", tuple(self.allow))
            if not self.allow:
                raise RootMovesError("allow names no move: give at least one, or leave it out")
        object.__setattr__(self, "avoid", tuple(self.avoid))
        for kind, moves in (("allow", self.allow or ()), ("avoid", self.avoid)):
            if len(moves) > MAX_ROOT_MOVES:
                raise RootMovesError(f"{kind} names {len(moves)} moves; at most {MAX_ROOT_MOVES}")

    @classmethod
    def parse(cls, game, allow: Iterable[str] | None = None, avoid: Iterable[str] = ()) -> "RootMoves":
        """From notation texts; RootMovesError quotes a text the game cannot read."""
        def read(kind: str, texts) -> tuple:
            texts = list(texts)
            if len(texts) > MAX_ROOT_MOVES:
                raise RootMovesError(f"{kind} names {len(texts)} moves; at most {MAX_ROOT_MOVES}")
            moves = []
            for text in texts:
                try:
                    moves.append(game.parse_move(text))
                except ValueError as exc:
                    raise RootMovesError(f"{kind} move {quoted(text)}: {shorten(without_echo(str(exc), text))}") from None
            return tuple(moves)

        return cls(None if allow is None else read("allow", allow), read("avoid", avoid))

    @property
    def restricts(self) -> bool:
        return self.allow is not None or bool(self.avoid)

    def select(self, view: View) -> list[Move]:
        """The legal moves of `view` this choice keeps, in the view's order.
        RootMovesError names a chosen move that is not legal here, or says that
        nothing is left."""
        game = view.game
        legal = view.legal_moves()
        if not legal:
            raise RootMovesError("no decision to make here (game over or chance next)")
        ids = [game.action_of(m) for m in legal]
        legal_ids = set(ids)

        def ids_of(kind: str, moves) -> set[int]:
            out = set()
            for move in moves:
                try:
                    action = game.action_of(move)
                except (ValueError, KeyError, IndexError):
                    action = None
                if action not in legal_ids:
                    raise RootMovesError(f"{kind} move {quoted(game.move_text(move))} is not legal here")
                out.add(action)
            return out

        allowed = set(legal_ids) if self.allow is None else ids_of("allow", self.allow)
        allowed -= ids_of("avoid", self.avoid)
        kept = [m for m, a in zip(legal, ids) if a in allowed]
        if not kept:
            raise RootMovesError("avoid leaves no legal move to choose from")
        return kept


def choose_from(view: View, root_moves: RootMoves | None) -> list[Move]:
    """The moves a bot may choose from in `view`: all legal ones, or those `root_moves`
    keeps (RootMovesError as there)."""
    if root_moves is None or not root_moves.restricts:
        return view.legal_moves()
    return root_moves.select(view)


def wilson_interval(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate (draws count half)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class MoveInfo:
    move: Move
    visits: int
    value: float  # mean result for the seat to decide: win 1, draw 0.5, loss 0
    ci_low: float
    ci_high: float
    availability: int  # iterations in which the move was legal in the sampled world
    order: int  # rank by visits (0 = the suggested move)
    pv: list[Move] = field(default_factory=list)  # the move, then the most visited replies
    # The action ids the search knew them by (None: not known), so that a front end
    # writes them without encoding the moves back (Game.action_of).
    action: int | None = field(default=None, compare=False, repr=False)
    pv_actions: list[int] | None = field(default=None, compare=False, repr=False)


@dataclass
class Analysis:
    """Every searched move of the seat to decide, modelled on KataGo's analysis answers."""

    perspective: str  # seat name: values are this seat's results
    to_move: str
    iterations: int
    millis: float
    best: Move | None
    value: float  # of the suggested move
    moves: list[MoveInfo]
    seed: int
    finished: bool = True  # False: a progress report, or a search stopped early
    belief: dict | None = None

    @property
    def best_action(self) -> int | None:
        """The action id of `best` as the search knew it (None: not known)."""
        return next((m.action for m in self.moves if m.move is self.best), None) if self.best is not None else None

    def to_json(self, move_text: Callable[[Move], str] = str) -> dict:
        """Plain JSON, moves written by `move_text` (the game's notation)."""
        return {
            "perspective": self.perspective,
            "to_move": self.to_move,
            "iterations": self.iterations,
            "millis": self.millis,
            "best": "" if self.best is None else move_text(self.best),
            "value": self.value,
            "moves": [
                {"move": move_text(m.move), "visits": m.visits, "value": m.value, "ci_low": m.ci_low,
                 "ci_high": m.ci_high, "availability": m.availability, "order": m.order,
                 "pv": [move_text(p) for p in m.pv]}
                for m in self.moves
            ],
            "seed": self.seed,
            "finished": self.finished,
            "belief": self.belief,
        }


@dataclass
class PlayResult:
    move: Move
    analysis: Analysis | None = None  # what the search saw, for bots that search
    stopped_early: bool = False  # stopped, or out of time, before the budget was spent
    iterations: int = 0  # search iterations behind the move, all trees and worlds together

    @property
    def action(self) -> int | None:
        """The move's action id as the search knew it (None: not known; Game.action_of)."""
        return self.analysis.best_action if self.analysis is not None else None


Stop = Callable[[], bool]
Progress = Callable[[Analysis], None]


class Bot(Protocol):
    name: str

    def decide(self, view: View, limits: Limits, seed: int = 0, stop: Stop | None = None,
               progress: Progress | None = None, *, root_moves: RootMoves | None = None) -> PlayResult: ...


class Analyst(Bot, Protocol):
    """A bot whose decision is an analysis of the moves it weighs (module docstring)."""

    def analyze(self, view: View, limits: Limits, seed: int = 0, stop: Stop | None = None,
                progress: Progress | None = None, every: int | None = None, *,
                root_moves: RootMoves | None = None) -> Analysis: ...
