"""A team of bots for a cooperative game (every seat gets the team's result, as in
Legends of Hellas): one bot spec for every seat, each seat deciding from its own View
(or, for benchmarks only, from the full state: `all_seeing`), with the won share and a
95% interval. The game is any hzai.core game; nothing here names one's rules."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field

from hzai.core import Limits, State, View, make_game, wilson_interval
from hzai.rng import SplitMix64, mix_seed
from hzai.search.arena import referee_step
from hzai.search.bot import make_bot


class AllSeeingView(View):
    """The whole state offered as a seat's view: `sample` is the state itself. For
    measuring how much hidden information costs a team; never for play against people,
    and never a served bot."""

    def __init__(self, state: State, seat: int):
        self.game, self._state, self._seat = state.game, state, seat

    @property
    def seat(self) -> int:
        return self._seat

    @property
    def current_seat(self):
        return self._state.current_seat

    def legal_moves(self) -> list:
        return self._state.legal_moves() if self._state.current_seat == self._seat else []

    def to_json(self) -> dict:
        return {"all_seeing": True, "seat": self.game.seats[self._seat]}

    def sample(self, seed: int) -> State:
        return self._state.clone()


@dataclass
class TeamGame:
    index: int
    seed: int
    won: bool
    moves: int
    turns: int
    reason: str | None = None
    think_seconds: float = 0.0


@dataclass
class TeamResult:
    spec: str
    limits: str
    games: int
    seed: int
    all_seeing: bool
    won: int
    won_share: float
    won_ci95: tuple[float, float]
    mean_turns: float
    ms_per_decision: float
    results: list[TeamGame] = field(default_factory=list)

    def to_json(self) -> dict:
        return asdict(self)

    def summary(self) -> str:
        low, high = self.won_ci95
        who = "all-seeing team" if self.all_seeing else "team"
        return (f"{who} of {self.spec} ({self.limits}, {self.games} games): won {self.won} "
                f"({self.won_share:.1%} [95% {low:.1%}..{high:.1%}]); {self.mean_turns:.0f} turns a game; "
                f"{self.ms_per_decision:.1f} ms per decision")


def play_team_game(game_name: str, params: dict | None, spec: str, index: int, limits: Limits, seed: int,
                   all_seeing: bool = False) -> TeamGame:
    """Game `index` from `new_state(seed + index)`, a bot of `spec` in every seat; a
    referee draws the chance outcomes from its own generator."""
    game = make_game(game_name, **(params or {}))
    game_seed = seed + index
    bots = [make_bot(spec) for _ in game.seats]
    state = game.new_state(game_seed)
    referee = SplitMix64(game_seed ^ 0xA7E4A)
    moves, think = 0, 0.0
    while not state.is_terminal:
        if state.is_chance:
            referee_step(state, referee)
            continue
        p = state.current_seat
        view = AllSeeingView(state, p) if all_seeing else state.view(p)
        start = time.perf_counter()
        move = bots[p].decide(view, limits, mix_seed(game_seed, moves)).move
        think += time.perf_counter() - start
        state.apply(move)
        moves += 1
    won = state.returns()[0] == 1.0
    return TeamGame(index, game_seed, won, moves, getattr(state, "turn", moves), getattr(state, "reason", None), think)


def run_team(spec: str, games: int, limits: Limits, seed: int = 0, params: dict | None = None,
             game: str = "legends", all_seeing: bool = False) -> TeamResult:
    """`games` games of one team, one after the other (each seed follows from `seed`)."""
    make_bot(spec)
    make_game(game, **(params or {}))
    results = [play_team_game(game, params, spec, i, limits, seed, all_seeing) for i in range(games)]
    won = sum(r.won for r in results)
    decisions = sum(r.moves for r in results)
    return TeamResult(spec, str(limits), games, seed, all_seeing, won, won / games if games else 0.0,
                      wilson_interval(won, games), sum(r.turns for r in results) / games if games else 0.0,
                      1000 * sum(r.think_seconds for r in results) / decisions if decisions else 0.0, results)
