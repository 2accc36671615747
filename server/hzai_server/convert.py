"""The one place where protobuf messages meet library objects.

Everything from a request is checked here and rejected with INVALID_ARGUMENT naming
the field (and the move index for records), so the engine only ever sees well-formed
input and the servicers only ever see library objects.
"""

from __future__ import annotations

import json
import math

import grpc

from hzai.games.hera_zeus.belief import View
from hzai.games.hera_zeus.cards import PLAYERS
from hzai.games.hera_zeus.rules import CardRef, Move, NotationError, Record, RecordError, parse_move, state_to_json
from hzai.games.hera_zeus.rules import moves as mv
from hzai.games.hera_zeus.rules.record import move_problem
from hzai.games.hera_zeus.rules.replay_cache import ReplayCache, ReplayStopped
from hzai.search import Analysis, Limits, LimitsError
from hzai_proto.v1 import bot_pb2, game_pb2, match_pb2

from hzai_server.errors import ApiError, invalid, quoted

# Decks a client may name. A deck is a file path to the library; a server must never
# open paths chosen by a caller.
SERVER_DECKS = ("classic",)

_PLAYER_ENUM = {None: game_pb2.PLAYER_UNSPECIFIED, 0: game_pb2.PLAYER_HERA, 1: game_pb2.PLAYER_ZEUS}


# ----- players -------------------------------------------------------------------------
def player_to_proto(player: int | str | None) -> int:
    if isinstance(player, str):
        player = PLAYERS.index(player)
    return _PLAYER_ENUM[player]


def player_from_proto(value: int, field: str) -> int:
    if value == game_pb2.PLAYER_HERA:
        return 0
    if value == game_pb2.PLAYER_ZEUS:
        return 1
    raise invalid(field, "give PLAYER_HERA or PLAYER_ZEUS")


# ----- variants and records ------------------------------------------------------------
def variants_from_proto(variants: game_pb2.Variants) -> dict:
    """Only the fields that are set: the engine supplies the defaults and checks values."""
    out: dict = {}
    for name in ("first_player", "figure_removal", "pythia_defence"):
        value = getattr(variants, name)
        if value:
            out[name] = value
    if variants.turn_limit:
        out["turn_limit"] = variants.turn_limit
    return out


def variants_to_proto(variants) -> game_pb2.Variants:
    d = variants.to_dict()
    return game_pb2.Variants(
        first_player=d["first_player"],
        figure_removal=d["figure_removal"],
        pythia_defence=d["pythia_defence"],
        turn_limit=d["turn_limit"],
    )


def _check_deck(deck, field: str) -> None:
    if deck not in SERVER_DECKS:
        raise invalid(field, f"this server plays the {', '.join(map(repr, SERVER_DECKS))} deck, not {quoted(deck)}")


def _record_from_dict(data, field: str) -> Record:
    if isinstance(data, dict) and "deck" in data:
        if not isinstance(data["deck"], str):
            raise invalid(f"{field}.deck", f"must be a deck name, not {quoted(data['deck'])}")
        _check_deck(data["deck"], f"{field}.deck")
    try:
        return Record.from_json(data)
    except RecordError as exc:
        raise _record_error(exc, field) from None


def _record_error(exc: RecordError, field: str):
    message = str(exc)
    if exc.index is not None:
        return invalid(f"{field}.moves[{exc.index}]", message)
    if "variant" in message.split(":")[0]:
        return invalid(f"{field}.variants", message)
    return invalid(field, message)


def record_from_proto(record: game_pb2.GameRecord, field: str) -> Record:
    data: dict = {"format": "hzai-record/1", "moves": list(record.moves)}
    variants = variants_from_proto(record.variants)
    if variants:
        data["variants"] = variants
    if record.deck:
        data["deck"] = record.deck
    start = record.WhichOneof("start")
    if start == "seed":
        data["seed"] = record.seed
    elif start == "setup":
        data["setup"] = {
            player: {"hand": list(side.hand), "deck": list(side.deck)}
            for player, side in (("hera", record.setup.hera), ("zeus", record.setup.zeus))
        }
    else:
        raise invalid(f"{field}.start", "give setup (the deal) or seed")
    return _record_from_dict(data, field)


def record_from_json_text(text: str, field: str) -> Record:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise invalid(field, f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise invalid(field, "not valid JSON here: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer longer than Python converts
        raise invalid(field, f"not valid JSON here: {quoted(str(exc))}") from None
    return _record_from_dict(data, field)


def record_to_proto(record: Record) -> game_pb2.GameRecord:
    out = game_pb2.GameRecord(variants=variants_to_proto(record.game.variants), deck=record.game.deck_spec)
    if record.setup is not None:
        for player in PLAYERS:
            side = getattr(out.setup, player)
            side.hand.extend(record.setup[player]["hand"])
            side.deck.extend(record.setup[player]["deck"])
    else:
        out.seed = record.seed
    out.moves.extend(record.moves)
    return out


def replay(record: Record, field: str, cache=None, should_stop=None):
    """The state after the record; a bad move is named by its index. With a
    ReplayCache, only the moves added to a recently replayed prefix are played.
    `should_stop` (the call's deadline or cancellation) is polled every few moves."""
    try:
        return cache.replay(record, should_stop) if cache is not None else ReplayCache.replay_uncached(record, should_stop)
    except RecordError as exc:
        raise _record_error(exc, field) from None
    except ReplayStopped as exc:
        raise ApiError(grpc.StatusCode.DEADLINE_EXCEEDED,
                       f"{field}: the call ended after replaying {exc.played} of {len(record.moves)} moves") from None


# ----- moves ---------------------------------------------------------------------------
def _card_to_proto(ref: CardRef | None) -> game_pb2.Card | None:
    if ref is None:
        return None
    return game_pb2.Card(name=ref.name, owner=player_to_proto(ref.owner))


def move_to_proto(move: Move) -> game_pb2.Move:
    out = game_pb2.Move(text=str(move), kind=move.kind)
    if move.card is not None:
        out.card.CopyFrom(_card_to_proto(move.card))
    for name in ("col", "row", "to_col", "to_row"):
        value = getattr(move, name)
        if value is not None:
            setattr(out, name, value)
    if move.setup is not None:
        out.setup.extend(game_pb2.Card() if ref is None else _card_to_proto(ref) for ref in move.setup)
    return out


def _structured_text(move: game_pb2.Move, field: str) -> str:
    """Notation text for a move given by its fields; parse_move then checks it."""

    def card(c: game_pb2.Card, where: str) -> str:
        if not c.name:
            raise invalid(where, "the card needs a name")
        if c.owner == game_pb2.PLAYER_UNSPECIFIED:
            return c.name
        return f"{c.name}@{PLAYERS[player_from_proto(c.owner, where + '.owner')]}"

    def need(name: str, high: int) -> int:
        value = getattr(move, name)
        if not 1 <= value <= high:
            raise invalid(f"{field}.{name}", f"a {move.kind} move needs {name} 1..{high}, not {value}")
        return value

    k = move.kind.strip().lower()
    if k == mv.SETUP:
        if len(move.setup) != 3:
            raise invalid(f"{field}.setup", f"give 3 cards (an empty name for an empty column), not {len(move.setup)}")
        return "setup " + " ".join(card(c, f"{field}.setup[{i}]") if c.name else "-" for i, c in enumerate(move.setup))
    if k in (mv.DRAW, mv.PEGASUS_HAND, mv.PYTHIA_SPY, mv.SIRENS, mv.PERSEPHONE, mv.RECALL):
        return k
    if k in (mv.CHALLENGE, mv.PEGASUS_FRONT, mv.PLACE, mv.PYTHIA_TURN, mv.GOD):
        return f"{k} c{need('col', 3)}"
    if k == mv.PLAY:
        return f"play {card(move.card, field + '.card')} c{need('col', 3)}r{need('row', 4)}"
    if k in (mv.HADES, mv.TOP, mv.CHANCE):
        return f"{k} {card(move.card, field + '.card')}"
    if k == mv.DIONYSUS:
        return f"dionysus c{need('col', 3)}r{need('row', 4)} c{need('to_col', 3)}r{need('to_row', 4)}"
    raise invalid(f"{field}.kind", f"unknown move kind {quoted(move.kind)}" if move.kind else "give text or kind")


def move_from_proto(move: game_pb2.Move, deck, field: str) -> Move:
    text = move.text if move.text.strip() else _structured_text(move, field)
    try:
        return parse_move(text, deck)
    except NotationError as exc:
        raise invalid(f"{field}.text" if move.text.strip() else field, move_problem(text, exc)) from None


# ----- budgets -------------------------------------------------------------------------
def limits_from_proto(budget: bot_pb2.Budget | None, config, field: str = "budget") -> Limits:
    """The request's budget within the server's caps; an empty budget takes the default."""
    iterations = budget.iterations if budget is not None else 0
    millis = budget.millis if budget is not None else 0
    threads = (budget.threads if budget is not None else 0) or 1
    if iterations > config.max_iterations:
        raise invalid(f"{field}.iterations", f"{iterations} is over this server's limit of {config.max_iterations}")
    if millis > config.max_millis:
        raise invalid(f"{field}.millis", f"{millis} is over this server's limit of {config.max_millis}")
    if threads > config.max_threads:
        raise invalid(f"{field}.threads", f"{threads} is over this server's limit of {config.max_threads}")
    if not iterations and not millis:
        iterations = config.default_iterations
    # Every search ends by --max-millis, also one given only iterations.
    try:
        return Limits(iterations=iterations or None, millis=millis or config.max_millis, threads=threads)
    except LimitsError as exc:
        raise invalid(field, str(exc)) from None


# ----- views ---------------------------------------------------------------------------
def _card_json(d: dict) -> game_pb2.Card:
    return game_pb2.Card(name=d["card"], owner=player_to_proto(d["owner"]))


def _slot_json(d: dict) -> game_pb2.Slot:
    if d.get("card") == "figure":
        return game_pb2.Slot(figure=True)
    slot = game_pb2.Slot(face_up=bool(d.get("face_up", False)), excluded=d.get("excluded", []))
    if "group" in d:
        slot.group = d["group"]
    else:
        slot.card.CopyFrom(_card_json(d))
    return slot


def view_to_proto(view: View) -> game_pb2.PlayerView:
    d = view.to_json()
    out = game_pb2.PlayerView(
        observer=player_to_proto(d["observer"]),
        variants=variants_to_proto(view.variants),
        deck=d["deck"],
        phase=d["phase"],
        turn=d["turn"],
        turn_player=player_to_proto(d["turn_player"]),
        to_move=player_to_proto(d["to_move"]),
        ap_left=d["ap_left"],
        ap_spent=d["ap_spent"],
        winner=d["winner"] or ("draw" if d["phase"] == "over" else ""),
        reason=d["reason"] or "",
        json=json.dumps(d, separators=(",", ":")),
    )
    for player in PLAYERS:
        side = d["sides"][player]
        target = getattr(out, player)
        for column in side["columns"]:
            target.columns.add().slots.extend(_slot_json(s) for s in column)
        target.hand.extend(_slot_json(s) for s in side["hand"])
        target.deck_size = side["deck_size"]
        target.discard.extend(_card_json(c) for c in side["discard"])
    for g in d["groups"]:
        group = out.groups.add(owner=player_to_proto(g["owner"]))
        group.known.update(g["known"])
        for w in g["wildcards"]:
            group.wildcards.add(count=w["count"], excluded=w["excluded"])
    for p in d["pending"]:
        pending = out.pending.add(decision=p["decision"], player=player_to_proto(p["player"]))
        if "card" in p:
            pending.card.CopyFrom(_card_json(p["card"]))
    return out


# ----- analysis ------------------------------------------------------------------------
def _finite(x: float) -> float:
    return x if math.isfinite(x) else 0.0


def belief_to_proto(report: dict) -> bot_pb2.BeliefReport:
    out = bot_pb2.BeliefReport(
        observer=player_to_proto(report["observer"]),
        opponent=player_to_proto(report["opponent"]),
        samples=report["samples"],
        seed=report["seed"],
        hostage=report["hostage"]["card"],
        hand_size=report["hand"]["size"],
    )
    for loc in report["hostage"]["locations"]:
        item = out.hostage_locations.add(where=loc["where"], probability=loc["probability"])
        if loc["exact"] is not None:
            item.exact = loc["exact"]
    for slot in report["slots"]:
        out.slots.add(slot=slot["slot"]).cards.update({c["card"]: c["probability"] for c in slot["cards"]})
    out.hand_expected.update(report["hand"]["expected"])
    return out


def analysis_to_proto(analysis: Analysis, deck) -> bot_pb2.Analysis:
    def move(value) -> game_pb2.Move:  # the analysis holds the engine's own Move values
        return move_to_proto(value)

    out = bot_pb2.Analysis(
        perspective=player_to_proto(analysis.perspective),
        to_move=player_to_proto(analysis.to_move),
        iterations=analysis.iterations,
        millis=_finite(float(analysis.millis)),
        value=_finite(float(analysis.value)),
        seed=analysis.seed & ((1 << 64) - 1),
        finished=analysis.finished,
    )
    if analysis.best is not None:
        out.best.CopyFrom(move(analysis.best))
    for info in analysis.moves:
        out.moves.add(
            move=move(info.move),
            visits=info.visits,
            value=_finite(float(info.value)),
            ci_low=_finite(float(info.ci_low)),
            ci_high=_finite(float(info.ci_high)),
            availability=info.availability,
            order=info.order,
            pv=[str(m) for m in info.pv],
        )
    if analysis.belief:
        out.belief.CopyFrom(belief_to_proto(analysis.belief))
    return out


# ----- matches -------------------------------------------------------------------------
def match_status_to_proto(match) -> match_pb2.MatchStatus:
    """Public facts of a hosted match; the record only once the game is over."""
    state = match.state
    out = match_pb2.MatchStatus(
        match_id=match.id,
        moves_played=len(match.record.moves),
        phase=state.phase,
        turn=state.turn,
        to_move=player_to_proto(state.to_move),
        ap_left=state.ap,
        over=state.is_over,
        winner=("draw" if state.winner is None else PLAYERS[state.winner]) if state.is_over else "",
        reason=state.reason or "",
        hera_bot=match.bots[0],
        zeus_bot=match.bots[1],
    )
    if state.is_over:
        out.record.CopyFrom(record_to_proto(match.record))
        out.final_state.json = json.dumps(state_to_json(state), separators=(",", ":"))
    return out
