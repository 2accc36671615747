"""BotService: SuggestMove, Analyze and AnalyzeStream."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import grpc

from hzai.games.hera_zeus.belief import View, belief_report, view_of
from hzai.bounded_cache import BoundedCache
from hzai.games.hera_zeus.cards import PLAYERS
from hzai.games.hera_zeus.rules import ReplayCache
from hzai.games.hera_zeus.rules.game import NoDecision
from hzai.games.hera_zeus.rules.replay_cache import record_digest, state_cost
from hzai_proto.v1 import bot_pb2, bot_pb2_grpc

from hzai_server import convert
from hzai_server.errors import ApiError, invalid
from hzai_server.rpc import handler
from hzai_server.searches import (CallStop, ProgressSlot, Searches, clock_ms, decide, finished_within,
                                  make_checked_bot, run_analysis, within_deadline)

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


class _ViewToDecide:
    """In convert.replay's place of a replay cache: the game replays the record and
    builds the view of the seat to decide itself (natively where it can)."""

    @staticmethod
    def replay(record, should_stop):
        return record.game.view_to_decide(record, should_stop)


class BotServicer(bot_pb2_grpc.BotServiceServicer):
    def __init__(self, config, searches: Searches, matches):
        self.config = config
        self.searches = searches
        self.matches = matches
        cache_on = config.replay_cache > 0
        # Front ends send the whole record with every request; replay only what is new.
        self.replays = ReplayCache(config.replay_cache, config.cache_bytes) if cache_on else None
        # The same record again (a retry, a second analysis, a load test) skips replay
        # and view building altogether: a decision's view is only ever read. Keyed by the
        # digest of the canonical record, so the same record written differently (other
        # spacing or key order, JSON or message) is one entry, and bounded in bytes.
        self.decisions = BoundedCache(config.replay_cache, config.cache_bytes) if cache_on else None

    def _from_record(self, record, field: str, stop: CallStop) -> Decision:
        key = record_digest(record) if self.decisions is not None else None
        if key is not None:
            remembered = self.decisions.get(key)
            if remembered is not None:
                return remembered
        try:  # convert.replay's error texts, around the game's own replay and view
            view = convert.replay(record, field, _ViewToDecide, stop)
        except NoDecision as exc:
            raise invalid(field, str(exc)) from None
        decision = Decision(view, view.current_seat, record.game.deck)
        if key is not None:
            self.decisions.put(key, decision, state_cost(len(record.moves)))
        return decision

    def _decision(self, position: bot_pb2.Position, context, stop: CallStop) -> Decision:
        source = position.WhichOneof("source")
        if source == "record":
            record = convert.record_from_proto(position.record, "position.record")
            return self._from_record(record, "position.record", stop)
        if source == "record_json":
            record = convert.record_from_json_text(position.record_json, "position.record_json")
            return self._from_record(record, "position.record_json", stop)
        if source == "match_id":  # the token's seat must be the one to decide
            state = self.matches.snapshot_for_decision(position.match_id, context)
            return decision_from_state(state, "position.match_id")
        raise invalid("position", "give record, record_json or match_id")

    @handler
    def SuggestMove(self, request, context):
        bot = make_checked_bot(request.bot)
        limits = convert.limits_from_proto(request.budget if request.HasField("budget") else None, self.config)
        stop = CallStop(context)
        decision = self._decision(request.position, context, stop)
        with self.searches.admitted():
            budgeted = within_deadline(limits, context)
            start = time.perf_counter()
            move, cut_short = decide(bot, decision.view, budgeted.limits, request.seed, stop, cut=budgeted.cut)
            millis = clock_ms(start)
        if stop.ended():
            raise ApiError(grpc.StatusCode.CANCELLED, "the call ended before the search")
        return bot_pb2.SuggestMoveResponse(
            move=convert.move_to_proto(move),
            player=convert.player_to_proto(decision.player),
            bot=bot.name,
            millis=millis,
            stopped_early=cut_short,  # the same rule as Analysis.finished, negated
        )

    def _analysis_request(self, request, context, stop: CallStop):
        limits = convert.limits_from_proto(request.budget if request.HasField("budget") else None, self.config)
        if request.belief_samples > MAX_BELIEF_SAMPLES:
            raise invalid("belief_samples", f"{request.belief_samples} is over this server's limit of {MAX_BELIEF_SAMPLES}")
        return limits, self._decision(request.position, context, stop)

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
        stop = CallStop(context)
        limits, decision = self._analysis_request(request, context, stop)
        with self.searches.admitted():
            budgeted = within_deadline(limits, context)
            analysis = run_analysis(decision.view, budgeted.limits, request.seed, stop)
            if analysis.best is None:
                raise ApiError(grpc.StatusCode.DEADLINE_EXCEEDED, "the search was stopped before it found a move")
            analysis.finished = finished_within(analysis.finished, budgeted.limits, budgeted.cut)
            analysis.belief = self._belief(request, decision, context)
        return bot_pb2.AnalyzeResponse(analysis=convert.analysis_to_proto(analysis, decision.deck))

    @handler
    def AnalyzeStream(self, request, context):
        stop = CallStop(context)
        limits, decision = self._analysis_request(request, context, stop)
        every = request.progress_every or max(1, (limits.iterations or 1000) // 10)
        with self.searches.admitted():
            budgeted = within_deadline(limits, context)
            slot = ProgressSlot()

            def search():
                # Progress arrives on the search thread; this thread sends it.
                try:
                    slot.finish("final", run_analysis(decision.view, budgeted.limits, request.seed, stop,
                                                      progress=slot.progress, every=every))
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
                        yield bot_pb2.AnalyzeResponse(analysis=convert.analysis_to_proto(item, decision.deck))
            finally:
                stop.event.set()  # the client went away mid-stream: end the search too
                worker.join()
            if kind == "error":
                raise item
            if item.best is None:
                raise ApiError(grpc.StatusCode.DEADLINE_EXCEEDED, "the search was stopped before it found a move")
            item.finished = finished_within(item.finished, budgeted.limits, budgeted.cut)
            item.belief = self._belief(request, decision, context)
        yield bot_pb2.AnalyzeResponse(analysis=convert.analysis_to_proto(item, decision.deck))
