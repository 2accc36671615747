"""LegendsState: hzai.core's State over a Table, and the referee's state JSON
(docs/legends.md, "State JSON"). The rules are reached through the game object
(`game.rules`), never imported here; what a seat knows (`view`, view.py) is the search
support's (hzai.core.State.view asks `game.search.view_of`)."""

from __future__ import annotations

from hzai.core import State
from hzai.games.legends.table import Table


class LegendsState(State):
    """A full position. Every seat gets the team's result: 1 won, 0 lost (L-END-6)."""

    __slots__ = ("game", "t")

    def __init__(self, game, table: Table):
        self.game, self.t = game, table

    @property
    def current_seat(self) -> int | None:
        t = self.t
        return None if t.result is not None or t.pending == "chance" else t.actor

    @property
    def is_chance(self) -> bool:
        return self.t.result is None and self.t.pending == "chance"

    @property
    def is_terminal(self) -> bool:
        return self.t.result is not None

    @property
    def turn(self) -> int:
        return self.t.turn

    @property
    def reason(self) -> str | None:
        return self.t.reason

    def legal_moves(self) -> list:
        return list(self.game.rules.legal(self.game, self.t))

    def apply(self, move) -> None:
        self.game.rules.apply(self.game, self.t, move)

    def chance_outcomes(self) -> list:
        return self.game.rules.chance_outcomes(self.game, self.t)

    def returns(self) -> tuple[float, ...]:
        won = 1.0 if self.t.result == "won" else 0.0
        return (won,) * self.game.n

    def clone(self) -> LegendsState:
        return LegendsState(self.game, self.t.copy())

    def to_json(self) -> dict:
        return state_to_json(self)


def monster_json(game, m, card_of) -> dict:
    """One monster as the state JSON shows it; `card_of(instance, face, seat)` names a
    played card (a view hides the faces its seat may not know)."""
    data = game.data
    names = data.kinds
    played = []
    for inst, attr, face, by in m.played:
        card = card_of(inst, face, by)
        played.append({"card": card, "as": None if attr < 0 else names[attr], "face": face, "by": f"p{by + 1}"})
    requires = sorted(names[a] for a, n in enumerate(m.req) for _ in range(n))
    return {"id": f"m{m.id}", "cards": [data.monsters[c][0] for c in m.cards], "requires": requires, "size": m.size,
            "final": m.final, "status": "defeated" if m.defeated else "in_play", "played": played}


def state_to_json(state: LegendsState) -> dict:
    """The referee's picture: every card by name, keys as docs/legends.md lists them."""
    game, t = state.game, state.t
    names = game.data.kinds

    def name(i: int) -> str:
        return names[t.kind[i]]

    monsters = [monster_json(game, m, lambda inst, face, by: name(inst)) for m in t.monsters]
    return {
        "game": "legends",
        "result": t.result,
        "reason": t.reason,
        "to_move": None if state.current_seat is None else f"p{state.current_seat + 1}",
        "turn": t.turn,
        "pending": None if t.result is not None else t.pending,
        "mission": game.mission.id,
        "difficulty": game.difficulty,
        "normals_entered": t.normals_entered,
        "normals_defeated": t.normals_defeated,
        "monsters": monsters,
        "monster_deck": [game.data.monsters[c][0] for c in t.monster_deck],
        "seats": {f"p{s + 1}": seat_json(game, t, s, sorted(name(i) for i in t.hands[s])) for s in range(game.n)},
        "draw_pile": [name(i) for i in reversed(t.draw)],
        "discard_pile": [{"card": name(i), "by": f"p{by + 1}"} for i, by in t.discard],
        "set_aside_di": len(t.aside),
        "oracle_revealed": [name(i) for i in t.oracle],
    }


def seat_json(game, t: Table, s: int, hand) -> dict:
    d = t.disc[s]
    return {"hero": game.heroes[s], "disc": None if d is None else f"m{d + 1}",
            "stranded": d is not None and t.monsters[d].defeated, "broken": t.broken[s], "hand": hand}
