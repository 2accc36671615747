"""The generic native search over a game written in Python (the PyGame adapter:
_native.PySearch / PyPimc), with a tiny game defined here.

"Guess the card": chance hides a card 0, 1 or 2 from seat 0. Seat 0 then guesses it
(actions 0-2: a win when right), takes a sure win when the table offers one (action 3,
public), or flips a biased coin (action 4: chance gives 10, a win, with probability
0.75, or 11, a loss). Seat 1 has nothing to decide; a draw never happens except by the
`draw_on_flip` variant (the coin's loss becomes a draw)."""

from __future__ import annotations

import pytest

from hzai import _native
from hzai.rng import SplitMix64

GUESSES, SURE, FLIP, HEADS, TAILS = (0, 1, 2), 3, 4, 10, 11


class GuessGame:
    seats = ("guesser", "keeper")
    num_actions = 12

    def __init__(self, draw_on_flip: bool = False):
        self.draw_on_flip = draw_on_flip


class GuessState:
    def __init__(self, game: GuessGame, hidden: int, bonus: bool, phase: str = "guess", result=None):
        self.game, self.hidden, self.bonus, self.phase, self.result = game, hidden, bonus, phase, result
        self.log: list[int] = []

    def clone(self):
        other = GuessState(self.game, self.hidden, self.bonus, self.phase, self.result)
        other.log = list(self.log)
        return other

    @property
    def is_terminal(self):
        return self.phase == "over"

    @property
    def is_chance(self):
        return self.phase == "coin"

    @property
    def current_seat(self):
        return 0 if self.phase == "guess" else None

    def legal_actions(self):
        if self.phase != "guess":
            return []
        return [*GUESSES, *([SURE] if self.bonus else []), FLIP]

    def chance_outcomes_actions(self):
        return [(HEADS, 0.75), (TAILS, 0.25)] if self.phase == "coin" else []

    def apply_action(self, a):
        self.log.append(a)
        if self.phase == "guess" and a in GUESSES:
            self.phase, self.result = "over", (1.0, 0.0) if a == self.hidden else (0.0, 1.0)
        elif self.phase == "guess" and a == SURE and self.bonus:
            self.phase, self.result = "over", (1.0, 0.0)
        elif self.phase == "guess" and a == FLIP:
            self.phase = "coin"
        elif self.phase == "coin" and a in (HEADS, TAILS):
            lose = (0.5, 0.5) if self.game.draw_on_flip else (0.0, 1.0)
            self.phase, self.result = "over", (1.0, 0.0) if a == HEADS else lose
        else:
            raise ValueError(f"illegal action {a}")

    def returns(self):
        return self.result

    def view(self, seat: int) -> "GuessView":
        return GuessView(self.game, seat, self.bonus, self.hidden if seat == 1 else None)


class GuessView:
    """What a seat knows: the bonus (public) and, for the keeper only, the card."""

    def __init__(self, game, seat, bonus, known_card=None):
        self.game, self.seat, self.bonus, self.known_card = game, seat, bonus, known_card
        self.samples = 0

    @property
    def current_seat(self):
        return 0

    def legal_actions(self):
        return [*GUESSES, *([SURE] if self.bonus else []), FLIP]

    def sample(self, seed: int) -> GuessState:
        self.samples += 1
        hidden = self.known_card if self.known_card is not None else SplitMix64(seed).below(3)
        return GuessState(self.game, hidden, self.bonus)


def options(seed=1, **kw):
    return _native.SearchOptions(seed=seed, **kw)


def best(search):
    return max(search.root_stats(), key=lambda s: (s[1], s[2], -s[0]))[0]


def test_takes_the_sure_win_when_the_table_offers_one():
    view = GuessState(GuessGame(), hidden=2, bonus=True).view(0)
    search = _native.PySearch(view, options())
    assert search.run(3000) == 3000
    stats = {a: (n, v) for a, n, v, _ in search.root_stats()}
    assert set(stats) == {0, 1, 2, SURE, FLIP}
    assert best(search) == SURE
    assert stats[SURE][1] == stats[SURE][0]  # every visit of the sure win won
    assert stats[SURE][0] > sum(n for n, _ in stats.values()) / 2
    assert view.samples == 3000  # one determinization per iteration


def test_without_the_bonus_flips_the_coin_and_its_value_is_the_coin_odds():
    search = _native.PySearch(GuessState(GuessGame(), hidden=0, bonus=False).view(0), options(seed=5))
    search.run(4000)
    stats = {a: (n, v) for a, n, v, _ in search.root_stats()}
    assert SURE not in stats and best(search) == FLIP
    visits, value = stats[FLIP]
    assert 0.65 < value / visits < 0.85  # chance drawn with the game's 0.75 / 0.25
    for guess in GUESSES:  # a guess is right a third of the time, whatever card seat 0 holds
        assert stats[guess][1] / stats[guess][0] < 0.6


def test_draws_count_half():
    search = _native.PySearch(GuessState(GuessGame(draw_on_flip=True), 0, False).view(0), options(seed=2))
    search.run(3000)
    visits, value = {a: (n, v) for a, n, v, _ in search.root_stats()}[FLIP]
    assert 0.8 < value / visits < 0.95  # 0.75 * 1 + 0.25 * 0.5


def test_no_peeking_views_equal_for_the_searcher_give_the_same_answer():
    answers = []
    for hidden in (0, 1, 2):
        search = _native.PySearch(GuessState(GuessGame(), hidden, bonus=False).view(0), options(seed=9))
        search.run(1500)
        answers.append((search.root_stats(), search.principal_variation(FLIP)))
    assert answers[0] == answers[1] == answers[2]


def test_a_seat_that_knows_the_card_guesses_it():
    # The keeper's view holds the card: every determinization has it, and guessing wins.
    view = GuessView(GuessGame(), seat=1, bonus=False, known_card=1)
    search = _native.PySearch(view, options(seed=3))
    search.run(2000)
    assert best(search) == 1


def test_same_seed_and_budget_same_result_other_seed_other_tree():
    def run(seed):
        search = _native.PySearch(GuessState(GuessGame(), 0, True).view(0), options(seed=seed))
        search.run(500)
        return search.root_stats()

    assert run(4) == run(4)
    assert run(4) != run(5)


def test_pimc_worlds_see_the_card_and_vote_for_it():
    # Perfect information inside a world: its search knows the card and guesses it
    # rather than flipping the coin (PIMC's strategy fusion, visible on purpose).
    pimc = _native.PyPimc(GuessState(GuessGame(), 1, False).view(0), options(seed=7), 6)
    chosen = []
    for w in range(pimc.worlds):
        search = pimc.world(w)
        search.run(400)
        chosen.append(best(search))
        assert pimc.vote(search)
    assert set(chosen) <= set(GUESSES) and len(set(chosen)) > 1  # worlds differ in the card
    assert pimc.voted == 6 and pimc.choice() in chosen
    assert chosen.count(pimc.choice()) == max(chosen.count(a) for a in chosen)  # the most votes


def test_light_playout_of_a_python_game_is_uniform_and_runs():
    search = _native.PySearch(GuessState(GuessGame(), 0, True).view(0), options(playout=1))
    assert search.run(200) == 200


class Broken(GuessState):
    def legal_actions(self):
        return [0, 99]


class BrokenView(GuessView):
    def sample(self, seed):
        return Broken(self.game, 0, False)


def test_a_python_game_breaking_the_contract_is_named():
    search = _native.PySearch(BrokenView(GuessGame(), 0, False), options())
    with pytest.raises(ValueError, match=r"legal_actions\(\) gave action 99, outside 0..11"):
        search.run(10)


def test_errors_raised_by_the_python_game_come_through():
    class Failing(GuessView):
        def sample(self, seed):
            raise KeyError("no world today")

    with pytest.raises(KeyError, match="no world today"):
        _native.PySearch(Failing(GuessGame(), 0, False), options()).run(1)


def test_bad_options_and_views_are_refused():
    view = GuessState(GuessGame(), 0, False).view(0)
    with pytest.raises(ValueError, match="one thread"):
        _native.PySearch(view, options(threads=2))
    with pytest.raises(ValueError, match="unknown playout"):
        _native.PySearch(view, options(playout=7))

    class Over(GuessView):
        current_seat = None

    with pytest.raises(ValueError, match="nothing to decide"):
        _native.PySearch(Over(GuessGame(), 0, False), options())

    class Huge(GuessGame):
        num_actions = 1 << 40

    with pytest.raises(ValueError, match="num_actions must be within"):
        _native.PySearch(GuessView(Huge(), 0, False), options())
