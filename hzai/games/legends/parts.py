"""The parts of Legends of Hellas above its rules (game.py, rules.py, state.py): records
(`legends-record/1`, record.py), the search support (the C++ twin, native/twin.py; the
heuristic), the learned team model (learned.py) and the presentation (narrate.py,
render.py). The package assembles them into LegendsGame (hzai/games/legends/__init__.py);
the rules never import this module."""

from __future__ import annotations

import json
from functools import cached_property
from pathlib import Path

from hzai.core.presentation import Presentation
from hzai.core.record import NoDecision, Observed, RecordError, Records
from hzai.core.search_support import Model, SearchSupport
from hzai.games.legends import heuristic, learned, narrate, render
from hzai.games.legends import moves as notation
from hzai.games.legends.data import DIFFICULTIES, MAX_SEATS
from hzai.games.legends.game import DEFAULT_HEROES, FORMAT, LegendsGame, OptionError
from hzai.games.legends.knowledge import redact
from hzai.games.legends.record import Record
from hzai.games.legends.rules import shuffled_deal
from hzai.games.legends.view import LegendsView
from hzai.text import quoted

try:  # the adapters to the C++ twin; only without a built core are they missing
    from hzai.games.legends.native import twin
except ImportError:  # pragma: no cover - only without a built core
    twin = None


class LegendsRecords(Records):
    """`legends-record/1` (record.py)."""

    format = FORMAT
    # what `hzai new` writes unless told (--deal, --seed-only): the seed alone
    keeps_seed = True

    @property
    def max_moves(self) -> int:
        return 8 * self.game.turn_limit + 16  # as Record.from_json refuses

    def read(self, data, base=None) -> Record:
        """A `legends-record/1` from a request: the built-in data only, never a file. A
        local file's (`base` given: the command line) may name a data file, relative to
        `base`."""
        if base is not None:
            return Record.from_json(data, base=base)
        if isinstance(data, dict) and data.get("data", "classic") != "classic":
            raise RecordError("data: only the built-in 'classic' data is served")
        return Record.from_json(data)

    def from_json(self, data) -> Record:
        return Record.from_json(data)

    def write(self, record: Record) -> dict:
        return record.to_json()

    def new(self, seed: int) -> Record:
        """A hosted game's record: the deal of `seed` written out as the setup, so that
        the chance orders drawn while it is played are lines of the record (a seed
        record holds none)."""
        hands, pile, monsters = shuffled_deal(self.game, seed)
        return Record(self.game, setup=(hands, pile, monsters), moves=[])

    def of_seed(self, seed: int) -> Record:
        """A record that keeps only the seed: the deal and the chance orders are drawn
        from it when it is replayed."""
        return Record(self.game, seed=seed, moves=[])

    def play(self, state, index: int, text: str) -> None:
        Record.push_recorded(state, index, text)

    def replay(self, record, should_stop=None):
        """As Records.replay; a seed record's chance orders are drawn from its seed."""
        return record.replay(should_stop=should_stop)

    def decision_view(self, state):
        """As Records.decision_view; a chance order next is named with how to write it."""
        if state.is_chance and not state.is_terminal:
            seat = self.game.seats[state.t.actor]
            raise NoDecision(f"the next event is chance: the order in which {seat}'s hand goes under the pile "
                             "(write it as 'chance order CARDS')")
        return super().decision_view(state)

    def observed(self, before, move, seat):
        t = before.t
        mover = None if before.is_chance else t.actor
        shown = redact(mover, move, t.pending, -1 if seat is None else seat)
        return Observed(notation.text(shown), redacted=shown != move)


class LegendsSearch(SearchSupport):
    """The seats' views (view.py), the twin (native/twin.py) and the heuristic."""

    # Searched with the heuristic as its playout policy (the twin's light step,
    # native/legends_light.cpp): a uniformly random team never wins a mission, so random
    # playouts would value every move at 0.
    default_playout = "light"

    def view_of(self, state, seat: int) -> LegendsView:
        """What `seat` (a number, or a seat's name) knows in `state`."""
        return LegendsView.of(state, self.game.presentation.seat_index(seat))

    @cached_property
    def native(self):
        """The C++ twin of this mission and options; None without a built core."""
        return None if twin is None else twin.native_game(self.game)

    def native_view(self, view):
        """The view as the native search reads it (native/twin.py's view_spec)."""
        return twin.native_view(view)

    def native_start(self, seed: int):
        """The twin's state of `new_state(seed)` (the deal is the reference's)."""
        return None if self.native is None else twin.native_state(self.game.new_state(seed))

    def heuristic_scores(self, view, moves: list) -> list[float]:
        return heuristic.heuristic_scores(view, moves)


class LegendsModel(Model):
    """The learned team's model (docs/learning.md, "Legends"): `ismcts` searches with it
    (today's unguided search is `ismcts-v2`); its team value at the leaves, no card model;
    the blueprint as the root's prior only where asked (policy=1), as measured."""

    file = Path(__file__).resolve().parent / "models" / "legends.npz"
    defaults = {"policy": 0, "cards": 0}
    # The features' layout (self-play folders name it): the table's 1,418, then the
    # partners' history, 592, and the cards the seat cannot place, 216 (docs/learning.md,
    # "History in the Legends features").
    feature_layout = "lg-2226-hist2"

    def guided_view(self, view, model, pool: int, seed: int):
        """The view with worlds weighted by the model's card head (learned.py); None for a
        model without one."""
        if self.game.search.native is None:
            return None
        return learned.guided_view(view, model, pool, seed)


class LegendsPresentation(Presentation):
    title = "Legends of Hellas"

    @property
    def params_help(self) -> str:
        return ("a JSON object: mission (1-12), heroes (a list of 1 to 5 hero names; one seat each, p1..pN), "
                "or seats (a count: the first heroes of " + ", ".join(DEFAULT_HEROES) + "), "
                "difficulty (" + ", ".join(DIFFICULTIES) + "), first_player (p1..pN), variants "
                "({\"relocation\": \"paid\" or \"free\", \"turn_limit\": N}); defaults: "
                + json.dumps({k: v for k, v in self.game.params.items() if k != "data"}, sort_keys=True))

    def with_params(self, params: dict) -> LegendsGame:
        """This mission with other options from a request: the flat keys of `params`, or
        the record's form with `variants`; only the built-in data (a request never names
        a file)."""
        game = self.game
        if not isinstance(params, dict):
            raise OptionError("the parameters must be a JSON object")
        flat = dict(params)
        variants = flat.pop("variants", {})
        if not isinstance(variants, dict):
            raise OptionError("variants must be an object (relocation, turn_limit)")
        for key in variants:
            if key not in ("relocation", "turn_limit"):
                raise OptionError(f"unknown variant {quoted(key)}; legends takes: relocation, turn_limit")
        flat.update(variants)
        if "seats" in flat:
            flat["heroes"] = _heroes_for(flat.pop("seats"), flat.get("heroes"))
        unknown = sorted(str(k) for k in flat if k not in game.params)
        if unknown:
            raise OptionError(f"unknown parameter {quoted(unknown[0])}; legends takes: mission, heroes, difficulty, "
                              "first_player, variants")
        if flat.get("data", game.data_name) != "classic":
            raise OptionError("data: only the built-in 'classic' data is served")
        return LegendsGame(**{**game.params, **flat})

    def narrate(self, before, move, after, seat):
        return narrate.narrate(before, move, after, seat)

    def board_text(self, state, seat: int) -> str:
        return render.render(state, seat)

    def referee_text(self, state) -> str:
        return render.render(state, None)

    def end_reason(self, state) -> str:
        return state.t.reason or ""

    def state_to_json(self, state) -> dict:
        return state.to_json()


def _heroes_for(seats, heroes):
    """`seats` (a front end's seat count) as that many heroes: the ones given, which must
    be as many, or the first of DEFAULT_HEROES."""
    if not isinstance(seats, int) or isinstance(seats, bool) or not 1 <= seats <= MAX_SEATS:
        raise OptionError(f"seats must be a whole number from 1 to {MAX_SEATS}, not {quoted(seats)}")
    if heroes is None:
        return list(DEFAULT_HEROES[:seats])
    if not isinstance(heroes, list) or len(heroes) != seats:
        raise OptionError(f"seats is {seats} but heroes names {len(heroes) if isinstance(heroes, list) else 'no list'}")
    return heroes
