"""The hosted matches: a bounded cache of replayed states in front of the match store.

The store is the truth. A call finds its match in the cache (or loads it and replays
its record), holds the match's lock, tries moves on a copy, writes them to the store and
only then changes the cached state and answers. The cache keeps at most `--match-cache`
matches, the most recently used (an LRU): memory follows the matches a process serves,
not the matches the store holds. A match dropped from it is rebuilt from the store on
its next call; one dropped while a call still holds it is found again by that object
(a weak reference), so a process never has two copies of one match. Nothing is loaded
at start.

A match that ends is marked finished in the store with its last moves (one transaction):
from then on it no longer counts against the caps (`--max-matches`, per client), and it
stays readable for `--finished-ttl` seconds. A background thread sweeps, outside the
request path, live matches idle for longer than the TTL, finished ones older than the
finished TTL, and the oldest finished ones over `--max-finished`. Creation checks the
server-wide and per-client caps.

Several replicas may share one store (PostgreSQL): a cached state can then be stale.
Every call, once it holds the match's lock, compares the cached record's length with the
stored version and catches up first (the new entries played on the cached state, or a
full replay); a match gone from the store is gone here too. Two replicas that still race
to append are told apart by the store's version check: the loser writes nothing and
answers ABORTED with a retry hint. A call also marks the match used in the store at
most once a sweep interval, so another replica's sweep does not drop a match read here.
"""

from __future__ import annotations

import math
import threading
import time
import weakref
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field

import grpc

from hzai.core import Game, Move, NoDecision, RecordError, State, UnknownGameError, View, make_game
from hzai.rng import SplitMix64
from hzai.search import Limits

from hzai_server import fairness, seats
from hzai_server.errors import ApiError, invalid
from hzai_server.logs import log
from hzai_server.store import LoggedMove, MatchStore, StoredMatch, StoreError, VersionConflict

CLIENT_KEY = "hzai-client"
MAX_CLIENT_CHARS = 128
CONFLICT_RETRY_S = 0.05  # the retry hint of a move that lost a race to another replica
STORE_RETRY_S = 1.0


@contextmanager
def store_errors():
    """A store that cannot be reached (database down, connection lost) is UNAVAILABLE
    with a retry hint, not INTERNAL."""
    try:
        yield
    except StoreError as exc:
        log("store unavailable", level=40, error=str(exc)[:300])
        raise ApiError(grpc.StatusCode.UNAVAILABLE, "the match store cannot be reached; retry later",
                       retry_after=STORE_RETRY_S) from None


@dataclass
class Match:
    id: str
    seed: int
    salt: str
    open: bool
    client: str
    game: Game  # with the match's parameters
    record: object  # the game's record type: .game, .moves
    state: State
    bot_seats: frozenset
    bot_spec: str
    limits: Limits
    token_hashes: dict  # "seats": a hash per seat (None for a bot seat), "spectator"
    lock: threading.Lock = field(default_factory=threading.Lock)
    last_used: float = 0.0
    stored_used: float = 0.0  # last_used as the store has it (written at most once a sweep interval)
    gone: bool = False  # deleted or expired while a call waited for the lock
    finished_at: float | None = None  # when the match ended (as the store has it); None while live
    bot_levels: dict = field(default_factory=dict)  # bot seat -> strength level (absent: full strength)

    @property
    def human_seats(self) -> list[int]:
        return [seat for seat in range(len(self.game.seats)) if seat not in self.bot_seats]

    def settings(self) -> dict:
        return {"params": self.game.params, "bot_seats": sorted(self.bot_seats), "bot": self.bot_spec,
                "bot_levels": {str(seat): level for seat, level in sorted(self.bot_levels.items())},
                "limits": {"iterations": self.limits.iterations, "millis": self.limits.millis,
                           "threads": self.limits.threads}}


def resolve_chance(game: Game, state: State, rng: SplitMix64) -> list[Move]:
    """Draw every pending chance result, each by its probability."""
    drawn = []
    while state.is_chance and not state.is_terminal:
        move = game.search.draw_chance(state, rng)
        state.apply(move)
        drawn.append(move)
    return drawn


def client_of(context) -> str:
    """Who a quota counts against: the `hzai-client` metadata, else the peer's host."""
    for key, value in context.invocation_metadata() or ():
        if key.lower() == CLIENT_KEY and str(value).strip():
            return str(value).strip()[:MAX_CLIENT_CHARS]
    peer = context.peer() or "unknown"
    kind, _, rest = peer.partition(":")
    if kind in ("ipv4", "ipv6"):
        return rest.rsplit(":", 1)[0].strip("[]")
    return peer[:MAX_CLIENT_CHARS]


def _game_of(stored: StoredMatch) -> tuple[Game, frozenset]:
    """The game (with its parameters) and bot seats of a stored match; a row written by a
    server of schema 1 is a Hera and Zeus match with its variants and one flag a seat."""
    settings = stored.settings
    if "variants" in settings:
        params, bot_seats = settings["variants"], [i for i, bot in enumerate(settings["bots"]) if bot]
    else:
        params, bot_seats = settings["params"], settings["bot_seats"]
    return make_game(stored.game).presentation.with_params(params), frozenset(bot_seats)


def _from_stored(stored: StoredMatch) -> Match:
    game, bot_seats = _game_of(stored)
    record = game.records.new(stored.seed)
    record.moves[:] = stored.moves
    return Match(
        id=stored.id, seed=stored.seed, salt=stored.salt, open=stored.open, client=stored.client, game=game,
        record=record, state=game.records.replay(record), bot_seats=bot_seats, bot_spec=stored.settings["bot"],
        limits=Limits(**stored.settings["limits"]), token_hashes=stored.token_hashes, last_used=stored.last_used,
        stored_used=stored.last_used, finished_at=stored.finished_at,
        bot_levels={int(seat): int(level) for seat, level in stored.settings.get("bot_levels", {}).items()},
    )


UNREADABLE = (RecordError, UnknownGameError, KeyError, TypeError, ValueError)


class HostedMatches:
    def __init__(self, store: MatchStore, config, clock=time.time):
        self.store = store
        self.config = config
        self.clock = clock
        self._cache: OrderedDict[str, Match] = OrderedDict()  # the most recently used last
        self._alive: weakref.WeakValueDictionary[str, Match] = weakref.WeakValueDictionary()  # cached or in a call
        self._lock = threading.Lock()  # the cache and the caps
        self._stop = threading.Event()
        self._sweeper: threading.Thread | None = None
        with store_errors():
            live, finished = store.count_live(), store.count_finished()
        log("match store opened", live=live, finished=finished, cache=config.match_cache)

    def __len__(self) -> int:
        return self.store.count_live()

    def cached(self) -> int:
        """Matches this process holds replayed now (the cache, and any a call still holds)."""
        with self._lock:
            return len(self._alive)

    def _use(self, match: Match) -> None:
        """Mark `match` most recently used (taking back into the cache one that a call
        still held after it was dropped) and drop the least recently used over
        --match-cache. Called with self._lock. A dropped match needs no write: the store
        already knows of its use to within a sweep interval (mark_used), as for a match
        another replica serves."""
        self._cache[match.id] = match
        self._cache.move_to_end(match.id)
        while len(self._cache) > self.config.match_cache:
            self._cache.popitem(last=False)

    def _remember(self, match: Match) -> Match:
        """Cache a match just built, or keep the object this process already has for it."""
        with self._lock:
            kept = self._alive.get(match.id)
            if kept is None:
                kept = self._alive[match.id] = match
            self._use(kept)
        return kept

    def _load(self, match_id: str) -> Match | None:
        with store_errors():
            stored = self.store.load(match_id)
        if stored is None:
            return None
        try:
            match = _from_stored(stored)
        except UNREADABLE as exc:
            log("unreadable match", level=40, match_id=match_id, error=str(exc))
            return None
        if match.finished_at is None and match.state.is_terminal:
            # Ended under a server of schema 2, which kept no time: it is finished from now.
            match.finished_at = self.clock()
            with store_errors():
                self.store.mark_finished(match_id, match.finished_at)
        log("match loaded", level=10, match_id=match_id, moves=len(stored.moves))
        return self._remember(match)

    # ----- creation ----------------------------------------------------------------------
    def create(self, *, game: Game, seed: int | None, bot_seats: frozenset, bot_spec: str, limits: Limits,
               client: str, bot_levels: dict | None = None) -> tuple[Match, dict]:
        """A new match and its tokens: seat -> token for each human seat (bot seats get
        none), and "spectator" -> token."""
        open_ = seed is not None
        seed = fairness.draw_seed() if seed is None else seed
        tokens: dict = {"spectator": seats.new_token()}
        for seat in range(len(game.seats)):
            if seat not in bot_seats:
                tokens[seat] = seats.new_token()
        hashes = {"seats": [seats.token_hash(tokens[s]) if s in tokens else None for s in range(len(game.seats))],
                  "spectator": seats.token_hash(tokens["spectator"])}
        record = game.records.new(seed)
        now = self.clock()
        salt = fairness.open_salt(seed) if open_ else fairness.new_salt()
        match = Match(id=seats.new_match_id(), seed=seed, salt=salt, open=open_, client=client, game=game,
                      record=record, state=game.records.start_of(record), bot_seats=bot_seats, bot_spec=bot_spec,
                      limits=limits, token_hashes=hashes, last_used=now, bot_levels=dict(bot_levels or {}))
        with self._lock, store_errors():
            self._check_caps(client)
            self.store.create(StoredMatch(id=match.id, client=client, token_hashes=hashes, seed=seed,
                                          salt=match.salt, open=open_, settings=match.settings(),
                                          created_at=now, last_used=now, game=game.name))
        return self._remember(match), tokens

    def _check_caps(self, client: str) -> None:
        if self.store.count_live() >= self.config.max_matches:
            self._refuse_over_cap(f"this server hosts at most {self.config.max_matches} matches and all are in use",
                                  None)
        if self.store.count_live(client) >= self.config.max_matches_per_client:
            self._refuse_over_cap(f"a client may keep at most {self.config.max_matches_per_client} matches here "
                                  "and yours are all in use", client)

    def _refuse_over_cap(self, which: str, client: str | None) -> None:
        """RESOURCE_EXHAUSTED over a match cap, saying when a place frees by itself: the
        sweep removes a match once idle for the TTL, so the idlest one (of the client,
        for its own cap) goes at the first sweep after its TTL runs out; any sooner
        if one of them ends or a player deletes one."""
        ttl, sweep = self.config.match_ttl, self.config.sweep_interval
        idlest = self.store.idlest_use(client)
        left = ttl if idlest is None else max(0.0, idlest + ttl - self.clock())
        retry = math.ceil(left + 2 * sweep)
        raise ApiError(grpc.StatusCode.RESOURCE_EXHAUSTED,
                       f"{which}; a match is removed after {ttl:g} s unused, the idlest of these in at most "
                       f"{retry} s (retry then), or stops counting at once when it ends or a player deletes it "
                       "(DeleteMatch; the page's New game does)", retry_after=retry, reason="match_cap")

    # ----- access ------------------------------------------------------------------------
    def open(self, match_id: str, context) -> tuple[Match, seats.Grant]:
        """The match a call's token opens, and what it opens it as. The match is not
        locked yet (see `locked`)."""
        token = seats.presented_token(context)
        if not match_id:
            raise invalid("match_id", "give the id CreateMatch returned")
        with self._lock:
            match = self._alive.get(match_id)
            if match is not None:
                self._use(match)
        if match is None and len(match_id) <= 2 * seats.MATCH_ID_BYTES:
            match = self._load(match_id)
        grant = seats.grant_for(None if match is None else match.token_hashes, token)
        return match, grant

    def locked(self, match: Match, context) -> "Locked":
        return Locked(self, match, context)

    def commit(self, match: Match, entries: list[LoggedMove], state: State) -> None:
        """Write `entries` (moves at the end of the record) and only then adopt `state`;
        when `state` is the end, the match is marked finished in the same write."""
        now = self.clock()
        ends = state.is_terminal and match.finished_at is None
        try:
            self.store.append(match.id, len(match.record.moves), entries, now, finished=ends)
        except VersionConflict:
            # Another replica moved the match first: nothing of this call was written,
            # and the next call catches up with the stored record (see refresh).
            raise ApiError(grpc.StatusCode.ABORTED, "the match changed during this call (another call moved it "
                                                    "first); nothing was played: read it again and retry",
                           retry_after=CONFLICT_RETRY_S) from None
        except StoreError as exc:
            log("store write failed", level=40, error=f"{type(exc).__name__}: {exc}")
            raise ApiError(grpc.StatusCode.UNAVAILABLE, "the match could not be saved, so the move was not played; "
                                                        "retry later") from None
        match.record.moves.extend(e.text for e in entries)
        match.state = state
        match.stored_used = now
        if ends:
            match.finished_at = now

    def refresh(self, match: Match) -> None:
        """Catch a cached match up with the store (another replica may have moved it
        since), or mark it gone when the store no longer has it. Called with its lock."""
        with store_errors():
            version = self.store.version(match.id)
            if version == len(match.record.moves):
                return
            stored = None if version is None else self.store.load(match.id)
        if stored is None:
            self._forget(match)
            return
        known = match.record.moves
        try:
            if len(stored.moves) > len(known) and stored.moves[:len(known)] == known:
                state = match.state.clone()
                for index in range(len(known), len(stored.moves)):
                    match.game.records.play(state, index, stored.moves[index])
            else:
                state = _from_stored(stored).state
        except UNREADABLE as exc:
            log("unreadable match", level=40, match_id=match.id, error=str(exc))
            raise ApiError(grpc.StatusCode.UNAVAILABLE, "the stored match cannot be read; retry later",
                           retry_after=STORE_RETRY_S) from None
        log("match reloaded", level=10, match_id=match.id, cached=len(known), stored=len(stored.moves))
        match.record.moves[:] = stored.moves
        match.state = state
        match.stored_used = max(match.stored_used, stored.last_used)
        match.finished_at = stored.finished_at

    def mark_used(self, match: Match, now: float) -> None:
        """Tell the store (and so every replica's sweep) that the match is in use, at
        most once a sweep interval; a failure only waits for the next call."""
        if now - match.stored_used < self.config.sweep_interval or match.gone:
            return
        try:
            self.store.touch(match.id, now)
            match.stored_used = now
        except StoreError as exc:
            log("store touch failed", level=30, error=str(exc)[:300])

    def logged_move(self, match: Match, index: int) -> LoggedMove | None:
        with store_errors():
            return self.store.logged_move(match.id, index)

    def _forget(self, match: Match) -> None:
        with self._lock:
            if self._cache.get(match.id) is match:
                self._cache.pop(match.id)
            if self._alive.get(match.id) is match:
                self._alive.pop(match.id)
        match.gone = True

    def delete(self, match: Match) -> None:
        self._forget(match)
        with store_errors():
            self.store.delete(match.id)

    def view_for_decision(self, match_id: str, context) -> tuple[Game, View]:
        """The game and the view of the token's seat when it is that seat's decision."""
        match, grant = self.open(match_id, context)
        with self.locked(match, context):
            state = match.state
            if not (state.is_terminal or state.is_chance) and (grant.spectator or state.current_seat != grant.seat):
                raise seats.denied("it is not your seat's decision")
            try:
                return match.game, match.game.records.decision_view(state)
            except NoDecision as exc:
                raise invalid("position.match_id", str(exc)) from None

    # ----- expiry ------------------------------------------------------------------------
    def sweep(self) -> int:
        """Remove the live matches idle for over the TTL, the finished ones that ended
        over the finished TTL ago and the oldest finished ones over --max-finished; the
        number removed. A match in use (its lock held) or, live, used since (in this
        process) is kept."""
        now = self.clock()
        idle_before = now - self.config.match_ttl
        expired = sum(self._remove(i, idle_before) for i in self.store.expired(idle_before))
        ended = sum(self._remove(i) for i in self.store.ended(now - self.config.finished_ttl, self.config.max_finished))
        if expired or ended:
            log("matches expired", matches=expired + ended, idle=expired, finished=ended,
                live=self.store.count_live())
        return expired + ended

    def _remove(self, match_id: str, idle_before: float | None = None) -> bool:
        """Delete one match the sweep listed, from the store and this process; False when
        it stays: in use here (its lock held), or, with `idle_before`, used since (in this
        process: its last use is written back; through another replica: the store's
        delete refuses)."""
        with self._lock:
            match = self._alive.get(match_id)
        if match is None:
            return self.store.delete(match_id, idle_before)
        if not match.lock.acquire(blocking=False):
            return False
        try:
            if idle_before is not None and match.last_used >= idle_before:
                self.store.touch(match_id, match.last_used)
                return False
            if not self.store.delete(match_id, idle_before):
                return False
            self._forget(match)
            return True
        finally:
            match.lock.release()

    def start_sweeper(self) -> None:
        def run():
            while not self._stop.wait(self.config.sweep_interval):
                try:
                    self.sweep()
                except Exception as exc:  # noqa: BLE001 - the sweep tries again next time
                    log("sweep failed", level=40, error=f"{type(exc).__name__}: {exc}")

        self._sweeper = threading.Thread(target=run, name="match-sweep", daemon=True)
        self._sweeper.start()

    def close(self) -> None:
        self._stop.set()
        if self._sweeper is not None:
            self._sweeper.join(5)
        self.store.close()


class Locked:
    """Hold a match's lock for one call; a call that cannot get it in time is told so
    rather than waiting past its deadline."""

    def __init__(self, hosted: HostedMatches, match: Match, context):
        self.hosted = hosted
        self.match = match
        remaining = context.time_remaining() if context is not None else None
        self.timeout = 10.0 if remaining is None else max(0.0, min(10.0, remaining - 0.05))

    def __enter__(self) -> Match:
        if not self.match.lock.acquire(timeout=self.timeout):
            raise ApiError(grpc.StatusCode.ABORTED, "the match is busy with another call; retry")
        try:
            if not self.match.gone:
                self.hosted.refresh(self.match)
        except BaseException:
            self.match.lock.release()
            raise
        if self.match.gone:
            self.match.lock.release()
            raise seats.denied()
        return self.match

    def __exit__(self, *exc) -> None:
        now = self.hosted.clock()
        self.match.last_used = now
        try:
            self.hosted.mark_used(self.match, now)
        finally:
            self.match.lock.release()
