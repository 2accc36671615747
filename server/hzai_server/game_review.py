"""AnalyzeGame and Analyze batches: what a request asks for, checked before any search,
and the rows sent back.

- Whose decisions: a record names any seats (the caller holds the whole game); a hosted
  match is reviewed from the token's seat only, its own decisions from its own view
  (`State.view`), and never for a spectator.
- Bounded work: decisions (or batch positions) x iterations at most
  `--max-analysis-work`, refused with INVALID_ARGUMENT naming the cap before any search.
- Chosen root moves by move index, each checked against the legal moves there.
- Every row through the generic review (hzai.search.review), one search slot per
  decision, so an interactive search can come between two decisions.
"""

from __future__ import annotations

from dataclasses import dataclass

import grpc

from hzai.core import Game, State
from hzai.core.bot import RootMoves, RootMovesError
from hzai.search.positions import MAX_POSITIONS
from hzai.search.review import ReviewedDecision, resolve_move
from hzai.text import quoted, without_echo
from hzai_proto.v3 import bot_pb2

from hzai_server import convert, seats
from hzai_server.errors import ApiError, invalid

MAX_DECISIONS = MAX_POSITIONS  # decisions one AnalyzeGame may review


def root_moves_from(game: Game, view, allow, avoid, field: str) -> RootMoves | None:
    """Chosen root moves in notation, checked against `view`'s legal moves; None when
    both lists are empty. INVALID_ARGUMENT naming the move."""
    allow, avoid = list(allow), list(avoid)
    if not allow and not avoid:
        return None
    try:
        chosen = RootMoves.parse(game, allow or None, avoid)
        chosen.select(view)
    except RootMovesError as exc:
        raise invalid(field, str(exc)) from None
    return chosen


# A reviewed decision's searches at most: its analysis, and the played move's own search
# when the analysis gave that move too few visits (hzai.search.review, MIN_VISITS).
REVIEW_SEARCHES = 2


def check_work(config, count: int, limits, what: str, searches: int = 1) -> None:
    """Refuse a request whose `count` items at `limits` exceed the server's cap, each item
    counted as the `searches` it may run at most (a reviewed decision: 2, its analysis and
    the played move's own search, hzai.search.review)."""
    if count > MAX_DECISIONS:
        raise invalid(what, f"{count} {what} in one request; this server takes at most {MAX_DECISIONS}")
    per = limits.iterations or config.default_iterations
    work = count * per * searches
    if work > config.max_analysis_work:
        each = f" x {searches} searches at most" if searches > 1 else ""
        raise invalid("budget", f"{count} {what} x {per} iterations{each} = {work} is over this server's "
                                f"--max-analysis-work of {config.max_analysis_work}; ask for fewer or a smaller budget")


@dataclass
class GamePlan:
    """A checked AnalyzeGame request: the game, its start and moves, whose decisions,
    the chosen root moves by index, and how many decisions will be analysed."""

    game: Game
    start: State
    moves: list
    seats: list[int]
    root_moves: dict
    total: int


def review_source(request, matches, context):
    """(game, start state, moves, seats allowed, field) of the request's position."""
    position = request.position
    if position.WhichOneof("source") == "match_id":
        match, grant = matches.open(position.match_id, context)
        if grant.spectator:
            raise seats.denied("a spectator has no seat's view to analyse from; use a seat's token")
        with matches.locked(match, context):
            game = match.game
            if position.game and position.game != game.name:
                raise invalid("position.game", f"the match is a game of {game.name}, not {position.game[:60]!r}")
            start = game.records.start_of(match.record)
            return game, start, list(match.record.moves), [grant.seat], "position.match_id"
    record, field = convert.record_from_position(position)
    game = record.game
    return game, game.records.start_of(record), list(record.moves), list(range(len(game.seats))), field


def plan_review(request, matches, context, config, limits) -> GamePlan:
    game, start, moves, allowed, field = review_source(request, matches, context)
    chosen = []
    for i, seat in enumerate(request.seats):
        convert.seat_from_request(game, seat, f"seats[{i}]")
        if seat not in allowed:
            raise seats.denied(f"this token is for {game.seats[allowed[0]]}: it may analyse only that seat's decisions")
        chosen.append(seat)
    chosen = sorted(set(chosen or allowed))
    wanted = dict(request.root_moves)
    root_moves, total = {}, 0
    state = start.clone()
    for index, text in enumerate(moves):
        if state.current_seat in chosen:
            total += 1
            if index in wanted:
                choice = wanted.pop(index)
                root = root_moves_from(game, state.view(state.current_seat), choice.allow_moves, choice.avoid_moves,
                                       f"root_moves[{index}]")
                if root is not None:
                    root_moves[index] = root
        try:
            state.apply(resolve_move(state, text))
        except ValueError as exc:
            raise invalid(f"{field}.moves[{index}]", f"move {index} {quoted(text)}: {without_echo(str(exc), text)[:300]}") from None
    if wanted:
        index = min(wanted)
        raise invalid(f"root_moves[{index}]", f"move index {index} is not a decision of the seats analysed "
                                              f"(the game has {len(moves)} moves)")
    check_work(config, total, limits, "decisions", searches=REVIEW_SEARCHES)
    return GamePlan(game, start, moves, chosen, root_moves, total)


def decision_to_proto(game: Game, row: ReviewedDecision, bot: str = "") -> bot_pb2.AnalyzeGameResponse:
    analysis = row.analysis
    best = analysis.moves[0]
    out = bot_pb2.ReviewedDecision(
        index=row.index, seat=game.presentation.seat_index(row.seat), seat_name=row.seat,
        played_visits=row.played_visits,
        best=convert.move_to_proto(game, best.move), best_value=row.best_value, best_ci_low=row.best_interval[0],
        best_ci_high=row.best_interval[1], mark=row.mark, pv=[convert.move_to_proto(game, m) for m in best.pv],
        seed=row.seed & ((1 << 64) - 1), analysis=convert.analysis_to_proto(game, analysis, bot=bot),
        belief_json="" if row.belief is None else convert.compact(row.belief),
    )
    out.played.CopyFrom(convert.move_to_proto(game, game.parse_move(row.played)))
    if row.played_value is not None:
        out.played_value = row.played_value
        out.played_ci_low, out.played_ci_high = row.played_interval
    if row.loss is not None:
        out.loss = row.loss
    return bot_pb2.AnalyzeGameResponse(decision=out)


def summary(done: int, total: int, stopped: str) -> bot_pb2.AnalyzeGameResponse:
    return bot_pb2.AnalyzeGameResponse(summary=bot_pb2.GameReviewSummary(
        decisions=done, total=total, complete=done == total and not stopped, stopped=stopped))


def position_error(index: int, exc: ApiError) -> bot_pb2.PositionResult:
    return bot_pb2.PositionResult(index=index, code=exc.code.value[0], error=f"positions[{index}].{exc.message}")


def not_reached(index: int, why: str) -> bot_pb2.PositionResult:
    return bot_pb2.PositionResult(index=index, code=grpc.StatusCode.DEADLINE_EXCEEDED.value[0],
                                  error=f"positions[{index}]: not analysed: {why}")
