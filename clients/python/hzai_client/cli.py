"""The `hzai` command: the library's commands (hzai.cli) plus those that talk to the
service, `hzai suggest`, `hzai analyze --server` and `hzai play`.

The library never imports the clients: this module builds the library's parser
(`hzai.cli.build_parser`) and adds its commands to it; the `hzai` console script runs
`main` here, and `python -m hzai.cli` runs the library's commands alone. Every command answers bad input with one line
and exit status 2, a service that cannot answer (not running, overloaded, deadline) with
one line and exit status 1; never a traceback.
"""

from __future__ import annotations

import json
import sys

from hzai_client.constants import DEFAULT_TARGET

from hzai_client.commands import (  # noqa: F401  (CommandError is part of this module's face)
    EXIT_BAD_INPUT, EXIT_SERVICE, CommandError, _budget_kwargs, _client, _command, _game_of, _limits, _record_text,
    add_level_option, add_tls_options, level_of_args,
)

@_command
def cmd_suggest(args) -> int:
    text = _record_text(args.record)
    budget, level = _budget_kwargs(args), level_of_args(args)  # bad options are said before connecting
    with _client(args) as client:
        reply = client.suggest_move(text, game=_game_of(client, args, text), seed=args.seed, bot=args.bot,
                                    level=level, **budget)
    if args.json:
        from google.protobuf import json_format

        from hzai.cli_options import json_stream

        with json_stream(args, args.record) as out:
            out.write(json_format.MessageToJson(reply, indent=None, preserving_proto_field_name=True) + "\n")
    else:
        print(reply.move.text)
    return 0


def _format_analysis(a, budget: str = "") -> str:
    from hzai.review import ANALYSIS_HEADER, format_move_row

    lines = [
        f"budget {(budget + ' iterations' if budget.isdigit() else budget) if budget else 'the server default'}: {a.iterations} iterations in {a.millis:.0f} ms · values are {a.perspective_name}'s expected result "
        f"(win 1, draw 0.5, loss 0) · best: {a.best.text} ({a.value:.3f})" + ("" if a.finished else " · stopped early"),
        ANALYSIS_HEADER,
    ]
    for info in a.moves:
        lines.append(format_move_row(info.move.text, info.visits, info.value, info.ci_low, info.ci_high,
                                     [m.text for m in info.pv]))
    if a.HasField("belief"):
        b = a.belief
        # the game's own report, one entry a line (every game writes its own; --json has it whole)
        lines.append(f"Where the hidden cards probably are, as {a.perspective_name} sees it ({b.samples} samples):")
        lines += _belief_lines(a.game, json.loads(b.json or "{}"))
    return "\n".join(lines)


def _belief_lines(game: str, report: dict) -> list[str]:
    """A server's belief report in words, as the game's own `belief_text` says it (Hera and
    Zeus: as `hzai belief` prints it); one entry a line when this side does not know the
    game or the report is of another shape (--json has it whole)."""
    from hzai.core import UnknownGameError, make_game

    try:
        text = make_game(game).presentation.belief_text(report)
    except (UnknownGameError, KeyError, TypeError, ValueError):
        text = "\n".join(f"{key}: {json.dumps(value)}" for key, value in report.items()
                         if key not in ("observer", "samples", "seed"))
    return ["  " + line for line in text.splitlines()]


def _upto(text: str, upto: int | None) -> str:
    if upto is None:
        return text
    data = json.loads(text)
    data["moves"] = data.get("moves", [])[:upto]
    return json.dumps(data)


# Options of the search run here that an AnalyzeRequest cannot carry: the service analyzes
# with its own search settings, so with --server they are refused rather than ignored.
LOCAL_SEARCH_OPTIONS = ("c", "playout", "tree", "prior")


def _refuse_local_search_options(args) -> None:
    defaults = getattr(args, "local_search_defaults", {})
    given = [f"--{dest}" for dest, default in defaults.items() if getattr(args, dest, default) != default]
    if given:
        raise CommandError(f"{', '.join(given)} set{'s' if len(given) == 1 else ''} the search run here; "
                           "with --server the service analyzes with its own settings: leave "
                           f"{'it' if len(given) == 1 else 'them'} out or drop --server", EXIT_BAD_INPUT)


@_command
def cmd_analyze_remote(args) -> int:
    _refuse_local_search_options(args)
    text = _upto(_record_text(args.record), getattr(args, "upto", None))
    budget = _budget_kwargs(args)  # a bad budget is said before connecting
    with _client(args) as client:
        kwargs = dict(game=_game_of(client, args, text), seed=args.seed, belief_samples=args.belief,
                      allow=getattr(args, "allow", None), avoid=getattr(args, "avoid", None), **budget)
        if args.stream:
            final = None
            for analysis in client.analyze_stream(text, progress_every=args.every, **kwargs):
                final = analysis
                if not analysis.finished:
                    print(f"... {analysis.iterations} iterations: best {analysis.best.text} ({analysis.value:.3f})",
                          flush=True)
            if final is None:
                raise CommandError("the stream ended without an answer", EXIT_SERVICE)
            analysis = final
        else:
            analysis = client.analyze(text, **kwargs)
    if args.json:
        from google.protobuf import json_format

        from hzai.cli_options import json_stream

        with json_stream(args, args.record) as out:
            out.write(json_format.MessageToJson(analysis, indent=None, preserving_proto_field_name=True) + "\n")
    else:
        top = getattr(args, "top", None)
        if top is not None:
            del analysis.moves[top:]
        print(_format_analysis(analysis, args.budget))
    return 0


def _remote_options(p, help_suffix: str = "") -> None:
    p.add_argument("--server", default=None, metavar="HOST:PORT",
                   help=f"ask hzai-server at this address (e.g. {DEFAULT_TARGET}){help_suffix}")
    p.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                   help="with --server: deadline of the call; the search stops in time and answers its best so far")
    p.add_argument("--stream", action="store_true", help="with --server: print progress while the search runs")
    p.add_argument("--every", type=int, default=0, help="with --stream: iterations between progress reports")
    add_tls_options(p)
    _game_option(p)


def _game_option(p) -> None:
    p.add_argument("--game", default=None,
                   help="with --server: the record's game as the server names it (default: the game whose records "
                        "have the record's `format`)")


def add_commands(sub) -> None:
    """Add suggest, analyze and play to the hzai command line."""

    def common(p, budget_help="search budget: 1000 (iterations), 250ms, 2s or 1000,250ms (default: the server's)"):
        p.add_argument("--server", default=DEFAULT_TARGET, metavar="HOST:PORT",
                       help=f"address of hzai-server (default {DEFAULT_TARGET})")
        p.add_argument("--budget", default=None, help=budget_help)
        p.add_argument("--threads", type=int, default=1, help="search threads (default 1)")
        p.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                       help="deadline of each call; the search stops in time and answers its best so far")
        add_tls_options(p)

    p = sub.add_parser("suggest", help="ask hzai-server for a move after a record")
    p.add_argument("record", help="game record (the game's JSON record, e.g. hzai-record/1)")
    common(p)
    _game_option(p)
    from hzai_client.commands import served_bot_help

    p.add_argument("--bot", default="", help=served_bot_help("the bot whose move is suggested"))
    add_level_option(p, "the move of the bot")
    p.add_argument("--seed", type=int, default=0, help="search seed (default 0)")
    from hzai.cli_options import add_json_option

    add_json_option(p, "the whole reply")
    p.set_defaults(func=cmd_suggest)

    # `hzai analyze` searches in this process; --server sends the same question to the
    # service instead. Without the local command, a remote-only one takes its place.
    local = sub.choices.get("analyze")
    if local is not None:
        _remote_options(local, " instead of searching here")
        run_local = local.get_default("func")

        def cmd_analyze(args) -> int:
            return cmd_analyze_remote(args) if args.server else run_local(args)

        local.set_defaults(func=cmd_analyze,
                           local_search_defaults={dest: local.get_default(dest) for dest in LOCAL_SEARCH_OPTIONS})
    else:
        p = sub.add_parser("analyze", help="ask hzai-server how good each legal move is after a record")
        p.add_argument("record", help="game record (the game's JSON record, e.g. hzai-record/1)")
        common(p)
        _remote_options(p)
        p.add_argument("--seed", type=int, default=0, help="search seed (default 0)")
        p.add_argument("--belief", type=int, default=0, metavar="SAMPLES",
                       help="add where the opponent's hostage probably is, from this many samples")
        from hzai.cli import add_json_option, add_root_move_options

        add_json_option(p, "the analysis")
        add_root_move_options(p)
        p.set_defaults(func=cmd_analyze_remote, server=DEFAULT_TARGET)

    # `hzai analyze-game RECORD --server` asks the service's AnalyzeGame for the same table.
    local_game = sub.choices.get("analyze-game")
    if local_game is not None:
        from hzai_client.review_remote import cmd_analyze_game_remote

        local_game.add_argument("--server", default=None, metavar="HOST:PORT",
                                help=f"review on hzai-server at this address (e.g. {DEFAULT_TARGET}) instead of here")
        local_game.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                                help="with --server: deadline of the call; the review ends with the decisions done")
        add_tls_options(local_game)
        _game_option(local_game)
        run_local_game = local_game.get_default("func")

        def cmd_analyze_game(args) -> int:
            return cmd_analyze_game_remote(args) if args.server else run_local_game(args)

        local_game.set_defaults(func=cmd_analyze_game)

    from hzai_client.play import add_play_command

    add_play_command(sub, common)

    from hzai_client.web.serve import add_web_command

    add_web_command(sub)


def cmd_cluster(args) -> int:
    from hzai_server.cluster import main as cluster_main  # the clients sit above the server

    return cluster_main(args.cluster_args)


class _ClusterArgs:  # `hzai cluster ...` hands every word after `cluster` to its own parser
    command = "cluster"
    func = staticmethod(cmd_cluster)

    def __init__(self, words: list[str]):
        self.cluster_args = words


def build_parser():
    import argparse

    from hzai.cli import build_parser as library_parser

    parser, sub = library_parser(with_subparsers=True)
    add_commands(sub)
    p = sub.add_parser("cluster", add_help=False,
                       help="a local cluster: hzai-server replicas behind nginx sharing one PostgreSQL "
                            "(up --replicas N, status, down)")
    p.add_argument("cluster_args", nargs=argparse.REMAINDER)
    p.set_defaults(func=cmd_cluster)
    return parser


def main(argv: list[str] | None = None) -> int:
    from hzai.cli import run

    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["cluster"]:  # argparse's REMAINDER would not take options (--dir) right after it
        return cmd_cluster(_ClusterArgs(argv[1:]))
    return run(build_parser(), argv)


if __name__ == "__main__":
    sys.exit(main())
