"""Game: the part of a game that never changes while it is played, as OpenSpiel's Game:
the rules (name, seats, parameters, action ids, notation, new states, what a seat
observes of a move), and the game's other parts, each a small object of its own
(docs/architecture.md, "The seam"):

    game.records       hzai.core.record.Records: record format and codec, new records,
                       replays, the view to decide, what a seat sees of a move
    game.search        hzai.core.search_support.SearchSupport: the seats' views, chance
                       draws, the search's defaults; optional: the C++ twin, a heuristic,
                       an opponent model, the policy-based inference
    game.model         hzai.core.search_support.Model: the learned model, or None
    game.presentation  hzai.core.presentation.Presentation: title, parameters, seats by
                       name, words and pictures; optional: belief reports

A game's package assembles its parts in one place (`assemble`); a capability is a part
(or an optional member of one) being there (`game.capabilities`, derived from the parts).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
import zlib
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Hashable

from hzai.core.capabilities import Capabilities, capabilities_of, part_errors
from hzai.core.presentation import Presentation
from hzai.core.record import Records
from hzai.core.search_support import Model, SearchSupport

if TYPE_CHECKING:
    from hzai.core.state import State

# A move is whatever value the game uses for one (hashable, comparable for equality);
# the core only passes it between the game and the algorithms. Action ids are the dense
# integer form of the same moves: 0 <= id < Game.num_actions.
Move = Hashable


# What each part is a kind of.
KINDS = {"records": Records, "search": SearchSupport, "model": Model, "presentation": Presentation}


@dataclass(frozen=True)
class Assembly:
    """A game class's parts, each a class made with the game or a stand-in that imports
    it on first use (hzai.lazy.lazy_call("module:Class")), and the two facts about its
    rules that are capabilities."""

    records: Callable = Records
    search: Callable = SearchSupport
    model: Callable | None = None
    presentation: Callable = Presentation
    cooperative: bool = False  # every seat gets the team's result
    public_moves: bool = False  # every move is seen in full by every seat


def assemble(game_class: type, *, records: Callable = Records, search: Callable = SearchSupport,
             model: Callable | None = None, presentation: Callable = Presentation, cooperative: bool = False,
             public_moves: bool = False) -> type:
    """Give `game_class` (a Game) its parts: the one place a game's package puts its game
    together. Each part is a subclass of the core's (Records, SearchSupport, Model,
    Presentation), or a stand-in that imports one when the part is first made
    (`lazy_call("package.module:Class")`, so that making a game loads only the parts it
    is asked for). TypeError naming what does not fit: here for a class, when the part
    is made for a stand-in."""
    errors = []
    if not (isinstance(game_class, type) and issubclass(game_class, Game)):
        errors.append(f"{game_class!r} is no hzai.core.Game")
    for name, part in {"records": records, "search": search, "model": model, "presentation": presentation}.items():
        if part is None and name == "model":
            continue
        if isinstance(part, type):
            errors += part_kind_errors(name, part)
        elif not callable(part):
            errors.append(f"its {name} must be a subclass of {KINDS[name].__name__}, not {part!r}")
    if errors:
        raise TypeError(f"game class {getattr(game_class, '__qualname__', game_class)}: " + "; ".join(errors))
    game_class._assembly = Assembly(records, search, model, presentation, bool(cooperative), bool(public_moves))
    return game_class


def part_kind_errors(name: str, part: type) -> list[str]:
    """What is wrong with `part` as a game's part `name`: not the core's kind, or (the
    search support) settings that do not fit together."""
    if not issubclass(part, KINDS[name]):
        return [f"its {name} must be a subclass of {KINDS[name].__name__}, not {part!r}"]
    return part_errors(part) if name == "search" else []


# The members the Game had before it was split into parts, and the part each is now
# (game.<part>.<member>): a game class that writes one of them on itself has put it in the
# wrong place, and is refused (Game.__init_subclass__).
FORWARDED = {
    **{old: ("records", new) for old, new in {
        "record_format": "format", "max_record_moves": "max_moves", "read_record": "read",
        "record_from_json": "from_json", "write_record": "write", "record_to_json": "write", "new_record": "new",
        "seed_record": "of_seed", "new_record_keeps_seed": "keeps_seed", "start_of": "start_of",
        "play_recorded": "play", "replay": "replay", "view_to_decide": "view_to_decide",
        "decision_view": "decision_view", "observed": "observed"}.items()},
    **{name: ("search", name) for name in (
        "draw_chance", "canonical_move", "default_playout", "default_own_only", "default_infer", "native",
        "native_view", "native_start", "heuristic_scores", "inferred_view")},
    **{old: ("model", new) for old, new in {
        "model_file": "file", "model_archive": "archive", "feature_layout": "feature_layout",
        "model_defaults": "defaults", "policy_of": "policy_of", "guided_view": "guided_view"}.items()},
    **{name: ("presentation", name) for name in (
        "title", "params_help", "with_params", "seat_index", "narrate", "board_text", "referee_text",
        "result_text", "end_reason", "state_to_json", "belief_report", "belief_text", "review_belief")},
}


class Game(ABC):
    """The static game: its name, seats, parameters, action space, notation, new states
    and what a seat observes of a move (here), and its parts (`records`, `search`,
    `model`, `presentation`), made from the classes its package assembled (`assemble`;
    the core's defaults for a game never assembled)."""

    name: str
    seats: tuple[str, ...]
    _assembly: Assembly = Assembly()

    def __init_subclass__(cls, **kwargs):
        """A game class that writes on itself what belongs to a part (a `capabilities`
        declaration, a hook such as `narrate` or `native_view`) is refused when it is
        made (TypeError naming the part it belongs to): it would be ignored, or answer
        differently from the part the game's users ask."""
        super().__init_subclass__(**kwargs)
        errors = [f"it writes {name}: that is {FORWARDED[name][0]}.{FORWARDED[name][1]} of its parts (assemble)"
                  for name in vars(cls) if name in FORWARDED]
        if "capabilities" in vars(cls):
            errors.append("it sets capabilities: they are its parts that are there, and the facts cooperative and "
                          "public_moves are stated when its package assembles it (hzai.core.game.assemble)")
        if errors:
            raise TypeError(f"game class {cls.__qualname__}: " + "; ".join(errors))

    @property
    @abstractmethod
    def num_actions(self) -> int:
        """Action ids are 0..num_actions-1, chance outcomes included."""

    @property
    def params(self) -> dict[str, Any]:
        """The variant settings this game was made with (plain JSON values)."""
        return {}

    @abstractmethod
    def new_state(self, seed: int) -> "State":
        """The start of a game; `seed` draws whatever the deal leaves to chance."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """The move a notation text names; the game's NotationError (a ValueError)
        quotes the input when it names none."""

    def move_text(self, move: Move) -> str:
        return str(move)

    @abstractmethod
    def action_of(self, move: Move) -> int: ...

    @abstractmethod
    def move_of(self, action: int) -> Move: ...

    def observation(self, before: "State", action: int, seat: int) -> int:
        """What `seat` sees of action id `action`, about to be played on `before` by its
        current seat, as one int for the multi-observer search (hzai.search, tree=multi;
        hzai/native/py_game.hpp calls it): the action id itself when the seat sees the
        move in full, else a negative id that is the same for every move the seat cannot
        tell apart there. Default: from `records.observed` — a move seen unredacted is
        itself; a redacted one is keyed by its redacted text (a 30-bit CRC of it, so two
        texts very rarely share one id). A game may override it with something cheaper;
        it must never tell a seat more than `observed` does."""
        if self.capabilities.public_moves or before.current_seat == seat:
            return action
        seen = self.records.observed(before, self.move_of(action), seat)
        if not seen.redacted:
            return action
        return -1 - (zlib.crc32(seen.text.encode()) & 0x3FFFFFFF)

    # ----- the parts -------------------------------------------------------------------
    @cached_property
    def records(self) -> Records:
        return self._part("records")

    @cached_property
    def search(self) -> SearchSupport:
        return self._part("search")

    @cached_property
    def model(self) -> Model | None:
        return None if self._assembly.model is None else self._part("model")

    @cached_property
    def presentation(self) -> Presentation:
        return self._part("presentation")

    def _part(self, name: str):
        """Part `name` made for this game; a part assembled as a stand-in is checked here,
        when it is first made (TypeError as `assemble`'s)."""
        maker = getattr(self._assembly, name)
        part = maker(self)
        if not isinstance(maker, type):
            errors = part_kind_errors(name, type(part))
            if errors:
                raise TypeError(f"game class {type(self).__qualname__}: " + "; ".join(errors))
        return part

    @cached_property
    def capabilities(self) -> Capabilities:
        """What this game offers beyond its rules: its parts that are there."""
        assembly = self._assembly
        return capabilities_of(self.search, self.model, self.presentation, assembly.cooperative,
                               assembly.public_moves)
