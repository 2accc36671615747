"""`hzai analyze-game RECORD --server HOST:PORT`: the review of a record by the service's
AnalyzeGame, printed as the same table as the review in this process (hzai.analysis_cli) and,
with --plot, drawn by the same picture (hzai.review_plot)."""

from __future__ import annotations

import json
import sys

from hzai_client.commands import EXIT_SERVICE, CommandError, _budget_kwargs, _client, _command, _game_of, _record_text


def reviewed_from_proto(d):
    """A ReviewedDecision of the library (what the table and the plot read) from the
    service's message; its `analysis` stays the message's own Analysis."""
    from hzai.search.review import ReviewedDecision

    played = d.played_value if d.HasField("played_value") else None
    return ReviewedDecision(
        index=d.index, seat=d.seat_name, played=d.played.text, played_value=played,
        played_interval=None if played is None else (d.played_ci_low, d.played_ci_high),
        played_visits=d.played_visits, best=d.best.text, best_value=d.best_value,
        best_interval=(d.best_ci_low, d.best_ci_high), loss=d.loss if d.HasField("loss") else None,
        pv=[m.text for m in d.pv], seed=d.seed, analysis=d.analysis,
        belief=json.loads(d.belief_json) if d.belief_json else None,
        best_visits=d.analysis.moves[0].visits if d.analysis.moves else 0, mark=d.mark,
    )


def _progress(done: int, total: int) -> None:
    sys.stderr.write(f"\r[{done}/{total}]" + ("\n" if done == total else ""))
    sys.stderr.flush()


@_command
def cmd_analyze_game_remote(args) -> int:
    from hzai.analysis_cli import AnalysisUsageError, write_review
    from hzai.core import RecordError
    from hzai.record_file import load_record

    if len(args.records) != 1 or getattr(args, "ray", None) is not None:
        raise CommandError("with --server give one record file (no --ray)")
    path = args.records[0]
    text = _record_text(path)
    try:
        game = load_record(path).game  # its seats and capabilities, for the table
    except RecordError as exc:
        raise CommandError(str(exc)) from None
    if args.plot:
        from hzai.cli import _plot_format
        from hzai.review_plot import _pyplot

        _plot_format(args.plot)

        _pyplot()  # a missing matplotlib is said before the review runs
    seats = [] if args.side is None else [args.side]
    rows, summary = [], None
    with _client(args) as client:
        for reply in client.analyze_game(text, game=_game_of(client, args, text), seed=args.seed, seats=seats,
                                         belief=bool(args.plot), **_budget_kwargs(args)):
            if reply.WhichOneof("item") == "summary":
                summary = reply.summary
                continue
            rows.append(reviewed_from_proto(reply.decision))
            if not args.quiet and summary is None:
                _progress(len(rows), max(len(rows), len(json.loads(text).get("moves", []))))
    if summary is None:
        raise CommandError("the stream ended without its summary", EXIT_SERVICE)
    if not summary.complete:
        print(f"hzai analyze-game: stopped after {summary.decisions} of {summary.total} decisions: "
              f"{summary.stopped}", file=sys.stderr)
    if rows and args.plot:
        from hzai.review_plot import plot_review

        plot_review(rows, args.plot, f"{path} · {args.budget} a decision · seed {args.seed} · {args.server}")
        print(f"hzai analyze-game: plot written to {args.plot}", file=sys.stderr)
    try:
        from hzai.cli_options import json_stream

        with json_stream(args, *(getattr(args, "records", None) or [])) as out:
            write_review(game, rows, args, out)
    except AnalysisUsageError as exc:
        raise CommandError(str(exc)) from None
    return 0
