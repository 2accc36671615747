from google.protobuf import any_pb2 as _any_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GameInfo(_message.Message):
    __slots__ = ("name", "title", "seats", "cooperative", "record_format", "num_actions", "bots", "params_help", "max_level", "model", "analysts")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    COOPERATIVE_FIELD_NUMBER: _ClassVar[int]
    RECORD_FORMAT_FIELD_NUMBER: _ClassVar[int]
    NUM_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    PARAMS_HELP_FIELD_NUMBER: _ClassVar[int]
    MAX_LEVEL_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    ANALYSTS_FIELD_NUMBER: _ClassVar[int]
    name: str
    title: str
    seats: _containers.RepeatedScalarFieldContainer[str]
    cooperative: bool
    record_format: str
    num_actions: int
    bots: _containers.RepeatedScalarFieldContainer[str]
    params_help: str
    max_level: int
    model: str
    analysts: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., title: _Optional[str] = ..., seats: _Optional[_Iterable[str]] = ..., cooperative: _Optional[bool] = ..., record_format: _Optional[str] = ..., num_actions: _Optional[int] = ..., bots: _Optional[_Iterable[str]] = ..., params_help: _Optional[str] = ..., max_level: _Optional[int] = ..., model: _Optional[str] = ..., analysts: _Optional[_Iterable[str]] = ...) -> None: ...

class Budget(_message.Message):
    __slots__ = ("iterations", "millis", "threads")
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    MILLIS_FIELD_NUMBER: _ClassVar[int]
    THREADS_FIELD_NUMBER: _ClassVar[int]
    iterations: int
    millis: int
    threads: int
    def __init__(self, iterations: _Optional[int] = ..., millis: _Optional[int] = ..., threads: _Optional[int] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ("text", "action", "redacted", "detail")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    REDACTED_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    text: str
    action: int
    redacted: bool
    detail: _any_pb2.Any
    def __init__(self, text: _Optional[str] = ..., action: _Optional[int] = ..., redacted: _Optional[bool] = ..., detail: _Optional[_Union[_any_pb2.Any, _Mapping]] = ...) -> None: ...

class Position(_message.Message):
    __slots__ = ("game", "record_json", "record", "match_id")
    GAME_FIELD_NUMBER: _ClassVar[int]
    RECORD_JSON_FIELD_NUMBER: _ClassVar[int]
    RECORD_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    game: str
    record_json: str
    record: _any_pb2.Any
    match_id: str
    def __init__(self, game: _Optional[str] = ..., record_json: _Optional[str] = ..., record: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., match_id: _Optional[str] = ...) -> None: ...

class View(_message.Message):
    __slots__ = ("game", "seat", "to_move", "over", "returns", "result", "json", "detail")
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    OVER_FIELD_NUMBER: _ClassVar[int]
    RETURNS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    game: str
    seat: int
    to_move: int
    over: bool
    returns: _containers.RepeatedScalarFieldContainer[float]
    result: str
    json: str
    detail: _any_pb2.Any
    def __init__(self, game: _Optional[str] = ..., seat: _Optional[int] = ..., to_move: _Optional[int] = ..., over: _Optional[bool] = ..., returns: _Optional[_Iterable[float]] = ..., result: _Optional[str] = ..., json: _Optional[str] = ..., detail: _Optional[_Union[_any_pb2.Any, _Mapping]] = ...) -> None: ...

class SeenMove(_message.Message):
    __slots__ = ("index", "seat", "move", "narration")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    NARRATION_FIELD_NUMBER: _ClassVar[int]
    index: int
    seat: int
    move: Move
    narration: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, index: _Optional[int] = ..., seat: _Optional[int] = ..., move: _Optional[_Union[Move, _Mapping]] = ..., narration: _Optional[_Iterable[str]] = ...) -> None: ...
