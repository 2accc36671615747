"""`hzai analyze` and `hzai analyze-game` for a record of any registered game (read by
hzai.record_file): one seat's view, the analysing bot's own search and the generic
review (hzai.search.review, through hzai.review.review_rows). Values are the deciding
seat's result; in a cooperative game that is the team's win probability.

The record's chance results must be moves of the record for the review to replay it:
`explicit(record)` (hzai.review) asks the game's record type for its form with them
written out (`of_state`, where it has one)."""

from __future__ import annotations

import json
import sys

from hzai.cli_options import AnalysisUsageError
from hzai.core import NoDecision, missing
from hzai.core.bot import RootMoves, RootMovesError
from hzai.explain import pv_in_words
from hzai.review import ANALYSIS_HEADER, format_move_row, review_rows
from hzai.search.bot import ANALYSIS_BOT, BotError, make_bot, parse_spec, require_analyst
from hzai.search.review import BLUNDER, DUBIOUS, MIN_VISITS


# `hzai analyze`'s search options that are a bot's options too: given, they join --bot's spec
SPEC_FLAGS = (("c", "c"), ("playout", "playout"), ("tree", "tree"), ("prior", "prior"))


def analyst_of(args, game):
    """The bot whose own search `hzai analyze` and `analyze-game` run (--bot, default the
    analysis bot ANALYSIS_BOT: the default bot with its replicas, with --c, --playout,
    --tree and --prior added to its options when given): the same search as that bot's
    move and as the service's Analyze for that spec."""
    name, options = parse_spec(getattr(args, "bot", None) or ANALYSIS_BOT)
    for flag, option in SPEC_FLAGS:
        value = getattr(args, flag, None)
        if value is not None:
            if option in options:
                raise AnalysisUsageError(f"--{flag} and --bot's option {option} say the same thing: give one")
            options[option] = str(value)
    spec = name + (":" + ",".join(f"{k}={v}" for k, v in options.items()) if options else "")
    try:
        return require_analyst(make_bot(spec, game), game)
    except BotError as exc:
        raise AnalysisUsageError(f"--bot: {exc}") from None


def analyse(bot, view, limits, seed: int, root_moves=None):
    """`bot`'s analysis of `view`; a bot option the position refuses is the user's to fix."""
    try:
        return bot.analyze(view, limits, seed, root_moves=root_moves)
    except BotError as exc:
        raise AnalysisUsageError(f"--bot: {exc}") from None


def _seat(game, side: str | None) -> int | None:
    if side is None:
        return None
    try:
        return game.presentation.seat_index(side)
    except ValueError as exc:
        raise AnalysisUsageError(f"--seat: {exc}") from None


def analyze_record(record, state, args, limits, out) -> int:
    """Every legal move of the seat to decide after `state` (the record replayed), and
    with --belief N the game's belief report (capability belief_report)."""
    game = record.game
    if args.belief and not game.capabilities.belief_report:
        raise AnalysisUsageError(f"--belief: {missing(game, 'belief_report', 'leave it out')}")
    try:
        view = game.records.decision_view(state)
    except NoDecision as exc:
        raise AnalysisUsageError(str(exc)) from None
    wanted = _seat(game, args.side)
    if wanted is not None and wanted != view.seat:
        raise AnalysisUsageError(f"{game.seats[view.seat]} is to decide here, not {args.side}")
    answer = analyse(analyst_of(args, game), view, limits, args.seed, root_moves(view, args))
    if args.belief:
        answer.belief = game.presentation.belief_report(view, args.belief, args.seed)
    if args.json:
        out.write(json.dumps(answer.to_json(game.move_text), indent=2) + "\n")
        return 0
    best = answer.moves[0]
    whose = "the team" if game.capabilities.cooperative else answer.perspective
    values = f"{whose}'s win probability"
    out.write(f"{answer.perspective} to decide · budget {limits}: {answer.iterations} iterations in "
              f"{answer.millis:.0f} ms · values are {values}\n")
    out.write(f"from here: {best.value:.3f} ({best.ci_low:.3f}..{best.ci_high:.3f}) with the best move\n")
    out.write(ANALYSIS_HEADER + "\n")
    for m in answer.moves[: args.top]:
        out.write(format_move_row(game.move_text(m.move), m.visits, m.value, m.ci_low, m.ci_high,
                                  [game.move_text(p) for p in m.pv]) + "\n")
    for m in answer.moves[: min(args.top, getattr(args, "words", 0))]:
        out.write(f"\nafter {game.move_text(m.move)}, the search expects:\n")
        for line in pv_in_words(game, view, m.pv, seed=args.seed) or ["(nothing it can tell)"]:
            out.write(f"  {line}\n")
    if answer.belief:
        out.write("\n" + game.presentation.belief_text(answer.belief) + "\n")
    return 0


def root_moves(view, args):
    """--allow / --avoid as chosen root moves of `view` (None without either)."""
    allow, avoid = getattr(args, "allow", None), getattr(args, "avoid", None) or []
    if allow is None and not avoid:
        return None
    try:
        chosen = RootMoves.parse(view.game, allow, avoid)
        chosen.select(view)
    except RootMovesError as exc:
        why = str(exc)  # "allow move 'x': ..." names its option
        raise AnalysisUsageError(f"--{why}" if why.startswith(("allow", "avoid")) else why) from None
    return chosen


def review_record(record, args, limits, out, progress=None, belief: bool = False) -> list:
    """Every decision of the record (of the --seat seat), the move played against the
    search's choice and the value lost, printed (as JSON with --json); the rows, for a
    picture. `belief`: each decision's belief summary where the game offers one
    (capability review_belief)."""
    game = record.game
    wanted = _seat(game, args.side)
    seats = None if wanted is None else [wanted]
    rows = review_rows(record, limits, args.seed, seats, progress=progress, belief=belief,
                       analyst=analyst_of(args, game))
    write_review(game, rows, args, out)
    return rows


REVIEW_MOVE_WIDTH = 26  # the move columns' least width (a longer move widens its table)


def _move_cells(move: str, visits: int, value: float | None, interval, width: int) -> str:
    """A move's cells of a review row: the move, its visits, value and 95% interval."""
    if value is None:
        return f"{move:<{width}} {visits:>6} {'-':>6} {'-':>12}"
    return f"{move:<{width}} {visits:>6} {value:>6.3f} {interval[0]:>5.3f}..{interval[1]:<5.3f}"


def review_header(width: int = REVIEW_MOVE_WIDTH) -> str:
    cells = f"{'visits':>6} {'value':>6} {'95% interval':>12}"
    return f"{'#':>4}  {'seat':<6} {'played':<{width}} {cells}  {'bot':<{width}} {cells}  {'lost':>6}"


def review_legend(cooperative: bool) -> str:
    """The line above the review table saying what its numbers are."""
    whose = ("the team's win probability" if cooperative else
             "the win probability (draw 0.5) of the row's seat, who decides there, from its own view")
    return (f"values are {whose}; lost = the bot's value - the played move's\n"
            f"a mark (? lost {DUBIOUS:.2f} or more, ?? {BLUNDER:.2f}) needs {MIN_VISITS} visits of both moves and the "
            f"played move's 95% interval wholly below the bot's; a played move searched fewer times was searched "
            f"on its own")


def review_line(r, width: int = REVIEW_MOVE_WIDTH) -> str:
    """One decision of the review table (here and through --server alike)."""
    lost = "     -" if r.loss is None else f"{r.loss:>6.3f}"
    played = _move_cells(r.played, r.played_visits, r.played_value, r.played_interval, width)
    best = _move_cells(r.best, r.best_visits, r.best_value, r.best_interval, width)
    return f"{r.index:>4}  {r.seat:<6} {played}  {best}  {lost} {r.mark}".rstrip()


def write_review(game, rows: list, args, out) -> None:
    """The review's rows as the table (or, with --json, the JSON) every analyze-game
    prints, here or by a server (hzai_client.review_remote)."""
    wanted = _seat(game, args.side)
    note = ("hzai analyze-game: nothing to analyse: the record has no decisions"
            f"{'' if wanted is None else ' by ' + game.seats[wanted]} yet")
    if args.json:
        out.write(json.dumps([row.to_json() for row in rows], indent=1) + "\n")
        if not rows:  # not an error: a fresh record simply has nothing to look at yet (exit 0)
            print(note, file=sys.stderr)
        return
    if not rows:
        out.write(note + "\n")
        return
    width = max([REVIEW_MOVE_WIDTH] + [len(text) for r in rows for text in (r.played, r.best)])
    out.write(review_legend(game.capabilities.cooperative) + "\n")
    out.write(review_header(width) + "\n")
    for r in rows:
        out.write(review_line(r, width) + "\n")
    for seat in game.seats:
        mine = [r for r in rows if r.seat == seat]
        if mine:
            lost = sum(r.loss or 0.0 for r in mine)
            out.write(f"{seat}: {len(mine)} decisions, value lost {lost:.2f} in all, "
                      f"{sum(r.mark == '??' for r in mine)} marked ??, {sum(r.mark == '?' for r in mine)} marked ?\n")
    first = rows[0]
    if game.capabilities.cooperative:
        out.write(f"the team's win probability at the first decision: {first.best_value:.3f} "
                  f"({first.best_interval[0]:.3f}..{first.best_interval[1]:.3f})\n")
