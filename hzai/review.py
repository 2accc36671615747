"""Reading analyses as text: the per-move table of `hzai analyze` (the same rows in
process and through `--server`) and the annotation of every decision of a game record,
the move played against the bot's choice; `review_many` annotates many records, one
after the other or as Ray tasks (hzai.batch), with the same seeds either way."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from hzai.games.hera_zeus.cards import PLAYERS
from hzai.games.hera_zeus.rules import Record, RecordError
from hzai.search import Limits
from hzai.search.bot import DEFAULT_BOT, make_bot
from hzai.search.review import BLUNDER, ReviewedDecision, ReviewError, mark_of, review_moves  # noqa: F401

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


@dataclass
class Decision:
    """A decision as `hzai analyze-game` prints it (the rows of the generic review,
    hzai.search.review, cut to these columns)."""

    index: int  # position in the record's moves
    player: str
    played: str
    played_value: float | None  # None: the search never tried the played move
    played_visits: int
    best: str
    best_value: float
    loss: float | None  # best_value - played_value, ≥ 0 up to noise

    @property
    def mark(self) -> str:
        return mark_of(self.loss)

    @classmethod
    def of(cls, row: ReviewedDecision) -> "Decision":
        return cls(row.index, row.seat, row.played, row.played_value, row.played_visits, row.best, row.best_value,
                   row.loss)


def review_record(record: Record, limits: Limits, seed: int = 0, sides=(0, 1), progress=None, stop=None,
                  belief: bool = False, bot: str | None = None):
    """The generic review (hzai.search.review.review_moves) of a Hera and Zeus record by
    bot `bot`'s own search (a spec; default the default bot, as the service's
    AnalyzeGame), one ReviewedDecision at a time; a move that cannot be read or played
    is a RecordError naming it, as replaying the record would say."""
    analyst = make_bot(bot or DEFAULT_BOT, record.game)
    try:
        yield from review_moves(record.game, record.start(), record.moves, limits, seed, sides, stop=stop,
                                progress=progress, belief=belief, analyst=analyst)
    except ReviewError as exc:
        raise RecordError(str(exc), exc.index, exc.text) from None


def review_game(record: Record, limits: Limits, seed: int = 0, sides=(0, 1), progress=None,
                bot: str | None = None) -> list[Decision]:
    """One analysis per decision of the chosen sides; `progress(done, total)` after each."""
    return [Decision.of(row) for row in review_record(record, limits, seed, sides, progress, bot=bot)]


def _number(value: float | None) -> str:
    return f"{'-':>6}" if value is None else f"{value:>6.3f}"


def format_review(decisions: list[Decision]) -> str:
    lines = ["values are the win probability (draw 0.5) of the row's player, who decides there, from its own view; "
             "lost = the bot's value - the played move's",
             f"{'#':>4}  {'player':<6} {'played':<26} {'value':>6}  {'bot':<26} {'value':>6}  {'lost':>6}"]
    for d in decisions:
        lines.append(
            f"{d.index:>4}  {d.player:<6} {d.played:<26} {_number(d.played_value)}  {d.best:<26} {d.best_value:>6.3f}  "
            f"{_number(d.loss)} {d.mark}"
        )
    for player in PLAYERS:
        mine = [d for d in decisions if d.player == player]
        if mine:
            lost = sum(d.loss or 0.0 for d in mine)
            marks = sum(1 for d in mine if d.mark == "??")
            lines.append(f"{player}: {len(mine)} decision{'' if len(mine) == 1 else 's'}, value lost {lost:.2f} in all, {marks} marked ??")
    return "\n".join(lines)


def decisions_json(decisions: list[Decision]) -> list[dict]:
    return [asdict(d) | {"mark": d.mark} for d in decisions]


def explicit(record):
    """`record` with every chance result written as a move (the review replays moves
    only): its record type's `of_state` of the replayed game, where the type has one
    and the record keeps only a seed."""
    of_state = getattr(type(record), "of_state", None)
    if of_state is None or getattr(record, "seed", None) is None:
        return record
    return of_state(record.game.replay(record))


def review_rows(record, limits: Limits, seed: int = 0, seats=None, progress=None, stop=None,
                belief: bool = False, analyst=None) -> list[ReviewedDecision]:
    """The generic review (hzai.search.review.review_moves) of a record of any game by
    `analyst` (a bot; default the default bot, as the service's AnalyzeGame): every
    decision of `seats` (seat indexes; None: all). A move that cannot be read or played
    is a RecordError naming it, as replaying the record would say."""
    from hzai.core.record import RecordError as CoreRecordError

    game = record.game
    full = explicit(record)
    analyst = analyst if analyst is not None else make_bot(DEFAULT_BOT, game)
    try:
        return list(review_moves(game, game.start_of(full), full.moves, limits, seed, seats, stop=stop,
                                 progress=progress, belief=belief, analyst=analyst))
    except ReviewError as exc:
        raise CoreRecordError(str(exc), exc.index, exc.text) from None


def review_entry(name: str, data: dict, limits: Limits, seed: int, seats=None, bot: str | None = None,
                 base: str | None = None) -> dict:
    """One record of a batch, of any registered game: {"record": name, "decisions":
    [...]} (each decision as `hzai analyze-game --json` writes it), or {"record": name,
    "error": why} when it cannot be read or played. `base`: the folder of the file it
    came from (None: from anyone). Plain values in and out (a Ray task)."""
    from hzai.core.record import RecordError as CoreRecordError
    from hzai.record_file import record_of

    try:
        record = record_of(data, base)
        rows = review_rows(record, limits, seed, seats, analyst=make_bot(bot or DEFAULT_BOT, record.game))
    except CoreRecordError as exc:
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
        from hzai.batch import run_all

        return run_all(review_entry, calls, ray, progress)
    out = []
    for call in calls:
        out.append(review_entry(*call))
        if progress:
            progress(len(out), len(calls))
    return out
