from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class HeraZeusVariants(_message.Message):
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

class HeraZeusCard(_message.Message):
    __slots__ = ("name", "owner")
    NAME_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    name: str
    owner: int
    def __init__(self, name: _Optional[str] = ..., owner: _Optional[int] = ...) -> None: ...

class HeraZeusMove(_message.Message):
    __slots__ = ("kind", "card", "col", "row", "to_col", "to_row", "setup")
    KIND_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    ROW_FIELD_NUMBER: _ClassVar[int]
    TO_COL_FIELD_NUMBER: _ClassVar[int]
    TO_ROW_FIELD_NUMBER: _ClassVar[int]
    SETUP_FIELD_NUMBER: _ClassVar[int]
    kind: str
    card: HeraZeusCard
    col: int
    row: int
    to_col: int
    to_row: int
    setup: _containers.RepeatedCompositeFieldContainer[HeraZeusCard]
    def __init__(self, kind: _Optional[str] = ..., card: _Optional[_Union[HeraZeusCard, _Mapping]] = ..., col: _Optional[int] = ..., row: _Optional[int] = ..., to_col: _Optional[int] = ..., to_row: _Optional[int] = ..., setup: _Optional[_Iterable[_Union[HeraZeusCard, _Mapping]]] = ...) -> None: ...

class HeraZeusSideSetup(_message.Message):
    __slots__ = ("hand", "deck")
    HAND_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    hand: _containers.RepeatedScalarFieldContainer[str]
    deck: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, hand: _Optional[_Iterable[str]] = ..., deck: _Optional[_Iterable[str]] = ...) -> None: ...

class HeraZeusRecord(_message.Message):
    __slots__ = ("variants", "deck", "setup", "seed", "moves")
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    SETUP_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    variants: HeraZeusVariants
    deck: str
    setup: HeraZeusSetup
    seed: int
    moves: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, variants: _Optional[_Union[HeraZeusVariants, _Mapping]] = ..., deck: _Optional[str] = ..., setup: _Optional[_Union[HeraZeusSetup, _Mapping]] = ..., seed: _Optional[int] = ..., moves: _Optional[_Iterable[str]] = ...) -> None: ...

class HeraZeusSetup(_message.Message):
    __slots__ = ("hera", "zeus")
    HERA_FIELD_NUMBER: _ClassVar[int]
    ZEUS_FIELD_NUMBER: _ClassVar[int]
    hera: HeraZeusSideSetup
    zeus: HeraZeusSideSetup
    def __init__(self, hera: _Optional[_Union[HeraZeusSideSetup, _Mapping]] = ..., zeus: _Optional[_Union[HeraZeusSideSetup, _Mapping]] = ...) -> None: ...

class HeraZeusSlot(_message.Message):
    __slots__ = ("card", "group", "figure", "face_up", "excluded")
    CARD_FIELD_NUMBER: _ClassVar[int]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    FIGURE_FIELD_NUMBER: _ClassVar[int]
    FACE_UP_FIELD_NUMBER: _ClassVar[int]
    EXCLUDED_FIELD_NUMBER: _ClassVar[int]
    card: HeraZeusCard
    group: int
    figure: bool
    face_up: bool
    excluded: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, card: _Optional[_Union[HeraZeusCard, _Mapping]] = ..., group: _Optional[int] = ..., figure: _Optional[bool] = ..., face_up: _Optional[bool] = ..., excluded: _Optional[_Iterable[str]] = ...) -> None: ...

class HeraZeusColumn(_message.Message):
    __slots__ = ("slots",)
    SLOTS_FIELD_NUMBER: _ClassVar[int]
    slots: _containers.RepeatedCompositeFieldContainer[HeraZeusSlot]
    def __init__(self, slots: _Optional[_Iterable[_Union[HeraZeusSlot, _Mapping]]] = ...) -> None: ...

class HeraZeusSide(_message.Message):
    __slots__ = ("columns", "hand", "deck_size", "discard")
    COLUMNS_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    columns: _containers.RepeatedCompositeFieldContainer[HeraZeusColumn]
    hand: _containers.RepeatedCompositeFieldContainer[HeraZeusSlot]
    deck_size: int
    discard: _containers.RepeatedCompositeFieldContainer[HeraZeusCard]
    def __init__(self, columns: _Optional[_Iterable[_Union[HeraZeusColumn, _Mapping]]] = ..., hand: _Optional[_Iterable[_Union[HeraZeusSlot, _Mapping]]] = ..., deck_size: _Optional[int] = ..., discard: _Optional[_Iterable[_Union[HeraZeusCard, _Mapping]]] = ...) -> None: ...

class HeraZeusGroup(_message.Message):
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
    owner: int
    known: _containers.ScalarMap[str, int]
    wildcards: _containers.RepeatedCompositeFieldContainer[HeraZeusWildcards]
    def __init__(self, owner: _Optional[int] = ..., known: _Optional[_Mapping[str, int]] = ..., wildcards: _Optional[_Iterable[_Union[HeraZeusWildcards, _Mapping]]] = ...) -> None: ...

class HeraZeusWildcards(_message.Message):
    __slots__ = ("count", "excluded")
    COUNT_FIELD_NUMBER: _ClassVar[int]
    EXCLUDED_FIELD_NUMBER: _ClassVar[int]
    count: int
    excluded: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, count: _Optional[int] = ..., excluded: _Optional[_Iterable[str]] = ...) -> None: ...

class HeraZeusPending(_message.Message):
    __slots__ = ("decision", "seat", "card")
    DECISION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    decision: str
    seat: int
    card: HeraZeusCard
    def __init__(self, decision: _Optional[str] = ..., seat: _Optional[int] = ..., card: _Optional[_Union[HeraZeusCard, _Mapping]] = ...) -> None: ...

class HeraZeusView(_message.Message):
    __slots__ = ("variants", "deck", "phase", "turn", "turn_seat", "ap_left", "ap_spent", "reason", "sides", "groups", "pending")
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    TURN_SEAT_FIELD_NUMBER: _ClassVar[int]
    AP_LEFT_FIELD_NUMBER: _ClassVar[int]
    AP_SPENT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    SIDES_FIELD_NUMBER: _ClassVar[int]
    GROUPS_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    variants: HeraZeusVariants
    deck: str
    phase: str
    turn: int
    turn_seat: int
    ap_left: int
    ap_spent: int
    reason: str
    sides: _containers.RepeatedCompositeFieldContainer[HeraZeusSide]
    groups: _containers.RepeatedCompositeFieldContainer[HeraZeusGroup]
    pending: _containers.RepeatedCompositeFieldContainer[HeraZeusPending]
    def __init__(self, variants: _Optional[_Union[HeraZeusVariants, _Mapping]] = ..., deck: _Optional[str] = ..., phase: _Optional[str] = ..., turn: _Optional[int] = ..., turn_seat: _Optional[int] = ..., ap_left: _Optional[int] = ..., ap_spent: _Optional[int] = ..., reason: _Optional[str] = ..., sides: _Optional[_Iterable[_Union[HeraZeusSide, _Mapping]]] = ..., groups: _Optional[_Iterable[_Union[HeraZeusGroup, _Mapping]]] = ..., pending: _Optional[_Iterable[_Union[HeraZeusPending, _Mapping]]] = ...) -> None: ...

class HeraZeusStatus(_message.Message):
    __slots__ = ("phase", "turn", "ap_left")
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    AP_LEFT_FIELD_NUMBER: _ClassVar[int]
    phase: str
    turn: int
    ap_left: int
    def __init__(self, phase: _Optional[str] = ..., turn: _Optional[int] = ..., ap_left: _Optional[int] = ...) -> None: ...

class HeraZeusHostageLocation(_message.Message):
    __slots__ = ("where", "probability", "exact", "inferred")
    WHERE_FIELD_NUMBER: _ClassVar[int]
    PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    INFERRED_FIELD_NUMBER: _ClassVar[int]
    where: str
    probability: float
    exact: float
    inferred: float
    def __init__(self, where: _Optional[str] = ..., probability: _Optional[float] = ..., exact: _Optional[float] = ..., inferred: _Optional[float] = ...) -> None: ...

class HeraZeusSlotBelief(_message.Message):
    __slots__ = ("slot", "cards", "inferred_cards")
    class CardsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    class InferredCardsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    SLOT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    INFERRED_CARDS_FIELD_NUMBER: _ClassVar[int]
    slot: str
    cards: _containers.ScalarMap[str, float]
    inferred_cards: _containers.ScalarMap[str, float]
    def __init__(self, slot: _Optional[str] = ..., cards: _Optional[_Mapping[str, float]] = ..., inferred_cards: _Optional[_Mapping[str, float]] = ...) -> None: ...

class HeraZeusBelief(_message.Message):
    __slots__ = ("opponent", "hostage", "hostage_locations", "slots", "hand_size", "hand_expected", "inference")
    class HandExpectedEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    OPPONENT_FIELD_NUMBER: _ClassVar[int]
    HOSTAGE_FIELD_NUMBER: _ClassVar[int]
    HOSTAGE_LOCATIONS_FIELD_NUMBER: _ClassVar[int]
    SLOTS_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    HAND_EXPECTED_FIELD_NUMBER: _ClassVar[int]
    INFERENCE_FIELD_NUMBER: _ClassVar[int]
    opponent: int
    hostage: str
    hostage_locations: _containers.RepeatedCompositeFieldContainer[HeraZeusHostageLocation]
    slots: _containers.RepeatedCompositeFieldContainer[HeraZeusSlotBelief]
    hand_size: int
    hand_expected: _containers.ScalarMap[str, float]
    inference: HeraZeusInference
    def __init__(self, opponent: _Optional[int] = ..., hostage: _Optional[str] = ..., hostage_locations: _Optional[_Iterable[_Union[HeraZeusHostageLocation, _Mapping]]] = ..., slots: _Optional[_Iterable[_Union[HeraZeusSlotBelief, _Mapping]]] = ..., hand_size: _Optional[int] = ..., hand_expected: _Optional[_Mapping[str, float]] = ..., inference: _Optional[_Union[HeraZeusInference, _Mapping]] = ...) -> None: ...

class HeraZeusInference(_message.Message):
    __slots__ = ("model", "temperature", "evidence", "effective_samples")
    MODEL_FIELD_NUMBER: _ClassVar[int]
    TEMPERATURE_FIELD_NUMBER: _ClassVar[int]
    EVIDENCE_FIELD_NUMBER: _ClassVar[int]
    EFFECTIVE_SAMPLES_FIELD_NUMBER: _ClassVar[int]
    model: str
    temperature: float
    evidence: int
    effective_samples: float
    def __init__(self, model: _Optional[str] = ..., temperature: _Optional[float] = ..., evidence: _Optional[int] = ..., effective_samples: _Optional[float] = ...) -> None: ...
