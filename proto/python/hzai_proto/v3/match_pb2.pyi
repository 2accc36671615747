from hzai_proto.v3 import common_pb2 as _common_pb2
from google.protobuf import any_pb2 as _any_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CreateMatchRequest(_message.Message):
    __slots__ = ("game", "params_json", "bot_seats", "bot", "budget", "seed", "open", "bot_levels")
    GAME_FIELD_NUMBER: _ClassVar[int]
    PARAMS_JSON_FIELD_NUMBER: _ClassVar[int]
    BOT_SEATS_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    OPEN_FIELD_NUMBER: _ClassVar[int]
    BOT_LEVELS_FIELD_NUMBER: _ClassVar[int]
    game: str
    params_json: str
    bot_seats: _containers.RepeatedScalarFieldContainer[int]
    bot: str
    budget: _common_pb2.Budget
    seed: int
    open: bool
    bot_levels: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, game: _Optional[str] = ..., params_json: _Optional[str] = ..., bot_seats: _Optional[_Iterable[int]] = ..., bot: _Optional[str] = ..., budget: _Optional[_Union[_common_pb2.Budget, _Mapping]] = ..., seed: _Optional[int] = ..., open: _Optional[bool] = ..., bot_levels: _Optional[_Iterable[int]] = ...) -> None: ...

class SeatToken(_message.Message):
    __slots__ = ("seat", "seat_name", "token")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_NAME_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    seat_name: str
    token: str
    def __init__(self, seat: _Optional[int] = ..., seat_name: _Optional[str] = ..., token: _Optional[str] = ...) -> None: ...

class MatchStatus(_message.Message):
    __slots__ = ("match_id", "game", "seats", "bot_seats", "moves_played", "to_move", "over", "returns", "result", "reason", "record_json", "final_state_json", "seed_commitment", "seed", "salt", "open", "seat", "bot_levels", "detail")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    BOT_SEATS_FIELD_NUMBER: _ClassVar[int]
    MOVES_PLAYED_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    OVER_FIELD_NUMBER: _ClassVar[int]
    RETURNS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    RECORD_JSON_FIELD_NUMBER: _ClassVar[int]
    FINAL_STATE_JSON_FIELD_NUMBER: _ClassVar[int]
    SEED_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SALT_FIELD_NUMBER: _ClassVar[int]
    OPEN_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOT_LEVELS_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    seats: _containers.RepeatedScalarFieldContainer[str]
    bot_seats: _containers.RepeatedScalarFieldContainer[int]
    moves_played: int
    to_move: int
    over: bool
    returns: _containers.RepeatedScalarFieldContainer[float]
    result: str
    reason: str
    record_json: str
    final_state_json: str
    seed_commitment: str
    seed: int
    salt: str
    open: bool
    seat: int
    bot_levels: _containers.RepeatedScalarFieldContainer[int]
    detail: _any_pb2.Any
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., seats: _Optional[_Iterable[str]] = ..., bot_seats: _Optional[_Iterable[int]] = ..., moves_played: _Optional[int] = ..., to_move: _Optional[int] = ..., over: _Optional[bool] = ..., returns: _Optional[_Iterable[float]] = ..., result: _Optional[str] = ..., reason: _Optional[str] = ..., record_json: _Optional[str] = ..., final_state_json: _Optional[str] = ..., seed_commitment: _Optional[str] = ..., seed: _Optional[int] = ..., salt: _Optional[str] = ..., open: _Optional[bool] = ..., seat: _Optional[int] = ..., bot_levels: _Optional[_Iterable[int]] = ..., detail: _Optional[_Union[_any_pb2.Any, _Mapping]] = ...) -> None: ...

class CreateMatchResponse(_message.Message):
    __slots__ = ("status", "seats", "spectator_token")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_TOKEN_FIELD_NUMBER: _ClassVar[int]
    status: MatchStatus
    seats: _containers.RepeatedCompositeFieldContainer[SeatToken]
    spectator_token: str
    def __init__(self, status: _Optional[_Union[MatchStatus, _Mapping]] = ..., seats: _Optional[_Iterable[_Union[SeatToken, _Mapping]]] = ..., spectator_token: _Optional[str] = ...) -> None: ...

class GetViewRequest(_message.Message):
    __slots__ = ("match_id", "seat", "with_history")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    WITH_HISTORY_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    with_history: bool
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., with_history: _Optional[bool] = ...) -> None: ...

class GetViewResponse(_message.Message):
    __slots__ = ("view", "board", "status", "history")
    VIEW_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    view: _common_pb2.View
    board: str
    status: MatchStatus
    history: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeenMove]
    def __init__(self, view: _Optional[_Union[_common_pb2.View, _Mapping]] = ..., board: _Optional[str] = ..., status: _Optional[_Union[MatchStatus, _Mapping]] = ..., history: _Optional[_Iterable[_Union[_common_pb2.SeenMove, _Mapping]]] = ...) -> None: ...

class ListLegalMovesRequest(_message.Message):
    __slots__ = ("match_id", "seat")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class ListLegalMovesResponse(_message.Message):
    __slots__ = ("moves", "status")
    MOVES_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.RepeatedCompositeFieldContainer[_common_pb2.Move]
    status: MatchStatus
    def __init__(self, moves: _Optional[_Iterable[_Union[_common_pb2.Move, _Mapping]]] = ..., status: _Optional[_Union[MatchStatus, _Mapping]] = ...) -> None: ...

class PlayMoveRequest(_message.Message):
    __slots__ = ("match_id", "seat", "move", "move_number")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    MOVE_NUMBER_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    move: _common_pb2.Move
    move_number: int
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., move: _Optional[_Union[_common_pb2.Move, _Mapping]] = ..., move_number: _Optional[int] = ...) -> None: ...

class PlayMoveResponse(_message.Message):
    __slots__ = ("played", "chance", "status", "events")
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    CHANCE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    played: _common_pb2.Move
    chance: _containers.RepeatedCompositeFieldContainer[_common_pb2.Move]
    status: MatchStatus
    events: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeenMove]
    def __init__(self, played: _Optional[_Union[_common_pb2.Move, _Mapping]] = ..., chance: _Optional[_Iterable[_Union[_common_pb2.Move, _Mapping]]] = ..., status: _Optional[_Union[MatchStatus, _Mapping]] = ..., events: _Optional[_Iterable[_Union[_common_pb2.SeenMove, _Mapping]]] = ...) -> None: ...

class BotPlayTurnRequest(_message.Message):
    __slots__ = ("match_id", "seed", "move_number")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    MOVE_NUMBER_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seed: int
    move_number: int
    def __init__(self, match_id: _Optional[str] = ..., seed: _Optional[int] = ..., move_number: _Optional[int] = ...) -> None: ...

class BotPlayTurnResponse(_message.Message):
    __slots__ = ("moves", "status", "events")
    MOVES_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.RepeatedCompositeFieldContainer[_common_pb2.Move]
    status: MatchStatus
    events: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeenMove]
    def __init__(self, moves: _Optional[_Iterable[_Union[_common_pb2.Move, _Mapping]]] = ..., status: _Optional[_Union[MatchStatus, _Mapping]] = ..., events: _Optional[_Iterable[_Union[_common_pb2.SeenMove, _Mapping]]] = ...) -> None: ...

class DeleteMatchRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class DeleteMatchResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
