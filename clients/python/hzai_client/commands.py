"""What every client command shares: the exit codes, one-line errors, the budget
options, reading a record and finding its game, and connecting to the service (cli.py
and play.py both build on it)."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

# grpc and protobuf are imported inside the commands: building the parser must stay
# cheap for every other hzai command.
EXIT_BAD_INPUT = 2
EXIT_SERVICE = 1
# Status codes that mean the request itself was wrong.
_BAD_INPUT_CODES = ("INVALID_ARGUMENT", "NOT_FOUND", "FAILED_PRECONDITION")
# The request fields a command's flags fill: a refusal naming one is told as the flag's
# (`--bot: unknown bot 'foo'; choose from ...`), as the commands that run here tell theirs.
FIELD_FLAGS = {"bot": "--bot", "level": "--level", "params_json": "--param", "budget": "--budget",
               "budget.iterations": "--budget", "budget.millis": "--budget", "budget.threads": "--threads"}


def refusal(exc) -> str:
    """A server's refusal in one line: `--FLAG: why` when it names a field a flag fills,
    else its status code and message."""
    from hzai_client.messages import describe_error

    code = exc.code().name if hasattr(exc, "code") and exc.code() else ""
    details = exc.details() if hasattr(exc, "details") else ""
    field, sep, why = (details or "").partition(": ")
    if code == "INVALID_ARGUMENT" and sep and field in FIELD_FLAGS:
        return f"{FIELD_FLAGS[field]}: {why}"
    return describe_error(exc)


class CommandError(Exception):
    def __init__(self, message: str, code: int = EXIT_BAD_INPUT):
        super().__init__(message)
        self.code = code


def _command(function):
    """One line on stderr and an exit status for every failure we can name."""

    @functools.wraps(function)
    def run(args) -> int:
        import grpc

        name = f"hzai {args.command}"
        try:
            return function(args)
        except CommandError as exc:
            print(f"{name}: {exc}", file=sys.stderr)
            return exc.code
        except grpc.RpcError as exc:
            code = exc.code().name if hasattr(exc, "code") else ""
            print(f"{name}: {refusal(exc)}", file=sys.stderr)
            if code == "UNAVAILABLE":
                print(f"{name}: is hzai-server running at {args.server}?", file=sys.stderr)
            return EXIT_BAD_INPUT if code in _BAD_INPUT_CODES else EXIT_SERVICE

    return run


def _limits(args):
    from hzai.search import Limits, LimitsError

    try:
        return Limits.parse(args.budget, args.threads) if args.budget else None
    except LimitsError as exc:
        raise CommandError(f"--budget: {str(exc).removeprefix('budget ')}") from None


def _record_text(path: str) -> str:
    """The record file's text, checked to be a JSON object here (the server checks the rest)."""
    from hzai import jsonread

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        data = jsonread.loads(text, path)
    except jsonread.JsonShapeError as exc:
        raise CommandError(str(exc)) from None
    if not isinstance(data, dict):
        raise CommandError(f"{path}: a record is a JSON object, not {type(data).__name__}")
    return text


def _game_of(client, args, text: str) -> str:
    """The game of a record: --game, else the server's game whose records have the
    record's `format` (GameInfo.record_format)."""
    import json

    if getattr(args, "game", None):
        return args.game
    data = json.loads(text)
    name = getattr(args, "record", None) or (getattr(args, "records", None) or ["the record"])[0]
    try:
        from hzai.core.record import RecordError, refuse_seat_view

        refuse_seat_view(data)
    except RecordError as exc:
        raise CommandError(f"{name}: {exc}") from None
    book = client.book()
    fmt = data.get("format")
    try:
        return book.game_of_format(fmt)
    except ValueError:
        known = ", ".join(f"{g.name} ({g.record_format})" for g in book.games.values())
        raise CommandError(f"{name}: no game of this server writes records of format {fmt!r}; give --game "
                           f"(the server plays {known})") from None


# A server started a moment ago (`hzai-server & hzai suggest ...`) gets this long to
# come up before the command gives up.
CONNECT_SECONDS = 3.0


def _client(args):
    import grpc

    from hzai_client.sync import HzaiClient

    try:
        client = HzaiClient(args.server, timeout=args.timeout, tls=getattr(args, "tls", False),
                            ca=getattr(args, "tls_ca", None), cert=getattr(args, "tls_cert", None),
                            key=getattr(args, "tls_key", None))
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    wait = min(CONNECT_SECONDS, args.timeout) if args.timeout else CONNECT_SECONDS
    try:
        client.wait_ready(wait)
    except grpc.FutureTimeoutError:
        client.close()
        if getattr(args, "tls", False) or getattr(args, "tls_ca", None) or getattr(args, "tls_cert", None):
            raise CommandError(f"no hzai-server answers over TLS at {args.server} (waited {wait:g} s): is it "
                               "running with --tls-cert, is its certificate signed by --tls-ca (or a system CA) "
                               "for this name, and, if it asks for one, is --tls-cert/--tls-key a client "
                               "certificate it accepts?", EXIT_SERVICE) from None
        raise CommandError(f"no hzai-server answers at {args.server} (waited {wait:g} s); start one with "
                           "`hzai-server` or give --server HOST:PORT (over TLS: --tls or --tls-ca)",
                           EXIT_SERVICE) from None
    return client


def add_tls_options(p) -> None:
    """--tls, --tls-ca, --tls-cert and --tls-key: how a command reaches a server that
    serves TLS (docs/tls.md)."""
    p.add_argument("--tls", action="store_true",
                   help="with --server: connect over TLS, checking the server against the system's CAs "
                        "(or --tls-ca)")
    p.add_argument("--tls-ca", default=None, metavar="PEM", help="with --server: TLS, checking the server's "
                   "certificate against this CA file (a private CA, or the certificate itself when self-signed)")
    p.add_argument("--tls-cert", default=None, metavar="PEM",
                   help="with --server: TLS with this client certificate (a server with --tls-client-ca asks for one)")
    p.add_argument("--tls-key", default=None, metavar="PEM", help="the private key of --tls-cert")


def _budget_kwargs(args) -> dict:
    limits = _limits(args)
    if limits is None:
        return {"threads": args.threads if args.threads != 1 else None}
    return {"iterations": limits.iterations, "millis": limits.millis, "threads": limits.threads}


def level_of_args(args) -> int:
    """--level's value: 0 when it is not given, else 1..MAX_LEVEL (CommandError naming
    the range otherwise)."""
    from hzai.search.levels import level_of

    if args.level is None:
        return 0
    try:
        return level_of(args.level).number
    except ValueError as exc:
        raise CommandError(f"--level: {str(exc).removeprefix('option level ')}") from None


def add_level_option(p, who: str = "the bot") -> None:
    """--level N: `who` plays at strength level N (default: full strength)."""
    from hzai.search.levels import LEVEL_HELP

    p.add_argument("--level", default=None, metavar="N",
                   help=f"{who} at a {LEVEL_HELP} (default: full strength; ismcts only)")


def served_bot_help(who: str) -> str:
    """The help of a --bot the server plays: the bots a server of this package serves, in
    the order its refusal of an unknown one lists them."""
    from hzai.search.bot import bot_kinds

    served = ", ".join(kind.name for kind in bot_kinds() if kind.served)
    return (f"{who}: a bot the server serves ({served}; default ismcts), options after a colon; "
            "a server refuses another with the list of its own")
