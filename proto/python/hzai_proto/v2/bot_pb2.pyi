from hzai_proto.v2 import common_pb2 as _common_pb2
from hzai_proto.v2 import hera_zeus_pb2 as _hera_zeus_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ListGamesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games",)
    GAMES_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[_common_pb2.GameInfo]
    def __init__(self, games: _Optional[_Iterable[_Union[_common_pb2.GameInfo, _Mapping]]] = ...) -> None: ...

class SuggestMoveRequest(_message.Message):
    __slots__ = ("position", "budget", "seed", "bot")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    position: _common_pb2.Position
    budget: _common_pb2.Budget
    seed: int
    bot: str
    def __init__(self, position: _Optional[_Union[_common_pb2.Position, _Mapping]] = ..., budget: _Optional[_Union[_common_pb2.Budget, _Mapping]] = ..., seed: _Optional[int] = ..., bot: _Optional[str] = ...) -> None: ...

class SuggestMoveResponse(_message.Message):
    __slots__ = ("move", "seat", "seat_name", "bot", "millis", "stopped_early")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    MILLIS_FIELD_NUMBER: _ClassVar[int]
    STOPPED_EARLY_FIELD_NUMBER: _ClassVar[int]
    move: _common_pb2.Move
    seat: int
    seat_name: str
    bot: str
    millis: float
    stopped_early: bool
    def __init__(self, move: _Optional[_Union[_common_pb2.Move, _Mapping]] = ..., seat: _Optional[int] = ..., seat_name: _Optional[str] = ..., bot: _Optional[str] = ..., millis: _Optional[float] = ..., stopped_early: _Optional[bool] = ...) -> None: ...

class AnalyzeRequest(_message.Message):
    __slots__ = ("position", "budget", "seed", "belief_samples", "progress_every")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    BELIEF_SAMPLES_FIELD_NUMBER: _ClassVar[int]
    PROGRESS_EVERY_FIELD_NUMBER: _ClassVar[int]
    position: _common_pb2.Position
    budget: _common_pb2.Budget
    seed: int
    belief_samples: int
    progress_every: int
    def __init__(self, position: _Optional[_Union[_common_pb2.Position, _Mapping]] = ..., budget: _Optional[_Union[_common_pb2.Budget, _Mapping]] = ..., seed: _Optional[int] = ..., belief_samples: _Optional[int] = ..., progress_every: _Optional[int] = ...) -> None: ...

class MoveInfo(_message.Message):
    __slots__ = ("move", "visits", "value", "ci_low", "ci_high", "availability", "order", "pv")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    VISITS_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    CI_LOW_FIELD_NUMBER: _ClassVar[int]
    CI_HIGH_FIELD_NUMBER: _ClassVar[int]
    AVAILABILITY_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    PV_FIELD_NUMBER: _ClassVar[int]
    move: _common_pb2.Move
    visits: int
    value: float
    ci_low: float
    ci_high: float
    availability: int
    order: int
    pv: _containers.RepeatedCompositeFieldContainer[_common_pb2.Move]
    def __init__(self, move: _Optional[_Union[_common_pb2.Move, _Mapping]] = ..., visits: _Optional[int] = ..., value: _Optional[float] = ..., ci_low: _Optional[float] = ..., ci_high: _Optional[float] = ..., availability: _Optional[int] = ..., order: _Optional[int] = ..., pv: _Optional[_Iterable[_Union[_common_pb2.Move, _Mapping]]] = ...) -> None: ...

class Belief(_message.Message):
    __slots__ = ("observer", "samples", "seed", "json", "hera_zeus")
    OBSERVER_FIELD_NUMBER: _ClassVar[int]
    SAMPLES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    HERA_ZEUS_FIELD_NUMBER: _ClassVar[int]
    observer: int
    samples: int
    seed: int
    json: str
    hera_zeus: _hera_zeus_pb2.HeraZeusBelief
    def __init__(self, observer: _Optional[int] = ..., samples: _Optional[int] = ..., seed: _Optional[int] = ..., json: _Optional[str] = ..., hera_zeus: _Optional[_Union[_hera_zeus_pb2.HeraZeusBelief, _Mapping]] = ...) -> None: ...

class Analysis(_message.Message):
    __slots__ = ("game", "perspective", "perspective_name", "iterations", "millis", "best", "value", "moves", "seed", "finished", "belief")
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
    def __init__(self, game: _Optional[str] = ..., perspective: _Optional[int] = ..., perspective_name: _Optional[str] = ..., iterations: _Optional[int] = ..., millis: _Optional[float] = ..., best: _Optional[_Union[_common_pb2.Move, _Mapping]] = ..., value: _Optional[float] = ..., moves: _Optional[_Iterable[_Union[MoveInfo, _Mapping]]] = ..., seed: _Optional[int] = ..., finished: _Optional[bool] = ..., belief: _Optional[_Union[Belief, _Mapping]] = ...) -> None: ...

class AnalyzeResponse(_message.Message):
    __slots__ = ("analysis",)
    ANALYSIS_FIELD_NUMBER: _ClassVar[int]
    analysis: Analysis
    def __init__(self, analysis: _Optional[_Union[Analysis, _Mapping]] = ...) -> None: ...
