"""LegendsGame: the static game of one mission (L-VAR-3 options), its notation and action
ids, on hzai.core's Game: the rules. Its other parts (records, search support, model,
presentation: parts.py) sit above the rules and are assembled by the package
(hzai/games/legends/__init__.py); nothing here imports them."""

from __future__ import annotations

from hzai.core.game import Game
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
    rules = rules  # the State reaches the rules through its game

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


def make(**params) -> LegendsGame:
    """The game for `make_game("legends", mission=..., heroes=[...], ...)`."""
    return LegendsGame(**params)
