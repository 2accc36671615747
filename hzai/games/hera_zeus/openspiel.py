"""Hera and Zeus as an OpenSpiel game (`pyspiel.load_game("python_hera_zeus")`).

Needs the optional extra: `pip install -e ".[openspiel]"` (the `open_spiel` wheel).
docs/openspiel.md describes the game as OpenSpiel sees it; in short:

- **Actions** are the shared integer ids of docs/actions.md, the same for every
  position; chance outcomes use the `chance REF` block.
- **The deal** is 86 chance nodes, card by card: Hera's 9 hand cards, her 34 deck cards
  from the top, then Zeus's likewise. Each outcome is a card *name* (`chance NAME`),
  with probability proportional to the copies left; a hand never gets the hostage.
  That is exactly the distribution of the documented deal (R-SETUP-1): the hand is a
  uniform set of 9 non-hostage cards and the deck a uniform order of the rest.
- **Pegasus draws** are chance nodes with the engine's outcomes (`chance REF`).
- **Information state** of a player: that player's view (`hzai.games.hera_zeus.belief.view_of`) as
  compact JSON, and a tensor encoding it. A view holds no hidden card; two histories
  that leave a player with the same view share one information state.
- **Observation**: the same view without the knowledge model (group ids, what is known
  to lie among hidden cards): what is on the table, own cards included.
- **resample_from_infostate** draws a world with the determinization sampler of
  `hzai.games.hera_zeus.belief` (its native twin, which draws the same world for the same seed), and carries
  both players' knowledge over to it card by card, so the world goes on being
  observed exactly like the real game (see `_carry_over`).

The rules run in the native core (`hzai.games.hera_zeus.native`); the reference engine and the
knowledge trackers follow lazily, only when a view is asked for, so random rollouts
cost what the core costs plus OpenSpiel's own Python loop.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache

import numpy as np

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "hzai.games.hera_zeus.openspiel needs OpenSpiel: pip install -e '.[openspiel]' (the open_spiel wheel)"
    ) from exc

from hzai import _native
from hzai.games.hera_zeus.belief import Knowledge, view_of
from hzai.games.hera_zeus.belief.knowledge import Group
from hzai.games.hera_zeus.cards import PLAYERS
from hzai.games.hera_zeus.native.state import NativeState, native_game
from hzai.games.hera_zeus.native.search import flat_view
from hzai.games.hera_zeus.rules import Game
from hzai.games.hera_zeus.rules.actions import action_space
from hzai.games.hera_zeus.rules.effects import apply_legal
from hzai.games.hera_zeus.rules.variants import HAND_AT_DEAL, COLUMN_DEPTH, COLUMNS, HAND_LIMIT
from hzai.games.hera_zeus.rules.moves import CHANCE
from hzai.games.hera_zeus.rules.record import initial_state, state_to_json
from hzai.games.hera_zeus.rules.state import FIGURE

GAME_NAME = "python_hera_zeus"
DEFAULT_PARAMS = {
    "first_player": "hera",
    "figure_removal": "action",
    "pythia_defence": "normal",
    "turn_limit": 200,
    "deck": "classic",
}
# An upper bound on decisions per turn: 4 AP actions, a god card before each of them
# and one more, a `place` after each Pegasus, and two `top` decisions per Pandora.
_DECISIONS_PER_TURN = 4 + 5 + 4 + 8

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Hera and Zeus",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(DEFAULT_PARAMS),
)


class _Shared:
    """What never changes during a game (deck, variants, action space). Copying a
    state shares it; pickling names it by its parameters."""

    def __init__(self, params: dict):
        self.params = dict(params)
        variants = {k: params[k] for k in ("first_player", "figure_removal", "pythia_defence", "turn_limit")}
        self.game = Game.create(variants, params["deck"])
        self.deck = self.game.deck
        self.space = action_space(self.deck)
        self.core_game = native_game(self.game)
        self.chance_base = self.space.offsets[CHANCE]
        self.names = self.space.names
        self.name_index = {n: i for i, n in enumerate(self.names)}
        self.identities = [(n, o) for o in (0, 1) for n in self.names]  # tensor order
        self.identity_index = {ident: i for i, ident in enumerate(self.identities)}
        # The deal, slot by slot: (owner, is a hand slot)
        self.deal_slots = []
        for owner in (0, 1):
            size = len(self.deck.ids_of(owner))
            self.deal_slots += [(owner, True)] * HAND_AT_DEAL + [(owner, False)] * (size - HAND_AT_DEAL)
        self.deck_names = [Counter(self.deck.cards[i].name for i in self.deck.ids_of(o)) for o in (0, 1)]
        self.hostage = [self.deck.cards[self.deck.hostage_id[o]].name for o in (0, 1)]
        self.deck_size = max(len(self.deck.ids_of(o)) for o in (0, 1))
        self.turn_limit = self.game.variants.turn_limit

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (_shared, (tuple(sorted(self.params.items())),))


@lru_cache(maxsize=16)
def _shared(items: tuple) -> _Shared:
    return _Shared(dict(items))


class _Core:
    """The native state; copied by the core's own clone."""

    __slots__ = ("state",)

    def __init__(self, state: NativeState):
        self.state = state

    def __deepcopy__(self, memo):
        return _Core(self.state.clone())

    def __reduce__(self):
        return (_core_from_raw, (self.state.game.deck_spec, self.state.game.variants.to_dict(), self.state.raw()))


def _core_from_raw(deck_spec: str, variants: dict, raw: dict) -> _Core:
    game = _shared(tuple(sorted({**variants, "deck": deck_spec}.items()))).game
    core = native_game(game).new_state()
    core.set_raw(raw)
    return _Core(NativeState(game, core))


class _Tracker:
    """The reference state (with its event log) and both players' knowledge, at some
    point of the game. Copies share it until one of them moves it on (copy on write)."""

    def __init__(self, state, knowledge, origin=None, actions=()):
        self.state = state
        self.knowledge = knowledge
        self.shared = False
        self.origin = origin  # the deal (setup names) it replays from; None for a sampled world
        self.actions = list(actions)  # applied since the origin

    def __deepcopy__(self, memo):
        self.shared = True
        return self

    def __reduce__(self):
        if self.origin is None:
            raise pyspiel.SpielError("a resampled world has no history to serialize")
        return (_tracker_replay, (self.state.game.deck_spec, self.state.game.variants.to_dict(), self.origin, self.actions))

    def own_copy(self) -> "_Tracker":
        return _Tracker(self.state.copy(), [_copy_knowledge(k) for k in self.knowledge], self.origin, self.actions)

    def advance(self, actions, space) -> None:
        # The native core checked these actions; the reference engine only follows.
        for a in actions:
            apply_legal(self.state, space.decode(a))
        self.actions += actions


def _tracker_replay(deck_spec: str, variants: dict, origin: dict, actions: list) -> _Tracker:
    sh = _shared(tuple(sorted({**variants, "deck": deck_spec}.items())))
    state = initial_state(sh.game, origin)
    tracker = _Tracker(state, [Knowledge.of(state, 0), Knowledge.of(state, 1)], origin)
    tracker.advance(list(actions), sh.space)
    return tracker


class _Scratch:
    """Per-state caches that a copy must not inherit."""

    __slots__ = ("views", "strings", "flat_views")

    def __init__(self):
        self.views = {}
        self.strings = {}  # (player, with knowledge) -> string
        self.flat_views = {}  # player -> the view as the native sampler reads it

    def __deepcopy__(self, memo):
        return _Scratch()

    def __reduce__(self):
        return (_Scratch, ())


def _copy_knowledge(k: Knowledge) -> Knowledge:
    n = Knowledge.__new__(Knowledge)
    n.__dict__.update(k.__dict__)
    n.known = set(k.known)
    n.group_of = dict(k.group_of)
    n.slot_excluded = dict(k.slot_excluded)
    n.groups = {g: Group(gr.owner, Counter(gr.known), Counter(gr.wildcards)) for g, gr in k.groups.items()}
    n.hand_parts = Counter(k.hand_parts)
    n.zone_of = dict(k.zone_of)
    n._unseen_leaving = set(k._unseen_leaving)
    return n


def _carry_over(k: Knowledge, f: dict[int, int]) -> Knowledge:
    """The same knowledge about another world, whose card f[c] stands where c stood."""
    n = _copy_knowledge(k)
    n.known = {f[c] for c in k.known}
    n.group_of = {f[c]: g for c, g in k.group_of.items()}
    n.slot_excluded = {f[c]: e for c, e in k.slot_excluded.items()}
    n.zone_of = {f[c]: z for c, z in k.zone_of.items()}
    n._unseen_leaving = {f[c] for c in k._unseen_leaving}
    n.events_seen = 0
    return n


def _card_map(real, world, deck) -> dict[int, int]:
    """Which card of `world` stands where each card of `real` stands. Field slots,
    piles and deck positions map one to one; in a hand (a set) the cards of the same
    name and owner pair up first, so that every card a player knows there keeps its
    name, and the rest (hidden in one of the worlds) pair up in order."""

    def key(c):
        card = deck.cards[c]
        return card.name, card.owner

    f: dict[int, int] = {}
    for p in (0, 1):
        for c in range(COLUMNS):
            for x, y in zip(real.columns[p][c], world.columns[p][c]):
                if x != FIGURE:
                    f[x] = y
        f.update(zip(real.discards[p], world.discards[p]))
        f.update(zip(real.decks[p], world.decks[p]))
    for a, b in [(real.hands[0], world.hands[0]), (real.hands[1], world.hands[1]), (real.limbo, world.limbo)]:
        pool: dict = {}
        for y in b:
            pool.setdefault(key(y), []).append(y)
        rest = []
        for x in a:
            mates = pool.get(key(x))
            if mates:
                f[x] = mates.pop(0)
            else:
                rest.append(x)
        f.update(zip(rest, sorted(y for mates in pool.values() for y in mates)))
    if len(f) != len(deck.cards):
        raise RuntimeError("the resampled world does not hold the same places as the game")
    return f


class HeraZeusGame(pyspiel.Game):
    """Hera and Zeus for OpenSpiel; parameters are the variants of docs/rules.md R-VAR."""

    def __init__(self, params=None):
        params = {**DEFAULT_PARAMS, **(params or {})}
        self.shared = _shared(tuple(sorted(params.items())))
        sh = self.shared
        info = pyspiel.GameInfo(
            num_distinct_actions=sh.space.size,
            max_chance_outcomes=sh.space.size,  # chance outcomes are ids of the `chance` block
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=2 + sh.turn_limit * _DECISIONS_PER_TURN,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self):
        return HeraZeusState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return HeraZeusObserver(self.shared, knowledge=perfect_recall)


class HeraZeusState(pyspiel.State):
    """A game in progress. The deal is `_deal` (chance ids so far) until it is
    complete; then `_core` plays and `_tracker` + `_lag` follow it lazily."""

    def __init__(self, game: HeraZeusGame):
        super().__init__(game)
        self._sh = game.shared
        self._deal: list[int] | None = []
        self._core: _Core | None = None
        self._tracker: _Tracker | None = None
        self._lag: list[int] = []
        self._scratch = _Scratch()

    # ----- the deal ---------------------------------------------------------------------
    def _deal_outcomes(self) -> list[tuple[int, float]]:
        sh = self._sh
        owner, hand = sh.deal_slots[len(self._deal)]
        left = Counter(sh.deck_names[owner])
        for a, (o, _) in zip(self._deal, sh.deal_slots):
            if o == owner:
                left[sh.names[(a - sh.chance_base) // 3]] -= 1
        if hand:
            left[sh.hostage[owner]] = 0
        total = sum(left.values())
        return sorted((sh.chance_base + 3 * sh.name_index[n], k / total) for n, k in left.items() if k > 0)

    def _finish_deal(self) -> None:
        sh = self._sh
        setup = {p: {"hand": [], "deck": []} for p in PLAYERS}
        for a, (owner, hand) in zip(self._deal, sh.deal_slots):
            setup[PLAYERS[owner]]["hand" if hand else "deck"].append(sh.names[(a - sh.chance_base) // 3])
        state = initial_state(sh.game, setup)
        self._core = _Core(NativeState.from_state(state))
        self._tracker = _Tracker(state, [Knowledge.of(state, 0), Knowledge.of(state, 1)], origin=setup)
        self._deal = None

    # ----- OpenSpiel API -----------------------------------------------------------------
    def current_player(self):
        if self._deal is not None:
            return pyspiel.PlayerId.CHANCE
        core = self._core.state.core
        if core.is_over:
            return pyspiel.PlayerId.TERMINAL
        if core.is_chance:
            return pyspiel.PlayerId.CHANCE
        return core.to_move

    def _legal_actions(self, player):
        return sorted(self._core.state.core.legal_actions())

    def chance_outcomes(self):
        if self._deal is not None:
            return self._deal_outcomes()
        outcomes = self._core.state.core.chance_outcomes()
        total = sum(n for _, n in outcomes)
        return sorted((a, n / total) for a, n in outcomes)

    def _apply_action(self, action):
        self._scratch = _Scratch()
        if self._deal is not None:
            if action not in dict(self._deal_outcomes()):
                raise pyspiel.SpielError(f"{action} is not a possible card of the deal here")
            self._deal.append(int(action))
            if len(self._deal) == len(self._sh.deal_slots):
                self._finish_deal()
            return
        try:
            self._core.state.core.apply(int(action), True)
        except ValueError as exc:
            raise pyspiel.SpielError(str(exc)) from None
        self._lag.append(int(action))

    def _action_to_string(self, player, action):
        if self._deal is not None and player == pyspiel.PlayerId.CHANCE:
            owner, hand = self._sh.deal_slots[len(self._deal)]
            where = "hand" if hand else "deck"
            return f"deal {self._sh.names[(action - self._sh.chance_base) // 3]} to {PLAYERS[owner]}'s {where}"
        return self._sh.core_game.action_text(int(action))

    def is_terminal(self):
        return self._deal is None and self._core.state.core.is_over

    def returns(self):
        if not self.is_terminal():
            return [0.0, 0.0]
        winner = self._core.state.core.winner
        if winner is None or winner < 0:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]

    def __str__(self):
        if self._deal is not None:
            return "deal: " + " ".join(self._action_to_string(pyspiel.PlayerId.CHANCE, a).split()[1] for a in self._deal)
        return json.dumps(state_to_json(self._reference()), separators=(",", ":"))

    # ----- views -------------------------------------------------------------------------
    def _reference(self):
        """The reference state, brought up to date (copied first if shared)."""
        tracker = self._tracker
        if self._lag:
            if tracker.shared:
                tracker = self._tracker = tracker.own_copy()
            tracker.advance(self._lag, self._sh.space)
            self._lag = []
        return tracker.state

    def view(self, player: int):
        """The player's information set (hzai.games.hera_zeus.belief.View); None during the deal."""
        if self._deal is not None:
            return None
        cached = self._scratch.views.get(player)
        if cached is None:
            state = self._reference()
            knowledge = self._tracker.knowledge[player].update(state)
            cached = self._scratch.views[player] = view_of(state, player, knowledge)
        return cached

    def dealt_hand(self, player: int) -> list[str]:
        """During the deal: the player's own hand cards dealt so far."""
        sh = self._sh
        return sorted(
            sh.names[(a - sh.chance_base) // 3]
            for a, (owner, hand) in zip(self._deal or [], sh.deal_slots)
            if owner == player and hand
        )

    # ----- resampling --------------------------------------------------------------------
    def resample_from_infostate(self, player_id, probability_sampler):
        """A state drawn from `player_id`'s information set: another world that player
        cannot tell from this one (hzai.games.hera_zeus.belief.Determinizer), with both players'
        knowledge carried over to it, so that play can go on in it."""
        seed = int(probability_sampler() * 2.0**53)
        game = self.get_game()
        if self._deal is not None:
            return self._resample_deal(player_id, seed, game)
        sh = self._sh
        flat = self._scratch.flat_views.get(player_id)
        if flat is None:
            flat = self._scratch.flat_views[player_id] = flat_view(self.view(player_id), sh.game)
        # The native sampler draws what Determinizer(view).sample(seed) draws, call for
        # call (tests/native), at a fraction of the cost.
        world_core = NativeState(sh.game, _native.sample_view(sh.core_game, flat, seed))
        world = world_core.to_state()
        real = self._reference()
        f = _card_map(real, world, sh.deck)
        knowledge = [_carry_over(self._tracker.knowledge[p].update(real), f) for p in (0, 1)]
        other = game.new_initial_state()
        other._deal = None
        other._core = _Core(world_core)
        other._tracker = _Tracker(world, knowledge)
        return other

    def _resample_deal(self, player_id, seed, game):
        """During the deal a player knows only the own hand cards dealt so far. They
        come before any other card of that owner, so the rest can be dealt again in
        order from what is left."""
        sh = self._sh
        rng = np.random.default_rng(seed)
        other = game.new_initial_state()
        for i, a in enumerate(self._deal):
            owner, hand = sh.deal_slots[i]
            if owner == player_id and hand:
                other._deal.append(a)
                continue
            actions, probs = zip(*other._deal_outcomes())
            other._deal.append(int(rng.choice(actions, p=probs)))
        return other


# ----- observations ------------------------------------------------------------------------
class HeraZeusObserver:
    """Strings and tensors of a player's view. With `knowledge` (the information
    state) they include the knowledge model's groups; without it (the observation)
    only what lies on the table and in the own hand."""

    def __init__(self, shared: _Shared, knowledge: bool):
        self.sh = shared
        self.knowledge = knowledge
        k = len(shared.identities)
        pieces = [
            ("observer", (2,)),
            ("to_move", (2,)),
            ("turn_player", (2,)),
            ("phase", (4,)),  # deal, setup, play, over
            ("ap_left", (5,)),
            ("ap_spent", (5,)),
            ("turn", (1,)),
            # per slot: the card's identity, figure, hidden, face up, hostage excluded
            ("field", (2, COLUMNS, COLUMN_DEPTH, k + 4)),
            ("hand_known", (2, k)),
            ("hand_hidden", (2,)),
            ("deck_size", (2,)),
            ("discard", (2, k)),
            ("discard_top", (2, k)),
            ("pending", (3,)),  # none, place, top
            ("place_card", (k,)),
        ]
        if knowledge:
            pieces += [("group_known", (k,)), ("group_wildcards", (1,))]
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {}
        index = 0
        for name, shape in pieces:
            n = int(np.prod(shape))
            self.dict[name] = self.tensor[index : index + n].reshape(shape)
            index += n

    def set_from(self, state: HeraZeusState, player: int) -> None:
        self.tensor.fill(0)
        d, sh = self.dict, self.sh
        d["observer"][player] = 1
        view = state.view(player)
        if view is None:
            d["phase"][0] = 1
            for name in state.dealt_hand(player):
                d["hand_known"][player, sh.identity_index[(name, player)]] += 1
            return
        ident = sh.identity_index
        public = view.public
        if public["to_move"] is not None:
            d["to_move"][PLAYERS.index(public["to_move"])] = 1
        d["turn_player"][PLAYERS.index(public["turn_player"])] = 1
        d["phase"][1 + ("setup", "play", "over").index(public["phase"])] = 1
        d["ap_left"][min(4, public["ap_left"])] = 1
        d["ap_spent"][min(4, public["ap_spent"])] = 1
        d["turn"][0] = public["turn"] / sh.turn_limit
        k = len(sh.identities)
        for p in (0, 1):
            for c, column in enumerate(view.columns[p]):
                for r, s in enumerate(column):
                    cell = d["field"][p, c, r]
                    if s.figure:
                        cell[k] = 1
                    elif s.card is not None:
                        cell[ident[s.card]] = 1
                        cell[k + 2] = float(s.face_up)
                    else:
                        cell[k + 1] = 1
                        cell[k + 3] = float(sh.hostage[p] in s.excluded)
            for s in view.hands[p]:
                if s.card is not None:
                    d["hand_known"][p, ident[s.card]] += 1
                else:
                    d["hand_hidden"][p] += 1 / HAND_LIMIT
            d["deck_size"][p] = view.deck_sizes[p] / sh.deck_size
            for card in view.discards[p]:
                d["discard"][p, ident[card]] += 1
            if view.discards[p]:
                d["discard_top"][p, ident[view.discards[p][-1]]] = 1
        if not view.pending:
            d["pending"][0] = 1
        else:
            entry = view.pending[0]
            d["pending"][1 if entry["decision"] == "place" else 2] = 1
            if "card" in entry:
                d["place_card"][ident[(entry["card"]["card"], PLAYERS.index(entry["card"]["owner"]))]] = 1
        if self.knowledge:
            for g in view.groups:
                for name, n in g.known.items():
                    d["group_known"][ident[(name, g.owner)]] += n
                d["group_wildcards"][0] += sum(n for n, _ in g.wildcards)

    def string_from(self, state: HeraZeusState, player: int) -> str:
        # Search asks for the same string several times per state: keep it until the
        # state moves on.
        key = (player, self.knowledge)
        text = state._scratch.strings.get(key)
        if text is None:
            view = state.view(player)
            if view is None:
                text = f"{PLAYERS[player]} dealt: " + " ".join(state.dealt_hand(player))
            else:
                data = view.to_json()
                if not self.knowledge:
                    data = _table_only(data)
                text = json.dumps(data, separators=(",", ":"))
            state._scratch.strings[key] = text
        return text


def _table_only(data: dict) -> dict:
    """A view's JSON without the knowledge model: hidden cards are just hidden."""
    data = dict(data)
    data.pop("groups", None)

    def slot(s: dict) -> dict:
        if "group" in s:
            return {"face_up": False, "hidden": True}
        return s

    sides = {}
    for player, side in data["sides"].items():
        side = dict(side)
        side["columns"] = [[slot(s) for s in column] for column in side["columns"]]
        side["hand"] = [slot(s) for s in side["hand"]]
        sides[player] = side
    data["sides"] = sides
    return data


def load_game(**params) -> HeraZeusGame:
    """The registered game with these variants (see DEFAULT_PARAMS)."""
    return pyspiel.load_game(GAME_NAME, params)


pyspiel.register_game(_GAME_TYPE, HeraZeusGame)
