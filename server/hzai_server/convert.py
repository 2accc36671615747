"""The one place where protobuf messages meet library objects, for every game.

Everything from a request is checked here and rejected with INVALID_ARGUMENT naming the
field (and the move index for records): its game, record, moves, budget, the bot it
names at its strength level and its admission class. So a game only ever sees
well-formed input and the servicers only ever see library objects. What a game needs is read through
hzai.core (the Game's hooks); the structured per-game messages come from the game's
converter module (hzai_server.games), and every message also carries text or JSON, so a
game without a converter is served all the same.
"""

from __future__ import annotations

import hashlib
import json
import math

from google.protobuf.message import DecodeError

from hzai.core import Game, NoDecision, RecordError, ReplayStopped, UnknownGameError, game_names, make_game
from hzai.explain import pv_in_words
from hzai.search import Analysis, BotError, Limits, LimitsError, make_bot, parse_spec
from hzai.search.bot import DEFAULT_BOT, analysing_bots, bot_kind, option_names, served_bots
from hzai.search.ismcts import shipped_model_id
from hzai.search.levels import MAX_LEVEL, MIN_LEVEL
from hzai_proto.v3 import bot_pb2, common_pb2, match_pb2

from hzai_server import errors, games
from hzai_server.admission import BATCH, INTERACTIVE, priority_of
from hzai_server.errors import invalid, quoted
from hzai_server.logs import log

MAX_GAME_NAME = 64


# ----- games ---------------------------------------------------------------------------
def _made(name: str) -> Game | None:
    """The registered game `name` with its default parameters; None when its factory
    fails or makes no hzai.core Game (a broken registration is not served)."""
    try:
        game = make_game(name)
    except UnknownGameError:
        return None
    except Exception as exc:  # noqa: BLE001 - a plugin's factory may fail any way
        log("game not served", level=30, game=name[:MAX_GAME_NAME], error=f"{type(exc).__name__}: {exc}"[:300])
        return None
    return game if isinstance(game, Game) else None


def served_games() -> list[Game]:
    """Every registered game this server can serve, by name."""
    return [game for game in map(_made, game_names()) if game is not None]


def game_named(name: str, field: str = "position.game") -> Game:
    """The registered game `name`, with its default parameters. Only an error message
    lists the served games: making every game for each request cost a record more than
    its replay (Legends builds its action codec)."""
    if not name:
        raise invalid(field, f"name the game: one of {_served_names()}")
    game = _made(name[:MAX_GAME_NAME]) if len(name) <= MAX_GAME_NAME else None
    if game is None:
        raise invalid(field, f"unknown game {quoted(name, 60)}; this server plays {_served_names()}")
    return game


def _served_names() -> str:
    return ", ".join(g.name for g in served_games())


def game_info(game: Game) -> common_pb2.GameInfo:
    return common_pb2.GameInfo(name=game.name, title=game.presentation.title, seats=list(game.seats),
                               cooperative=game.capabilities.cooperative, record_format=game.records.format,
                               num_actions=game.num_actions, bots=served_bots(game),
                               params_help=game.presentation.params_help,
                               max_level=MAX_LEVEL, model=shipped_model_id(game) or "",
                               analysts=analysing_bots(game))


def params_from_json(game: Game, text: str, field: str = "params_json") -> Game:
    """The game with the parameters of a request's JSON object (empty: the defaults)."""
    if not text.strip():
        return game
    data = parse_json(text, field)
    if not isinstance(data, dict):
        raise invalid(field, "must be a JSON object of the game's parameters")
    try:
        return game.presentation.with_params(data)
    except (TypeError, ValueError) as exc:
        raise invalid(field, str(exc)) from None


def parse_json(text: str, field: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise invalid(field, f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise invalid(field, "not valid JSON here: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer longer than Python converts
        raise invalid(field, f"not valid JSON here: {quoted(str(exc))}") from None


def compact(data) -> str:
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


# ----- seats ---------------------------------------------------------------------------
def seat_name(game: Game, seat: int | None) -> str:
    return "" if seat is None else game.seats[seat]


def seat_from_request(game: Game, seat: int, field: str) -> int:
    if not 0 <= seat < len(game.seats):
        raise invalid(field, f"{seat} is not a seat of {game.name}: give 0..{len(game.seats) - 1} "
                             f"({', '.join(game.seats)})")
    return seat


# ----- records -------------------------------------------------------------------------
def record_from_data(game: Game, data, field: str):
    """A record of `game` (any of its parameters) from parsed JSON."""
    if isinstance(data, dict) and "format" in data and data["format"] != game.records.format:
        raise invalid(f"{field}.format", f"a {game.name} record has format {game.records.format!r}, "
                                         f"not {quoted(data['format'], 60)}")
    try:
        return game.records.read(data)
    except RecordError as exc:
        raise errors.from_library(exc, field) from None


def record_from_position(position: common_pb2.Position):
    """(record, field) of a position that holds one."""
    game = game_named(position.game)
    source = position.WhichOneof("source")
    # An error about this record that a caller does not convert names this field (errors.from_library).
    errors.reading(f"position.{source}" if source is not None else None)
    if source == "record_json":
        return record_from_data(game, parse_json(position.record_json, "position.record_json"),
                                "position.record_json"), "position.record_json"
    if source == "record":
        field = "position.record"
        converter = games.converter(game.name)
        if converter is None:
            raise invalid(field, f"{game.name} has no record message; give record_json")
        wanted = converter.RECORD.DESCRIPTOR.full_name
        if position.record.TypeName() != wanted:
            raise invalid(field, f"a message of type {quoted(position.record.TypeName() or position.record.type_url, 80)} "
                                 f"is not a record of {game.name} (give a {wanted})")
        message = converter.RECORD()
        try:
            message.ParseFromString(position.record.value)
        except DecodeError as exc:
            raise invalid(field, f"not a valid {wanted} ({str(exc)[:200]})") from None
        return record_from_data(game, converter.record_data(message, field), field), field
    raise invalid("position", "give record_json, a game's record message or match_id")


def view_to_decide(record, field: str, should_stop=None):
    """The view of the seat to decide after `record` (the game's own way of getting there)."""
    try:
        return record.game.records.view_to_decide(record, should_stop)
    except (RecordError, NoDecision, ReplayStopped) as exc:
        raise errors.from_library(exc, field, len(record.moves)) from None


def record_json(record) -> str:
    """A record the server read or made, as the JSON `record_from_data` reads back."""
    return compact(record.game.records.write(record))


def record_key(record) -> str:
    """The digest of a record's canonical JSON (record_json): the same record written
    differently (spacing, key order, JSON or message) is one key (the decision cache's,
    hzai_server.decision)."""
    return hashlib.sha256(f"{record.game.name}\n{record_json(record)}".encode()).hexdigest()


# ----- moves ---------------------------------------------------------------------------
def move_to_proto(game: Game, move, action: int | None = None) -> common_pb2.Move:
    """`move` as the wire writes it; `action`: its action id where the search gave it
    (MoveInfo.action, PlayResult.action), else the game encodes the move."""
    out = common_pb2.Move(text=game.move_text(move), action=game.action_of(move) if action is None else action)
    converter = games.converter(game.name)
    if converter is not None:
        out.detail.Pack(converter.move_detail(game, move))
    return out


def seen_move_to_proto(game: Game, before, move, seat: int | None) -> common_pb2.Move:
    """`move` (about to be applied on `before`) as `seat` sees it; a redacted move keeps
    only the details that hide nothing."""
    seen = game.records.observed(before, move, seat)
    if not seen.redacted:
        if seen.text == game.move_text(move):
            return move_to_proto(game, move)
        try:  # the seat sees the move written its own way (Hera and Zeus: a card taken by Sirens)
            return move_to_proto(game, game.parse_move(seen.text))
        except ValueError:
            return common_pb2.Move(text=seen.text)
    out = common_pb2.Move(text=seen.text, redacted=True)
    converter = games.converter(game.name)
    if converter is not None:
        out.detail.Pack(converter.redacted_move_detail(game, move))
    return out


def move_from_proto(game: Game, move: common_pb2.Move, field: str):
    """The move a request names by text, or by action id when the text is empty."""
    text = move.text
    if text.strip():
        try:
            return game.parse_move(text)
        except ValueError as exc:
            raise invalid(f"{field}.text", f"{quoted(text)}: {str(exc)[:300]}") from None
    if move.HasField("action"):
        if move.action >= game.num_actions:
            raise invalid(f"{field}.action", f"{move.action} is not an action of {game.name} "
                                             f"(0..{game.num_actions - 1})")
        try:
            return game.move_of(move.action)
        except (ValueError, IndexError, KeyError) as exc:
            raise invalid(f"{field}.action", f"{move.action}: {str(exc)[:300]}") from None
    raise invalid(field, "give the move's text or its action id")


# ----- budgets -------------------------------------------------------------------------
def limits_from_proto(budget: common_pb2.Budget | None, config, field: str = "budget") -> Limits:
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
        millis = getattr(config, "default_millis", 0)
    # Every search ends by --max-millis, also one given only iterations.
    try:
        return Limits(iterations=iterations or None, millis=millis or config.max_millis, threads=threads)
    except LimitsError as exc:
        raise invalid(field, str(exc)) from None


# ----- bots, levels and priorities -----------------------------------------------------
def priority_from_proto(value: int, kind: str, field: str = "priority") -> str:
    """The admission class of a request's Priority enum value (0: the default of its
    `kind`, hzai_server.admission.DEFAULT_PRIORITY)."""
    if value == 0:
        return priority_of(kind)
    if value == 1:
        return INTERACTIVE
    if value == 2:
        return BATCH
    raise invalid(field, f"{value} is not a priority: give 0 (the method's default), 1 (interactive) or 2 (batch)")


def check_level(level: int, field: str = "level") -> int:
    """A request's strength level: 0 (unset: full strength) or MIN_LEVEL..MAX_LEVEL;
    INVALID_ARGUMENT naming `field` and the range otherwise."""
    if level != 0 and not MIN_LEVEL <= level <= MAX_LEVEL:
        raise invalid(field, f"{level} is not a strength level: give {MIN_LEVEL}..{MAX_LEVEL} "
                             f"({MAX_LEVEL} is full strength), or 0 for full strength")
    return level


def make_checked_bot(spec: str, game: Game, field: str = "bot", level: int = 0, level_field: str = "level"):
    """The bot of `spec` for `game`, at strength `level` when it is not 0 (an ismcts spec
    only, hzai.search.levels); INVALID_ARGUMENT naming the bot and the allowed ones, or
    `level_field` and the range of levels."""
    spec = spec or DEFAULT_BOT
    check_level(level, level_field)
    try:
        name, options = parse_spec(spec)
        allowed = served_bots(game)  # the registry's bots that the service offers and that play the game
        if name not in allowed:
            kind = bot_kind(name)
            if kind is not None and kind.served:
                why = f"bot {quoted(name)} does not play {game.name}"
            elif name == "level":
                why = f"a strength level goes in the request's level field (1..{MAX_LEVEL}), not in the bot's name"
            elif kind is not None:
                why = f"bot {quoted(name)} is not offered by the service"
            else:
                why = f"unknown bot {quoted(name)}"
            raise BotError(f"{why}; choose from {', '.join(allowed)}")
    except BotError as exc:
        raise invalid(field, str(exc)) from None
    if level and name != DEFAULT_BOT:
        raise invalid(level_field, f"a level is of the {DEFAULT_BOT} bot, not {quoted(name)}: "
                                   f"leave {field} empty or give an {DEFAULT_BOT} spec")
    if level:
        taken = [p for p in option_names("level") if p != "level"]  # read once, not per request
        others = [key for key in options if key not in taken]
        if others:  # else make_bot names a bot 'level' the request never gave
            raise invalid(field, f"unknown option{'s' if len(others) > 1 else ''} "
                                 f"{', '.join(quoted(k) for k in others)} at a strength level ({level_field} {level}): "
                                 f"there the {DEFAULT_BOT} bot takes only {', '.join(taken)}; drop "
                                 f"{'it' if len(others) == 1 else 'them'} or leave {level_field} 0")
        spec = ",".join([f"level:level={level}"] + [f"{key}={value}" for key, value in options.items()])
    try:
        return make_bot(spec, game)  # refused here when the game lacks a capability the bot needs
    except BotError as exc:
        raise invalid(field, str(exc)) from None


# ----- views ---------------------------------------------------------------------------
def view_to_proto(game: Game, view, state) -> common_pb2.View:
    """`view` (a seat's information set in `state`) with the public facts of `state`."""
    out = common_pb2.View(game=game.name, seat=view.seat, over=state.is_terminal,
                          json=compact(view.to_json()))
    if state.current_seat is not None:
        out.to_move = state.current_seat
    if state.is_terminal:
        out.returns.extend(state.returns())
        out.result = game.presentation.result_text(state)
    converter = games.converter(game.name)
    if converter is not None:
        out.detail.Pack(converter.view_detail(game, view))
    return out


# ----- analysis ------------------------------------------------------------------------
def _finite(x: float) -> float:
    return x if math.isfinite(x) else 0.0


def belief_to_proto(game: Game, report: dict, observer: int) -> bot_pb2.Belief:
    out = bot_pb2.Belief(observer=observer, samples=int(report.get("samples", 0)),
                         seed=int(report.get("seed", 0)) & ((1 << 64) - 1), json=compact(report))
    converter = games.converter(game.name)
    if converter is not None and hasattr(converter, "belief_detail"):
        out.detail.Pack(converter.belief_detail(game, report))
    return out


PV_WORDS_ROWS = 8  # the rows by order whose variation is told in words (MoveInfo.pv_words)


def analysis_to_proto(game: Game, analysis: Analysis, view=None, bot: str = "") -> bot_pb2.Analysis:
    """The analysis as protobuf; with the deciding seat's `view`, the first rows' variations
    told in the game's narration too (hzai.explain)."""
    perspective = game.presentation.seat_index(analysis.perspective)
    out = bot_pb2.Analysis(
        game=game.name, perspective=perspective, perspective_name=game.seats[perspective],
        iterations=analysis.iterations, millis=_finite(float(analysis.millis)),
        value=_finite(float(analysis.value)), seed=analysis.seed & ((1 << 64) - 1), finished=analysis.finished, bot=bot,
    )
    if analysis.best is not None:
        out.best.CopyFrom(move_to_proto(game, analysis.best, analysis.best_action))
    for info in analysis.moves:
        pv_actions = info.pv_actions if info.pv_actions is not None and len(info.pv_actions) == len(info.pv) else None
        out.moves.add(
            move=move_to_proto(game, info.move, info.action), visits=info.visits, value=_finite(float(info.value)),
            ci_low=_finite(float(info.ci_low)), ci_high=_finite(float(info.ci_high)),
            availability=info.availability, order=info.order,
            pv=[move_to_proto(game, m, None if pv_actions is None else pv_actions[i]) for i, m in enumerate(info.pv)],
            pv_words=(pv_in_words(game, view, info.pv, seed=analysis.seed)
                      if view is not None and info.order < PV_WORDS_ROWS else []),
        )
    if analysis.belief:
        out.belief.CopyFrom(belief_to_proto(game, analysis.belief, perspective))
    return out


def suggestion_to_proto(asked, result, millis: float, cut_short: bool) -> bot_pb2.SuggestMoveResponse:
    """A SuggestMove's answer, written once from its request (a DecisionRequest,
    hzai_server.decision) and the search's result (a PlayResult: the move, and its action
    id where the search knew it)."""
    seat = asked.view.seat
    return bot_pb2.SuggestMoveResponse(
        move=move_to_proto(asked.game, result.move, result.action),
        seat=seat,
        seat_name=asked.game.seats[seat],
        bot=asked.bot.name,
        millis=millis,
        stopped_early=cut_short,  # the same rule as Analysis.finished, negated
        level=asked.level,
    )


# ----- matches -------------------------------------------------------------------------
def match_status_to_proto(match) -> match_pb2.MatchStatus:
    """Public facts of a hosted match; the record only once the game is over."""
    game, state = match.game, match.state
    out = match_pb2.MatchStatus(
        match_id=match.id, game=game.name, seats=list(game.seats), bot_seats=sorted(match.bot_seats),
        bot_levels=[match.bot_levels.get(seat, 0) for seat in sorted(match.bot_seats)],
        moves_played=len(match.record.moves), over=state.is_terminal, reason=game.presentation.end_reason(state),
    )
    if state.current_seat is not None:
        out.to_move = state.current_seat
    if state.is_terminal:
        out.returns.extend(state.returns())
        out.result = game.presentation.result_text(state)
        out.record_json = record_json(match.record)
        out.final_state_json = compact(game.presentation.state_to_json(state))
    converter = games.converter(game.name)
    if converter is not None:
        out.detail.Pack(converter.status_detail(game, state))
    return out
