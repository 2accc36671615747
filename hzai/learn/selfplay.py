"""Self-play records (docs/learning.md): games of one native ISMCTS bot in every seat,
each seat deciding from its own view, written as shards of `shard` games to a folder.

Game i of a run is dealt and seeded with `seed + i`; shard k holds games
k*shard .. (k+1)*shard - 1, written whole (a temporary file renamed into place), so an
interrupted run picks up at the first missing shard and gives the same records as one
run. `meta.json` records what made the folder (game, budget, seed, model, exploration)
and a resumed run must ask for the same. Shards are spread over threads in C++ (GIL
released), or over a Ray cluster (`ray=ADDRESS`), with identical records either way.

Cheap self-play (playout-cap randomisation, docs/learning.md "Cheap self-play and
blended targets"): with `full_share` below 1 only that share of decisions is a full
search (a record with the visit-share policy target and the root value, `full` 1); the
rest are decided by the model's policy alone (`fast_budget` 0) or a search of
`fast_budget` iterations, and a share `keep` of them is recorded as value-only records
(`full` 0, no policy target, root value NaN). Every record carries `oracle_value`, the
model's value net on the true state for the deciding seat (a label, never an input),
`action` (the move played) and `turn` (0 setup, k the k-th turn of play; -1 where the
game does not say).
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from hzai import _native
from hzai.batch import run_tasks
from hzai.core.capabilities import MissingCapability, require
from hzai.core.registry import make_game
from hzai.native.model import load_cached
from hzai.native.tables import PLAYOUTS
from hzai.search.arena import text_ranks
from hzai.search.ismcts import DEFAULT_CPUCT, DEFAULT_MIX, DEFAULT_POOL

META = "meta.json"
MAX_GAMES = 1_000_000
MAX_BUDGET = 1_000_000


class SelfplayError(ValueError):
    """A self-play run that cannot go on: the message names why."""


@dataclass(frozen=True)
class SelfplayConfig:
    game: str = "hera_zeus"
    games: int = 1000
    budget: int = 200  # iterations a decision
    seed: int = 0
    model: str | None = None  # a model file's id (name@version), None: the unguided search
    explore_moves: int = 8
    temperature: float = 1.0
    shard: int = 50
    cpuct: float = DEFAULT_CPUCT
    pool: int = DEFAULT_POOL
    params: str = ""  # the game's options as a JSON object (game.presentation.with_params), "" for its defaults
    full_share: float = 1.0  # share of decisions searched with the whole budget (the rest are fast)
    fast_budget: int = 0  # iterations of a fast decision's search; 0: the model's policy alone
    keep: float = 1.0  # share of fast decisions recorded, as value-only records
    fast_temperature: float = 0.0  # a fast decision after the opening: 0 the top move, else a draw

    @property
    def cheap(self) -> bool:
        """Whether some decisions are fast ones (playout-cap randomisation)."""
        return self.full_share < 1.0

    def check(self) -> None:
        game_of(self.game, self.params)  # SelfplayError naming a bad game or option
        if not 1 <= self.games <= MAX_GAMES:
            raise SelfplayError(f"games must be within 1..{MAX_GAMES}, not {self.games}")
        if not 1 <= self.budget <= MAX_BUDGET:
            raise SelfplayError(f"budget must be within 1..{MAX_BUDGET} iterations, not {self.budget}")
        if not 1 <= self.shard <= 10_000:
            raise SelfplayError(f"shard must be within 1..10000 games, not {self.shard}")
        if not 0 <= self.explore_moves <= 1000 or not 0.0 <= self.temperature <= 100.0:
            raise SelfplayError("explore must be within 0..1000 and temperature within 0..100")
        if not 0 <= self.seed < 2**63:
            raise SelfplayError(f"seed must be within 0..2^63-1, not {self.seed}")
        if not 0.0 <= self.full_share <= 1.0:
            raise SelfplayError(f"full-share must be within 0..1, not {self.full_share}")
        if not 0 <= self.fast_budget <= MAX_BUDGET:
            raise SelfplayError(f"fast-budget must be within 0..{MAX_BUDGET} iterations, not {self.fast_budget}")
        if not 0.0 <= self.keep <= 1.0:
            raise SelfplayError(f"keep must be within 0..1, not {self.keep}")
        if not 0.0 <= self.fast_temperature <= 100.0:
            raise SelfplayError(f"fast-temperature must be within 0..100, not {self.fast_temperature}")

    def check_model(self, model) -> None:
        """SelfplayError where the fast decisions need what the model lacks."""
        if self.cheap and self.fast_budget == 0 and (model is None or not model.has_policy):
            raise SelfplayError("policy-only fast decisions (--fast-budget 0 with --full-share below 1) need a model "
                                "with a policy net: --model shipped or a model file")

    def shards(self) -> int:
        return (self.games + self.shard - 1) // self.shard


def game_of(name: str, params: str = ""):
    """The game `name` with the options of `params` (a JSON object; "" its defaults);
    SelfplayError naming what is wrong, a game without a learned search (capability
    model) included."""
    try:
        game = make_game(name)
        if params:
            try:
                options = json.loads(params)
            except ValueError as exc:
                raise ValueError(f"params is not JSON ({exc})") from None
            if not isinstance(options, dict):
                raise ValueError("the game's params must be a JSON object")
            game = game.presentation.with_params(options)
        require(game, "model", "it has no self-play")
    except (ValueError, MissingCapability) as exc:  # an unknown game or option, JSON that does not parse
        raise SelfplayError(f"game {name!r} with params {params!r}: {exc}") from None
    return game


def folder_game(folder: str | Path, default: str):
    """The game a self-play folder was played in (its meta.json's game and params)."""
    path = Path(folder) / META
    meta = json.loads(path.read_text()) if path.exists() else {}
    return game_of(meta.get("game") or default, meta.get("params") or "")


def bot_spec(game, budget: int, model=None, cpuct: float = DEFAULT_CPUCT, pool: int = DEFAULT_POOL,
             use: tuple = (True, True, True), model_index: int = 0, mix: float = DEFAULT_MIX):
    """The native ISMCTS bot of self-play and matches: the game's default playout, guided
    by every part of `model` that it has and `use` keeps (value, policy, cards);
    `model_index`: where the model is in the arena's list."""
    value = bool(model is not None and model.has_value and use[0])
    policy = bool(model is not None and model.has_policy and use[1])
    cards = bool(model is not None and model.has_cards and use[2])
    guided = value or policy or cards
    return _native.BotSpec(2, budget, 0.7, PLAYOUTS[game.search.default_playout], model=model_index if guided else -1,
                           use_value=value, use_policy=policy, use_cards=cards, cpuct=cpuct, pool=pool, mix=mix)


def play_shard(config: SelfplayConfig, index: int, threads: int, model_path: str | None = None) -> dict:
    """The records of shard `index` as one dict of arrays (games concatenated; CSR
    pointers made global; `game` the game number of each record, `result` the first
    seat's score of its game). Games a seat's tracker could not follow are dropped and
    counted in `dropped`."""
    game = game_of(config.game, config.params)
    model = load_cached(game, model_path)[1] if model_path else None
    first = index * config.shard
    numbers = list(range(first, min(config.games, first + config.shard)))
    starts = [game.search.native_start(config.seed + i) for i in numbers]
    seeds = [config.seed + i for i in numbers]
    spec = bot_spec(game, config.budget, model, config.cpuct, config.pool)
    config.check_model(model)
    extra = {}
    if config.cheap:
        if game.name != "hera_zeus":  # the other games' bindings take no playout-cap options yet
            raise SelfplayError(f"cheap self-play (--full-share below 1) is bound for hera_zeus only, not {game.name}")
        extra.update(full_share=config.full_share, fast_budget=config.fast_budget, keep=config.keep,
                     fast_temperature=config.fast_temperature)
    if game.search.native.arena_needs_text_ranks:  # the search's tie-break, as in the arena
        extra["text_ranks"] = text_ranks(game)
    games = game.search.native.selfplay(spec, model, starts, seeds, threads=threads, explore_moves=config.explore_moves,
                                 temperature=config.temperature, **extra)
    ok = [g for g in games if not g["error"]]
    return concat(ok, [n for n, g in zip(numbers, games) if not g["error"]],
                  dropped=sum(1 for g in games if g["error"]),
                  decisions=sum(int(g.get("decisions", len(g["seat"]))) for g in ok),
                  full_decisions=sum(int(g.get("full_decisions", len(g["seat"]))) for g in ok))


# The per-record arrays of a shard; the last four came with cheap self-play (older
# shards, and the exploit benchmark's, lack them: `load` fills them in).
RECORD_KEYS = ("view_idx", "state_idx", "policy_action", "policy_prob", "seat", "move", "explored", "root_value",
               "labels", "full", "oracle_value", "action", "turn")
NEWER_KEYS = ("full", "oracle_value", "action", "turn")


def concat(games: list[dict], numbers: list[int], dropped: int = 0, decisions: int | None = None,
           full_decisions: int | None = None) -> dict:
    """Per-game record arrays joined into one set (pointers offset, game numbers and results added;
    `decisions`: every decision of these games, kept or not, `full_decisions` the full ones)."""
    out: dict[str, list] = {k: [] for k in (*RECORD_KEYS, "game", "result")}
    ptrs = {"view_ptr": [np.zeros(1, np.int64)], "state_ptr": [np.zeros(1, np.int64)],
            "policy_ptr": [np.zeros(1, np.int64)]}
    base = {"view_ptr": 0, "state_ptr": 0, "policy_ptr": 0}
    for g, number in zip(games, numbers):
        n = len(g["seat"])
        for k in RECORD_KEYS:
            out[k].append(np.asarray(g[k]) if k in g else _missing(k, n))
        out["game"].append(np.full(n, number, np.int64))
        out["result"].append(np.full(n, float(g["returns"][0]), np.float32))
        for p in ptrs:
            ptrs[p].append(np.asarray(g[p][1:], np.int64) + base[p])
            base[p] += int(g[p][-1])
    arrays = {k: (np.concatenate(v) if v else np.zeros((0, 13) if k == "labels" else 0)) for k, v in out.items()}
    arrays.update({p: np.concatenate(v) for p, v in ptrs.items()})
    arrays["dropped"] = np.array(dropped)
    count = len(arrays["seat"])
    arrays["decisions"] = np.array(count if decisions is None else decisions, np.int64)
    arrays["full_decisions"] = np.array(count if full_decisions is None else full_decisions, np.int64)
    return arrays


def _missing(key: str, n: int) -> np.ndarray:
    """A newer record array for `n` records of a game or shard written without it: every
    record a full search's, no oracle, the move and the stage unknown."""
    if key == "full":
        return np.ones(n, np.uint8)
    if key == "oracle_value":
        return np.full(n, np.nan, np.float32)
    if key in ("action", "turn"):
        return np.full(n, -1, np.int32)
    raise KeyError(key)


def shard_path(out: Path, index: int) -> Path:
    return out / f"shard-{index:05d}.npz"


def write_shard(out: Path, index: int, arrays: dict) -> None:
    path = shard_path(out, index)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        np.savez_compressed(f, **arrays)
    tmp.replace(path)


def prepare(config: SelfplayConfig, out: Path, model_id: str | None) -> None:
    """Make `out` (or check that a folder being resumed was made by the same run)."""
    config.check()
    meta = dict(asdict(config), model=model_id, features=game_of(config.game, config.params).model.feature_layout)
    out.mkdir(parents=True, exist_ok=True)
    path = out / META
    if path.exists():
        try:
            old = json.loads(path.read_text())
        except ValueError:
            raise SelfplayError(f"{path} is not JSON: not a self-play folder") from None
        # The number of games may change (game i is the same game in any run): more adds
        # shards, fewer leaves the extra ones unread. Anything else is another run.
        old.setdefault("params", "")  # folders made before games took params
        for key in ("full_share", "fast_budget", "keep", "fast_temperature"):  # before cheap self-play
            old.setdefault(key, getattr(SelfplayConfig(), key))
        # A folder made before the layout was named holds features of no known layout
        # (None here): it is refused, as another layout is, rather than mixed.
        diff = ", ".join(f"{k} {old.get(k)!r} -> {meta[k]!r}" for k in meta if k != "games" and old.get(k) != meta[k])
        if diff:
            raise SelfplayError(f"{out} holds another run's records ({diff}): use a new --out or the same options")
        old_games = int(old.get("games") or 0)
        if old_games % config.shard and config.games > old_games:  # its last shard was cut short
            shard_path(out, old_games // config.shard).unlink(missing_ok=True)
    path.write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")


def run(config: SelfplayConfig, out: str | Path, threads: int = 2, model_path: str | None = None,
        ray_address: str | None = None, progress=None) -> dict:
    """Play every missing shard of the run into `out`; returns a summary (games, records,
    decisions, seconds, games an hour). `progress(done, total, records, games)` after each
    shard (games and records of this call)."""
    out = Path(out)
    model_id = None
    model = None
    if model_path:
        info, model = load_cached(game_of(config.game, config.params), model_path)
        model_id = info.model_id
    config.check()
    config.check_model(model)
    prepare(config, out, model_id)
    todo = [k for k in range(config.shards()) if not shard_path(out, k).exists()]
    start = time.perf_counter()
    totals = {"records": 0, "games": 0, "decisions": 0, "full_decisions": 0}
    done = config.shards() - len(todo)

    def count(k: int, arrays: dict) -> None:
        nonlocal done
        write_shard(out, k, arrays)
        first = k * config.shard
        totals["games"] += min(config.games, first + config.shard) - first - int(arrays["dropped"])
        totals["records"] += len(arrays["seat"])
        totals["decisions"] += int(arrays["decisions"])
        totals["full_decisions"] += int(arrays["full_decisions"])
        done += 1
        if progress:
            progress(done, config.shards(), totals["records"], totals["games"])

    if ray_address is not None:
        calls = [(config, k, 1, model_path) for k in todo]
        for i, arrays in run_tasks(play_shard, calls, None if ray_address == "local" else ray_address):
            count(todo[i], arrays)
    else:
        for k in todo:
            count(k, play_shard(config, k, threads, model_path))
    seconds = time.perf_counter() - start
    played = totals["games"]
    return {"shards": config.shards(), "new_shards": len(todo), **totals,
            "seconds": round(seconds, 1), "games_per_hour": round(played / seconds * 3600, 1) if seconds > 0 else None,
            "threads": threads}


def bar(done: int, total: int, records: int, started: float, games: int | None = None) -> None:
    """A one-line progress bar on stderr (with the games an hour of this run when `games` is given)."""
    width = 30
    filled = int(width * done / max(1, total))
    elapsed = time.perf_counter() - started
    eta = elapsed / max(1, done) * (total - done) if done else 0
    rate = f", {games / elapsed * 3600:,.0f} games/hour" if games is not None and elapsed > 0 else ""
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] shard {done}/{total}, {records} records{rate}, "
                     f"{elapsed:.0f} s, about {eta:.0f} s left ")
    sys.stderr.flush()
    if done >= total:
        sys.stderr.write("\n")


def feature_layouts(folders: list[str | Path]) -> dict[str, str | None]:
    """Each folder's feature layout as its meta.json names it (None: not named, a folder
    made before layouts were)."""
    out = {}
    for folder in folders:
        path = Path(folder) / META
        try:
            meta = json.loads(path.read_text()) if path.exists() else {}
        except ValueError:
            meta = {}
        out[str(folder)] = meta.get("features") if isinstance(meta, dict) else None
    return out


def load(folders: list[str | Path]) -> dict:
    """Every shard of `folders` joined into one set of arrays, each folder's game numbers
    shifted past the folder before's so that they stay unique.

    A game's number decides whether it is held out (`train.split`: number % 10 == 0).
    The shift of each folder keeps the remainder the first version of this function
    gave (`legacy`: it added the folder before's largest shifted number, so the shift
    doubled with every folder, past what an int64 holds after about 60 folders), so a
    model trained before is trained again on the same split, with numbers that stay
    small for any count of folders."""
    parts, numbers, which = [], [], []
    legacy = 0  # the first version's shift (a Python int: only its remainder mod 10 is used)
    start = 0  # the least number this folder's shift may start at
    for index, folder in enumerate(folders):
        paths = sorted(Path(folder).glob("shard-*.npz"))
        if not paths:
            raise SelfplayError(f"{folder}: no self-play shards (shard-*.npz) here")
        shift = start + (legacy - start) % 10  # ≥ start, ≡ legacy (mod 10)
        top = 0
        for p in paths:
            with np.load(p, allow_pickle=False) as z:
                a = {k: z[k] for k in z.files}
            for key in NEWER_KEYS:
                if key not in a:
                    a[key] = _missing(key, len(a["seat"]))
            games = a["game"] + shift
            top = max(top, int(a["game"].max()) + 1 if len(games) else 0)
            parts.append(a)
            numbers.append(games)
            which.append(np.full(len(games), index, np.int64))
        legacy += legacy + top if top else 0
        start = shift + top
    out = {}
    for k in (*RECORD_KEYS, "result"):
        out[k] = np.concatenate([a[k] for a in parts])
    out["game"] = np.concatenate(numbers)
    out["folder"] = np.concatenate(which)  # the index in `folders` of each record's folder
    for p in ("view_ptr", "state_ptr", "policy_ptr"):
        chunks, base = [np.zeros(1, np.int64)], 0
        for a in parts:
            chunks.append(a[p][1:].astype(np.int64) + base)
            base += int(a[p][-1])
        out[p] = np.concatenate(chunks)
    return out
