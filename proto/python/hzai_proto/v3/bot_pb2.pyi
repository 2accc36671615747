from hzai_proto.v3 import common_pb2 as _common_pb2
from google.protobuf import any_pb2 as _any_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Priority(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PRIORITY_DEFAULT: _ClassVar[Priority]
    PRIORITY_INTERACTIVE: _ClassVar[Priority]
    PRIORITY_BATCH: _ClassVar[Priority]
PRIORITY_DEFAULT: Priority
PRIORITY_INTERACTIVE: Priority
PRIORITY_BATCH: Priority

class ListGamesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games",)
    GAMES_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[_common_pb2.GameInfo]
    def __init__(self, games: _Optional[_Iterable[_Union[_common_pb2.GameInfo, _Mapping]]] = ...) -> None: ...

class SuggestMoveRequest(_message.Message):
    __slots__ = ("position", "budget", "seed", "bot", "priority", "level")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    position: _common_pb2.Position
    budget: _common_pb2.Budget
    seed: int
    bot: str
    priority: Priority
    level: int
    def __init__(self, position: _Optional[_Union[_common_pb2.Position, _Mapping]] = ..., budget: _Optional[_Union[_common_pb2.Budget, _Mapping]] = ..., seed: _Optional[int] = ..., bot: _Optional[str] = ..., priority: _Optional[_Union[Priority, str]] = ..., level: _Optional[int] = ...) -> None: ...

class SuggestMoveResponse(_message.Message):
    __slots__ = ("move", "seat", "seat_name", "bot", "millis", "stopped_early", "level")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    MILLIS_FIELD_NUMBER: _ClassVar[int]
    STOPPED_EARLY_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    move: _common_pb2.Move
    seat: int
    seat_name: str
    bot: str
    millis: float
    stopped_early: bool
    level: int
    def __init__(self, move: _Optional[_Union[_common_pb2.Move, _Mapping]] = ..., seat: _Optional[int] = ..., seat_name: _Optional[str] = ..., bot: _Optional[str] = ..., millis: _Optional[float] = ..., stopped_early: _Optional[bool] = ..., level: _Optional[int] = ...) -> None: ...

class AnalyzeRequest(_message.Message):
    __slots__ = ("position", "budget", "seed", "belief_samples", "progress_every", "allow_moves", "avoid_moves", "positions", "priority", "bot")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    BELIEF_SAMPLES_FIELD_NUMBER: _ClassVar[int]
    PROGRESS_EVERY_FIELD_NUMBER: _ClassVar[int]
    ALLOW_MOVES_FIELD_NUMBER: _ClassVar[int]
    AVOID_MOVES_FIELD_NUMBER: _ClassVar[int]
    POSITIONS_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    position: _common_pb2.Position
    budget: _common_pb2.Budget
    seed: int
    belief_samples: int
    progress_every: int
    allow_moves: _containers.RepeatedScalarFieldContainer[str]
    avoid_moves: _containers.RepeatedScalarFieldContainer[str]
    positions: _containers.RepeatedCompositeFieldContainer[BatchPosition]
    priority: Priority
    bot: str
    def __init__(self, position: _Optional[_Union[_common_pb2.Position, _Mapping]] = ..., budget: _Optional[_Union[_common_pb2.Budget, _Mapping]] = ..., seed: _Optional[int] = ..., belief_samples: _Optional[int] = ..., progress_every: _Optional[int] = ..., allow_moves: _Optional[_Iterable[str]] = ..., avoid_moves: _Optional[_Iterable[str]] = ..., positions: _Optional[_Iterable[_Union[BatchPosition, _Mapping]]] = ..., priority: _Optional[_Union[Priority, str]] = ..., bot: _Optional[str] = ...) -> None: ...

class BatchPosition(_message.Message):
    __slots__ = ("position", "allow_moves", "avoid_moves")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    ALLOW_MOVES_FIELD_NUMBER: _ClassVar[int]
    AVOID_MOVES_FIELD_NUMBER: _ClassVar[int]
    position: _common_pb2.Position
    allow_moves: _containers.RepeatedScalarFieldContainer[str]
    avoid_moves: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, position: _Optional[_Union[_common_pb2.Position, _Mapping]] = ..., allow_moves: _Optional[_Iterable[str]] = ..., avoid_moves: _Optional[_Iterable[str]] = ...) -> None: ...

class PositionResult(_message.Message):
    __slots__ = ("index", "analysis", "code", "error")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    ANALYSIS_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    index: int
    analysis: Analysis
    code: int
    error: str
    def __init__(self, index: _Optional[int] = ..., analysis: _Optional[_Union[Analysis, _Mapping]] = ..., code: _Optional[int] = ..., error: _Optional[str] = ...) -> None: ...

class MoveInfo(_message.Message):
    __slots__ = ("move", "visits", "value", "ci_low", "ci_high", "availability", "order", "pv", "pv_words")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    VISITS_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    CI_LOW_FIELD_NUMBER: _ClassVar[int]
    CI_HIGH_FIELD_NUMBER: _ClassVar[int]
    AVAILABILITY_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    PV_FIELD_NUMBER: _ClassVar[int]
    PV_WORDS_FIELD_NUMBER: _ClassVar[int]
    move: _common_pb2.Move
    visits: int
    value: float
    ci_low: float
    ci_high: float
    availability: int
    order: int
    pv: _containers.RepeatedCompositeFieldContainer[_common_pb2.Move]
    pv_words: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, move: _Optional[_Union[_common_pb2.Move, _Mapping]] = ..., visits: _Optional[int] = ..., value: _Optional[float] = ..., ci_low: _Optional[float] = ..., ci_high: _Optional[float] = ..., availability: _Optional[int] = ..., order: _Optional[int] = ..., pv: _Optional[_Iterable[_Union[_common_pb2.Move, _Mapping]]] = ..., pv_words: _Optional[_Iterable[str]] = ...) -> None: ...

class Belief(_message.Message):
    __slots__ = ("observer", "samples", "seed", "json", "detail")
    OBSERVER_FIELD_NUMBER: _ClassVar[int]
    SAMPLES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    observer: int
    samples: int
    seed: int
    json: str
    detail: _any_pb2.Any
    def __init__(self, observer: _Optional[int] = ..., samples: _Optional[int] = ..., seed: _Optional[int] = ..., json: _Optional[str] = ..., detail: _Optional[_Union[_any_pb2.Any, _Mapping]] = ...) -> None: ...

class Analysis(_message.Message):
    __slots__ = ("game", "perspective", "perspective_name", "iterations", "millis", "best", "value", "moves", "seed", "finished", "belief", "bot")
    GAME_FIELD_NUMBER: _ClassVar[int]
    PERSPECTIVE_FIELD_NUMBER: _ClassVar[int]
    PERSPECTIVE_NAME_FIELD_NUMBER: _ClassVar[int]
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    MILLIS_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    BELIEF_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    game: str
    perspective: int
    perspective_name: str
    iterations: int
    millis: float
    best: _common_pb2.Move
    value: float
    moves: _containers.RepeatedCompositeFieldContainer[MoveInfo]
    seed: int
    finished: bool
    belief: Belief
    bot: str
    def __init__(self, game: _Optional[str] = ..., perspective: _Optional[int] = ..., perspective_name: _Optional[str] = ..., iterations: _Optional[int] = ..., millis: _Optional[float] = ..., best: _Optional[_Union[_common_pb2.Move, _Mapping]] = ..., value: _Optional[float] = ..., moves: _Optional[_Iterable[_Union[MoveInfo, _Mapping]]] = ..., seed: _Optional[int] = ..., finished: _Optional[bool] = ..., belief: _Optional[_Union[Belief, _Mapping]] = ..., bot: _Optional[str] = ...) -> None: ...

class AnalyzeResponse(_message.Message):
    __slots__ = ("analysis", "results")
    ANALYSIS_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    analysis: Analysis
    results: _containers.RepeatedCompositeFieldContainer[PositionResult]
    def __init__(self, analysis: _Optional[_Union[Analysis, _Mapping]] = ..., results: _Optional[_Iterable[_Union[PositionResult, _Mapping]]] = ...) -> None: ...

class RootChoice(_message.Message):
    __slots__ = ("allow_moves", "avoid_moves")
    ALLOW_MOVES_FIELD_NUMBER: _ClassVar[int]
    AVOID_MOVES_FIELD_NUMBER: _ClassVar[int]
    allow_moves: _containers.RepeatedScalarFieldContainer[str]
    avoid_moves: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, allow_moves: _Optional[_Iterable[str]] = ..., avoid_moves: _Optional[_Iterable[str]] = ...) -> None: ...

class AnalyzeGameRequest(_message.Message):
    __slots__ = ("position", "budget", "seed", "seats", "belief", "root_moves", "priority", "bot")
    class RootMovesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: int
        value: RootChoice
        def __init__(self, key: _Optional[int] = ..., value: _Optional[_Union[RootChoice, _Mapping]] = ...) -> None: ...
    POSITION_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    BELIEF_FIELD_NUMBER: _ClassVar[int]
    ROOT_MOVES_FIELD_NUMBER: _ClassVar[int]
    PRIORITY_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    position: _common_pb2.Position
    budget: _common_pb2.Budget
    seed: int
    seats: _containers.RepeatedScalarFieldContainer[int]
    belief: bool
    root_moves: _containers.MessageMap[int, RootChoice]
    priority: Priority
    bot: str
    def __init__(self, position: _Optional[_Union[_common_pb2.Position, _Mapping]] = ..., budget: _Optional[_Union[_common_pb2.Budget, _Mapping]] = ..., seed: _Optional[int] = ..., seats: _Optional[_Iterable[int]] = ..., belief: _Optional[bool] = ..., root_moves: _Optional[_Mapping[int, RootChoice]] = ..., priority: _Optional[_Union[Priority, str]] = ..., bot: _Optional[str] = ...) -> None: ...

class ReviewedDecision(_message.Message):
    __slots__ = ("index", "seat", "seat_name", "played", "played_value", "played_ci_low", "played_ci_high", "played_visits", "best", "best_value", "best_ci_low", "best_ci_high", "loss", "mark", "pv", "seed", "belief_json", "analysis")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_NAME_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    PLAYED_VALUE_FIELD_NUMBER: _ClassVar[int]
    PLAYED_CI_LOW_FIELD_NUMBER: _ClassVar[int]
    PLAYED_CI_HIGH_FIELD_NUMBER: _ClassVar[int]
    PLAYED_VISITS_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    BEST_VALUE_FIELD_NUMBER: _ClassVar[int]
    BEST_CI_LOW_FIELD_NUMBER: _ClassVar[int]
    BEST_CI_HIGH_FIELD_NUMBER: _ClassVar[int]
    LOSS_FIELD_NUMBER: _ClassVar[int]
    MARK_FIELD_NUMBER: _ClassVar[int]
    PV_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    BELIEF_JSON_FIELD_NUMBER: _ClassVar[int]
    ANALYSIS_FIELD_NUMBER: _ClassVar[int]
    index: int
    seat: int
    seat_name: str
    played: _common_pb2.Move
    played_value: float
    played_ci_low: float
    played_ci_high: float
    played_visits: int
    best: _common_pb2.Move
    best_value: float
    best_ci_low: float
    best_ci_high: float
    loss: float
    mark: str
    pv: _containers.RepeatedCompositeFieldContainer[_common_pb2.Move]
    seed: int
    belief_json: str
    analysis: Analysis
    def __init__(self, index: _Optional[int] = ..., seat: _Optional[int] = ..., seat_name: _Optional[str] = ..., played: _Optional[_Union[_common_pb2.Move, _Mapping]] = ..., played_value: _Optional[float] = ..., played_ci_low: _Optional[float] = ..., played_ci_high: _Optional[float] = ..., played_visits: _Optional[int] = ..., best: _Optional[_Union[_common_pb2.Move, _Mapping]] = ..., best_value: _Optional[float] = ..., best_ci_low: _Optional[float] = ..., best_ci_high: _Optional[float] = ..., loss: _Optional[float] = ..., mark: _Optional[str] = ..., pv: _Optional[_Iterable[_Union[_common_pb2.Move, _Mapping]]] = ..., seed: _Optional[int] = ..., belief_json: _Optional[str] = ..., analysis: _Optional[_Union[Analysis, _Mapping]] = ...) -> None: ...

class GameReviewSummary(_message.Message):
    __slots__ = ("decisions", "total", "complete", "stopped")
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_FIELD_NUMBER: _ClassVar[int]
    STOPPED_FIELD_NUMBER: _ClassVar[int]
    decisions: int
    total: int
    complete: bool
    stopped: str
    def __init__(self, decisions: _Optional[int] = ..., total: _Optional[int] = ..., complete: _Optional[bool] = ..., stopped: _Optional[str] = ...) -> None: ...

class AnalyzeGameResponse(_message.Message):
    __slots__ = ("decision", "summary")
    DECISION_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    decision: ReviewedDecision
    summary: GameReviewSummary
    def __init__(self, decision: _Optional[_Union[ReviewedDecision, _Mapping]] = ..., summary: _Optional[_Union[GameReviewSummary, _Mapping]] = ...) -> None: ...
