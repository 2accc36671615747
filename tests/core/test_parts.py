"""The Game in parts (hzai.core.game): the rules on the Game itself and its records,
search support, model and presentation each a small object of its own, none larger than
PART_LIMIT members; a game's parts are the core's kinds and stay in them (no part's member
written on the Game instead), and every registered game's parts, its rules class among
them, stay as small. The views are the search support's: a game's rules neither make
them nor reach them (hzai.core.State.view asks game.search.view_of)."""

from __future__ import annotations

import pytest

from hzai.core import Game, Model, Presentation, Records, SearchSupport, game_names, make_game
import tests.toygame.plugin  # noqa: F401  (registers both toy games, as a server's --load-games does)

PART_LIMIT = 15
CORE_PARTS = {"game": Game, "records": Records, "search": SearchSupport, "model": Model,
              "presentation": Presentation}
GAMES = ["hera_zeus", "legends", "toy_guess", "toy_team"]
# Held to the limits: these and every game registered where the tests run (a new game's
# folder edits no list here).
EVERY_GAME = sorted(set(GAMES) | set(game_names()))
# The Game's members that are its other parts or read from them (`capabilities`): the
# assembly, not the rules. The rules part is the rest of the Game's members; each other
# part is counted on its own.
ASSEMBLY = {"records", "search", "model", "presentation", "capabilities"}


def members(cls: type) -> set[str]:
    """The public names a class and its hzai bases define: methods, properties, settings
    and annotated attributes (what a caller may reach on it)."""
    names: set[str] = set()
    for klass in cls.__mro__:
        if klass is object or klass.__module__ in ("abc", "builtins"):
            continue
        names.update(vars(klass))
        names.update(getattr(klass, "__annotations__", {}))
    return {name for name in names if not name.startswith("_")}


def rules_members(cls: type) -> set[str]:
    """The members of a Game class that are its rules: all of them but the assembly."""
    return members(cls) - ASSEMBLY


def parts_of(game: Game) -> dict[str, object]:
    return {"records": game.records, "search": game.search, "model": game.model, "presentation": game.presentation}


@pytest.mark.parametrize("part", sorted(CORE_PARTS))
def test_every_core_part_is_small(part):
    found = members(CORE_PARTS[part])
    assert 0 < len(found) <= PART_LIMIT, f"{part}: {len(found)} members: {sorted(found)}"


def test_the_core_game_is_the_rules_and_its_parts():
    assert members(Game) == {
        "name", "seats", "params", "num_actions", "new_state", "parse_move", "move_text", "action_of", "move_of",
        "observation", "capabilities", "records", "search", "model", "presentation"}
    every = set().union(*(members(cls) for cls in CORE_PARTS.values()))
    assert len(every) >= 50, "all parts together hold what the one Game held"
    assert ASSEMBLY <= members(Game) and len(rules_members(Game)) == 10


@pytest.mark.parametrize("name", EVERY_GAME)
def test_a_games_rules_class_is_as_small(name):
    """The rules part of a game: the core's rules and what its own class adds (Hera and
    Zeus: its deck, variants, deck name, `create` and the rules proper its State calls)."""
    found = rules_members(type(make_game(name)))
    assert rules_members(Game) <= found and len(found) <= PART_LIMIT, f"{name}: {len(found)}: {sorted(found)}"


@pytest.mark.parametrize("name", GAMES)
def test_a_games_view_is_its_search_supports(name):
    """A state's view is what the game's search support makes of it. The two games' rules
    States write no `view` of their own (the toy games' States make theirs, as a game
    without a search part of its own may)."""
    game = make_game(name)
    state = game.new_state(5)
    while state.is_chance:
        state.apply(state.chance_outcomes()[0][0])
    seat = state.current_seat
    if name in ("hera_zeus", "legends"):
        assert "view" not in vars(type(state))
        assert state.view(seat).to_json() == game.search.view_of(state, seat).to_json()
    else:
        with pytest.raises(NotImplementedError, match=f"game {name} makes no views"):
            game.search.view_of(state, seat)
    assert state.view(seat).seat == seat


@pytest.mark.parametrize("name", EVERY_GAME)
def test_a_games_parts_are_the_cores_kinds_and_as_small(name):
    game = make_game(name)
    for part, found in parts_of(game).items():
        if found is None:
            assert part == "model", f"{name} has no {part}"
            continue
        assert isinstance(found, CORE_PARTS[part]) and found.game is game
        assert len(members(type(found))) <= PART_LIMIT, f"{name}'s {part}: {sorted(members(type(found)))}"


@pytest.mark.parametrize("name", EVERY_GAME)
def test_no_part_member_is_written_on_a_games_rules(name):
    """What belongs to a part is written in the part: a game class that defines (say)
    `narrate` or `native_view` itself has put it in the wrong place."""
    of_parts = set().union(*(members(cls) for part, cls in CORE_PARTS.items() if part != "game")) - {"game"}
    own = set().union(*(vars(klass) for klass in type(make_game(name)).__mro__ if klass not in Game.__mro__))
    assert own & of_parts == set()


@pytest.mark.parametrize("name", GAMES)
def test_policy_view_is_an_optional_member_of_the_search_part(name):
    """The policy-based inference (option pbi) is the search part's `policy_view`, None
    where a game has none; the search asks it so, and refuses pbi naming the game."""
    from hzai.core.bot import BotError
    from hzai.search.ismcts import PolicyInference, policy_weighted

    game = make_game(name)
    assert SearchSupport.policy_view is None and "policy_view" in members(SearchSupport)
    hook = game.search.policy_view
    assert (hook is not None) == (name == "hera_zeus"), f"{name}: {hook!r}"
    state = game.new_state(3)
    while state.is_chance:
        state.apply(state.chance_outcomes()[0][0])
    view = state.view(state.current_seat)
    assert policy_weighted(view, view, None, seed=1) is view
    if hook is None:
        with pytest.raises(BotError, match=f"game {name} offers no policy-based inference"):
            policy_weighted(view, view, PolicyInference(model=None), seed=1)


def test_the_limit_test_counts_what_it_should():
    class Big(SearchSupport):
        def a(self): ...
        def b(self): ...
        def c(self): ...
        def d(self): ...
        def e(self): ...
        f: int = 0

    assert len(members(Big)) == len(members(SearchSupport)) + 6 > PART_LIMIT
    assert "_hidden" not in members(type("H", (Records,), {"_hidden": 1}))


def test_registered_games_are_found():
    assert set(GAMES) <= set(game_names())
