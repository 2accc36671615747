from hzai_proto.v1 import bot_pb2 as _bot_pb2
from hzai_proto.v1 import game_pb2 as _game_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CreateMatchRequest(_message.Message):
    __slots__ = ("seed", "variants", "hera_bot", "zeus_bot", "bot", "budget", "open")
    SEED_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    HERA_BOT_FIELD_NUMBER: _ClassVar[int]
    ZEUS_BOT_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    OPEN_FIELD_NUMBER: _ClassVar[int]
    seed: int
    variants: _game_pb2.Variants
    hera_bot: bool
    zeus_bot: bool
    bot: str
    budget: _bot_pb2.Budget
    open: bool
    def __init__(self, seed: _Optional[int] = ..., variants: _Optional[_Union[_game_pb2.Variants, _Mapping]] = ..., hera_bot: _Optional[bool] = ..., zeus_bot: _Optional[bool] = ..., bot: _Optional[str] = ..., budget: _Optional[_Union[_bot_pb2.Budget, _Mapping]] = ..., open: _Optional[bool] = ...) -> None: ...

class SeatToken(_message.Message):
    __slots__ = ("player", "token")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    player: _game_pb2.Player
    token: str
    def __init__(self, player: _Optional[_Union[_game_pb2.Player, str]] = ..., token: _Optional[str] = ...) -> None: ...

class MatchStatus(_message.Message):
    __slots__ = ("match_id", "moves_played", "phase", "turn", "to_move", "ap_left", "over", "winner", "reason", "hera_bot", "zeus_bot", "record", "final_state", "seed_commitment", "seed", "salt", "open", "seat")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    MOVES_PLAYED_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    AP_LEFT_FIELD_NUMBER: _ClassVar[int]
    OVER_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    HERA_BOT_FIELD_NUMBER: _ClassVar[int]
    ZEUS_BOT_FIELD_NUMBER: _ClassVar[int]
    RECORD_FIELD_NUMBER: _ClassVar[int]
    FINAL_STATE_FIELD_NUMBER: _ClassVar[int]
    SEED_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SALT_FIELD_NUMBER: _ClassVar[int]
    OPEN_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    moves_played: int
    phase: str
    turn: int
    to_move: _game_pb2.Player
    ap_left: int
    over: bool
    winner: str
    reason: str
    hera_bot: bool
    zeus_bot: bool
    record: _game_pb2.GameRecord
    final_state: _game_pb2.GameState
    seed_commitment: str
    seed: int
    salt: str
    open: bool
    seat: _game_pb2.Player
    def __init__(self, match_id: _Optional[str] = ..., moves_played: _Optional[int] = ..., phase: _Optional[str] = ..., turn: _Optional[int] = ..., to_move: _Optional[_Union[_game_pb2.Player, str]] = ..., ap_left: _Optional[int] = ..., over: _Optional[bool] = ..., winner: _Optional[str] = ..., reason: _Optional[str] = ..., hera_bot: _Optional[bool] = ..., zeus_bot: _Optional[bool] = ..., record: _Optional[_Union[_game_pb2.GameRecord, _Mapping]] = ..., final_state: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ..., seed_commitment: _Optional[str] = ..., seed: _Optional[int] = ..., salt: _Optional[str] = ..., open: _Optional[bool] = ..., seat: _Optional[_Union[_game_pb2.Player, str]] = ...) -> None: ...

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
    __slots__ = ("match_id", "player", "with_history")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    WITH_HISTORY_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    player: _game_pb2.Player
    with_history: bool
    def __init__(self, match_id: _Optional[str] = ..., player: _Optional[_Union[_game_pb2.Player, str]] = ..., with_history: _Optional[bool] = ...) -> None: ...

class GetViewResponse(_message.Message):
    __slots__ = ("view", "board", "status", "history")
    VIEW_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    view: _game_pb2.PlayerView
    board: str
    status: MatchStatus
    history: _containers.RepeatedCompositeFieldContainer[_game_pb2.SeenMove]
    def __init__(self, view: _Optional[_Union[_game_pb2.PlayerView, _Mapping]] = ..., board: _Optional[str] = ..., status: _Optional[_Union[MatchStatus, _Mapping]] = ..., history: _Optional[_Iterable[_Union[_game_pb2.SeenMove, _Mapping]]] = ...) -> None: ...

class ListLegalMovesRequest(_message.Message):
    __slots__ = ("match_id", "player")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    player: _game_pb2.Player
    def __init__(self, match_id: _Optional[str] = ..., player: _Optional[_Union[_game_pb2.Player, str]] = ...) -> None: ...

class ListLegalMovesResponse(_message.Message):
    __slots__ = ("moves", "status")
    MOVES_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.RepeatedCompositeFieldContainer[_game_pb2.Move]
    status: MatchStatus
    def __init__(self, moves: _Optional[_Iterable[_Union[_game_pb2.Move, _Mapping]]] = ..., status: _Optional[_Union[MatchStatus, _Mapping]] = ...) -> None: ...

class PlayMoveRequest(_message.Message):
    __slots__ = ("match_id", "player", "move", "move_number")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    MOVE_NUMBER_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    player: _game_pb2.Player
    move: _game_pb2.Move
    move_number: int
    def __init__(self, match_id: _Optional[str] = ..., player: _Optional[_Union[_game_pb2.Player, str]] = ..., move: _Optional[_Union[_game_pb2.Move, _Mapping]] = ..., move_number: _Optional[int] = ...) -> None: ...

class PlayMoveResponse(_message.Message):
    __slots__ = ("played", "chance", "status", "events")
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    CHANCE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    played: _game_pb2.Move
    chance: _containers.RepeatedCompositeFieldContainer[_game_pb2.Move]
    status: MatchStatus
    events: _containers.RepeatedCompositeFieldContainer[_game_pb2.SeenMove]
    def __init__(self, played: _Optional[_Union[_game_pb2.Move, _Mapping]] = ..., chance: _Optional[_Iterable[_Union[_game_pb2.Move, _Mapping]]] = ..., status: _Optional[_Union[MatchStatus, _Mapping]] = ..., events: _Optional[_Iterable[_Union[_game_pb2.SeenMove, _Mapping]]] = ...) -> None: ...

class BotPlayTurnRequest(_message.Message):
    __slots__ = ("match_id", "seed")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seed: int
    def __init__(self, match_id: _Optional[str] = ..., seed: _Optional[int] = ...) -> None: ...

class BotPlayTurnResponse(_message.Message):
    __slots__ = ("moves", "status", "events")
    MOVES_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.RepeatedCompositeFieldContainer[_game_pb2.Move]
    status: MatchStatus
    events: _containers.RepeatedCompositeFieldContainer[_game_pb2.SeenMove]
    def __init__(self, moves: _Optional[_Iterable[_Union[_game_pb2.Move, _Mapping]]] = ..., status: _Optional[_Union[MatchStatus, _Mapping]] = ..., events: _Optional[_Iterable[_Union[_game_pb2.SeenMove, _Mapping]]] = ...) -> None: ...

class DeleteMatchRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class DeleteMatchResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
