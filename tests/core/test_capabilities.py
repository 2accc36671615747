"""Capabilities (hzai.core.capabilities): every game declares what it offers beyond its
rules, the declaration matches the hooks it writes (for every registered game, and for
any Game subclass when it is made), and a capability a game does not declare is refused
where it is used with an error naming the game and the capability."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest

from hzai.core import Capabilities, Game, Limits, MissingCapability, game_names, make_game
from hzai.core.bot import BotError
from hzai.core.capabilities import CAPABILITIES, HOOKS, declaration_errors
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


# What calling each capability's hook looks like, on a decision view.
CALLS = {
    "native": lambda game, view: game.native_view(view),
    "heuristic": lambda game, view: game.heuristic_scores(view, view.legal_moves()),
    "opponent_model": lambda game, view: game.inferred_view(view, None, 1, 8),
    "model_policy": lambda game, view: game.policy_of(view, None),
    "guided_worlds": lambda game, view: game.guided_view(view, None, 8, 1),
    "belief_report": lambda game, view: game.belief_report(view, 8, 1),
    "review_belief": lambda game, view: game.review_belief(view, 1),
}


@pytest.mark.parametrize("name", sorted(BUILT_IN | TOYS))
def test_every_registered_game_declares_exactly_the_hooks_it_writes(name):
    game = registered_games()[name]
    assert isinstance(game.capabilities, Capabilities)
    assert declaration_errors(type(game), Game) == []
    for capability, (hooks, _) in HOOKS.items():
        written = [hook for hook in hooks if getattr(type(game), hook) is not getattr(Game, hook)]
        if game.capabilities.offers(capability):
            assert written == list(hooks), f"{name} declares {capability}"
        else:
            assert written == [], f"{name} writes {written} without declaring {capability}"


def test_the_games_declare_what_they_are_known_to_offer():
    games = registered_games()
    assert games["hera_zeus"].capabilities.offered() == (
        "native", "heuristic", "opponent_model", "model", "model_policy", "guided_worlds", "belief_report",
        "review_belief")
    assert games["legends"].capabilities.offered() == ("cooperative", "native", "heuristic", "model", "guided_worlds")
    assert games["toy_guess"].capabilities.offered() == ("public_moves",)
    assert games["toy_team"].capabilities.offered() == ("cooperative", "public_moves")


@pytest.mark.parametrize("name", sorted(BUILT_IN | TOYS))
def test_a_declared_capability_answers_and_an_undeclared_one_names_itself(name):
    """Declared: the hook answers on a real decision (those that need a model are left to
    tests/learn). Not declared: the hook raises MissingCapability naming the game and the
    capability, and the settings that go with it keep their defaults."""
    game = registered_games()[name]
    _, view = decision_view(game)
    declared = game.capabilities
    for capability, call in CALLS.items():
        if declared.offers(capability):
            if capability in ("model_policy", "guided_worlds"):
                continue
            assert call(game, view) is not None, f"{name}: {capability}"
        else:
            with pytest.raises(MissingCapability) as caught:
                call(game, view)
            assert caught.value.game == name and caught.value.capability == capability
            assert f"game {name} has no " in str(caught.value) and f"capability {capability}" in str(caught.value)
    if declared.native:
        assert game.native is not None and game.native_start(1) is not None  # the tests run with the core built
    else:
        assert game.native is None and game.default_playout == "random"
        with pytest.raises(MissingCapability, match=f"game {name} has no native twin"):
            game.native_start(1)
    if declared.model:
        assert isinstance(game.model_file, Path)
        assert hasattr(game.native, "feature_count") and hasattr(game.native, "selfplay"), "the twin learns"
    else:
        assert game.model_file is None and game.model_defaults == {}
    if not declared.opponent_model:
        assert not game.default_infer
    if declared.heuristic:
        assert len(game.heuristic_scores(view, view.legal_moves())) == len(view.legal_moves())


def test_a_game_class_whose_declaration_disagrees_with_its_hooks_is_refused_when_made():
    with pytest.raises(TypeError, match="Scored: it writes heuristic_scores but does not declare the capability "
                                        "heuristic"):
        class Scored(ToyGame):
            def heuristic_scores(self, view, moves):
                return [0.0] * len(moves)

    with pytest.raises(TypeError, match="it declares native but does not write native, native_view, native_start"):
        class Twinned(ToyGame):
            capabilities = Capabilities(native=True)

    with pytest.raises(TypeError, match="writes default_infer but does not declare the capability opponent_model"):
        class Inferring(ToyGame):
            default_infer = True

    with pytest.raises(TypeError, match=r"sets public_moves: declare it as Capabilities\(public_moves=True\)"):
        class OldStyle(ToyGame):
            public_moves = True

    class Scoring(ToyGame):  # declared and written: accepted
        capabilities = Capabilities(public_moves=True, heuristic=True)

        def heuristic_scores(self, view, moves):
            return [1.0 if move == "bet" else 0.0 for move in moves]

    assert Scoring().capabilities.heuristic
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
    assert set(HOOKS) <= set(CAPABILITIES) and {"cooperative", "public_moves"} <= set(CAPABILITIES)
    assert Capabilities(cooperative=True) == Capabilities(cooperative=True)
    with pytest.raises(Exception):
        Capabilities().heuristic = True  # frozen


def test_the_heuristic_bot_on_a_game_without_a_heuristic_names_the_game_and_the_capability():
    game = ToyGame()
    _, view = decision_view(game)
    with pytest.raises(BotError, match="bot heuristic: game toy_guess has no heuristic policy "
                                       r"\(it does not declare the capability heuristic\)"):
        make_bot("heuristic").decide(view, seed=1)
    with pytest.raises(BotError, match="game toy_guess has no heuristic policy .*capability heuristic"):
        make_bot("heuristic", game)  # the service's check, before anything is searched
    with pytest.raises(BotError, match="bot light: game toy_guess has no native twin .*capability native"):
        make_bot("light").decide(view, seed=1)
    with pytest.raises(BotError, match="game toy_guess has no opponent model: option infer is not offered "
                                       r"\(it does not declare the capability opponent_model\)"):
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
    record = game.new_record(4)
    state = game.replay(record)
    args = argparse.Namespace(belief=10, side=None, seed=1, c=0.7, playout=None, tree="single", prior=0.0,
                              json=True, top=3, words=0)
    with pytest.raises(AnalysisUsageError, match="--belief: game legends has no belief report: leave it out "
                                                 r"\(it does not declare the capability belief_report\)"):
        analyze_record(record, state, args, Limits(iterations=10), io.StringIO())
