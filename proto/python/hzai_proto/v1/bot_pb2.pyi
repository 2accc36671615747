from hzai_proto.v1 import game_pb2 as _game_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Budget(_message.Message):
    __slots__ = ("iterations", "millis", "threads")
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    MILLIS_FIELD_NUMBER: _ClassVar[int]
    THREADS_FIELD_NUMBER: _ClassVar[int]
    iterations: int
    millis: int
    threads: int
    def __init__(self, iterations: _Optional[int] = ..., millis: _Optional[int] = ..., threads: _Optional[int] = ...) -> None: ...

class Position(_message.Message):
    __slots__ = ("record", "record_json", "match_id")
    RECORD_FIELD_NUMBER: _ClassVar[int]
    RECORD_JSON_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    record: _game_pb2.GameRecord
    record_json: str
    match_id: str
    def __init__(self, record: _Optional[_Union[_game_pb2.GameRecord, _Mapping]] = ..., record_json: _Optional[str] = ..., match_id: _Optional[str] = ...) -> None: ...

class SuggestMoveRequest(_message.Message):
    __slots__ = ("position", "budget", "seed", "bot")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    position: Position
    budget: Budget
    seed: int
    bot: str
    def __init__(self, position: _Optional[_Union[Position, _Mapping]] = ..., budget: _Optional[_Union[Budget, _Mapping]] = ..., seed: _Optional[int] = ..., bot: _Optional[str] = ...) -> None: ...

class SuggestMoveResponse(_message.Message):
    __slots__ = ("move", "player", "bot", "millis", "stopped_early")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    MILLIS_FIELD_NUMBER: _ClassVar[int]
    STOPPED_EARLY_FIELD_NUMBER: _ClassVar[int]
    move: _game_pb2.Move
    player: _game_pb2.Player
    bot: str
    millis: float
    stopped_early: bool
    def __init__(self, move: _Optional[_Union[_game_pb2.Move, _Mapping]] = ..., player: _Optional[_Union[_game_pb2.Player, str]] = ..., bot: _Optional[str] = ..., millis: _Optional[float] = ..., stopped_early: _Optional[bool] = ...) -> None: ...

class AnalyzeRequest(_message.Message):
    __slots__ = ("position", "budget", "seed", "belief_samples", "progress_every")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    BELIEF_SAMPLES_FIELD_NUMBER: _ClassVar[int]
    PROGRESS_EVERY_FIELD_NUMBER: _ClassVar[int]
    position: Position
    budget: Budget
    seed: int
    belief_samples: int
    progress_every: int
    def __init__(self, position: _Optional[_Union[Position, _Mapping]] = ..., budget: _Optional[_Union[Budget, _Mapping]] = ..., seed: _Optional[int] = ..., belief_samples: _Optional[int] = ..., progress_every: _Optional[int] = ...) -> None: ...

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
    move: _game_pb2.Move
    visits: int
    value: float
    ci_low: float
    ci_high: float
    availability: int
    order: int
    pv: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, move: _Optional[_Union[_game_pb2.Move, _Mapping]] = ..., visits: _Optional[int] = ..., value: _Optional[float] = ..., ci_low: _Optional[float] = ..., ci_high: _Optional[float] = ..., availability: _Optional[int] = ..., order: _Optional[int] = ..., pv: _Optional[_Iterable[str]] = ...) -> None: ...

class HostageLocation(_message.Message):
    __slots__ = ("where", "probability", "exact")
    WHERE_FIELD_NUMBER: _ClassVar[int]
    PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    where: str
    probability: float
    exact: float
    def __init__(self, where: _Optional[str] = ..., probability: _Optional[float] = ..., exact: _Optional[float] = ...) -> None: ...

class SlotBelief(_message.Message):
    __slots__ = ("slot", "cards")
    class CardsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    SLOT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    slot: str
    cards: _containers.ScalarMap[str, float]
    def __init__(self, slot: _Optional[str] = ..., cards: _Optional[_Mapping[str, float]] = ...) -> None: ...

class BeliefReport(_message.Message):
    __slots__ = ("observer", "opponent", "samples", "seed", "hostage", "hostage_locations", "slots", "hand_size", "hand_expected")
    class HandExpectedEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    OBSERVER_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_FIELD_NUMBER: _ClassVar[int]
    SAMPLES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    HOSTAGE_FIELD_NUMBER: _ClassVar[int]
    HOSTAGE_LOCATIONS_FIELD_NUMBER: _ClassVar[int]
    SLOTS_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    HAND_EXPECTED_FIELD_NUMBER: _ClassVar[int]
    observer: _game_pb2.Player
    opponent: _game_pb2.Player
    samples: int
    seed: int
    hostage: str
    hostage_locations: _containers.RepeatedCompositeFieldContainer[HostageLocation]
    slots: _containers.RepeatedCompositeFieldContainer[SlotBelief]
    hand_size: int
    hand_expected: _containers.ScalarMap[str, float]
    def __init__(self, observer: _Optional[_Union[_game_pb2.Player, str]] = ..., opponent: _Optional[_Union[_game_pb2.Player, str]] = ..., samples: _Optional[int] = ..., seed: _Optional[int] = ..., hostage: _Optional[str] = ..., hostage_locations: _Optional[_Iterable[_Union[HostageLocation, _Mapping]]] = ..., slots: _Optional[_Iterable[_Union[SlotBelief, _Mapping]]] = ..., hand_size: _Optional[int] = ..., hand_expected: _Optional[_Mapping[str, float]] = ...) -> None: ...

class Analysis(_message.Message):
    __slots__ = ("perspective", "to_move", "iterations", "millis", "best", "value", "moves", "seed", "finished", "belief")
    PERSPECTIVE_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    MILLIS_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    BELIEF_FIELD_NUMBER: _ClassVar[int]
    perspective: _game_pb2.Player
    to_move: _game_pb2.Player
    iterations: int
    millis: float
    best: _game_pb2.Move
    value: float
    moves: _containers.RepeatedCompositeFieldContainer[MoveInfo]
    seed: int
    finished: bool
    belief: BeliefReport
    def __init__(self, perspective: _Optional[_Union[_game_pb2.Player, str]] = ..., to_move: _Optional[_Union[_game_pb2.Player, str]] = ..., iterations: _Optional[int] = ..., millis: _Optional[float] = ..., best: _Optional[_Union[_game_pb2.Move, _Mapping]] = ..., value: _Optional[float] = ..., moves: _Optional[_Iterable[_Union[MoveInfo, _Mapping]]] = ..., seed: _Optional[int] = ..., finished: _Optional[bool] = ..., belief: _Optional[_Union[BeliefReport, _Mapping]] = ...) -> None: ...

class AnalyzeResponse(_message.Message):
    __slots__ = ("analysis",)
    ANALYSIS_FIELD_NUMBER: _ClassVar[int]
    analysis: Analysis
    def __init__(self, analysis: _Optional[_Union[Analysis, _Mapping]] = ...) -> None: ...
