"""Reading analyses as text: the per-move table of `hzai analyze` (the same rows in
process and through `--server`) and the annotation of every decision of a game record,
the move played against the bot's choice; `review_many` annotates many records, one
after the other or as Ray tasks (hzai.batch), with the same seeds either way."""

from __future__ import annotations

from hzai.batch import run_all
from hzai.core.record import RecordError
from hzai.record_file import record_of
from hzai.search import Limits
from hzai.search.bot import ANALYSIS_BOT, make_bot
from hzai.search.review import BLUNDER, MIN_VISITS, ReviewedDecision, ReviewError, mark_of, review_moves  # noqa: F401

MOVE_WIDTH = 28
PV_SHOWN = 4  # replies shown in the principal-variation column
ANALYSIS_HEADER = f"{'move':<{MOVE_WIDTH}} {'visits':>7} {'value':>7} {'95% interval':>15}  principal variation"
PV_COLUMN = ANALYSIS_HEADER.index("principal variation")  # where every row's variation starts


def format_pv(pv) -> str:
    """The replies after a move (`pv` starts with the move itself), as `a / b / c`."""
    replies = list(pv)[1:]
    text = " / ".join(str(m) for m in replies[:PV_SHOWN])
    return text + (" / …" if len(replies) > PV_SHOWN else "")


def format_move_row(move: str, visits: int, value: float, ci_low: float, ci_high: float, pv) -> str:
    """One row of the analysis table; local and remote analyses both print with it."""
    row = f"{move:<{MOVE_WIDTH}} {visits:>7} {value:>7.3f} {ci_low:>7.3f}..{ci_high:<6.3f}"
    return f"{row:<{PV_COLUMN - 2}}  {format_pv(pv)}".rstrip()


def explicit(record):
    """`record` with every chance result written as a move (the review replays moves
    only): its record type's `of_state` of the replayed game, where the type has one
    and the record keeps only a seed."""
    of_state = getattr(type(record), "of_state", None)
    if of_state is None or getattr(record, "seed", None) is None:
        return record
    return of_state(record.game.records.replay(record))


def review_rows(record, limits: Limits, seed: int = 0, seats=None, progress=None, stop=None,
                belief: bool = False, analyst=None) -> list[ReviewedDecision]:
    """The generic review (hzai.search.review.review_moves) of a record of any game by
    `analyst` (a bot; default the analysis bot ANALYSIS_BOT, as the service's AnalyzeGame): every
    decision of `seats` (seat indexes; None: all). A move that cannot be read or played
    is a RecordError naming it, as replaying the record would say."""
    game = record.game
    full = explicit(record)
    analyst = analyst if analyst is not None else make_bot(ANALYSIS_BOT, game)
    try:
        return list(review_moves(game, game.records.start_of(full), full.moves, limits, seed, seats, stop=stop,
                                 progress=progress, belief=belief, analyst=analyst))
    except ReviewError as exc:
        raise RecordError(str(exc), exc.index, exc.text) from None


def review_entry(name: str, data: dict, limits: Limits, seed: int, seats=None, bot: str | None = None,
                 base: str | None = None) -> dict:
    """One record of a batch, of any registered game: {"record": name, "decisions":
    [...]} (each decision as `hzai analyze-game --json` writes it), or {"record": name,
    "error": why} when it cannot be read or played. `base`: the folder of the file it
    came from (None: from anyone). Plain values in and out (a Ray task)."""
    try:
        record = record_of(data, base)
        rows = review_rows(record, limits, seed, seats, analyst=make_bot(bot or ANALYSIS_BOT, record.game))
    except RecordError as exc:
        return {"record": name, "error": str(exc)}
    return {"record": name, "decisions": [row.to_json() for row in rows]}


def review_many(records: list[tuple], limits: Limits, seed: int = 0, ray: str | None = None, progress=None,
                bot: str | None = None) -> list[dict]:
    """`review_entry` for every (name, record JSON[, seats[, base]]), in the order given;
    `ray`: as Ray tasks there (an address, or "local"). `progress(done, total)` after
    each record."""
    calls = []
    for name, data, *rest in records:
        seats = rest[0] if rest else None
        base = rest[1] if len(rest) > 1 else None
        calls.append((name, data, limits, seed, None if seats is None else list(seats), bot, base))
    if ray is not None:
        return run_all(review_entry, calls, ray, progress)
    out = []
    for call in calls:
        out.append(review_entry(*call))
        if progress:
            progress(len(out), len(calls))
    return out
