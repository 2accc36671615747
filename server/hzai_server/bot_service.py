"""BotService: SuggestMove, Analyze and AnalyzeStream."""

from __future__ import annotations

import queue
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

import grpc

from hzai.belief import View, belief_report, view_of
from hzai.cards import PLAYERS
from hzai.rules import ReplayCache
from hzai_proto.v1 import bot_pb2, bot_pb2_grpc

from hzai_server import convert
from hzai_server.errors import ApiError, invalid
from hzai_server.rpc import handler
from hzai_server.searches import CallStop, Searches, clock_ms, decide, make_checked_bot, run_analysis, within_deadline

MAX_BELIEF_SAMPLES = 5000
# A pessimistic cost of one belief sample (Python, about 0.3 ms here): with a client
# deadline, the report draws no more samples than half the time left allows.
BELIEF_MS_PER_SAMPLE = 0.5


@dataclass
class Decision:
    """What a search needs: the view of the player to decide (never the state)."""

    view: View
    player: int
    deck: object


def decision_from_state(state, field: str) -> Decision:
    if state.is_over:
        winner = "a draw" if state.winner is None else f"{PLAYERS[state.winner]} wins"
        raise invalid(field, f"the game is over ({winner}, {state.reason}); there is no move to decide")
    if state.is_chance:
        raise invalid(field, "the next event is chance (the card drawn by 'pegasus hand'): add 'chance CARD' first")
    player = state.to_move
    return Decision(view_of(state, player), player, state.deck)


class BotServicer(bot_pb2_grpc.BotServiceServicer):
    def __init__(self, config, searches: Searches, matches):
        self.config = config
        self.searches = searches
        self.matches = matches
        # Front ends send the whole record with every request; replay only what is new.
        self.replays = ReplayCache(config.replay_cache) if config.replay_cache else None
        # The same record again (a retry, a second analysis, a load test) skips replay
        # and view building altogether: a decision's view is only ever read.
        self.decisions: OrderedDict[tuple, Decision] = OrderedDict()
        self.decisions_lock = threading.Lock()

    def _remembered(self, key: tuple, build) -> Decision:
        if not self.config.replay_cache:
            return build()
        with self.decisions_lock:
            if key in self.decisions:
                self.decisions.move_to_end(key)
                return self.decisions[key]
        decision = build()
        with self.decisions_lock:
            self.decisions[key] = decision
            while len(self.decisions) > self.config.replay_cache:
                self.decisions.popitem(last=False)
        return decision

    def _decision(self, position: bot_pb2.Position, context) -> Decision:
        source = position.WhichOneof("source")
        if source == "record":
            def build() -> Decision:
                record = convert.record_from_proto(position.record, "position.record")
                return decision_from_state(convert.replay(record, "position.record", self.replays), "position.record")

            return self._remembered(("record", position.record.SerializeToString(deterministic=True)), build)
        if source == "record_json":
            def build() -> Decision:
                record = convert.record_from_json_text(position.record_json, "position.record_json")
                return decision_from_state(convert.replay(record, "position.record_json", self.replays), "position.record_json")

            return self._remembered(("record_json", position.record_json), build)
        if source == "match_id":  # the token's seat must be the one to decide
            state = self.matches.snapshot_for_decision(position.match_id, context)
            return decision_from_state(state, "position.match_id")
        raise invalid("position", "give record, record_json or match_id")

    @handler
    def SuggestMove(self, request, context):
        bot = make_checked_bot(request.bot)
        limits = convert.limits_from_proto(request.budget if request.HasField("budget") else None, self.config)
        decision = self._decision(request.position, context)
        with self.searches.admitted():
            budgeted = within_deadline(limits, context)
            stop = CallStop(context)
            start = time.perf_counter()
            move, stopped = decide(bot, decision.view, budgeted.limits, request.seed, stop, decision.deck)
            millis = clock_ms(start)
        if stop() and not context.is_active():
            raise ApiError(grpc.StatusCode.CANCELLED, "the call ended before the search")
        return bot_pb2.SuggestMoveResponse(
            move=convert.move_to_proto(move),
            player=convert.player_to_proto(decision.player),
            bot=bot.name,
            millis=millis,
            # A capped budget only counts as cut short when the search ran into the cap.
            stopped_early=stopped or (budgeted.cut and millis >= 0.9 * budgeted.limits.millis),
        )

    def _analysis_request(self, request, context):
        limits = convert.limits_from_proto(request.budget if request.HasField("budget") else None, self.config)
        if request.belief_samples > MAX_BELIEF_SAMPLES:
            raise invalid("belief_samples", f"{request.belief_samples} is over this server's limit of {MAX_BELIEF_SAMPLES}")
        return limits, self._decision(request.position, context)

    def _belief(self, request, decision: Decision, context):
        if not request.belief_samples:
            return None
        samples = request.belief_samples
        remaining = context.time_remaining()
        if remaining is not None:  # the report says how many samples it drew
            samples = max(1, min(samples, int(remaining * 1000 * 0.5 / BELIEF_MS_PER_SAMPLE)))
        return belief_report(decision.view, samples, request.seed)

    @handler
    def Analyze(self, request, context):
        limits, decision = self._analysis_request(request, context)
        with self.searches.admitted():
            budgeted = within_deadline(limits, context)
            analysis = run_analysis(decision.view, budgeted.limits, request.seed, CallStop(context))
            if not analysis.best:
                raise ApiError(grpc.StatusCode.DEADLINE_EXCEEDED, "the search was stopped before it found a move")
            analysis.belief = self._belief(request, decision, context)
        return bot_pb2.AnalyzeResponse(analysis=convert.analysis_to_proto(analysis, decision.deck))

    @handler
    def AnalyzeStream(self, request, context):
        limits, decision = self._analysis_request(request, context)
        every = request.progress_every or max(1, (limits.iterations or 1000) // 10)
        with self.searches.admitted():
            budgeted = within_deadline(limits, context)
            stop = CallStop(context)
            reports: queue.Queue = queue.Queue()
            done = object()

            def search():
                # Progress arrives on the search thread; this thread sends it.
                try:
                    result = run_analysis(decision.view, budgeted.limits, request.seed, stop,
                                          progress=reports.put, every=every)
                    reports.put(("final", result))
                except BaseException as exc:  # noqa: BLE001 - handed to the sending thread
                    reports.put(("error", exc))
                finally:
                    reports.put(done)

            worker = threading.Thread(target=search, name="analyze-stream", daemon=True)
            worker.start()
            final = failure = None
            try:
                while True:
                    item = reports.get()
                    if item is done:
                        break
                    if isinstance(item, tuple) and item[0] == "final":
                        final = item[1]
                    elif isinstance(item, tuple) and item[0] == "error":
                        failure = item[1]
                    elif not stop():
                        item.finished = False
                        yield bot_pb2.AnalyzeResponse(analysis=convert.analysis_to_proto(item, decision.deck))
            finally:
                stop.event.set()  # the client went away mid-stream: end the search too
                worker.join()
            if failure is not None:
                raise failure
            if final is None or not final.best:
                raise ApiError(grpc.StatusCode.DEADLINE_EXCEEDED, "the search was stopped before it found a move")
            final.belief = self._belief(request, decision, context)
        yield bot_pb2.AnalyzeResponse(analysis=convert.analysis_to_proto(final, decision.deck))
