"""Legends' typed messages read back into the text and JSON they must agree with, written
here from the notation and the view JSON's documented keys (docs/legends.md), not from the
server's converter."""

from __future__ import annotations

from hzai_client.messages import detail


def move_text(m) -> str:
    """A LegendsMove in the notation."""
    cards, order = ",".join(m.cards), ",".join(m.order)
    return {
        "place": lambda: f"place m{m.monster}",
        "fight": lambda: f"fight {m.card}",
        "fight_di": lambda: f"fight di {m.attr}",
        "fight_slay": lambda: "fight di-slay",
        "fight_ability": lambda: f"fight ability {m.card}",
        "move": lambda: f"move m{m.monster}" + (f" {m.card}" if m.card else ""),
        "recover": lambda: f"recover {m.count}",
        "discard": lambda: f"discard {cards}" + (f" order {order}" if order else ""),
        "support": lambda: f"support p{m.seat + 1} {cards}",
        "oracle": lambda: "oracle",
        "chance_order": lambda: f"chance order {cards}",
    }[m.kind]()


def checked_move(move):
    """The LegendsMove of a Move, checked against its text: the same move, and in a
    redacted one every card hidden."""
    assert move.detail.TypeName() == "hzai.v3.LegendsMove", move
    typed = detail(move)
    assert move_text(typed) == move.text, (move.text, typed)
    if move.redacted:
        assert typed.card in ("", "?") and typed.attr == ""
        assert all(c == "?" for c in [*typed.cards, *typed.order]), typed
    return typed


def view_json(view) -> dict:
    """A View's LegendsView as the game's view JSON (`hzai view --seat pX`)."""
    assert view.detail.TypeName() == "hzai.v3.LegendsView", view.detail.type_url
    v = detail(view)
    seat = lambda i: f"p{i + 1}"  # noqa: E731
    seats = {}
    for i, s in enumerate(v.seats):
        entry = {"hero": s.hero, "disc": f"m{s.disc}" if s.HasField("disc") else None, "stranded": s.stranded,
                 "broken": s.broken}
        if i == view.seat:
            assert s.hand_size == len(s.hand) and not s.known_in_hand
            entry["hand"] = list(s.hand)
        else:
            assert not s.hand, f"seat {view.seat} is sent the hand of seat {i}"
            entry["hand"] = s.hand_size
            entry["known_in_hand"] = list(s.known_in_hand)
        seats[seat(i)] = entry
    return {
        "game": "legends", "seat": seat(view.seat), "result": v.result or None, "reason": v.reason or None,
        "to_move": seat(view.to_move) if view.HasField("to_move") else None, "turn": v.turn,
        "pending": v.pending or None, "mission": v.mission, "difficulty": v.difficulty,
        "normals_entered": v.normals_entered, "normals_defeated": v.normals_defeated,
        "monsters": [{"id": f"m{m.id}", "cards": list(m.cards), "requires": list(m.requires), "size": m.size,
                      "final": m.final, "status": "defeated" if m.defeated else "in_play",
                      "played": [{"card": p.card, "as": p.counts_as or None, "face": p.face, "by": seat(p.by)}
                                 for p in m.played]} for m in v.monsters],
        "monster_deck": v.monster_deck, "monster_deck_holds": list(v.monster_deck_holds), "seats": seats,
        "draw_pile": [p.card if p.WhichOneof("place") == "card" else p.unknown for p in v.draw_pile],
        "draw_pile_size": v.draw_pile_size,
        "discard_pile": [{"card": c.card, "by": seat(c.by)} for c in v.discard_pile],
        "set_aside_di": v.set_aside_di, "oracle_revealed": list(v.oracle_revealed), "moves": list(v.moves),
    }


def check_status(status, state) -> None:
    """A MatchStatus's LegendsStatus against the referee's state: the public facts only."""
    assert status.detail.TypeName() == "hzai.v3.LegendsStatus"
    s, t = detail(status), state.t
    assert (s.mission, s.turn, s.normals_entered, s.normals_defeated) == (
        state.game.mission.id, t.turn, t.normals_entered, t.normals_defeated)
    assert s.pending == ("" if t.result is not None else t.pending)
    assert s.monsters_in_play == sum(1 for m in t.monsters if not m.defeated)
    assert s.draw_pile_size == len(t.draw)
