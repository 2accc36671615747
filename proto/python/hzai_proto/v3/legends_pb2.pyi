from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class LegendsMove(_message.Message):
    __slots__ = ("kind", "monster", "card", "attr", "count", "cards", "order", "seat")
    KIND_FIELD_NUMBER: _ClassVar[int]
    MONSTER_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    ATTR_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    kind: str
    monster: int
    card: str
    attr: str
    count: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    order: _containers.RepeatedScalarFieldContainer[str]
    seat: int
    def __init__(self, kind: _Optional[str] = ..., monster: _Optional[int] = ..., card: _Optional[str] = ..., attr: _Optional[str] = ..., count: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., order: _Optional[_Iterable[str]] = ..., seat: _Optional[int] = ...) -> None: ...

class LegendsVariants(_message.Message):
    __slots__ = ("relocation", "turn_limit")
    RELOCATION_FIELD_NUMBER: _ClassVar[int]
    TURN_LIMIT_FIELD_NUMBER: _ClassVar[int]
    relocation: str
    turn_limit: int
    def __init__(self, relocation: _Optional[str] = ..., turn_limit: _Optional[int] = ...) -> None: ...

class LegendsHand(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class LegendsSetup(_message.Message):
    __slots__ = ("monster_deck", "hands", "draw_pile")
    MONSTER_DECK_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    DRAW_PILE_FIELD_NUMBER: _ClassVar[int]
    monster_deck: _containers.RepeatedScalarFieldContainer[str]
    hands: _containers.RepeatedCompositeFieldContainer[LegendsHand]
    draw_pile: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, monster_deck: _Optional[_Iterable[str]] = ..., hands: _Optional[_Iterable[_Union[LegendsHand, _Mapping]]] = ..., draw_pile: _Optional[_Iterable[str]] = ...) -> None: ...

class LegendsRecord(_message.Message):
    __slots__ = ("mission", "heroes", "difficulty", "first_player", "variants", "data", "setup", "seed", "moves")
    MISSION_FIELD_NUMBER: _ClassVar[int]
    HEROES_FIELD_NUMBER: _ClassVar[int]
    DIFFICULTY_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    SETUP_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    mission: int
    heroes: _containers.RepeatedScalarFieldContainer[str]
    difficulty: str
    first_player: str
    variants: LegendsVariants
    data: str
    setup: LegendsSetup
    seed: int
    moves: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, mission: _Optional[int] = ..., heroes: _Optional[_Iterable[str]] = ..., difficulty: _Optional[str] = ..., first_player: _Optional[str] = ..., variants: _Optional[_Union[LegendsVariants, _Mapping]] = ..., data: _Optional[str] = ..., setup: _Optional[_Union[LegendsSetup, _Mapping]] = ..., seed: _Optional[int] = ..., moves: _Optional[_Iterable[str]] = ...) -> None: ...

class LegendsPlayed(_message.Message):
    __slots__ = ("card", "counts_as", "face", "by")
    CARD_FIELD_NUMBER: _ClassVar[int]
    COUNTS_AS_FIELD_NUMBER: _ClassVar[int]
    FACE_FIELD_NUMBER: _ClassVar[int]
    BY_FIELD_NUMBER: _ClassVar[int]
    card: str
    counts_as: str
    face: str
    by: int
    def __init__(self, card: _Optional[str] = ..., counts_as: _Optional[str] = ..., face: _Optional[str] = ..., by: _Optional[int] = ...) -> None: ...

class LegendsMonster(_message.Message):
    __slots__ = ("id", "cards", "requires", "size", "final", "defeated", "played")
    ID_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    REQUIRES_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    DEFEATED_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    id: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    requires: _containers.RepeatedScalarFieldContainer[str]
    size: int
    final: bool
    defeated: bool
    played: _containers.RepeatedCompositeFieldContainer[LegendsPlayed]
    def __init__(self, id: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., requires: _Optional[_Iterable[str]] = ..., size: _Optional[int] = ..., final: _Optional[bool] = ..., defeated: _Optional[bool] = ..., played: _Optional[_Iterable[_Union[LegendsPlayed, _Mapping]]] = ...) -> None: ...

class LegendsSeat(_message.Message):
    __slots__ = ("hero", "disc", "stranded", "broken", "hand_size", "hand", "known_in_hand")
    HERO_FIELD_NUMBER: _ClassVar[int]
    DISC_FIELD_NUMBER: _ClassVar[int]
    STRANDED_FIELD_NUMBER: _ClassVar[int]
    BROKEN_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    KNOWN_IN_HAND_FIELD_NUMBER: _ClassVar[int]
    hero: str
    disc: int
    stranded: bool
    broken: bool
    hand_size: int
    hand: _containers.RepeatedScalarFieldContainer[str]
    known_in_hand: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, hero: _Optional[str] = ..., disc: _Optional[int] = ..., stranded: _Optional[bool] = ..., broken: _Optional[bool] = ..., hand_size: _Optional[int] = ..., hand: _Optional[_Iterable[str]] = ..., known_in_hand: _Optional[_Iterable[str]] = ...) -> None: ...

class LegendsPilePlace(_message.Message):
    __slots__ = ("card", "unknown")
    CARD_FIELD_NUMBER: _ClassVar[int]
    UNKNOWN_FIELD_NUMBER: _ClassVar[int]
    card: str
    unknown: int
    def __init__(self, card: _Optional[str] = ..., unknown: _Optional[int] = ...) -> None: ...

class LegendsDiscarded(_message.Message):
    __slots__ = ("card", "by")
    CARD_FIELD_NUMBER: _ClassVar[int]
    BY_FIELD_NUMBER: _ClassVar[int]
    card: str
    by: int
    def __init__(self, card: _Optional[str] = ..., by: _Optional[int] = ...) -> None: ...

class LegendsView(_message.Message):
    __slots__ = ("mission", "difficulty", "turn", "pending", "result", "reason", "normals_entered", "normals_defeated", "monsters", "monster_deck", "monster_deck_holds", "seats", "draw_pile", "draw_pile_size", "discard_pile", "set_aside_di", "oracle_revealed", "moves")
    MISSION_FIELD_NUMBER: _ClassVar[int]
    DIFFICULTY_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    NORMALS_ENTERED_FIELD_NUMBER: _ClassVar[int]
    NORMALS_DEFEATED_FIELD_NUMBER: _ClassVar[int]
    MONSTERS_FIELD_NUMBER: _ClassVar[int]
    MONSTER_DECK_FIELD_NUMBER: _ClassVar[int]
    MONSTER_DECK_HOLDS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    DRAW_PILE_FIELD_NUMBER: _ClassVar[int]
    DRAW_PILE_SIZE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_PILE_FIELD_NUMBER: _ClassVar[int]
    SET_ASIDE_DI_FIELD_NUMBER: _ClassVar[int]
    ORACLE_REVEALED_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    mission: int
    difficulty: str
    turn: int
    pending: str
    result: str
    reason: str
    normals_entered: int
    normals_defeated: int
    monsters: _containers.RepeatedCompositeFieldContainer[LegendsMonster]
    monster_deck: int
    monster_deck_holds: _containers.RepeatedScalarFieldContainer[str]
    seats: _containers.RepeatedCompositeFieldContainer[LegendsSeat]
    draw_pile: _containers.RepeatedCompositeFieldContainer[LegendsPilePlace]
    draw_pile_size: int
    discard_pile: _containers.RepeatedCompositeFieldContainer[LegendsDiscarded]
    set_aside_di: int
    oracle_revealed: _containers.RepeatedScalarFieldContainer[str]
    moves: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, mission: _Optional[int] = ..., difficulty: _Optional[str] = ..., turn: _Optional[int] = ..., pending: _Optional[str] = ..., result: _Optional[str] = ..., reason: _Optional[str] = ..., normals_entered: _Optional[int] = ..., normals_defeated: _Optional[int] = ..., monsters: _Optional[_Iterable[_Union[LegendsMonster, _Mapping]]] = ..., monster_deck: _Optional[int] = ..., monster_deck_holds: _Optional[_Iterable[str]] = ..., seats: _Optional[_Iterable[_Union[LegendsSeat, _Mapping]]] = ..., draw_pile: _Optional[_Iterable[_Union[LegendsPilePlace, _Mapping]]] = ..., draw_pile_size: _Optional[int] = ..., discard_pile: _Optional[_Iterable[_Union[LegendsDiscarded, _Mapping]]] = ..., set_aside_di: _Optional[int] = ..., oracle_revealed: _Optional[_Iterable[str]] = ..., moves: _Optional[_Iterable[str]] = ...) -> None: ...

class LegendsStatus(_message.Message):
    __slots__ = ("mission", "turn", "pending", "normals_entered", "normals_defeated", "monsters_in_play", "draw_pile_size")
    MISSION_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    NORMALS_ENTERED_FIELD_NUMBER: _ClassVar[int]
    NORMALS_DEFEATED_FIELD_NUMBER: _ClassVar[int]
    MONSTERS_IN_PLAY_FIELD_NUMBER: _ClassVar[int]
    DRAW_PILE_SIZE_FIELD_NUMBER: _ClassVar[int]
    mission: int
    turn: int
    pending: str
    normals_entered: int
    normals_defeated: int
    monsters_in_play: int
    draw_pile_size: int
    def __init__(self, mission: _Optional[int] = ..., turn: _Optional[int] = ..., pending: _Optional[str] = ..., normals_entered: _Optional[int] = ..., normals_defeated: _Optional[int] = ..., monsters_in_play: _Optional[int] = ..., draw_pile_size: _Optional[int] = ...) -> None: ...
