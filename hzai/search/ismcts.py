"""Information-set MCTS and PIMC bots, and analysis, over any hzai.core game.

The search itself runs in C++ (hzai/native/search/ismcts.hpp), written once over a game
trait. A game with a native twin (`game.search.native`) is searched by its C++ rules with the
GIL released; any other game by the same search calling the Python game back
(`_native.PySearch`, hzai/native/py_game.hpp; one thread). Above that one choice there
is one code path: run the budget in chunks (so progress can be reported and a caller can
stop it), then read the root statistics back as Moves.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import Callable

from hzai import _native
from hzai.core import Analysis, Limits, MoveInfo, PlayResult, View, wilson_interval
from hzai.core.bot import BotError, Progress, RootMoves, Stop
from hzai.core.capabilities import missing
from hzai.lazy import lazy_call
from hzai.native.tables import PLAYOUTS  # the native search's playout policies (tables.def)
from hzai.rng import MASK64
from hzai.search.options import choice_option, number_option, whole_option
from hzai.search.replicas import MAX_REPLICAS, REPLICAS, Replicas, replica_seed, replicas_for

# The model files (numpy, hzai.native.model) load when a search first asks for its
# game's model, not when the search is imported (hzai.lazy): `hzai --help` stays light.
shipped_model = lazy_call("hzai.native.model:shipped_model")
shipped_id = lazy_call("hzai.native.model:model_id")

CHUNK = 512  # iterations between checks of the clock, the stop flag and progress
DEFAULT_EXPLORATION = 0.7
MAX_EXPLORATION = 10.0
# PIMC searches one tree per world, one after the other; more than this many worlds only
# thins each world's share of the budget to nothing.
MAX_WORLDS = 256
# The bounds of option temp (infer=1); the game's model reads it on its own scale and
# has its own default.
MIN_TEMPERATURE, MAX_TEMPERATURE = 0.05, 1000.0
# Tree shapes (option `tree`): single, one tree of the searching seat's information sets
# (ismcts.hpp); multi, one tree per seat, each seat's keyed by what it observes
# (mo_ismcts.hpp).
TREES = ("single", "multi")
MAX_PRIOR = 100.0  # option `prior`: the weight of the progressive bias (0: off)
# option `root_widen`: a widened root (a bot's move in a game whose tree is widened in its
# policy's order) offers 1 + floor(root_widen * sqrt(visits)) moves; 0: the policy's best only
MAX_ROOT_WIDEN = 4.0
# Option reuse: a kept search of more nodes than this (over its trees) is not reused but
# built afresh, so a long run of one seat's decisions (a solo Legends hero decides the
# whole game in one) cannot grow a tree without bound: at most this plus one budget's.
MAX_KEPT_NODES = 4_000_000
# Option split: how far a turn's budget leans toward its first actions (> 0) or its last
# ones (< 0); 0 gives every decision the budget as asked (split_limits).
MAX_SPLIT = 0.9
# At most this many worlds a millisecond of a time budget are worth preparing up front
# (game.search.inferred_view's `worlds`): a game that draws and weighs a pool before the search
# then spends a bounded share of a short budget on it.
WORLDS_PER_MS = 10


# The learned search (docs/learning.md): PUCT's constant at the root, and the worlds the
# card-location model weighs, a time budget's share as for infer (WORLDS_PER_MS).
DEFAULT_CPUCT = 0.25  # measured: 72% against the unguided search at 200 iterations, 1.0 only 53% (docs/learning.md)
MAX_CPUCT = 20.0
DEFAULT_POOL = 200
MAX_POOL = 5000
# A leaf's result: MIX * the value net's + (1 - MIX) * a random playout's (option mix).
DEFAULT_MIX = 0.5  # measured at 100 ms a decision against ismcts-v2: 72.5% with 0.5, 37% with 1.0 (docs/learning.md)
# Policy-based inference (option pbi, docs/learning.md): the worlds weighted by how likely
# the opponent's observed decisions are under the learned policy, tempered by pbi_temp
# and mixed with uniform by pbi_eps (the game checks them again: game.search.policy_view).
PBI_TEMPERATURE, MIN_PBI_TEMPERATURE, MAX_PBI_TEMPERATURE = 1.0, 0.1, 10.0
PBI_EPSILON, MIN_PBI_EPSILON, MAX_PBI_EPSILON = 0.25, 0.01, 1.0


@dataclass(frozen=True)
class Guide:
    """What of a learned model a search uses: the value net at its leaves, the policy
    net at its root (PUCT with `cpuct`), the card-location heads for its worlds (a pool
    of `pool`). `model` is the native model (hzai.native.model), `model_id` its name."""

    model: object
    model_id: str
    value: bool = True
    policy: bool = True
    cards: bool = True
    cpuct: float = DEFAULT_CPUCT
    pool: int = DEFAULT_POOL
    mix: float = DEFAULT_MIX
    partners: bool = False  # the partners' moves in a tree of own decisions drawn from the policy (the blueprint)

    @property
    def active(self) -> bool:
        return self.value or self.policy or self.cards or self.partners


def shipped_guide(game, value: bool = True, policy: bool = True, cards: bool = True,
                  cpuct: float = DEFAULT_CPUCT, pool: int = DEFAULT_POOL, mix: float = DEFAULT_MIX,
                  partners: bool = False, tag: str | None = None) -> Guide | None:
    """The game's kept model (or the earlier one it keeps under `tag`) with the parts
    asked for, or None when the game ships none (or every part is off): that search is
    the unguided one."""
    loaded = shipped_model(game, tag)
    if loaded is None:
        return None
    weights, model = loaded
    guide = Guide(model, weights.model_id, value and model.has_value, policy and model.has_policy,
                  cards and model.has_cards, cpuct, pool, mix, partners and model.has_policy)
    return guide if guide.active else None


def default_guide(game, parts: tuple[bool, bool, bool] | None = None, cpuct: float | None = None,
                  mix: float | None = None, pool: int = DEFAULT_POOL, tag: str | None = None) -> Guide | None:
    """The guide of `game`'s learned search: shipped_guide with the game's own defaults
    (`game.model.defaults`; for the earlier model kept under `tag`, the defaults it was
    shipped with, `game.model.archive`) wherever `parts` (value, policy, cards), `cpuct`
    or `mix` is None; None for a game without capability model."""
    if not game.capabilities.model:
        return None
    defaults = game.model.defaults if tag is None else archived_defaults(game, tag)
    if parts is None:
        parts = tuple(bool(defaults.get(name, 1)) for name in ("value", "policy", "cards"))
    cpuct = defaults.get("cpuct", DEFAULT_CPUCT) if cpuct is None else cpuct
    mix = defaults.get("mix", DEFAULT_MIX) if mix is None else mix
    return shipped_guide(game, *parts, cpuct=cpuct, pool=pool, mix=mix, tag=tag) if any(parts) else None


def archived_defaults(game, tag: str) -> dict:
    """The learned-search defaults the earlier model `tag` was shipped with; BotError
    when the game keeps no model under that tag."""
    entry = game.model.archive.get(tag) if game.capabilities.model else None
    if entry is None:
        raise BotError(f"game {game.name} keeps no earlier model {tag!r}: bot ismcts-{tag} plays the games that do")
    return entry[1]


def shipped_model_id(game) -> str | None:
    """name@version of the model `game` ships (None: it searches unguided)."""
    return shipped_id(game)


def guided(view: View, guide: Guide | None, seed: int, worlds: int | None = None) -> View:
    """`view` with worlds weighted by the guide's card model, when it uses one and the
    game has capability guided_worlds (`game.model.guided_view`); `worlds` bounds the pool as
    for infer."""
    if guide is None or not guide.cards or view.current_seat is None or not view.game.capabilities.guided_worlds:
        return view
    pool = guide.pool if worlds is None else max(1, min(guide.pool, worlds))
    weighted = view.game.model.guided_view(view, guide.model, pool, seed)
    return view if weighted is None else weighted


@dataclass(frozen=True)
class PolicyInference:
    """Option pbi: the worlds also weighted by the opponent's observed decisions under
    `model`'s policy (tempered by `temperature`, mixed with uniform by `epsilon`) over a
    pool of `pool` worlds (the card model's pool where it weighs them too)."""

    model: object
    temperature: float = PBI_TEMPERATURE
    epsilon: float = PBI_EPSILON
    pool: int = DEFAULT_POOL
    ratio: bool = True  # a decision's factor: n * p'(move), the ratio to a uniform player; else p'(move)


def policy_weighted(seen: View, view: View, pbi: PolicyInference | None, seed: int, worlds: int | None = None,
                    threads: int = 1) -> View:
    """`view` (the seat's view `seen`, or it weighted by a model) with its worlds weighted
    by the policy-based inference (`game.search.policy_view`); `view` unchanged without `pbi`,
    without a decision of the seat, or where `seen` knows no history."""
    if pbi is None or seen.current_seat is None:
        return view
    hook = seen.game.search.policy_view
    if hook is None:
        raise BotError(f"game {seen.game.name} offers no policy-based inference (option pbi)")
    pool = pbi.pool if worlds is None else max(1, min(pbi.pool, worlds))
    return hook(seen, view, pbi.model, pool, seed, pbi.temperature, pbi.epsilon, threads, pbi.ratio)


def _options(exploration, playout) -> tuple[float, str | None]:
    """The exploration constant (option `c`) and playout policy name, checked (BotError);
    playout None: the game's own default (`game.search.default_playout`), read at search time."""
    if playout is not None:
        playout = choice_option("playout", playout, tuple(PLAYOUTS))
    return number_option("c", exploration, 0.0, MAX_EXPLORATION), playout


def playout_of(view: View, playout: str | None) -> str:
    """The playout policy a search of `view` plays: the one asked for, else the game's."""
    return view.game.search.default_playout if playout is None else playout


def own_only_of(game, own_only: bool | None) -> bool:
    """Whether a single tree holds only the searching seat's decisions: as asked, else the
    game's default (`game.search.default_own_only`)."""
    return game.search.default_own_only if own_only is None else own_only


def infer_of(game, infer: bool | None) -> bool:
    """Whether a search's worlds follow the game's opponent model: as asked, else the
    game's default (`game.search.default_infer`)."""
    return game.search.default_infer if infer is None else infer


def _search_options(view: View, seed: int, threads: int, exploration: float,
                    playout: str | None, prior: float = 0.0, widen_root: bool = False,
                    own_only: bool = False, root_widen: float | None = None,
                    partners: bool = False) -> _native.SearchOptions:
    """widen_root: a game that widens its tree in its policy's order (docs/native.md)
    widens the root too: a bot's move. Off (analysis), every legal root move is searched.
    own_only: the other seats' moves inside the tree are the playout policy's, or with
    `partners` the learned blueprint's; root_widen: the widening factor at a widened root
    (None: the one below it, widening.hpp)."""
    return _native.SearchOptions(exploration=exploration, playout=PLAYOUTS[playout_of(view, playout)],
                                 seed=seed & MASK64, threads=threads, prior_weight=prior, widen_root=widen_root,
                                 own_only=own_only, root_widen=-1.0 if root_widen is None else root_widen,
                                 partners_blueprint=partners)


def _restricted(search, view: View, root_moves: RootMoves | None):
    """`search` limited at its root to the moves `root_moves` keeps (RootMovesError
    naming a bad one, before anything is searched)."""
    if root_moves is not None and root_moves.restricts:
        search.restrict_root([view.game.action_of(m) for m in root_moves.select(view)])
    return search


def search_view(view: View):
    """`view` as the native search takes it: the twin's view, else the Python view."""
    return view.game.search.native_view(view) if view.game.search.native is not None else view


def new_tree(view: View, seed: int, threads: int = 1, exploration: float = DEFAULT_EXPLORATION,
             playout: str | None = None, root_moves: RootMoves | None = None, tree: str = "single",
             prior: float = 0.0, widen_root: bool = False, own_only: bool | None = None,
             root_widen: float | None = None, guide: Guide | None = None):
    """The native ISMCTS over `view`: the game's C++ twin where it has one, else the
    search over the Python game (one thread); only the chosen root moves, if any.
    `tree`: single or multi (TREES); `prior`: the weight of the progressive bias from
    the game's native prior over its moves (0: off; no effect on a game without one);
    `widen_root`: see _search_options; `own_only`: a single tree of the seat's own
    decisions only (None: the game's default; BotError with tree=multi); `root_widen`:
    see _search_options; `guide`: the learned model's value and policy guide the search
    (its card model is the caller's: `guided`)."""
    tree = choice_option("tree", tree, TREES)
    prior = number_option("prior", prior, 0.0, MAX_PRIOR)
    game = view.game
    multi = tree == "multi"
    if multi and own_only:
        raise BotError("option own_only=1 keeps one tree of the searching seat's decisions: it needs tree=single")
    own_only = False if multi else own_only_of(game, own_only)
    partners = guide is not None and guide.partners
    if partners and not own_only:
        raise BotError("option partners=1 draws the partners' moves in a tree of the seat's own decisions: "
                       "it needs own_only=1")
    options = _search_options(view, seed, threads, exploration, playout, prior, widen_root, own_only, root_widen,
                              partners)
    if game.search.native is not None:
        make = game.search.native.mo_search if multi else game.search.native.search
        search = make(search_view(view), options)
        if guide is not None and (guide.value or guide.policy or guide.partners):
            if multi or not hasattr(search, "set_model"):
                raise BotError(f"game {game.name}'s learned model guides the single tree of its native search only")
            search.set_model(guide.model, guide.value, guide.policy, guide.cpuct, guide.mix)
        return _restricted(search, view, root_moves)
    if guide is not None and guide.active:
        raise BotError(f"game {game.name} has no native twin to evaluate a learned model")
    if threads != 1:
        raise BotError(f"game {game.name} has no native twin: it is searched on one thread, not {threads}")
    return _restricted((_native.PyMoSearch if multi else _native.PySearch)(view, options), view, root_moves)


def new_pimc(view: View, seed: int, worlds: int, exploration: float = DEFAULT_EXPLORATION, playout: str | None = None,
             root_moves: RootMoves | None = None):
    """PIMC over the view: world w drawn with mix_seed(seed, 2w), searched with mix_seed(seed, 2w+1)."""
    options = _search_options(view, seed, 1, exploration, playout)
    game = view.game
    if game.search.native is not None:
        return _restricted(game.search.native.pimc(game.search.native_view(view), options, worlds), view, root_moves)
    return _restricted(_native.PyPimc(view, options, worlds), view, root_moves)


def time_left(limits: Limits, since: float) -> Limits:
    """`limits` less the wall time spent since `since` (perf_counter), at least 1 ms."""
    if limits.millis is None:
        return limits
    spent = int((time.perf_counter() - since) * 1000)
    return Limits(limits.iterations, max(1, limits.millis - spent), limits.threads) if spent else limits


def split_limits(limits: Limits, progress: tuple[int, int] | None, split: float) -> Limits:
    """Option split: the budget of one decision of a turn of several actions, so that
    the turn's decisions together get what they would get unsplit. `progress` is the
    view's turn_progress, (actions taken this turn, actions left); of a turn of n
    actions in all, action k (0 the first) gets `limits` times
    1 + split * (n - 1 - 2k) / (n - 1): with split 0.5 and 4 actions, 1.5, 1.17, 0.83
    and 0.5 times. A decision outside a turn's actions (progress None), a turn of one
    action and split 0 get `limits` unchanged; both budgets (iterations, millis) scale,
    each at least 1."""
    if not split or progress is None:
        return limits
    done, left = progress
    total = done + left
    if left < 1 or total < 2:
        return limits
    factor = 1.0 + split * (total - 1 - 2 * done) / (total - 1)
    iterations = None if limits.iterations is None else max(1, round(limits.iterations * factor))
    millis = None if limits.millis is None else max(1, round(limits.millis * factor))
    return Limits(iterations, millis, limits.threads)


def run_budget(search, limits: Limits, every: int | None = None, on_chunk: Callable[[], None] | None = None,
               should_stop: Stop | None = None) -> tuple[int, float, bool]:
    """Spend `limits` on a native search in chunks. Returns (iterations, ms, finished).
    finished means the budget was spent as asked: all the iterations of an iteration
    budget (running into its wall-time cap first is not finishing), the whole time of a
    budget given only in time; a `should_stop` that ends the search is never finishing."""
    start = time.perf_counter()
    done = 0
    chunk = max(1, min(CHUNK, every or CHUNK))
    next_report = every or chunk  # on_chunk runs every `every` iterations (every chunk without it)
    while True:
        if should_stop is not None and should_stop():
            if done == 0:  # an answer needs at least one iteration behind it
                done += search.run(1, -1.0)
            return done, (time.perf_counter() - start) * 1000, False
        want = chunk if limits.iterations is None else min(chunk, limits.iterations - done)
        millis = -1.0
        if limits.millis is not None:
            millis = limits.millis - (time.perf_counter() - start) * 1000
            if millis <= 0:
                break
        if want <= 0:
            break
        ran = search.run(want, millis)
        done += ran
        if on_chunk is not None and done >= next_report:
            on_chunk()
            next_report = done + (every or chunk)
        if ran == 0:
            break
    if done == 0:  # out of time before the first iteration: one iteration still answers
        done += search.run(1, -1.0)
    finished = limits.iterations is None or done >= limits.iterations
    return done, (time.perf_counter() - start) * 1000, finished


def _read(search, view: View, iterations: int, millis: float, seed: int, finished: bool) -> Analysis:
    game = view.game
    me = search.root_player
    infos = []
    intervals = search.intervals() if isinstance(search, Replicas) else {}
    for action, visits, value, availability in search.root_stats():
        mean = value / visits if visits else 0.0
        low, high = intervals[action] if action in intervals else wilson_interval(value, visits)
        move = game.move_of(action)
        line = search.principal_variation(action)
        pv = [game.move_of(a) for a in line] or [move]
        infos.append(MoveInfo(move, int(visits), mean, low, high, int(availability), 0, pv, action=action,
                              pv_actions=list(line) or [action]))
    text = {id(m.move): game.move_text(m.move) for m in infos}
    infos.sort(key=lambda m: (-m.visits, -m.value, text[id(m.move)]))
    for order, info in enumerate(infos):
        info.order = order
    best = infos[0] if infos else None
    return Analysis(
        perspective=game.seats[me],
        to_move=game.seats[me],
        iterations=iterations,
        millis=round(millis, 3),
        best=best.move if best else None,
        value=best.value if best else 0.0,
        moves=infos,
        seed=seed,
        finished=finished,
    )


def analyze(view: View, limits: Limits, seed: int = 0, progress: Progress | None = None,
            every: int | None = None, should_stop: Stop | None = None,
            exploration: float = DEFAULT_EXPLORATION, playout: str | None = None,
            root_moves: RootMoves | None = None, tree: str = "single", prior: float = 0.0,
            widen_root: bool = False, own_only: bool | None = None, root_widen: float | None = None,
            guide: Guide | None | str = "shipped", replicas: int = REPLICAS,
            pbi: PolicyInference | None = None) -> Analysis:
    """Every legal move of the seat to decide with visits, value (that seat's win
    probability; draws count half), a 95% interval, and the principal variation.
    `progress` gets a partial answer every `every` iterations; `should_stop` is polled
    between chunks and ends the search early (the answer then has finished=False).
    `root_moves`: only the moves it keeps are searched (the others get no visits and
    are not listed); RootMovesError names a chosen move that is not legal here.
    `tree`: single (the default, ismcts-v1's search) or multi (TREES); `prior`: the
    progressive bias' weight (0: off); `own_only`, `root_widen`: see new_tree. `guide`:
    the search a learned model guides (Guide): its value and policy in the tree, its
    card model for the worlds; "shipped" (the default) the game's kept model with the
    game's defaults (default_guide), as the default bot searches with it (none for the
    multi-observer tree); None unguided. `replicas`: independent searches (own seeds, own
    worlds) sharing the budget, read as one so that the intervals cover the answer's
    spread across seeds (hzai.search.replicas); 1 is the single search."""
    if view.current_seat is None:
        raise ValueError("nothing to decide in this position (game over, or a chance event comes next)")
    c, playout = _options(exploration, playout)
    seed &= MASK64  # the core takes a uint64
    built = time.perf_counter()
    if guide == "shipped":
        guide = default_guide(view.game) if tree == "single" else None
    if guide is not None and guide.policy and not widen_root:
        # An analysis lists every legal move with its value: its root tries them all (no
        # PUCT, which leaves the moves the policy rules out unvisited); the value net and
        # the card model still guide it. A bot's move (widen_root) searches with the policy.
        guide = dataclasses.replace(guide, policy=False)
    replicas = replicas_for(whole_option("replicas", replicas, 1, MAX_REPLICAS), limits, len(view.legal_moves()))
    searches = []
    for r in range(replicas):
        rseed = replica_seed(seed, r)
        rview = guided(view, guide, rseed, worlds_bound(limits))
        rview = policy_weighted(view, rview, pbi, rseed, worlds_bound(limits), limits.threads or 1)
        searches.append(new_tree(rview, rseed, limits.threads, c, playout, root_moves, tree, prior, widen_root,
                                 own_only, root_widen, guide))
    search = searches[0] if replicas == 1 else Replicas(searches)
    limits = time_left(limits, built)  # building the tree (a weighted pool: its worlds) is part of the time
    return searched(search, view, limits, seed, progress, every, should_stop)


def searched(search, view: View, limits: Limits, seed: int, progress: Progress | None = None,
             every: int | None = None, should_stop: Stop | None = None) -> Analysis:
    """Spend `limits` on a built (or reused) native search of `view` and read its root
    back as an Analysis (`analyze`'s second half)."""
    start = time.perf_counter()

    def report() -> None:
        progress(_read(search, view, search.iterations, (time.perf_counter() - start) * 1000, seed, False))

    _, millis, finished = run_budget(search, limits, every, report if progress else None, should_stop)
    return _read(search, view, search.iterations, millis, seed, finished)


def _stopped() -> ValueError:
    return ValueError("the search was stopped before it found a move")


def no_opponent_model(game) -> BotError:
    return BotError(str(missing(game, "opponent_model", "option infer is not offered")))


def worlds_bound(limits: Limits) -> int:
    """The most worlds worth preparing for a search under `limits`: its iterations, and
    WORLDS_PER_MS for each millisecond of a time budget, whichever is fewer."""
    bounds = [limits.iterations] if limits.iterations is not None else []
    if limits.millis is not None:
        bounds.append(limits.millis * WORLDS_PER_MS)
    return min(bounds)


def inferred(view: View, temperature: float | None, seed: int, worlds: int | None = None) -> View:
    """The game's view with worlds weighted by its model of the other seats
    (`game.search.inferred_view`; `worlds`: the most determinizations worth preparing, None
    for no bound); BotError for a game without capability opponent_model."""
    if not view.game.capabilities.opponent_model:
        raise no_opponent_model(view.game)
    weighted = view.game.search.inferred_view(view, temperature, seed, worlds)
    if weighted is None:
        raise no_opponent_model(view.game)
    return weighted


@dataclass
class _Kept:
    """The tree a bot keeps after a decision, for its next one (option reuse)."""

    game: object
    seat: int
    mark: tuple  # the history mark the next view must have: (moves + 1, the chosen move's text)
    threads: int
    search: object
    action: int  # the chosen move
    rate: float  # iterations a millisecond of the search that chose it (option credit)


def credited(limits: Limits, reused: int, rate: float) -> Limits:
    """Option credit: `limits` less what `reused` visits of a kept tree are worth, never
    below a quarter of it. An iteration budget counts them as iterations; a time budget
    as the milliseconds they took at `rate` (iterations a ms of the search that made
    them)."""
    iterations, millis = limits.iterations, limits.millis
    if iterations is not None:
        iterations = max(iterations - reused, (iterations + 3) // 4)
    if millis is not None and rate > 0:
        millis = max(int(millis - reused / rate), (millis + 3) // 4)
    return Limits(iterations, millis, limits.threads)


class IsmctsBot:
    """Information-set MCTS (docs/search.md): `tree` single (one tree of the searching
    seat's information sets) or multi (one tree per seat, multi-observer). `infer=1`:
    the determinizations follow the game's opponent model at temperature `temp` (the
    game's default when not given; `game.search.inferred_view`) instead of being uniform over
    the view. `own_only=1`: the single tree holds this seat's decisions only, the other
    seats' moves in it played by the playout policy (`own_only=0`: every seat's decisions
    in the tree; not given: the game's default, `game.search.default_own_only`).

    `reuse=1`: the bot keeps its tree between its own consecutive decisions. When the
    next view is again this seat's decision and its history mark
    (`hzai.core.View.history_mark`) says that exactly one move came since, this seat's
    chosen one, the chosen move's subtree becomes the root (`reroot` in the native
    search): its statistics count toward the new decision, and the new iterations draw
    their worlds from the new view. Anything else (another seat or a chance result
    came between, another game or seat, chosen root moves, another thread count)
    builds a fresh tree. `credit=1` (needs reuse=1): the reused root visits count
    toward the budget (`credited`), so a follow-up decision costs less. A kept search
    of more than MAX_KEPT_NODES nodes is dropped instead (memory stays bounded).

    `split=S` (-0.9..0.9, default 0): a turn of several actions spends its budget
    unevenly, the first actions more with S > 0, the last ones more with S < 0, the turn
    as a whole as much as unsplit (`split_limits`, read from the view's
    `turn_progress`).

    `replicas=R` (1..16, default 1): R independent searches, own seeds and worlds,
    share the budget and are read as one (hzai.search.replicas), so that an analysis'
    intervals cover the spread across seeds; the move is their best.

    `analyze` is the same search read as an analysis (the service's Analyze for this
    spec): its best is this bot's move for the same view, seed and budget."""

    name = "ismcts"
    DEFAULT_TREE = "single"
    DEFAULT_PRIOR = 0.0
    GUIDED = 1  # value, policy and cards default on: the learned search where the game ships a model
    MODEL_TAG: str | None = None  # None: the game's kept model; else the earlier one it keeps (game.model.archive)

    def __init__(self, c: float | str = DEFAULT_EXPLORATION, playout: str | None = None, tree: str | None = None,
                 prior: float | str | None = None, infer: int | str | None = None, temp: float | str | None = None,
                 own_only: int | str | None = None, root_widen: float | str | None = None,
                 reuse: int | str = 0, credit: int | str = 0, split: float | str = 0.0,
                 value: int | str | None = None, policy: int | str | None = None, cards: int | str | None = None,
                 cpuct: float | str | None = None, pool: int | str = DEFAULT_POOL, mix: float | str | None = None,
                 replicas: int | str = 1, partners: int | str = 0, pbi: int | str = 0,
                 pbi_temp: float | str | None = None, pbi_eps: float | str | None = None,
                 pbi_ratio: int | str | None = None):
        # The learned model's parts (docs/learning.md): each 0/1; not given, on where the
        # game ships a model, unless the game's own defaults say otherwise
        # (`game.model.defaults`, read when a game is searched: `parts`); a game without a
        # model searches unguided whatever they say. The multi-observer tree searches
        # unguided unless a part is asked for (refused).
        self.given = tuple(None if given is None else bool(whole_option(name, given, 0, 1))
                           for name, given in (("value", value), ("policy", policy), ("cards", cards)))
        self.cpuct = None if cpuct is None else number_option("cpuct", cpuct, 0.01, MAX_CPUCT)
        self.pool = whole_option("pool", pool, 1, MAX_POOL)
        self.mix = None if mix is None else number_option("mix", mix, 0.0, 1.0)
        if any(self.given) and tree == "multi":
            raise BotError("the learned model guides the single tree: options value, policy and cards need "
                           "tree=single")
        self.exploration, self.playout = _options(c, playout)
        self.split = number_option("split", split, -MAX_SPLIT, MAX_SPLIT)
        self.tree = choice_option("tree", self.DEFAULT_TREE if tree is None else tree, TREES)
        self.own_only = None if own_only is None else bool(whole_option("own_only", own_only, 0, 1))
        self.root_widen = None if root_widen is None else number_option("root_widen", root_widen, 0.0, MAX_ROOT_WIDEN)
        if self.own_only and self.tree != "single":
            raise BotError("option own_only=1 keeps one tree of the searching seat's decisions: it needs tree=single")
        # Option partners (issue 32, item 2): the tree of the seat's own decisions, every
        # partner's move in it drawn from the learned blueprint over that partner's own
        # picture of the world (the model the partner bots play).
        self.partners = bool(whole_option("partners", partners, 0, 1))
        if self.partners:
            if self.own_only is False or self.tree != "single":
                raise BotError("option partners=1 draws the partners' moves in a single tree of the seat's own "
                               "decisions: it cannot go with own_only=0 or tree=multi")
            self.own_only = True
        self.prior = number_option("prior", self.DEFAULT_PRIOR if prior is None else prior, 0.0, MAX_PRIOR)
        self.infer = None if infer is None else bool(whole_option("infer", infer, 0, 1))
        self.temperature = None if temp is None else number_option("temp", temp, MIN_TEMPERATURE, MAX_TEMPERATURE)
        if self.temperature is not None and self.infer is False:
            raise BotError("option temp is the temperature of the opponent model: it cannot go with infer=0")
        self.reuse = bool(whole_option("reuse", reuse, 0, 1))
        self.credit = bool(whole_option("credit", credit, 0, 1))
        if self.credit and not self.reuse:
            raise BotError("option credit counts a reused tree's visits toward the budget: it needs reuse=1")
        self.replicas = whole_option("replicas", replicas, 1, MAX_REPLICAS)
        # Option pbi (docs/learning.md, "Policy-based inference"): the worlds also weighted
        # by the opponent's observed decisions under the learned policy; off by default
        # until measured. pbi_temp, pbi_eps: its temperature and its share of uniform.
        self.pbi = bool(whole_option("pbi", pbi, 0, 1))
        self.pbi_temp = PBI_TEMPERATURE if pbi_temp is None else number_option(
            "pbi_temp", pbi_temp, MIN_PBI_TEMPERATURE, MAX_PBI_TEMPERATURE)
        self.pbi_eps = PBI_EPSILON if pbi_eps is None else number_option("pbi_eps", pbi_eps, MIN_PBI_EPSILON,
                                                                          MAX_PBI_EPSILON)
        self.pbi_ratio = True if pbi_ratio is None else bool(whole_option("pbi_ratio", pbi_ratio, 0, 1))
        if not self.pbi and (pbi_temp is not None or pbi_eps is not None or pbi_ratio is not None):
            raise BotError("options pbi_temp, pbi_eps and pbi_ratio weigh the policy-based inference: they need "
                           "pbi=1")
        if self.pbi and self.tree != "single":
            raise BotError("option pbi=1 weighs the worlds of the single tree: it needs tree=single")
        if self.replicas > 1 and self.reuse:
            raise BotError("option reuse=1 keeps one tree: it cannot go with replicas above 1")
        self._kept: _Kept | None = None
        self._guide: tuple | None = None  # (game, its guide) of the last game searched
        self.reused_visits = 0  # the reused root visits of the last decision (0: a fresh tree)

    def needs(self) -> dict[str, str]:
        """The capabilities this bot's options need of a game, each with the option that
        asks for it (infer=1 or temp: the opponent model); the bot registry checks them
        (`make_bot(spec, game)`) before anything is searched."""
        if self.infer or self.temperature is not None:
            return {"opponent_model": "infer" if self.infer else "temp"}
        return {}

    def parts(self, game) -> tuple[bool, bool, bool]:
        """(value, policy, cards): the learned model's parts this bot's searches of `game`
        use where the game ships a model; each as given, else the game's default for
        its learned search (`game.model.defaults`, or the archived model's, MODEL_TAG),
        else on (off for the multi-observer tree and for a bot whose default is unguided,
        GUIDED = 0)."""
        if self.MODEL_TAG is not None:
            defaults = archived_defaults(game, self.MODEL_TAG)
        else:
            defaults = game.model.defaults if game.model is not None else {}
        on = self.GUIDED and self.tree == "single"
        return tuple(given if given is not None else bool(on and defaults.get(name, 1))
                     for name, given in zip(("value", "policy", "cards"), self.given))

    def guide(self, game) -> Guide | None:
        """The learned model's guide of this bot's searches of `game` (None: unguided),
        worked out once for the game this bot last searched."""
        known = self._guide
        if known is not None and known[0] is game:
            return known[1]
        guide = default_guide(game, self.parts(game), self.cpuct, self.mix, self.pool, self.MODEL_TAG)
        if self.partners:
            if guide is not None:
                guide = dataclasses.replace(guide, partners=guide.model.has_policy)
            elif game.capabilities.model:  # every part off: the model for its blueprint alone
                guide = shipped_guide(game, False, False, False, pool=self.pool, partners=True, tag=self.MODEL_TAG)
            if guide is None or not guide.partners:
                raise BotError(f"option partners=1 draws the partners' moves from the learned blueprint: game "
                               f"{game.name} ships no model with a policy")
        self._guide = (game, guide)
        return guide

    def policy_inference(self, game) -> PolicyInference | None:
        """Option pbi's weighting of the worlds (None: off), with the policy of the model
        this bot searches with, else the game's kept model; BotError where it has none."""
        if not self.pbi:
            return None
        guide = self.guide(game)
        model = guide.model if guide is not None else None
        if model is None and game.capabilities.model:
            loaded = shipped_model(game, self.MODEL_TAG)
            model = None if loaded is None else loaded[1]
        if model is None or not model.has_policy:
            raise BotError(f"option pbi=1 weighs the worlds by a learned policy: game {game.name} ships no model "
                           "with one")
        return PolicyInference(model, self.pbi_temp, self.pbi_eps, self.pool, self.pbi_ratio)

    def infers(self, game) -> bool:
        """Whether this bot's searches of `game` follow its hand-made opponent model
        (option infer, else the game's default; off by default where the learned card
        model weighs the worlds instead)."""
        if self.infer is None:
            guide = self.guide(game)
            if guide is not None and guide.cards:
                return False
        return infer_of(game, self.infer)

    def decide(self, view: View, limits: Limits, seed: int = 0, stop: Stop | None = None,
               progress: Progress | None = None, every: int | None = None, *,
               root_moves: RootMoves | None = None) -> PlayResult:
        kept, self._kept, self.reused_visits = self._kept, None, 0
        if not self.reuse:
            analysis = self._search(view, limits, seed, stop, progress, every, root_moves)
            if analysis.best is None:
                raise _stopped()
            return PlayResult(analysis.best, analysis, not analysis.finished, analysis.iterations)
        limits = split_limits(limits, view.turn_progress(), self.split)
        if view.current_seat is None:
            raise ValueError("nothing to decide in this position (game over, or a chance event comes next)")
        started = time.perf_counter()
        seed &= MASK64
        seen = view  # the seat's own view: the reuse check reads this one only
        guide = self.guide(view.game)
        if self.infers(view.game):
            view = inferred(view, self.temperature, seed, worlds_bound(limits))
        view = guided(view, guide, seed, worlds_bound(limits))
        view = policy_weighted(seen, view, self.policy_inference(view.game), seed, worlds_bound(limits),
                               limits.threads or 1)
        search = None
        if kept is not None and self._follows(kept, seen, limits, root_moves):
            search = kept.search
            search.reroot(kept.action, search_view(view), seed)
            self.reused_visits = search.root_visits
        if search is None:
            search = new_tree(view, seed, limits.threads, self.exploration, self.playout, root_moves, self.tree,
                              self.prior, widen_root=True, own_only=self.own_only, root_widen=self.root_widen,
                              guide=guide)
        limits = time_left(limits, started)
        if self.credit and self.reused_visits:
            limits = credited(limits, self.reused_visits, kept.rate)
        analysis = searched(search, view, limits, seed, progress, every, stop)
        if analysis.best is None:
            raise _stopped()
        mark = seen.history_mark()
        if mark is not None:
            rate = analysis.iterations / analysis.millis if analysis.millis > 0 else 0.0
            self._kept = _Kept(view.game, seen.seat, (mark[0] + 1, view.game.move_text(analysis.best)),
                               limits.threads, search, view.game.action_of(analysis.best), rate)
        return PlayResult(analysis.best, analysis, not analysis.finished, analysis.iterations)

    @staticmethod
    def _follows(kept: _Kept, view: View, limits: Limits, root_moves: RootMoves | None) -> bool:
        """Whether `view` is the kept tree's seat deciding again right after its chosen
        move, with nothing else in between: read from that seat's view alone."""
        return (view.game is kept.game and view.seat == kept.seat and view.current_seat == kept.seat
                and view.history_mark() == kept.mark and limits.threads == kept.threads
                and (root_moves is None or not root_moves.restricts)
                and kept.search.node_count <= MAX_KEPT_NODES)

    def analyze(self, view: View, limits: Limits, seed: int = 0, stop: Stop | None = None,
                progress: Progress | None = None, every: int | None = None, *,
                root_moves: RootMoves | None = None) -> Analysis:
        """This bot's search of `view` read as an analysis: the same worlds (its opponent
        or card model), learned guide, tree, widened root, split and replicas as its
        move, which is the analysis' best (`decide`); so a service's Analyze, AnalyzeGame
        and SuggestMove answer alike for one spec, seed and budget. It lists the moves the
        search tried, as KataGo's analysis does: a widened root offers 1 + floor(w·√visits)
        moves (option root_widen=w, up to 4; allow_moves names others to search). (Option
        reuse keeps a tree between moves: `decide` only.)"""
        return self._search(view, limits, seed, stop, progress, every, root_moves)

    def _search(self, view, limits, seed, stop, progress, every, root_moves) -> Analysis:
        """The search of a move and of an analysis (`analyze`)."""
        limits = split_limits(limits, view.turn_progress(), self.split)
        if self.infers(view.game) and view.current_seat is not None:
            started = time.perf_counter()
            view = inferred(view, self.temperature, seed, worlds_bound(limits))
            limits = time_left(limits, started)  # weighing the worlds is part of the time budget
        # a move, not a survey of every move: the root may be widened (the measured default)
        return analyze(view, limits, seed, progress, every, stop, self.exploration, self.playout, root_moves,
                       self.tree, self.prior, widen_root=True, own_only=self.own_only, root_widen=self.root_widen,
                       guide=self.guide(view.game), replicas=self.replicas,
                       pbi=self.policy_inference(view.game))


class IsmctsV2Bot(IsmctsBot):
    """The default before the learned search: the same options and moves as `ismcts`
    with every part of the learned model off (value=0, policy=0, cards=0), so it
    searches with the game's hand-made opponent model where it has one."""

    name = "ismcts-v2"
    GUIDED = 0


class IsmctsV3Bot(IsmctsBot):
    """The learned search as it was the default before the history-reading model: the
    same options as `ismcts`, guided by the earlier model the game keeps under "v3"
    (game.model.archive) with the defaults it shipped with: the same moves for the same
    view, seed and budget (tests/golden/learned_decisions.json holds them)."""

    name = "ismcts-v3"
    MODEL_TAG = "v3"

    @classmethod
    def lacks(cls, game) -> str | None:
        """Why `game` cannot be played by this bot (it keeps no model under MODEL_TAG)."""
        if game.capabilities.model and cls.MODEL_TAG in game.model.archive:
            return None
        return f"game {game.name} keeps no earlier model {cls.MODEL_TAG!r}"


class IsmctsV1Bot(IsmctsBot):
    """The single-observer search as it played before the multi-observer one came:
    the same moves for the same view, seed and budget (the golden files hold them)."""

    name = "ismcts-v1"

    def __init__(self, c: float | str = DEFAULT_EXPLORATION, playout: str = "random"):
        super().__init__(c, playout, "single", 0.0, infer=0, own_only=0, value=0, policy=0, cards=0)


class PimcBot:
    """Perfect-information Monte Carlo: draw `worlds` determinizations, search each as if
    every card were known (decks stay shuffled), and play the move most worlds chose.
    At most MAX_WORLDS worlds; the whole decision keeps to the budget's wall time (the
    worlds searched by then vote)."""

    name = "pimc"

    def __init__(self, worlds: int | str = 8, c: float | str = DEFAULT_EXPLORATION, playout: str | None = None):
        self.worlds = whole_option("worlds", worlds, 1, MAX_WORLDS)
        self.exploration, self.playout = _options(c, playout)

    def decide(self, view: View, limits: Limits, seed: int = 0, stop: Stop | None = None,
               progress: Progress | None = None, *, root_moves: RootMoves | None = None) -> PlayResult:
        start = time.perf_counter()
        share = Limits(
            None if limits.iterations is None else max(1, limits.iterations // self.worlds),
            None if limits.millis is None else max(1, limits.millis // self.worlds),
        )
        pimc = new_pimc(view, seed, self.worlds, self.exploration, self.playout, root_moves)
        finished = True
        iterations = 0
        for w in range(self.worlds):
            if pimc.voted and limits.millis is not None and (time.perf_counter() - start) * 1000 >= limits.millis:
                finished = False  # out of time: the worlds searched so far vote
                break
            search = pimc.world(w)
            ran, _, world_finished = run_budget(search, share, should_stop=stop)
            iterations += ran
            finished = world_finished and finished
            if not pimc.vote(search):
                continue
            if stop is not None and stop():
                finished = False
                break  # stopped: the worlds searched so far vote
        action = pimc.choice()
        if action < 0:
            raise _stopped()
        return PlayResult(view.game.move_of(action), None, not finished, iterations)
