"""Game records, `legends-record/1` (docs/legends.md, "Game record"): read, checked,
written and replayed. Every problem is a RecordError naming the key, or the move's
index, the move and the reason."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from hzai import jsonread
from hzai.games.legends.data import DataError, key_problem
from hzai.core.record import REPLAY_CHECK_EVERY, ReplayStopped
from hzai.core.record import RecordError as CoreRecordError
from hzai.games.legends.game import FORMAT, LegendsGame, OptionError
from hzai.games.legends.moves import ChanceOrder, NotationError
from hzai.games.legends.rules import HAND, IllegalMoveError, deck_kinds
from hzai.rng import SplitMix64, mix_seed
from hzai.text import quoted, shorten

KEYS = ("format", "mission", "difficulty", "heroes", "first_player", "variants", "data", "setup", "seed", "moves")
SETUP_KEYS = ("monster_deck", "hands", "draw_pile")
VARIANT_KEYS = ("relocation", "turn_limit")
SEED_MAX = 2**64 - 1
MAX_RECORD_BYTES = 4 << 20
CHANCE_SALT = 0xC4A9CE  # the seed record's chance orders: SplitMix64(mix_seed(seed, CHANCE_SALT))


class RecordError(CoreRecordError):
    """A malformed record, or a move of it that cannot be read or played; `index` is the
    move's 0-based position when a move is at fault (hzai.core's RecordError, so every
    front end reports it as it reports any game's)."""


def _fail(message: str):
    raise RecordError(message)


def _check_keys(obj: dict, keys, required, where: str = "") -> None:
    problem = key_problem(obj, keys, required, where)
    if problem:
        _fail(problem)


@dataclass
class Record:
    game: LegendsGame
    seed: int | None = None
    setup: tuple | None = None  # (hands as kinds, pile as kinds top first, monster deck indexes)
    moves: list[str] = field(default_factory=list)

    # ----- reading ------------------------------------------------------------------
    @classmethod
    def load(cls, path) -> Record:
        p = Path(path)
        try:
            if p.stat().st_size > MAX_RECORD_BYTES:
                _fail(f"{path}: larger than {MAX_RECORD_BYTES} bytes")
            raw = jsonread.loads(p.read_bytes(), str(path))
        except OSError as exc:
            _fail(f"{path}: cannot be read: {exc.strerror or exc}")
        except jsonread.JsonShapeError as exc:
            _fail(str(exc))
        return cls.from_json(raw, base=p.resolve().parent)

    @classmethod
    def from_json(cls, raw, base=None) -> Record:
        if not isinstance(raw, dict):
            _fail("a record is a JSON object")
        _check_keys(raw, KEYS, ("format", "mission", "heroes", "moves"))
        if raw["format"] != FORMAT:
            _fail(f"format must be {FORMAT!r}, not {quoted(raw['format'])}")
        if ("setup" in raw) == ("seed" in raw):
            _fail("a record has exactly one of 'setup' and 'seed'" + (" (it has both)" if "setup" in raw else " (it has neither)"))
        variants = raw.get("variants", {})
        if not isinstance(variants, dict):
            _fail("variants must be an object")
        _check_keys(variants, VARIANT_KEYS, (), "variants: ")
        options = {"mission": raw["mission"], "heroes": raw["heroes"], "difficulty": raw.get("difficulty", "human"),
                   "first_player": raw.get("first_player", "p1"), **variants, "data": raw.get("data", "classic")}
        if not isinstance(options["heroes"], list):
            _fail("heroes must be a list of hero names")
        if not isinstance(options["data"], str):
            _fail("data must be 'classic' or the path of a data file")
        try:
            game = LegendsGame(**options, data_base=base)
        except (OptionError, DataError) as exc:
            _fail(str(exc))
        moves = raw["moves"]
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            _fail("moves must be a list of move texts")
        if len(moves) > 8 * game.turn_limit + 16:
            _fail(f"moves: {len(moves)} moves, more than a mission with turn_limit {game.turn_limit} can have")
        if "seed" in raw:
            seed = raw["seed"]
            if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= SEED_MAX:
                _fail(f"seed must be a whole number from 0 to {SEED_MAX}, not {quoted(seed)}")
            return cls(game, seed=seed, moves=list(moves))
        return cls(game, setup=_setup(game, raw["setup"]), moves=list(moves))

    # ----- writing ------------------------------------------------------------------
    def to_json(self) -> dict:
        g = self.game
        out = {"format": FORMAT, "mission": g.mission.id, "difficulty": g.difficulty, "heroes": list(g.heroes),
               "first_player": g.seats[g.first], "variants": {"relocation": g.relocation, "turn_limit": g.turn_limit},
               "data": g.data_name}
        if self.seed is not None:
            out["seed"] = self.seed
        else:
            hands, pile, monsters = self.setup
            kinds = g.data.kinds
            out["setup"] = {"monster_deck": [g.data.monsters[m][0] for m in monsters],
                            "hands": {g.seats[s]: [kinds[k] for k in h] for s, h in enumerate(hands)},
                            "draw_pile": [kinds[k] for k in pile]}
        out["moves"] = list(self.moves)
        return out

    # ----- replay -------------------------------------------------------------------
    def start(self):
        if self.seed is not None:
            return self.game.new_state(self.seed)
        return self.game.state_from_deal(*self.setup)

    def replay(self, upto: int | None = None, should_stop=None):
        """The state after the first `upto` moves (all by default). A seed record's chance
        orders are drawn when due; a record with a setup writes them as moves.
        `should_stop` is polled every few moves (hzai.core's ReplayStopped)."""
        state = self.start()
        chance = SplitMix64(mix_seed(self.seed, CHANCE_SALT)) if self.seed is not None else None
        moves = self.moves if upto is None else self.moves[:max(0, upto)]
        if chance is not None:
            draw_chance(state, chance)
        for index, text in enumerate(moves):
            if should_stop is not None and index % REPLAY_CHECK_EVERY == 0 and should_stop():
                raise ReplayStopped(index)
            push_recorded(state, index, text, seeded=chance is not None)
            if chance is not None:
                draw_chance(state, chance)
        return state

    @classmethod
    def of_state(cls, state, seed: int | None = None) -> Record:
        """The record of a game played from a deal (its history as texts): the deal is
        read back from the state's log, chance orders included as moves."""
        g, t = state.game, state.t
        hands0, pile0 = t.initial
        setup = ([[t.kind[i] for i in h] for h in hands0], [t.kind[i] for i in reversed(pile0)], _monster_order(t))
        return cls(g, setup=setup, moves=[g.move_text(m) for _, m, _ in t.history])


def _monster_order(t) -> list[int]:
    entered = [c for m in t.monsters for c in m.cards]
    return entered + list(t.monster_deck)


def draw_chance(state, rng: SplitMix64) -> None:
    """A seed record's chance orders, drawn by their probabilities in sorted order."""
    while state.is_chance:
        outcomes = state.chance_outcomes()
        point = rng.next_u64() / 2**64
        pick = outcomes[-1][0]
        for move, p in outcomes:
            point -= p
            if point < 0:
                pick = move
                break
        state.apply(pick)


def push_recorded(state, index: int, text: str, seeded: bool = False) -> None:
    """Play move `index` of a record; RecordError names the index, move and reason."""
    try:
        move = state.game.parse_move(text)
        if seeded and type(move) is ChanceOrder:
            raise IllegalMoveError("a seed record holds no chance lines (the engine draws each order)")
        state.apply(move)
    except (NotationError, IllegalMoveError) as exc:
        reason = str(exc).removeprefix(f"{quoted(text)}: ")
        raise RecordError(f"move {index} {quoted(text)}: {shorten(reason)}", index, text) from None


def _names(value, what: str, kinds: tuple[str, ...]) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        _fail(f"{what} must be a list of card names")
    out = []
    for name in value:
        k = name.strip().lower()
        if k not in kinds:
            _fail(f"{what}: {quoted(name)} is not a card (cards: {', '.join(kinds)})")
        out.append(kinds.index(k))
    return out


def _setup(game: LegendsGame, setup) -> tuple:
    """L-SETUP-2..4: the monster deck a permutation of the monsters; hands of 4 and the
    draw pile exactly the cards of L-SETUP-3 for this seat count and difficulty."""
    if not isinstance(setup, dict):
        _fail("setup must be an object with keys monster_deck, hands, draw_pile")
    _check_keys(setup, SETUP_KEYS, SETUP_KEYS, "setup: ")
    data = game.data
    deck = setup["monster_deck"]
    if not isinstance(deck, list) or not all(isinstance(n, str) for n in deck):
        _fail("setup.monster_deck must be a list of monster names")
    try:
        monsters = [data.monster_index(n) for n in deck]
    except DataError as exc:
        _fail(f"setup.monster_deck: {exc}")
    if sorted(monsters) != list(range(len(data.monsters))):
        _fail(f"setup.monster_deck must hold each of the {len(data.monsters)} monsters exactly once")
    hands_raw = setup["hands"]
    if not isinstance(hands_raw, dict) or sorted(hands_raw) != sorted(game.seats):
        _fail(f"setup.hands must have exactly the keys {', '.join(game.seats)}")
    hands = []
    for seat in game.seats:
        hand = _names(hands_raw[seat], f"setup.hands.{seat}", data.kinds)
        if len(hand) != HAND:
            _fail(f"setup.hands.{seat} must hold {HAND} cards, not {len(hand)}")
        hands.append(hand)
    pile = _names(setup["draw_pile"], "setup.draw_pile", data.kinds)
    want = Counter(deck_kinds(game)[0])
    have = Counter(pile) + sum((Counter(h) for h in hands), Counter())
    if have != want:
        extra, missing = have - want, want - have
        parts = [f"{n} {data.kinds[k]} too many" for k, n in sorted(extra.items())]
        parts += [f"{n} {data.kinds[k]} missing" for k, n in sorted(missing.items())]
        _fail(f"setup: hands and draw_pile must be the {sum(want.values())} cards of this game ({'; '.join(parts)})")
    return hands, pile, monsters


Record.push_recorded = staticmethod(push_recorded)  # the game plays a hosted match's lines through it
