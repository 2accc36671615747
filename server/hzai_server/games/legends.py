"""Legends of Hellas in the typed messages of legends.proto: moves, records, views and
match facts. Seats are indices (p1 is 0); monsters their 1-based ids (m1 is 1). The
messages are built from the game's own move values and JSON, so they hold what the
text and JSON hold and nothing else; Legends has no belief report, hence no
belief_detail."""

from __future__ import annotations

from hzai.games.legends import moves as mv
from hzai.games.legends.game import FORMAT
from hzai_proto.v3 import legends_pb2 as pb

from hzai_server.errors import invalid

RECORD = pb.LegendsRecord  # the record message Position.record must hold for this game

_KINDS = {mv.Place: "place", mv.FightCard: "fight", mv.FightWild: "fight_di", mv.FightSlay: "fight_slay",
          mv.FightAbility: "fight_ability", mv.MoveTo: "move", mv.Recover: "recover", mv.Discard: "discard",
          mv.Support: "support", mv.Oracle: "oracle", mv.ChanceOrder: "chance_order"}


def _seat(name: str) -> int:
    """A seat name of the notation (p1..pN) as its index."""
    return int(name[1:]) - 1


def _monster(name: str) -> int:
    return int(name[1:])  # m3 -> 3


def move_detail(game, move) -> pb.LegendsMove:
    out = pb.LegendsMove(kind=_KINDS[type(move)])
    t = type(move)
    if t in (mv.Place, mv.MoveTo):
        out.monster = move.monster
    if t in (mv.FightCard, mv.FightAbility) or (t is mv.MoveTo and move.card is not None):
        out.card = move.card
    if t is mv.FightWild:
        out.attr = move.attr
    if t is mv.Recover:
        out.count = move.k
    if t in (mv.Discard, mv.Support, mv.ChanceOrder):
        out.cards.extend(move.cards)
    if t is mv.Discard:
        out.order.extend(move.order)
    if t is mv.Support:
        out.seat = move.seat
    return out


def redacted_move_detail(game, move) -> pb.LegendsMove:
    """A move the seat saw hidden: its kind, monster, receiver and counts; every card `?`
    (what the seat's redacted text shows, docs/legends.md "What a seat sees")."""
    out = move_detail(game, move)
    if out.card:
        out.card = mv.HIDDEN
    if out.attr:
        out.attr = mv.HIDDEN
    for field in (out.cards, out.order):
        hidden = [mv.HIDDEN] * len(field)
        del field[:]
        field.extend(hidden)
    return out


def record_data(message: pb.LegendsRecord, field: str) -> dict:
    """The `legends-record/1` JSON of a LegendsRecord message (the game checks the values)."""
    data: dict = {"format": FORMAT, "mission": message.mission, "heroes": list(message.heroes),
                  "moves": list(message.moves)}
    for name in ("difficulty", "first_player", "data"):
        if getattr(message, name):
            data[name] = getattr(message, name)
    variants = {}
    if message.variants.relocation:
        variants["relocation"] = message.variants.relocation
    if message.variants.turn_limit:
        variants["turn_limit"] = message.variants.turn_limit
    if variants:
        data["variants"] = variants
    start = message.WhichOneof("start")
    if start == "seed":
        data["seed"] = message.seed
    elif start == "setup":
        data["setup"] = {"monster_deck": list(message.setup.monster_deck),
                         "hands": {mv.seat_name(s): list(hand.cards) for s, hand in enumerate(message.setup.hands)},
                         "draw_pile": list(message.setup.draw_pile)}
    else:
        raise invalid(f"{field}.start", "give setup (the deal) or seed")
    return data


def _played(p: dict) -> pb.LegendsPlayed:
    return pb.LegendsPlayed(card=p["card"], counts_as=p["as"] or "", face=p["face"], by=_seat(p["by"]))


def view_detail(game, view) -> pb.LegendsView:
    """The seat's view JSON (LegendsView.to_json) as a message: the same facts, no others."""
    d = view.to_json()
    out = pb.LegendsView(mission=d["mission"], difficulty=d["difficulty"], turn=d["turn"], pending=d["pending"] or "",
                         result=d["result"] or "", reason=d["reason"] or "", normals_entered=d["normals_entered"],
                         normals_defeated=d["normals_defeated"], monster_deck=d["monster_deck"],
                         monster_deck_holds=d["monster_deck_holds"], draw_pile_size=d["draw_pile_size"],
                         set_aside_di=d["set_aside_di"], oracle_revealed=d["oracle_revealed"], moves=d["moves"])
    for m in d["monsters"]:
        out.monsters.add(id=_monster(m["id"]), cards=m["cards"], requires=m["requires"], size=m["size"],
                         final=m["final"], defeated=m["status"] == "defeated",
                         played=[_played(p) for p in m["played"]])
    for name in game.seats:
        s = d["seats"][name]
        seat = out.seats.add(hero=s["hero"], stranded=s["stranded"], broken=s["broken"])
        if s["disc"] is not None:
            seat.disc = _monster(s["disc"])
        if isinstance(s["hand"], list):  # the viewing seat's own hand
            seat.hand.extend(s["hand"])
            seat.hand_size = len(s["hand"])
        else:  # another seat's: a count, and what the viewer knows of it
            seat.hand_size = s["hand"]
            seat.known_in_hand.extend(s.get("known_in_hand", []))
    for place in d["draw_pile"]:
        out.draw_pile.add(**({"unknown": place} if isinstance(place, int) else {"card": place}))
    for c in d["discard_pile"]:
        out.discard_pile.add(card=c["card"], by=_seat(c["by"]))
    return out


def status_detail(game, state) -> pb.LegendsStatus:
    """Public facts of the table (nothing of a hand or of the piles' order)."""
    t = state.t
    return pb.LegendsStatus(mission=game.mission.id, turn=t.turn, pending="" if t.result is not None else t.pending,
                            normals_entered=t.normals_entered, normals_defeated=t.normals_defeated,
                            monsters_in_play=sum(1 for m in t.monsters if not m.defeated), draw_pile_size=len(t.draw))
