from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Player(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PLAYER_UNSPECIFIED: _ClassVar[Player]
    PLAYER_HERA: _ClassVar[Player]
    PLAYER_ZEUS: _ClassVar[Player]
PLAYER_UNSPECIFIED: Player
PLAYER_HERA: Player
PLAYER_ZEUS: Player

class Variants(_message.Message):
    __slots__ = ("first_player", "figure_removal", "pythia_defence", "turn_limit")
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    FIGURE_REMOVAL_FIELD_NUMBER: _ClassVar[int]
    PYTHIA_DEFENCE_FIELD_NUMBER: _ClassVar[int]
    TURN_LIMIT_FIELD_NUMBER: _ClassVar[int]
    first_player: str
    figure_removal: str
    pythia_defence: str
    turn_limit: int
    def __init__(self, first_player: _Optional[str] = ..., figure_removal: _Optional[str] = ..., pythia_defence: _Optional[str] = ..., turn_limit: _Optional[int] = ...) -> None: ...

class Card(_message.Message):
    __slots__ = ("name", "owner")
    NAME_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    name: str
    owner: Player
    def __init__(self, name: _Optional[str] = ..., owner: _Optional[_Union[Player, str]] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ("text", "kind", "card", "col", "row", "to_col", "to_row", "setup", "redacted")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    ROW_FIELD_NUMBER: _ClassVar[int]
    TO_COL_FIELD_NUMBER: _ClassVar[int]
    TO_ROW_FIELD_NUMBER: _ClassVar[int]
    SETUP_FIELD_NUMBER: _ClassVar[int]
    REDACTED_FIELD_NUMBER: _ClassVar[int]
    text: str
    kind: str
    card: Card
    col: int
    row: int
    to_col: int
    to_row: int
    setup: _containers.RepeatedCompositeFieldContainer[Card]
    redacted: bool
    def __init__(self, text: _Optional[str] = ..., kind: _Optional[str] = ..., card: _Optional[_Union[Card, _Mapping]] = ..., col: _Optional[int] = ..., row: _Optional[int] = ..., to_col: _Optional[int] = ..., to_row: _Optional[int] = ..., setup: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., redacted: _Optional[bool] = ...) -> None: ...

class SeenMove(_message.Message):
    __slots__ = ("index", "player", "move", "narration")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    NARRATION_FIELD_NUMBER: _ClassVar[int]
    index: int
    player: Player
    move: Move
    narration: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, index: _Optional[int] = ..., player: _Optional[_Union[Player, str]] = ..., move: _Optional[_Union[Move, _Mapping]] = ..., narration: _Optional[_Iterable[str]] = ...) -> None: ...

class SideSetup(_message.Message):
    __slots__ = ("hand", "deck")
    HAND_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    hand: _containers.RepeatedScalarFieldContainer[str]
    deck: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, hand: _Optional[_Iterable[str]] = ..., deck: _Optional[_Iterable[str]] = ...) -> None: ...

class Setup(_message.Message):
    __slots__ = ("hera", "zeus")
    HERA_FIELD_NUMBER: _ClassVar[int]
    ZEUS_FIELD_NUMBER: _ClassVar[int]
    hera: SideSetup
    zeus: SideSetup
    def __init__(self, hera: _Optional[_Union[SideSetup, _Mapping]] = ..., zeus: _Optional[_Union[SideSetup, _Mapping]] = ...) -> None: ...

class GameRecord(_message.Message):
    __slots__ = ("variants", "deck", "setup", "seed", "moves")
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    SETUP_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    variants: Variants
    deck: str
    setup: Setup
    seed: int
    moves: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, variants: _Optional[_Union[Variants, _Mapping]] = ..., deck: _Optional[str] = ..., setup: _Optional[_Union[Setup, _Mapping]] = ..., seed: _Optional[int] = ..., moves: _Optional[_Iterable[str]] = ...) -> None: ...

class Slot(_message.Message):
    __slots__ = ("card", "group", "figure", "face_up", "excluded")
    CARD_FIELD_NUMBER: _ClassVar[int]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    FIGURE_FIELD_NUMBER: _ClassVar[int]
    FACE_UP_FIELD_NUMBER: _ClassVar[int]
    EXCLUDED_FIELD_NUMBER: _ClassVar[int]
    card: Card
    group: int
    figure: bool
    face_up: bool
    excluded: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, card: _Optional[_Union[Card, _Mapping]] = ..., group: _Optional[int] = ..., figure: _Optional[bool] = ..., face_up: _Optional[bool] = ..., excluded: _Optional[_Iterable[str]] = ...) -> None: ...

class Column(_message.Message):
    __slots__ = ("slots",)
    SLOTS_FIELD_NUMBER: _ClassVar[int]
    slots: _containers.RepeatedCompositeFieldContainer[Slot]
    def __init__(self, slots: _Optional[_Iterable[_Union[Slot, _Mapping]]] = ...) -> None: ...

class SideView(_message.Message):
    __slots__ = ("columns", "hand", "deck_size", "discard")
    COLUMNS_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    columns: _containers.RepeatedCompositeFieldContainer[Column]
    hand: _containers.RepeatedCompositeFieldContainer[Slot]
    deck_size: int
    discard: _containers.RepeatedCompositeFieldContainer[Card]
    def __init__(self, columns: _Optional[_Iterable[_Union[Column, _Mapping]]] = ..., hand: _Optional[_Iterable[_Union[Slot, _Mapping]]] = ..., deck_size: _Optional[int] = ..., discard: _Optional[_Iterable[_Union[Card, _Mapping]]] = ...) -> None: ...

class Group(_message.Message):
    __slots__ = ("owner", "known", "wildcards")
    class KnownEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    OWNER_FIELD_NUMBER: _ClassVar[int]
    KNOWN_FIELD_NUMBER: _ClassVar[int]
    WILDCARDS_FIELD_NUMBER: _ClassVar[int]
    owner: Player
    known: _containers.ScalarMap[str, int]
    wildcards: _containers.RepeatedCompositeFieldContainer[Wildcards]
    def __init__(self, owner: _Optional[_Union[Player, str]] = ..., known: _Optional[_Mapping[str, int]] = ..., wildcards: _Optional[_Iterable[_Union[Wildcards, _Mapping]]] = ...) -> None: ...

class Wildcards(_message.Message):
    __slots__ = ("count", "excluded")
    COUNT_FIELD_NUMBER: _ClassVar[int]
    EXCLUDED_FIELD_NUMBER: _ClassVar[int]
    count: int
    excluded: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, count: _Optional[int] = ..., excluded: _Optional[_Iterable[str]] = ...) -> None: ...

class Pending(_message.Message):
    __slots__ = ("decision", "player", "card")
    DECISION_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    decision: str
    player: Player
    card: Card
    def __init__(self, decision: _Optional[str] = ..., player: _Optional[_Union[Player, str]] = ..., card: _Optional[_Union[Card, _Mapping]] = ...) -> None: ...

class PlayerView(_message.Message):
    __slots__ = ("observer", "variants", "deck", "phase", "turn", "turn_player", "to_move", "ap_left", "ap_spent", "winner", "reason", "hera", "zeus", "groups", "pending", "json")
    OBSERVER_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    TURN_PLAYER_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    AP_LEFT_FIELD_NUMBER: _ClassVar[int]
    AP_SPENT_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    HERA_FIELD_NUMBER: _ClassVar[int]
    ZEUS_FIELD_NUMBER: _ClassVar[int]
    GROUPS_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    observer: Player
    variants: Variants
    deck: str
    phase: str
    turn: int
    turn_player: Player
    to_move: Player
    ap_left: int
    ap_spent: int
    winner: str
    reason: str
    hera: SideView
    zeus: SideView
    groups: _containers.RepeatedCompositeFieldContainer[Group]
    pending: _containers.RepeatedCompositeFieldContainer[Pending]
    json: str
    def __init__(self, observer: _Optional[_Union[Player, str]] = ..., variants: _Optional[_Union[Variants, _Mapping]] = ..., deck: _Optional[str] = ..., phase: _Optional[str] = ..., turn: _Optional[int] = ..., turn_player: _Optional[_Union[Player, str]] = ..., to_move: _Optional[_Union[Player, str]] = ..., ap_left: _Optional[int] = ..., ap_spent: _Optional[int] = ..., winner: _Optional[str] = ..., reason: _Optional[str] = ..., hera: _Optional[_Union[SideView, _Mapping]] = ..., zeus: _Optional[_Union[SideView, _Mapping]] = ..., groups: _Optional[_Iterable[_Union[Group, _Mapping]]] = ..., pending: _Optional[_Iterable[_Union[Pending, _Mapping]]] = ..., json: _Optional[str] = ...) -> None: ...

class GameState(_message.Message):
    __slots__ = ("json",)
    JSON_FIELD_NUMBER: _ClassVar[int]
    json: str
    def __init__(self, json: _Optional[str] = ...) -> None: ...
