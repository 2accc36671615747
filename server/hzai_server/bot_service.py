"""BotService: ListGames, SuggestMove, Analyze and AnalyzeStream, for every game."""

from __future__ import annotations

import threading
import time

import grpc

from hzai_proto.v3 import bot_pb2, bot_pb2_grpc

from hzai.search.review import review_moves
from hzai_server import convert, game_review
from hzai_server.errors import ApiError, invalid
from hzai_server.hosting import client_of
from hzai_server.rpc import CallStop, current_lifecycle, handler
from hzai_server.convert import priority_from_proto, record_key
from hzai_server.decision import Decision, DecisionRequest, Decisions, analyst_for
from hzai_server.searches import (ProgressSlot, Searches, clock_ms, decide, finished_within, run_analysis,
                                  within_deadline)

__all__ = ["BotServicer", "record_key"]  # record_key: hzai_server.convert's, named here as before

MAX_BELIEF_SAMPLES = 5000
# A pessimistic cost of one belief sample (Python, about 0.3 ms here): with a client
# deadline, the report draws no more samples than half the time left allows.
BELIEF_MS_PER_SAMPLE = 0.5
# AnalyzeGame stops this long before the client's deadline, to send its summary in time.
REVIEW_DEADLINE_MARGIN_S = 0.25
# An Analyze batch ends its work this long before the client's deadline (at most this
# share of the time it was given), so that its answer, with the positions done, arrives.
BATCH_DEADLINE_MARGIN_S = 0.25
BATCH_DEADLINE_MARGIN_SHARE = 0.2
RESULT_FRAMING_BYTES = 6  # a result's tag and length in the answer, at most


class AnswerBy:
    """A call's context whose deadline is `margin` seconds earlier than the client's:
    what the searches, the admission queue and the batch's own loop see, so that the
    work ends in time for the answer to be sent."""

    def __init__(self, context, margin: float):
        self._context = context
        self._margin = margin

    def time_remaining(self):
        remaining = self._context.time_remaining()
        return None if remaining is None else remaining - self._margin

    def __getattr__(self, name):
        return getattr(self._context, name)


def batch_margin(context) -> float:
    remaining = context.time_remaining()
    return 0.0 if remaining is None else min(BATCH_DEADLINE_MARGIN_S, BATCH_DEADLINE_MARGIN_SHARE * remaining)


class BotServicer(bot_pb2_grpc.BotServiceServicer):
    def __init__(self, config, searches: Searches, matches):
        self.config = config
        self.searches = searches
        self.matches = matches
        # Each request's position read once (and the same record again not at all).
        self.decisions = Decisions(config, matches)

    @handler
    def ListGames(self, request, context):
        return bot_pb2.ListGamesResponse(games=[convert.game_info(game) for game in convert.served_games()])

    @handler
    def SuggestMove(self, request, context):
        stop = CallStop(context)
        asked = self.decisions.move_request(request, context, stop)
        with self.searches.admitted(asked.priority, client_of(context), stop):
            budgeted = within_deadline(asked.limits, context)
            start = time.perf_counter()
            result, cut_short = decide(asked, budgeted.limits, stop, cut=budgeted.cut)
            millis = clock_ms(start)
        if stop.ended():
            raise ApiError(grpc.StatusCode.CANCELLED, "the call ended before the search")
        return convert.suggestion_to_proto(asked, result, millis, cut_short)

    def _limits(self, request):
        """The budget and belief samples every analysis request gives, checked."""
        if request.belief_samples > MAX_BELIEF_SAMPLES:
            raise invalid("belief_samples", f"{request.belief_samples} is over this server's limit of {MAX_BELIEF_SAMPLES}")
        return convert.limits_from_proto(request.budget if request.HasField("budget") else None, self.config)

    def _analysis_request(self, request, item, context, stop: CallStop, kind: str, limits=None) -> DecisionRequest:
        """One position's analysis request, read once (`item`: the request, or a
        BatchPosition of it): the position, the chosen root moves, the bot whose search
        analyses (AnalyzeRequest.bot), the budget and the admission class."""
        limits = self._limits(request) if limits is None else limits
        decision = self.decisions.of(item.position, context, stop)
        if request.belief_samples and not decision.game.capabilities.belief_report:
            raise invalid("belief_samples", f"{decision.game.name} has no belief report: leave it 0")
        root = game_review.root_moves_from(decision.game, decision.view, item.allow_moves, item.avoid_moves,
                                           "allow_moves" if item.allow_moves else "avoid_moves")
        bot, spec = analyst_for(request.bot, decision.game)
        return DecisionRequest(decision.game, decision.view, bot, spec, limits, request.seed,
                               priority_from_proto(request.priority, kind), root_moves=root)

    def _analyse(self, request, asked: DecisionRequest, client: str, context, stop: CallStop):
        """One position's finished analysis, searched in an admitted slot."""
        with self.searches.admitted(asked.priority, client, stop):
            budgeted = within_deadline(asked.limits, context)
            analysis = run_analysis(asked, budgeted.limits, stop)
            if analysis.best is None:
                raise ApiError(grpc.StatusCode.DEADLINE_EXCEEDED, "the search was stopped before it found a move")
            analysis.finished = finished_within(analysis.finished, budgeted.limits, budgeted.cut)
            analysis.belief = self._belief(request, asked, context)
        return analysis

    def _belief(self, request, decision: Decision, context):
        if not request.belief_samples:
            return None
        samples = request.belief_samples
        remaining = context.time_remaining()
        if remaining is not None:  # the report says how many samples it drew
            samples = max(1, min(samples, int(remaining * 1000 * 0.5 / BELIEF_MS_PER_SAMPLE)))
        return decision.game.presentation.belief_report(decision.view, samples, request.seed)

    def _answer(self, asked: DecisionRequest, analysis) -> bot_pb2.AnalyzeResponse:
        # the final answer tells its variations in words; progress reports do not spend on it
        view = asked.view if analysis.finished else None
        return bot_pb2.AnalyzeResponse(analysis=convert.analysis_to_proto(asked.game, analysis, view, bot=asked.spec))

    @handler
    def Analyze(self, request, context):
        if request.positions:
            answer_by = AnswerBy(context, batch_margin(context))
            return self._batch(request, answer_by, CallStop(answer_by))
        stop = CallStop(context)
        asked = self._analysis_request(request, request, context, stop, "Analyze")
        return self._answer(asked, self._analyse(request, asked, client_of(context), context, stop))

    @handler
    def AnalyzeStream(self, request, context):
        if request.positions:
            raise invalid("positions", "a batch of positions is for Analyze; AnalyzeStream takes one position")
        stop = CallStop(context)
        asked = self._analysis_request(request, request, context, stop, "AnalyzeStream")
        every = request.progress_every or max(1, (asked.limits.iterations or 1000) // 10)
        with self.searches.admitted(asked.priority, client_of(context), stop):
            budgeted = within_deadline(asked.limits, context)
            slot = ProgressSlot()

            def search():
                # Progress arrives on the search thread; this thread sends it.
                try:
                    slot.finish("final", run_analysis(asked, budgeted.limits, stop, progress=slot.progress,
                                                      every=every))
                except BaseException as exc:  # noqa: BLE001 - handed to the sending thread
                    slot.finish("error", exc)

            worker = threading.Thread(target=search, name="analyze-stream", daemon=True)
            worker.start()
            try:
                while True:
                    kind, item = slot.take()
                    if kind != "progress":
                        break
                    if not stop.ended():
                        item.finished = False
                        yield self._answer(asked, item)
            finally:
                stop.event.set()  # the client went away mid-stream: end the search too
                worker.join()
            if kind == "error":
                raise item
            if item.best is None:
                raise ApiError(grpc.StatusCode.DEADLINE_EXCEEDED, "the search was stopped before it found a move")
            item.finished = finished_within(item.finished, budgeted.limits, budgeted.cut)
            item.belief = self._belief(request, asked, context)
        yield self._answer(asked, item)

    # ----- batches ---------------------------------------------------------------------
    def _batch(self, request, context, stop: CallStop) -> bot_pb2.AnalyzeResponse:
        """Every position of the batch in order, one slot each; a bad position gets its
        own error and the others are answered. `context` is the call's with its deadline
        moved earlier (AnswerBy): once that comes, the positions left are marked not
        reached and the answer goes out with the positions done, before the client's
        deadline."""
        if request.HasField("position") or request.allow_moves or request.avoid_moves:
            raise invalid("positions", "a batch gives its positions (and their moves) in `positions` only: "
                                       "leave position, allow_moves and avoid_moves empty")
        limits = self._limits(request)
        game_review.check_work(self.config, len(request.positions), limits, "positions")
        client = client_of(context)
        results = []
        out_of_time = False
        answer_bytes = 0
        for index, item in enumerate(request.positions):
            if out_of_time or stop():
                results.append(game_review.not_reached(index, "the call ended or its deadline came first"))
                continue
            try:
                asked = self._analysis_request(request, item, context, stop, "AnalyzeBatch", limits)
                analysis = self._analyse(request, asked, client, context, stop)
            except ApiError as exc:
                if exc.code == grpc.StatusCode.RESOURCE_EXHAUSTED:
                    raise  # the server is full: the whole batch is refused, not a position
                if exc.code == grpc.StatusCode.DEADLINE_EXCEEDED:  # no time left for this one, nor the rest
                    out_of_time = True
                    results.append(game_review.not_reached(index, "the call's deadline came first"))
                    continue
                results.append(game_review.position_error(index, exc))
                continue
            results.append(bot_pb2.PositionResult(index=index, code=0,
                                                  analysis=convert.analysis_to_proto(asked.game, analysis,
                                                                                     bot=asked.spec)))
            answer_bytes += results[-1].ByteSize() + RESULT_FRAMING_BYTES
            if answer_bytes > self.config.max_message_bytes:  # no need to search the rest: it cannot be sent
                raise invalid("positions", f"the answer would be over {answer_bytes} bytes by position {index} of "
                                           f"{len(request.positions)}, over this server's --max-message-bytes of "
                                           f"{self.config.max_message_bytes}; ask for fewer positions in one batch "
                                           "(or fewer belief samples)")
        return bot_pb2.AnalyzeResponse(results=results)

    # ----- whole games -----------------------------------------------------------------
    @handler
    def AnalyzeGame(self, request, context):
        limits = convert.limits_from_proto(request.budget if request.HasField("budget") else None, self.config)
        plan = game_review.plan_review(request, self.matches, context, self.config, limits)
        if request.belief and not plan.game.capabilities.review_belief:
            raise invalid("belief", f"{plan.game.name} has no belief summary: leave it false")
        call = CallStop(context)

        def near_deadline() -> bool:
            remaining = context.time_remaining()
            return remaining is not None and remaining < REVIEW_DEADLINE_MARGIN_S

        def stop() -> bool:
            return call() or near_deadline()

        priority = priority_from_proto(request.priority, "AnalyzeGame")
        client = client_of(context)
        done = 0
        analyst, spec = analyst_for(request.bot, plan.game)
        rows = review_moves(plan.game, plan.start, plan.moves, limits, request.seed, plan.seats, stop=stop,
                            belief=request.belief, root_moves=plan.root_moves, analyst=analyst,
                            guard=lambda: self.searches.admitted(priority, client, call))
        stopped = ""
        try:
            for row in rows:
                if call.metrics is not None:
                    call.metrics.searched(row.analysis.iterations, row.analysis.millis / 1000)
                done += 1
                yield game_review.decision_to_proto(plan.game, row, spec)
        except ApiError as exc:  # waiting for the next decision's slot ended
            if exc.code not in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
                raise  # a full queue, or the call is gone
            stopped = exc.message
        if done < plan.total and not stopped:
            lifecycle = current_lifecycle()
            if lifecycle is not None and lifecycle.stop_searches.is_set():
                stopped = "the server is stopping"
            elif near_deadline():
                stopped = "the deadline came before every decision was analysed"
            else:
                stopped = "the call ended"
        yield game_review.summary(done, plan.total, stopped)
