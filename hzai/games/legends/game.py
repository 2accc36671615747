"""LegendsGame: the static game of one mission (L-VAR-3 options), its notation, action
ids and record codec, on hzai.core's Game."""

from __future__ import annotations

import json
from pathlib import Path
from functools import cached_property

from hzai.core import Capabilities, Game
from hzai.games.legends import moves as notation
from hzai.games.legends import rules
from hzai.games.legends.data import (
    DIFFICULTIES,
    MAX_SEATS,
    DataError,
    LegendsData,
    load_data,
)
from hzai.games.legends.state import LegendsState
from hzai.text import quoted

FORMAT = "legends-record/1"
RELOCATIONS = ("paid", "free")
DEFAULT_HEROES = ("Perseus", "Atalanta", "Hercules", "Achilles", "Jason")  # for a seat count alone
DEFAULT_TURN_LIMIT = 200
MAX_TURN_LIMIT = 100_000


class OptionError(ValueError):
    """A bad game option (mission, heroes, difficulty, ...); the message names it."""


class LegendsGame(Game):
    name = "legends"
    # A team game with a C++ twin, a heuristic, a learned team value and a learned card
    # model that weighs the worlds (guided_worlds); no hand-made opponent model and no
    # belief report yet.
    capabilities = Capabilities(cooperative=True, native=True, heuristic=True, model=True, guided_worlds=True)
    rules = rules  # the State reaches the rules through its game
    # Set by the package (hzai/games/legends/__init__.py): these modules import this one.
    view_type = None  # LegendsView
    record_type = None  # Record
    # Searched with the heuristic as its playout policy (the twin's light step,
    # hzai/games/legends/native/legends_light.cpp): a uniformly random team never wins a mission, so
    # random playouts would value every move at 0.
    default_playout = "light"
    # The learned team's model (docs/learning.md, "Legends"): `ismcts` searches with it
    # (today's unguided search is `ismcts-v2`); its team value at the leaves, no card
    # model; the blueprint as the root's prior only where asked (policy=1), as measured.
    model_file = Path(__file__).resolve().parent / "models" / "legends.npz"
    model_defaults = {"policy": 0, "cards": 0}
    # The features' layout (self-play folders name it): the table's 1,418, then the
    # partners' history, 592, and the cards the seat cannot place, 216 (docs/learning.md,
    # "History in the Legends features").
    feature_layout = "lg-2226-hist2"

    def __init__(self, mission: int = 1, heroes=("Perseus", "Atalanta"), difficulty: str = "human",
                 first_player: str = "p1", relocation: str = "paid", turn_limit: int = DEFAULT_TURN_LIMIT,
                 data: str | LegendsData = "classic", data_base=None):
        self.data = data if isinstance(data, LegendsData) else load_data(data, data_base)
        self.data_name = data if isinstance(data, str) else self.data.name
        if not isinstance(mission, int) or isinstance(mission, bool) or mission not in self.data.missions:
            raise OptionError(f"mission must be one of {', '.join(map(str, sorted(self.data.missions)))}, not {quoted(mission)}")
        self.mission = self.data.missions[mission]
        if isinstance(heroes, str):
            heroes = [h for h in heroes.split(",")]
        if not isinstance(heroes, (list, tuple)) or not 1 <= len(heroes) <= MAX_SEATS:
            raise OptionError(f"heroes must list 1 to {MAX_SEATS} hero names")
        if not all(isinstance(h, str) for h in heroes):
            raise OptionError("heroes must be hero names")
        try:
            idx = [self.data.hero_index(h) for h in heroes]
        except DataError as exc:
            raise OptionError(f"heroes: {exc}") from None
        if len(set(idx)) != len(idx):
            raise OptionError("heroes must be distinct (one disc each, L-VAR-1)")
        self.heroes = tuple(self.data.heroes[i][0] for i in idx)
        self.hero_attr = tuple(self.data.heroes[i][1] for i in idx)
        self.n = len(idx)
        self.seats = tuple(notation.seat_name(s) for s in range(self.n))
        if difficulty not in DIFFICULTIES:
            raise OptionError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, not {quoted(difficulty)}")
        self.difficulty = difficulty
        if first_player not in self.seats:
            raise OptionError(f"first_player must be one of {', '.join(self.seats)}, not {quoted(first_player)}")
        self.first = self.seats.index(first_player)
        if relocation not in RELOCATIONS:
            raise OptionError(f"relocation must be paid or free, not {quoted(relocation)}")
        self.relocation = relocation
        self.free_relocation = relocation == "free"
        if not isinstance(turn_limit, int) or isinstance(turn_limit, bool) or not 1 <= turn_limit <= MAX_TURN_LIMIT:
            raise OptionError(f"turn_limit must be a whole number from 1 to {MAX_TURN_LIMIT}, not {quoted(turn_limit)}")
        self.turn_limit = turn_limit
        self.codec = notation.ActionCodec(self.data.kinds, self.n, len(self.data.monsters))

    @property
    def params(self) -> dict:
        return {"mission": self.mission.id, "heroes": list(self.heroes), "difficulty": self.difficulty,
                "first_player": self.seats[self.first], "relocation": self.relocation,
                "turn_limit": self.turn_limit, "data": self.data_name}

    @cached_property
    def native(self):
        """The C++ twin of this mission and options (hzai/games/legends/native/twin.py); None without
        a built core."""
        try:
            from hzai.games.legends.native.twin import native_game
        except ImportError:  # pragma: no cover - only without a built core
            return None
        return native_game(self)

    def native_view(self, view):
        """The view as the native search reads it (hzai.games.legends.native.twin.view_spec)."""
        from hzai.games.legends.native.twin import native_view

        return native_view(view)

    def guided_view(self, view, model, pool: int, seed: int):
        """The view with worlds weighted by the model's card head (hzai.games.legends.learned);
        None for a model without one."""
        if self.native is None:
            return None
        from hzai.games.legends.learned import guided_view

        return guided_view(view, model, pool, seed)

    def native_start(self, seed: int):
        """The twin's state of `new_state(seed)` (the deal is the reference's)."""
        if self.native is None:
            return None
        from hzai.games.legends.native.twin import native_state

        return native_state(self.new_state(seed))

    @property
    def num_actions(self) -> int:
        return self.codec.size

    def new_state(self, seed: int) -> LegendsState:
        hands, pile, monsters = rules.shuffled_deal(self, seed)
        return self.state_from_deal(hands, pile, monsters)

    def state_from_deal(self, hands, pile, monster_deck) -> LegendsState:
        """A start from a given deal (kinds; monster indexes, top first)."""
        return LegendsState(self, rules.new_table(self, hands, pile, monster_deck))

    def parse_move(self, text: str):
        return notation.parse(text, self.data.kinds, self.n, len(self.data.monsters))

    def move_text(self, move) -> str:
        return notation.text(move)

    def action_of(self, move) -> int:
        return self.codec.action_of(move)

    def move_of(self, action: int):
        return self.codec.move_of(action)

    def record_from_json(self, data: dict):
        return self.record_type.from_json(data)

    def record_to_json(self, record) -> dict:
        return record.to_json()

    def heuristic_scores(self, view, moves: list) -> list[float]:
        from hzai.games.legends.heuristic import heuristic_scores

        return heuristic_scores(view, moves)

    # ----- the front-end hooks of hzai.core.Game (the service, the terminal game) -------
    title = "Legends of Hellas"

    @property
    def record_format(self) -> str:
        return FORMAT

    @property
    def max_record_moves(self) -> int:
        return 8 * self.turn_limit + 16  # as Record.from_json refuses

    @property
    def params_help(self) -> str:
        return ("a JSON object: mission (1-12), heroes (a list of 1 to 5 hero names; one seat each, p1..pN), "
                "or seats (a count: the first heroes of " + ", ".join(DEFAULT_HEROES) + "), "
                "difficulty (" + ", ".join(DIFFICULTIES) + "), first_player (p1..pN), variants "
                "({\"relocation\": \"paid\" or \"free\", \"turn_limit\": N}); defaults: "
                + json.dumps({k: v for k, v in self.params.items() if k != "data"}, sort_keys=True))

    def with_params(self, params: dict) -> "LegendsGame":
        """This mission with other options from a request: the flat keys of `params`, or
        the record's form with `variants`; only the built-in data (a request never names
        a file)."""
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
            flat["heroes"] = self._heroes_for(flat.pop("seats"), flat.get("heroes"))
        unknown = sorted(str(k) for k in flat if k not in self.params)
        if unknown:
            raise OptionError(f"unknown parameter {quoted(unknown[0])}; legends takes: mission, heroes, difficulty, "
                              "first_player, variants")
        if flat.get("data", self.data_name) != "classic":
            raise OptionError("data: only the built-in 'classic' data is served")
        return LegendsGame(**{**self.params, **flat})

    def _heroes_for(self, seats, heroes):
        """`seats` (a front end's seat count) as that many heroes: the ones given, which
        must be as many, or the first of DEFAULT_HEROES."""
        if not isinstance(seats, int) or isinstance(seats, bool) or not 1 <= seats <= MAX_SEATS:
            raise OptionError(f"seats must be a whole number from 1 to {MAX_SEATS}, not {quoted(seats)}")
        if heroes is None:
            return list(DEFAULT_HEROES[:seats])
        if not isinstance(heroes, list) or len(heroes) != seats:
            raise OptionError(f"seats is {seats} but heroes names {len(heroes) if isinstance(heroes, list) else 'no list'}")
        return heroes

    def read_record(self, data, base=None):
        """A `legends-record/1` from a request: the built-in data only, never a file. A
        local file's (`base` given: the command line) may name a data file, relative to
        `base`."""
        if base is not None:
            return self.record_type.from_json(data, base=base)
        if isinstance(data, dict) and data.get("data", "classic") != "classic":
            from hzai.core.record import RecordError

            raise RecordError("data: only the built-in 'classic' data is served")
        return self.record_type.from_json(data)

    def new_record(self, seed: int):
        """A hosted game's record: the deal of `seed` written out as the setup, so that
        the chance orders drawn while it is played are lines of the record (a seed
        record holds none)."""
        hands, pile, monsters = rules.shuffled_deal(self, seed)
        return self.record_type(self, setup=(hands, pile, monsters), moves=[])

    def decision_view(self, state):
        """As Game.decision_view; a chance order next is named with how to write it."""
        if state.is_chance and not state.is_terminal:
            from hzai.core.record import NoDecision

            seat = self.seats[state.t.actor]
            raise NoDecision(f"the next event is chance: the order in which {seat}'s hand goes under the pile "
                             "(write it as 'chance order CARDS')")
        return super().decision_view(state)

    def seed_record(self, seed: int):
        """A record that keeps only the seed: the deal and the chance orders are drawn
        from it when it is replayed."""
        return self.record_type(self, seed=seed, moves=[])

    # what `hzai new` writes unless told (--deal, --seed-only): the seed alone
    new_record_keeps_seed = True

    def play_recorded(self, state, index: int, text: str) -> None:
        self.record_type.push_recorded(state, index, text)

    def replay(self, record, should_stop=None):
        """As Game.replay; a seed record's chance orders are drawn from its seed."""
        return record.replay(should_stop=should_stop)

    def observed(self, before, move, seat):
        from hzai.core.record import Observed
        from hzai.games.legends.knowledge import redact

        t = before.t
        mover = None if before.is_chance else t.actor
        shown = redact(mover, move, t.pending, -1 if seat is None else seat)
        return Observed(notation.text(shown), redacted=shown != move)

    def narrate(self, before, move, after, seat):
        from hzai.games.legends.narrate import narrate

        return narrate(before, move, after, seat)

    def board_text(self, state, seat: int) -> str:
        from hzai.games.legends.render import render

        return render(state, seat)

    def referee_text(self, state) -> str:
        from hzai.games.legends.render import render

        return render(state, None)

    def end_reason(self, state) -> str:
        return state.t.reason or ""

    def state_to_json(self, state) -> dict:
        return state.to_json()


def make(**params) -> LegendsGame:
    """The game for `make_game("legends", mission=..., heroes=[...], ...)`."""
    return LegendsGame(**params)
