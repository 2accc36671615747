"""The service's native hot path (hzai.games.hera_zeus.native.decision, replay.hpp, knowledge.hpp) against
the reference: random games of every variant set, short turn limits and a second deck,
replayed from their move texts in the core. After every game the event log and the state
equal the reference engine's; at thousands of positions along the way the view spec of
the seat to decide equals flat_view(view_of(state, seat)); bad records get the reference
engine's RecordError; the bots choose the golden moves from the native view."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from hzai import _native
from hzai.games.hera_zeus.belief import view_of
from hzai.games.hera_zeus.rules import Game, Record, state_to_json
from hzai.core.record import NoDecision
from hzai.games.hera_zeus.records import no_decision_reason
from hzai.games.hera_zeus.rules.playout import random_step
from hzai.games.hera_zeus.rules.record import RecordError
from hzai.games.hera_zeus.native.state import NativeState, native_game
from hzai.games.hera_zeus.native.check import VARIANT_SETS
from hzai.games.hera_zeus.native.decision import NativeDecisionView, native_decision
from hzai.games.hera_zeus.native.search import flat_view
from hzai.rng import SplitMix64

from .decks import small_game

REPO = Path(__file__).resolve().parents[2]
GAMES_PER_SET = 14
SHORT_LIMITS = (1, 3, 8)


def _name(v: dict) -> str:
    return "-".join(str(x) for x in v.values())


def slot_fields(slot) -> tuple:
    return slot.kind, slot.code, slot.group, slot.face_up, tuple(slot.excluded)


def spec_fields(spec) -> tuple:
    """Every field of a ViewSpec, as plain values to compare."""
    return (
        tuple(tuple(tuple(slot_fields(s) for s in column) for column in side) for side in spec.columns),
        tuple(tuple(slot_fields(s) for s in hand) for hand in spec.hands),
        tuple(map(tuple, spec.discards)), tuple(spec.deck_sizes),
        tuple((g.owner, tuple(g.known), tuple((n, tuple(ex)) for n, ex in g.wildcards)) for g in spec.groups),
        tuple(map(tuple, spec.pools)),
        tuple((p.kind, p.player, p.place_code, tuple(p.pile_positions)) for p in spec.pending),
        spec.phase, spec.turn, spec.turn_player, spec.to_move, spec.ap, spec.ap_spent, spec.winner, spec.reason,
    )


def event_fields(event) -> tuple:
    return event.kind, event.card, event.src, event.dst, event.to


def random_game(game: Game, seed: int, max_moves: int = 400):
    """A seeded random game in the reference engine: (record, [(moves played, state copy
    where a seat decides)] at about a third of the decisions, final state)."""
    record = Record(game, seed=seed)
    state = record.start()
    rng = SplitMix64(seed)
    chooser = random.Random(seed)
    stops = []
    while not state.is_over and len(record.moves) < max_moves:
        if state.to_move is not None and chooser.random() < 0.35:
            stops.append((len(record.moves), state.copy()))
        random_step(state, rng)
        record.moves.append(str(state.history[-1]))
    return record, stops, state


def check_game(game: Game, seed: int) -> int:
    """Replay one random game natively; compare events, states and views. Returns the
    number of views compared."""
    record, stops, final = random_game(game, seed)
    start = native_game(game).deal(seed)
    stopped_at, end, events = _native.replay_texts(start, record.moves)
    where = f"{game.variants.to_dict()} seed {seed}"
    assert stopped_at == -1, f"{where}: the core stopped at move {stopped_at}: {record.moves[stopped_at]!r}"
    dealt = sum(1 for e in final.events if e.kind == "dealt")
    assert events == [event_fields(e) for e in final.events[dealt:]], f"{where}: event logs differ"
    assert NativeState(game, end).to_json() == state_to_json(final), f"{where}: final states differ"
    for n, state in stops:
        _, _, spec = _native.decide_after(start, record.moves[:n])
        expected = flat_view(view_of(state, state.to_move), game)
        assert spec is not None and spec_fields(spec) == spec_fields(expected), f"{where}: view after {n} moves"
    return len(stops)


@pytest.mark.parametrize("variants", VARIANT_SETS, ids=_name)
def test_native_replay_and_views_equal_the_reference(variants):
    game = Game.create(variants)
    compared = sum(check_game(game, 70_000 + seed) for seed in range(GAMES_PER_SET))
    assert compared > GAMES_PER_SET * 10  # hundreds of positions per variant set, thousands in all


@pytest.mark.parametrize("limit", SHORT_LIMITS)
def test_short_turn_limits_end_the_same(limit):
    for variants in VARIANT_SETS[::3]:
        game = Game.create(dict(variants, turn_limit=limit))
        for seed in range(6):
            check_game(game, 80_000 + seed)


def test_another_deck_replays_the_same():
    game = small_game()
    assert sum(check_game(game, 90_000 + seed) for seed in range(12)) > 50


def test_view_to_decide_gives_the_native_view_of_the_reference():
    game = Game.create()
    record, stops, _ = random_game(game, 5)
    for n, state in stops[:40]:
        prefix = Record(game, seed=5, moves=record.moves[:n])
        view = game.records.view_to_decide(prefix)
        assert isinstance(view, NativeDecisionView)
        assert view.seat == view.current_seat == state.to_move
        reference = view_of(state, state.to_move)
        assert view.to_json() == reference.to_json()  # the reference view, built on first use
        assert view == reference
        assert [str(m) for m in view.legal_moves()] == [str(m) for m in state.legal_moves()]


def test_a_setup_record_replays_natively():
    handmade = Record.from_json(json.loads((REPO / "tests/data/handmade_game.json").read_text()))
    assert handmade.setup is not None
    for upto in range(len(handmade.moves) + 1):
        prefix = Record(handmade.game, handmade.setup, None, handmade.moves[:upto])
        state = prefix.replay()
        if state.is_over or state.is_chance:
            with pytest.raises(NoDecision) as caught:
                handmade.game.records.view_to_decide(prefix)
            assert str(caught.value) == no_decision_reason(state)
            continue
        fast = native_decision(prefix)
        assert fast is not None, f"the core stopped in the hand-made game before move {upto}"
        assert spec_fields(fast[1].native_spec) == spec_fields(flat_view(view_of(state, state.to_move), handmade.game))


# ----- bad records: the reference engine's own errors -----------------------------------------
def _errors(record: Record):
    """(the reference replay's RecordError, view_to_decide's), as (message, index, move)."""
    answers = []
    for attempt in (record.replay, lambda: record.game.records.view_to_decide(record)):
        with pytest.raises(RecordError) as caught:
            attempt()
        answers.append((str(caught.value), caught.value.index, caught.value.move))
    return answers


BAD_TEXTS = ["", "   ", "fly c1", "play Nobody c1r1", "draw now", "play Hydra c9r1", "challenge c4",
             "top Hydra", "place c1", "chance Hydra", "setup Hydra Hydra Hydra", "dionysus c1r1 c1r1",
             "pegasus hand", "sirens", "hades Cyclops", "recall", "god c2", "\udc80", "play ? c1r1"]


@pytest.mark.parametrize("text", BAD_TEXTS)
def test_bad_moves_get_the_reference_errors(text):
    game = Game.create()
    record, stops, _ = random_game(game, 11)
    for n in (0, 1, 2, *(n for n, _ in stops[:6])):
        broken = Record(game, seed=11, moves=[*record.moves[:n], text, *record.moves[n:n + 3]])
        try:
            broken.replay()
        except RecordError:
            reference, fast = _errors(broken)
            assert fast == reference
        else:  # legal here after all: then the same view on both paths
            state = broken.replay()
            if not (state.is_over or state.is_chance):
                assert broken.game.records.view_to_decide(broken).to_json() == view_of(state, state.to_move).to_json()


def test_other_spellings_the_reference_accepts_give_the_same_view():
    """Texts the core does not write (case, spacing, a redundant owner) go to the
    reference engine, which reads them; the answer is the one it would give."""
    game = Game.create()
    record, stops, _ = random_game(game, 21)
    respelled = 0
    for n, state in stops[:25]:
        text = record.moves[n]
        for variant in (text.upper(), "  " + text.replace(" ", "\t") + " ",
                        text.replace("play ", "play ").replace(" c", " C")):
            if variant == text:
                continue
            broken = Record(game, seed=21, moves=[*record.moves[:n], variant])
            try:
                expected_state = broken.replay()
            except RecordError:
                reference, fast = _errors(broken)
                assert fast == reference
                continue
            respelled += 1
            assert native_decision(broken) is None  # the core does not read it ...
            if expected_state.is_over or expected_state.is_chance:
                continue
            view = game.records.view_to_decide(broken)  # ... and the reference path answers
            assert view.to_json() == view_of(expected_state, expected_state.to_move).to_json()
    assert respelled > 10


def test_malformed_setups_get_the_reference_errors():
    game = Game.create()
    good = Record(game, seed=3).start()
    names = {p: [game.deck.cards[x].name for x in good.hands[i]] for i, p in enumerate(("hera", "zeus"))}
    decks = {p: [game.deck.cards[x].name for x in good.decks[i]] for i, p in enumerate(("hera", "zeus"))}
    setups = [
        {"hera": {"hand": names["hera"], "deck": decks["hera"]}},
        {"hera": {"hand": names["hera"][:-1], "deck": decks["hera"]}, "zeus": {"hand": names["zeus"], "deck": decks["zeus"]}},
        {"hera": {"hand": ["Nobody", *names["hera"][1:]], "deck": decks["hera"]},
         "zeus": {"hand": names["zeus"], "deck": decks["zeus"]}},
        {"hera": {"hand": names["hera"], "deck": decks["hera"], "x": 1}, "zeus": {"hand": names["zeus"], "deck": decks["zeus"]}},
    ]
    for setup in setups:
        assert len(_errors(Record(game, setup, None, []))) == 2
        reference, fast = _errors(Record(game, setup, None, []))
        assert fast == reference


def test_game_over_and_chance_next_are_no_decision():
    game = Game.create()
    record, _, final = random_game(game, 2)
    assert final.is_over
    with pytest.raises(NoDecision, match="the game is over") as caught:
        game.records.view_to_decide(record)
    assert str(caught.value) == no_decision_reason(final)
    chances = 0
    for seed in range(2, 12):  # prefixes that end just before a chance result
        record, _, _ = random_game(game, seed)
        for n in [i for i, text in enumerate(record.moves) if text.startswith("chance ")][:2]:
            prefix = Record(game, seed=seed, moves=record.moves[:n])
            with pytest.raises(NoDecision) as caught:
                game.records.view_to_decide(prefix)
            assert str(caught.value) == no_decision_reason(prefix.replay())
            assert "chance" in str(caught.value)
            chances += 1
    assert chances > 3


def test_a_stop_request_ends_view_to_decide():
    from hzai.games.hera_zeus.rules.replay_cache import ReplayStopped

    game = Game.create()
    with pytest.raises(ReplayStopped):
        game.records.view_to_decide(Record(game, seed=1), should_stop=lambda: True)


# ----- the bots on the native view: the golden decisions --------------------------------------
def golden_records() -> dict[str, Record]:
    """The records of tests/golden's positions (make_golden.positions, as records)."""
    from tests.golden.make_golden import PHASE_TURNS

    handmade = Record.from_json(json.loads((REPO / "tests/data/handmade_game.json").read_text()))
    found = {}
    for upto in (0, 4, 9, 14):
        found[f"handmade@{upto}"] = Record(handmade.game, handmade.setup, None, handmade.moves[:upto])
    game = Game.create()
    seed = 100
    for turn in PHASE_TURNS:
        while True:
            seed += 1
            state = Record(game, seed=seed).start()
            rng = SplitMix64(seed)
            while not state.is_over and (state.turn < turn or state.to_move is None):
                random_step(state, rng)
            if not state.is_over:
                found[f"random{seed}@turn{state.turn}"] = Record(game, seed=seed, moves=[str(m) for m in state.history])
                break
    for zeus_first in (1, 2):
        found[f"zeus_first{zeus_first}@0"] = Record(Game.create({"first_player": "zeus"}), seed=zeus_first)
    return found


def test_bots_choose_the_golden_moves_from_the_native_view():
    from hzai.search import Limits, analyze, make_bot

    golden = json.loads((REPO / "tests/golden/decisions.json").read_text())
    records = golden_records()
    checked = 0
    for row in golden:
        record = records[row["position"]]
        view = record.game.records.view_to_decide(record)
        assert isinstance(view, NativeDecisionView)
        if row["bot"] in ("random", "heuristic"):
            move = make_bot(row["bot"]).decide(view, Limits(iterations=1), seed=row["seed"]).move
        else:
            limits = Limits(iterations=row["budget"], threads=1)
            # "ismcts" rows are the moves of today's ismcts-v1 (tests/golden/make_golden.py)
            bot = "ismcts-v1" if row["bot"] == "ismcts" else row["bot"]
            move = make_bot(bot).decide(view, limits, seed=row["seed"]).move
            if row["bot"] == "ismcts":
                answer = analyze(view, limits, seed=row["seed"], guide=None, replicas=1)
                assert dict(sorted((str(m.move), m.visits) for m in answer.moves)) == row["visits"]
        assert str(move) == row["move"], row
        checked += 1
    assert checked == len(golden) >= 100


def test_the_native_view_offers_no_record_and_drops_it_once_built():
    """No peeking: the view of the seat to decide does not hand out the record (the
    whole deal); the copy kept to build the reference view goes once that is built."""
    from hzai.games.hera_zeus.rules import Game, Record
    from hzai.games.hera_zeus.native.decision import native_decision

    game = Game.create()
    record = Record(game, seed=5)
    _, view = native_decision(record)
    with pytest.raises(AttributeError):
        view.record
    view.to_json()
    assert view._record is None


def test_the_native_view_answers_the_turn_progress_of_the_reference():
    """A split budget (ismcts:split=S) reads turn_progress; the view the service decides
    with answers it from the native spec, as the reference view does, and without
    replaying the record in Python for it."""
    game = Game.create()
    compared = in_turn = 0
    for seed in (5, 6, 7):
        record, stops, _ = random_game(game, seed)
        for n, state in stops:
            view = game.records.view_to_decide(Record(game, seed=seed, moves=record.moves[:n]))
            assert isinstance(view, NativeDecisionView)
            progress = view.turn_progress()
            assert view._reference is None  # read without the reference view
            assert progress == view_of(state, state.to_move).turn_progress(), (seed, n)
            compared += 1
            in_turn += progress is not None and sum(progress) > 1
    assert compared > 60 and in_turn > 20


def test_a_split_bot_spends_the_turns_shares_on_the_native_view():
    """ismcts:split=0.5 at 600 iterations on the view the service decides with: a turn's
    first action of three searches 900 iterations, its last 300 (before, the native view
    answered no turn progress and every decision searched 600)."""
    from hzai.search import Limits, make_bot

    game = Game.create()
    record, stops, _ = random_game(game, 11)
    spent = {}
    for n, state in stops:
        view = game.records.view_to_decide(Record(game, seed=11, moves=record.moves[:n]))
        key = view.turn_progress()
        if key in ((0, 3), (2, 1)) and key not in spent:
            spent[key] = make_bot("ismcts:split=0.5").decide(view, Limits(iterations=600), seed=3).analysis.iterations
    assert spent == {(0, 3): 900, (2, 1): 300}


def test_threads_sharing_a_native_view_build_its_reference_once():
    """The server's decision cache hands one view to concurrent calls. Two threads that
    ask for the reference view at once get the same one, built from one replay; before,
    both replayed, and a thread arriving after the other had dropped the record failed
    on it."""
    import threading

    game = Game.create()
    record, stops, _ = random_game(game, 8)
    n, _ = stops[3]

    class SlowRecord:
        """The record, whose replay waits a while for a second replay to start."""

        def __init__(self, inner):
            self.inner, self.game = inner, inner.game
            self.replays = 0
            self.second = threading.Event()

        def replay(self):
            self.replays += 1
            if self.replays == 2:
                self.second.set()
            else:
                self.second.wait(1.0)  # unlocked, the other thread's replay comes meanwhile
            return self.inner.replay()

    slow = SlowRecord(Record(game, seed=8, moves=record.moves[:n]))
    _, built = native_decision(slow.inner)
    view = NativeDecisionView(slow, built.native_spec)
    got, errors = [], []

    def read():
        try:
            got.append(view.reference)
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=read) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and slow.replays == 1
    assert len(got) == 2 and got[0] is got[1] and view._record is None
    assert got[0] == view_of(slow.inner.replay(), view.seat)
