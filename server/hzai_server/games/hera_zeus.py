"""Hera and Zeus in the structured messages of hera_zeus.proto: moves, records, views,
belief reports and match facts. Seats are indices (0 hera, 1 zeus)."""

from __future__ import annotations

from hzai.games.hera_zeus.cards import PLAYERS
from hzai.games.hera_zeus.rules import moves as mv
from hzai.games.hera_zeus.rules.record import RECORD_FORMAT
from hzai_proto.v3 import hera_zeus_pb2 as pb

from hzai_server.errors import invalid

RECORD = pb.HeraZeusRecord  # the record message Position.record must hold for this game


def _seat(name: str | int | None) -> int | None:
    if name is None:
        return None
    return name if isinstance(name, int) else PLAYERS.index(name)


def _card(ref) -> pb.HeraZeusCard:
    out = pb.HeraZeusCard(name=ref.name)
    if ref.owner is not None:
        out.owner = _seat(ref.owner)
    return out


def variants_to_proto(variants) -> pb.HeraZeusVariants:
    return pb.HeraZeusVariants(**variants.to_dict())


def move_detail(game, move) -> pb.HeraZeusMove:
    out = pb.HeraZeusMove(kind=move.kind)
    if move.card is not None:
        out.card.CopyFrom(_card(move.card))
    for name in ("col", "row", "to_col", "to_row"):
        value = getattr(move, name)
        if value is not None:
            setattr(out, name, value)
    if move.setup is not None:
        out.setup.extend(pb.HeraZeusCard() if ref is None else _card(ref) for ref in move.setup)
    return out


def redacted_move_detail(game, move) -> pb.HeraZeusMove:
    """A face-down play keeps its column and row; a setup its columns, names hidden."""
    out = pb.HeraZeusMove(kind=move.kind)
    if move.kind == mv.PLAY:
        out.col, out.row = move.col, move.row
    elif move.kind == mv.SETUP:
        out.setup.extend(pb.HeraZeusCard() for _ in move.setup or ())
    return out


def record_data(message: pb.HeraZeusRecord, field: str) -> dict:
    """The record JSON of a HeraZeusRecord message (the game checks the values)."""
    data: dict = {"format": RECORD_FORMAT, "moves": list(message.moves)}
    variants = {name: getattr(message.variants, name) for name in ("first_player", "figure_removal", "pythia_defence")
                if getattr(message.variants, name)}
    if message.variants.turn_limit:
        variants["turn_limit"] = message.variants.turn_limit
    if variants:
        data["variants"] = variants
    if message.deck:
        data["deck"] = message.deck
    start = message.WhichOneof("start")
    if start == "seed":
        data["seed"] = message.seed
    elif start == "setup":
        data["setup"] = {player: {"hand": list(side.hand), "deck": list(side.deck)}
                         for player, side in (("hera", message.setup.hera), ("zeus", message.setup.zeus))}
    else:
        raise invalid(f"{field}.start", "give setup (the deal) or seed")
    return data


def _card_json(d: dict) -> pb.HeraZeusCard:
    return pb.HeraZeusCard(name=d["card"], owner=_seat(d["owner"]))


def _slot_json(d: dict) -> pb.HeraZeusSlot:
    if d.get("card") == "figure":
        return pb.HeraZeusSlot(figure=True)
    slot = pb.HeraZeusSlot(face_up=bool(d.get("face_up", False)), excluded=d.get("excluded", []))
    if "group" in d:
        slot.group = d["group"]
    else:
        slot.card.CopyFrom(_card_json(d))
    return slot


def view_detail(game, view) -> pb.HeraZeusView:
    d = view.to_json()
    out = pb.HeraZeusView(variants=variants_to_proto(view.variants), deck=d["deck"], phase=d["phase"],
                          turn=d["turn"], turn_seat=_seat(d["turn_player"]) or 0, ap_left=d["ap_left"],
                          ap_spent=d["ap_spent"], reason=d["reason"] or "")
    for player in PLAYERS:
        side, target = d["sides"][player], out.sides.add()
        for column in side["columns"]:
            target.columns.add().slots.extend(_slot_json(s) for s in column)
        target.hand.extend(_slot_json(s) for s in side["hand"])
        target.deck_size = side["deck_size"]
        target.discard.extend(_card_json(c) for c in side["discard"])
    for g in d["groups"]:
        group = out.groups.add(owner=_seat(g["owner"]))
        group.known.update(g["known"])
        for w in g["wildcards"]:
            group.wildcards.add(count=w["count"], excluded=w["excluded"])
    for p in d["pending"]:
        pending = out.pending.add(decision=p["decision"])
        if p["player"] is not None:
            pending.seat = _seat(p["player"])
        if "card" in p:
            pending.card.CopyFrom(_card_json(p["card"]))
    return out


def belief_detail(game, report: dict) -> pb.HeraZeusBelief:
    out = pb.HeraZeusBelief(opponent=_seat(report["opponent"]), hostage=report["hostage"]["card"],
                            hand_size=report["hand"]["size"])
    for loc in report["hostage"]["locations"]:
        item = out.hostage_locations.add(where=loc["where"], probability=loc["probability"],
                                         inferred=loc["inferred"])
        if loc["exact"] is not None:
            item.exact = loc["exact"]
    for slot in report["slots"]:
        item = out.slots.add(slot=slot["slot"])
        item.cards.update({c["card"]: c["probability"] for c in slot["cards"]})
        item.inferred_cards.update({c["card"]: c["inferred"] for c in slot["cards"]})
    out.hand_expected.update(report["hand"]["expected"])
    inference = report["inference"]
    out.inference.CopyFrom(pb.HeraZeusInference(model=inference["model"], temperature=inference["temperature"],
                                                evidence=inference["evidence"],
                                                effective_samples=inference["effective_samples"]))
    return out


def status_detail(game, state) -> pb.HeraZeusStatus:
    return pb.HeraZeusStatus(phase=state.phase, turn=state.turn, ap_left=state.ap)
