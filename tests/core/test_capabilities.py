"""Capabilities (hzai.core.capabilities): what a game offers beyond its rules is its parts
that are there (an optional member of its search support, model or presentation that is
not None, or the Model part itself), plus two facts its package states when it assembles
the game; parts that do not fit together are refused when they are assembled; and a
capability a game lacks is refused where it is used with an error naming the game and
the capability."""

from __future__ import annotations

import argparse
import io
import re
from pathlib import Path

import pytest

from hzai.core import (
    Capabilities, Game, Limits, MissingCapability, Presentation, SearchSupport, assemble, game_names, make_game,
    require,
)
from hzai.core.bot import BotError
from hzai.lazy import lazy_call
from hzai.core.capabilities import CAPABILITIES, capabilities_of
from hzai.rng import SplitMix64
from hzai.search import make_bot
from hzai.search.bot import served_bots
from hzai.search.review import review_moves
import tests.toygame.plugin  # noqa: F401  (registers both toy games, as a server's --load-games does)
from tests.toygame import ToyGame

BUILT_IN = {"hera_zeus", "legends"}
TOYS = {"toy_guess", "toy_team"}


def registered_games() -> dict[str, Game]:
    """Every registered name whose factory makes a Game without parameters (a test may
    register a factory of something else, as tests/core/test_core.py does)."""
    games = {}
    for name in game_names():
        try:
            game = make_game(name)
        except Exception:  # noqa: BLE001 - such a registration is no game to check
            continue
        if isinstance(game, Game):
            games[name] = game
    assert BUILT_IN | TOYS <= set(games), sorted(games)
    return games


def decision_view(game: Game, seed: int = 3):
    """The view of the first seat to decide in the game dealt from `seed`."""
    rng = SplitMix64(seed)
    state = game.new_state(seed)
    while state.current_seat is None:
        assert not state.is_terminal, "the game ended before anyone decided"
        outcomes = [move for move, _ in state.chance_outcomes()]
        state.apply(outcomes[rng.below(len(outcomes))])
    return state, state.view(state.current_seat)


# Each capability but the rules' two facts: the part and the member that are it (None:
# the part itself), and what calling it looks like on a decision view.
PARTS = {
    "native": ("search", "native_view", lambda game, view: game.search.native_view(view)),
    "heuristic": ("search", "heuristic_scores",
                  lambda game, view: game.search.heuristic_scores(view, view.legal_moves())),
    "opponent_model": ("search", "inferred_view", lambda game, view: game.search.inferred_view(view, None, 1, 8)),
    "model": ("model", None, None),
    "model_policy": ("model", "policy_of", None),
    "guided_worlds": ("model", "guided_view", None),
    "belief_report": ("presentation", "belief_report",
                      lambda game, view: game.presentation.belief_report(view, 8, 1)),
    "review_belief": ("presentation", "review_belief", lambda game, view: game.presentation.review_belief(view, 1)),
}


def has_part(game: Game, capability: str) -> bool:
    part, member, _ = PARTS[capability]
    found = getattr(game, part)
    return found is not None and (member is None or getattr(found, member) is not None)


@pytest.mark.parametrize("name", sorted(BUILT_IN | TOYS))
def test_every_registered_games_capabilities_are_its_parts(name):
    game = registered_games()[name]
    assert isinstance(game.capabilities, Capabilities)
    assert set(PARTS) | {"cooperative", "public_moves"} == set(CAPABILITIES)
    for capability in PARTS:
        assert game.capabilities.offers(capability) == has_part(game, capability), f"{name}: {capability}"
    assert game.capabilities == capabilities_of(game.search, game.model, game.presentation,
                                                game.capabilities.cooperative, game.capabilities.public_moves)


def test_the_games_offer_what_they_are_known_to_offer():
    games = registered_games()
    assert games["hera_zeus"].capabilities.offered() == (
        "native", "heuristic", "opponent_model", "model", "model_policy", "guided_worlds", "belief_report",
        "review_belief")
    assert games["legends"].capabilities.offered() == ("cooperative", "native", "heuristic", "model", "guided_worlds")
    assert games["toy_guess"].capabilities.offered() == ("public_moves",)
    assert games["toy_team"].capabilities.offered() == ("cooperative", "public_moves")


@pytest.mark.parametrize("name", sorted(BUILT_IN | TOYS))
def test_a_capability_there_answers_and_one_missing_names_itself(name):
    """There: the member answers on a real decision (those that need a model are left to
    tests/learn). Missing: `require` raises MissingCapability naming the game and the
    capability, and the settings that go with it keep their defaults."""
    game = registered_games()[name]
    _, view = decision_view(game)
    offered = game.capabilities
    for capability, (_, _, call) in PARTS.items():
        if offered.offers(capability):
            require(game, capability)
            if call is not None:
                assert call(game, view) is not None, f"{name}: {capability}"
        else:
            with pytest.raises(MissingCapability) as caught:
                require(game, capability, "a test needs it")
            assert caught.value.game == name and caught.value.capability == capability
            assert f"game {name} has no " in str(caught.value) and f"capability {capability}" in str(caught.value)
            assert ": a test needs it" in str(caught.value)
    if offered.native:
        assert game.search.native is not None and game.search.native_start(1) is not None  # the core is built
    else:
        assert game.search.native is None and game.search.default_playout == "random"
    if offered.model:
        assert isinstance(game.model.file, Path)
        assert hasattr(game.search.native, "feature_count") and hasattr(game.search.native, "selfplay"), \
            "the twin learns"
    else:
        assert game.model is None
    if not offered.opponent_model:
        assert not game.search.default_infer
    if offered.heuristic:
        assert len(game.search.heuristic_scores(view, view.legal_moves())) == len(view.legal_moves())


class Scored(SearchSupport):
    def heuristic_scores(self, view, moves):
        return [1.0 if move == "bet" else 0.0 for move in moves]


def test_parts_that_do_not_fit_together_are_refused_when_assembled():
    class Light(SearchSupport):
        default_playout = "light"

    class Inferring(SearchSupport):
        default_infer = True

    class HalfTwin(SearchSupport):
        def native_view(self, view):
            return view

    cases = [
        (Light, "its default_playout is 'light' but it has no native twin"),
        (Inferring, "its default_infer is on but it has no opponent model"),
        (HalfTwin, "its search support writes one of native_view and native_start: a twin needs both"),
    ]
    for search, message in cases:
        class Toy(ToyGame):
            pass

        with pytest.raises(TypeError, match=f"game class .*Toy: {re.escape(message)}"):
            assemble(Toy, search=search)
    with pytest.raises(TypeError, match="its presentation must be a subclass of Presentation"):
        assemble(ToyGame, presentation=SearchSupport)
    with pytest.raises(TypeError, match="is no hzai.core.Game"):
        assemble(Presentation)


class Unfit(SearchSupport):
    default_infer = True  # with no opponent model


def test_a_part_assembled_by_name_is_imported_when_first_made_and_checked_then():
    class Late(ToyGame):
        pass

    assemble(Late, search=lazy_call("tests.core.test_capabilities:Scored"), public_moves=True)
    late = Late()  # (the module is imported again under the name given: compare by name)
    assert type(late.search).__qualname__ == "Scored" and late.capabilities.offered() == ("public_moves", "heuristic")

    class Misfit(ToyGame):
        pass

    assemble(Misfit, search=lazy_call("tests.core.test_capabilities:Unfit"),
             presentation=lazy_call("tests.core.test_capabilities:Scored"))
    game = Misfit()
    with pytest.raises(TypeError, match="Misfit: its default_infer is on but it has no opponent model"):
        game.search
    with pytest.raises(TypeError, match="Misfit: its presentation must be a subclass of Presentation"):
        game.presentation
    assert game.records.format == "toy_guess-record/1", "the parts that fit are made"
    with pytest.raises(TypeError, match="its records must be a subclass of Records, not 3"):
        assemble(Misfit, records=3)


def test_a_game_class_that_writes_a_parts_member_on_itself_is_refused_when_made():
    with pytest.raises(TypeError, match="Narrating: it writes narrate: that is presentation.narrate of its parts"):
        class Narrating(ToyGame):
            def narrate(self, before, move, after, seat):
                return ["said"]

    with pytest.raises(TypeError, match="Declaring: it sets capabilities: they are its parts that are there"):
        class Declaring(ToyGame):
            capabilities = Capabilities(public_moves=True)

    with pytest.raises(TypeError, match="it writes model_file: that is model.file"):
        class Shipping(ToyGame):
            model_file = None


def test_a_part_assembled_into_a_game_is_a_capability_of_it():
    class Scoring(ToyGame):
        pass

    assemble(Scoring, search=Scored, public_moves=True)
    assert Scoring().capabilities.offered() == ("public_moves", "heuristic")
    assert not ToyGame().capabilities.heuristic, "the toy game it derives from keeps its own parts"
    _, view = decision_view(Scoring(), 1)
    assert make_bot("heuristic").decide(view, seed=1).move == "bet"
    assert "heuristic" in served_bots(Scoring()) and "heuristic" not in served_bots(ToyGame())


def test_capabilities_are_checked_values():
    with pytest.raises(TypeError, match="model_policy is of a model"):
        Capabilities(model_policy=True)
    with pytest.raises(TypeError, match="heuristic must be True or False"):
        Capabilities(heuristic=1)
    with pytest.raises(ValueError, match="'heuristics' is no capability"):
        Capabilities().offers("heuristics")
    assert Capabilities(cooperative=True) == Capabilities(cooperative=True)
    with pytest.raises(Exception):
        Capabilities().heuristic = True  # frozen


def test_the_heuristic_bot_on_a_game_without_a_heuristic_names_the_game_and_the_capability():
    game = ToyGame()
    _, view = decision_view(game)
    with pytest.raises(BotError, match="bot heuristic: game toy_guess has no heuristic policy "
                                       r"\(it does not have the capability heuristic\)"):
        make_bot("heuristic").decide(view, seed=1)
    with pytest.raises(BotError, match="game toy_guess has no heuristic policy .*capability heuristic"):
        make_bot("heuristic", game)  # the service's check, before anything is searched
    with pytest.raises(BotError, match="bot light: game toy_guess has no native twin .*capability native"):
        make_bot("light").decide(view, seed=1)
    with pytest.raises(BotError, match="game toy_guess has no opponent model: option infer is not offered "
                                       r"\(it does not have the capability opponent_model\)"):
        make_bot("ismcts:infer=1", game)
    with pytest.raises(BotError, match="toy_guess has no opponent model"):
        make_bot("ismcts:infer=1").decide(view, Limits(iterations=20), seed=1)
    assert make_bot("random", game) is not None


def test_a_registered_bot_names_the_capabilities_it_needs():
    from hzai.search.bot import BotKind
    from hzai.search.simple import RandomBot

    with pytest.raises(ValueError, match="'heuristics' is no capability"):
        BotKind("picky", RandomBot, "a test's bot", needs=("heuristics",))
    kind = BotKind("picky", RandomBot, "a test's bot", needs=("native",))
    assert kind.plays_game(make_game("legends")) and not kind.plays_game(ToyGame())
    with pytest.raises(BotError, match="bot picky: game toy_guess has no native twin"):
        kind.check_game(RandomBot(), ToyGame())


def test_a_game_without_review_belief_is_reviewed_without_one():
    game = ToyGame()
    start = game.new_state(2)
    rows = list(review_moves(game, start, ["bet", "call"], Limits(iterations=30), seed=1, belief=True))
    assert rows and all(row.belief is None for row in rows)


def test_analyze_belief_on_a_game_without_a_belief_report_names_the_capability():
    from hzai.analysis_cli import AnalysisUsageError, analyze_record

    game = make_game("legends")
    record = game.records.new(4)
    state = game.records.replay(record)
    args = argparse.Namespace(belief=10, side=None, seed=1, c=0.7, playout=None, tree="single", prior=0.0,
                              json=True, top=3, words=0)
    with pytest.raises(AnalysisUsageError, match="--belief: game legends has no belief report: leave it out "
                                                 r"\(it does not have the capability belief_report\)"):
        analyze_record(record, state, args, Limits(iterations=10), io.StringIO())
