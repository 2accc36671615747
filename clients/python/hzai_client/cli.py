"""`hzai suggest`, `hzai analyze` and `hzai play`: the service from the command line.

hzai.cli calls `add_commands(subparsers)`. Every command answers bad input with one line
and exit status 2, a service that cannot answer (not running, overloaded, deadline) with
one line and exit status 1; never a traceback.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

from hzai_client.constants import DEFAULT_TARGET

# grpc and protobuf are imported inside the commands: building the parser must stay
# cheap for every other hzai command.
EXIT_BAD_INPUT = 2
EXIT_SERVICE = 1
# Status codes that mean the request itself was wrong.
_BAD_INPUT_CODES = ("INVALID_ARGUMENT", "NOT_FOUND", "FAILED_PRECONDITION")


class CommandError(Exception):
    def __init__(self, message: str, code: int = EXIT_BAD_INPUT):
        super().__init__(message)
        self.code = code


def _command(function):
    """One line on stderr and an exit status for every failure we can name."""

    @functools.wraps(function)
    def run(args) -> int:
        import grpc

        from hzai_client.messages import describe_error

        name = f"hzai {args.command}"
        try:
            return function(args)
        except CommandError as exc:
            print(f"{name}: {exc}", file=sys.stderr)
            return exc.code
        except grpc.RpcError as exc:
            code = exc.code().name if hasattr(exc, "code") else ""
            print(f"{name}: {describe_error(exc)}", file=sys.stderr)
            if code == "UNAVAILABLE":
                print(f"{name}: is hzai-server running at {args.server}?", file=sys.stderr)
            return EXIT_BAD_INPUT if code in _BAD_INPUT_CODES else EXIT_SERVICE

    return run


def _limits(args):
    from hzai.search import Limits, LimitsError

    try:
        return Limits.parse(args.budget, args.threads) if args.budget else None
    except LimitsError as exc:
        raise CommandError(f"--budget: {exc}") from None


def _record_text(path: str) -> str:
    from hzai.rules import Record

    Record.load(path)  # RecordError (exit 2, one line) for an unreadable or malformed file
    return Path(path).read_text(encoding="utf-8")


# A server started a moment ago (`hzai-server & hzai suggest ...`) gets this long to
# come up before the command gives up.
CONNECT_SECONDS = 3.0


def _client(args):
    import grpc

    from hzai_client.sync import HzaiClient

    client = HzaiClient(args.server, timeout=args.timeout)
    wait = min(CONNECT_SECONDS, args.timeout) if args.timeout else CONNECT_SECONDS
    try:
        client.wait_ready(wait)
    except grpc.FutureTimeoutError:
        client.close()
        raise CommandError(f"no hzai-server answers at {args.server} (waited {wait:g} s); start one with "
                           "`hzai-server` or give --server HOST:PORT", EXIT_SERVICE) from None
    return client


def _budget_kwargs(args) -> dict:
    limits = _limits(args)
    if limits is None:
        return {"threads": args.threads if args.threads != 1 else None}
    return {"iterations": limits.iterations, "millis": limits.millis, "threads": limits.threads}


@_command
def cmd_suggest(args) -> int:
    text = _record_text(args.record)
    with _client(args) as client:
        reply = client.suggest_move(text, seed=args.seed, bot=args.bot, **_budget_kwargs(args))
    if args.json:
        from google.protobuf import json_format

        print(json_format.MessageToJson(reply, indent=None))
    else:
        print(reply.move.text)
    return 0


def _format_analysis(a) -> str:
    from hzai.review import ANALYSIS_HEADER, format_move_row
    from hzai_client.messages import player_name

    lines = [
        f"{a.iterations} iterations in {a.millis:.0f} ms · values are {player_name(a.perspective)}'s win "
        f"probability · best: {a.best.text} ({a.value:.3f})" + ("" if a.finished else " · stopped early"),
        ANALYSIS_HEADER,
    ]
    for info in a.moves:
        lines.append(format_move_row(info.move.text, info.visits, info.value, info.ci_low, info.ci_high, info.pv))
    if a.HasField("belief"):
        b = a.belief
        lines.append(f"Where is {player_name(b.opponent)}'s {b.hostage}? ({b.samples} samples)")
        lines += [f"  {loc.where:<10} {loc.probability:.3f}" for loc in b.hostage_locations]
    return "\n".join(lines)


def _upto(text: str, upto: int | None) -> str:
    if upto is None:
        return text
    data = json.loads(text)
    data["moves"] = data.get("moves", [])[:upto]
    return json.dumps(data)


@_command
def cmd_analyze_remote(args) -> int:
    text = _upto(_record_text(args.record), getattr(args, "upto", None))
    with _client(args) as client:
        kwargs = dict(seed=args.seed, belief_samples=args.belief, **_budget_kwargs(args))
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

        print(json_format.MessageToJson(analysis, indent=None))
    else:
        top = getattr(args, "top", None)
        if top is not None:
            del analysis.moves[top:]
        print(_format_analysis(analysis))
    return 0


def _remote_options(p, help_suffix: str = "") -> None:
    p.add_argument("--server", default=None, metavar="HOST:PORT",
                   help=f"ask hzai-server at this address (e.g. {DEFAULT_TARGET}){help_suffix}")
    p.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                   help="with --server: deadline of the call; the search stops in time and answers its best so far")
    p.add_argument("--stream", action="store_true", help="with --server: print progress while the search runs")
    p.add_argument("--every", type=int, default=0, help="with --stream: iterations between progress reports")


def add_commands(sub) -> None:
    """Add suggest, analyze and play to the hzai command line."""

    def common(p, budget_help="search budget: 1000 (iterations), 250ms, 2s or 1000,250ms (default: the server's)"):
        p.add_argument("--server", default=DEFAULT_TARGET, metavar="HOST:PORT",
                       help=f"address of hzai-server (default {DEFAULT_TARGET})")
        p.add_argument("--budget", default=None, help=budget_help)
        p.add_argument("--threads", type=int, default=1, help="search threads (default 1)")
        p.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                       help="deadline of each call; the search stops in time and answers its best so far")

    p = sub.add_parser("suggest", help="ask hzai-server for a move after a record")
    p.add_argument("record", help="game record (hzai-record/1 JSON)")
    common(p)
    p.add_argument("--bot", default="", help="ismcts (default), pimc, heuristic, random; options after a colon")
    p.add_argument("--seed", type=int, default=0, help="search seed (default 0)")
    p.add_argument("--json", action="store_true", help="print the whole reply as JSON")
    p.set_defaults(func=cmd_suggest)

    # `hzai analyze` searches in this process; --server sends the same question to the
    # service instead. Without the local command, a remote-only one takes its place.
    local = sub.choices.get("analyze")
    if local is not None:
        _remote_options(local, " instead of searching here")
        run_local = local.get_default("func")

        def cmd_analyze(args) -> int:
            return cmd_analyze_remote(args) if args.server else run_local(args)

        local.set_defaults(func=cmd_analyze)
    else:
        p = sub.add_parser("analyze", help="ask hzai-server how good each legal move is after a record")
        p.add_argument("record", help="game record (hzai-record/1 JSON)")
        common(p)
        _remote_options(p)
        p.add_argument("--seed", type=int, default=0, help="search seed (default 0)")
        p.add_argument("--belief", type=int, default=0, metavar="SAMPLES",
                       help="add where the opponent's hostage probably is, from this many samples")
        p.add_argument("--json", action="store_true", help="print the analysis as JSON")
        p.set_defaults(func=cmd_analyze_remote, server=DEFAULT_TARGET)

    from hzai_client.play import add_play_command

    add_play_command(sub, common)
