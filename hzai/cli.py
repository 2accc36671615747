"""The `hzai` command line.

Every command that reads a record reads it the same way for every registered game
(hzai.record_file: its `format` names the game, whose `game.records.read` reads it) and
then asks only the game's core interfaces (hzai.core: Game, State, View, and the parts the
game has: records, search, model, presentation); no command names a game's rules. `hzai new --game NAME` makes any
registered game from its parameters.

Exit codes: 0 done, 2 bad input (malformed record, illegal move, bad option) with one
line on stderr, 3 an internal error (also one line; never a traceback).
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from hzai import jsonread, record_file
from hzai.batch import BatchError, is_address
from hzai.cli_options import (JSON_STDOUT, AnalysisUsageError, UsageError, add_json_option, check_json_target,  # noqa: F401
                              json_file as _json_file, json_stream, json_to_stdout, write_json_option)
from hzai.core import MissingCapability, NoDecision, RecordError, UnknownGameError, game_names, make_game, missing
from hzai.core.limits import LimitsError
from hzai.core.registry import DuplicateGameError
from hzai.lazy import lazy_call
from hzai.learn.cli import add_commands as add_learning_commands
from hzai.search import Limits
from hzai.search.bot import bot_spec_help, make_bot  # the registry's bots: a command's help, a spec's check

# Imported when a command calls them, so that `hzai --help` and the record commands do
# not load them (hzai.lazy): the analysis and the review (about 7 ms), the arena's
# process pool (15 ms), numpy for the model files (0.2 s) and matplotlib.
analyst_of = lazy_call("hzai.analysis_cli:analyst_of")
analyze_record = lazy_call("hzai.analysis_cli:analyze_record")
review_record = lazy_call("hzai.analysis_cli:review_record")
review_many = lazy_call("hzai.review:review_many")
plot_review = lazy_call("hzai.review_plot:plot_review")
check_matplotlib = lazy_call("hzai.review_plot:_pyplot")
run_arena = lazy_call("hzai.search.arena:run_arena")
print_progress = lazy_call("hzai.search.arena:print_progress")
run_team = lazy_call("hzai.search.arena:run_team")
model_id = lazy_call("hzai.native.model:model_id")

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3
DEFAULT_GAME = "hera_zeus"  # what `hzai new` deals without --game




# ----- records: one loader, one replay, one spelling of a seat ----------------------------
def load_record(path: str | Path):
    """The record in the file at `path`, of whichever registered game its format names
    (hzai.record_file.load_record: the one loader of every command here)."""
    return record_file.load_record(path)


def _cut(record, upto: int | None):
    """`record` with only its first `upto` moves (all of them for None)."""
    if upto is None:
        return record
    if upto < 0:
        raise UsageError(f"--upto: a number of moves, 0 or more, not {upto}")
    moves = list(record.moves[:upto])
    if dataclasses.is_dataclass(record):
        return dataclasses.replace(record, moves=moves)
    cut = copy.copy(record)
    cut.moves = moves
    return cut


def _replayed(path: str, upto: int | None = None):
    """(record, the state after its first `upto` moves) of the record file at `path`."""
    record = _cut(load_record(path), upto)
    return record, record.game.records.replay(record)


def _seat(game, side: str | None, referee: bool = False) -> int | None:
    """--seat as a seat index of `game` (`game.presentation.seat_index`); None when not given, or for
    the referee where `referee` allows it."""
    if side is None or (referee and side == "referee"):
        return None
    try:
        return game.presentation.seat_index(side)
    except ValueError:
        seats = ", ".join((*game.seats, "referee") if referee else game.seats)
        raise UsageError(f"--seat: a {game.presentation.title} record's seats are {seats}, not {side}") from None


def _observer(game, state, side: str | None) -> int:
    """--seat, or by default the seat to decide in `state`."""
    seat = _seat(game, side)
    if seat is None:
        seat = state.current_seat
    if seat is None:
        try:
            game.records.decision_view(state)
        except NoDecision as exc:
            raise UsageError(f"--seat: no seat decides here ({exc}); name one of {', '.join(game.seats)}") from None
        raise UsageError(f"--seat: no seat decides here; name one of {', '.join(game.seats)}")
    return seat


def _require(game, capability: str, use: str) -> None:
    """UsageError naming the game and the capability `use` needs, unless it is declared."""
    if not game.capabilities.offers(capability):
        raise UsageError(str(missing(game, capability, use)))


def _other_game(run, record, args, *extra) -> int:
    """A command of hzai.analysis_cli on a record."""
    limits = _limits(args)
    out = _json_file(args, getattr(args, "record", None), *(getattr(args, "records", None) or []))
    try:
        return run(record, *extra, args, limits, out or sys.stdout)
    except AnalysisUsageError as exc:
        raise UsageError(str(exc)) from None
    finally:
        if out is not None:
            out.close()


# ----- the record commands ---------------------------------------------------------------
def cmd_replay(args) -> int:
    record, state = _replayed(args.record)
    print(json.dumps(record.game.presentation.state_to_json(state), indent=args.indent))
    return 0


def cmd_legal(args) -> int:
    record, state = _replayed(args.record)
    game = record.game
    if state.is_terminal or state.current_seat is None:
        try:
            game.records.decision_view(state)
        except NoDecision as exc:
            print(f"hzai legal: {exc}", file=sys.stderr)
            return 0
    for text in sorted(game.move_text(m) for m in state.legal_moves()):
        print(text)
    return 0


def _variants(pairs: list[str], option: str = "--variant") -> dict:
    """NAME=VALUE pairs of `option` (--variant or --param) as parameters: a value that
    reads as JSON (a number, true, a list) is that value, any other is the text itself."""
    params: dict = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"{option}: write NAME=VALUE, not {pair!r}")
        if key == "turn_limit" and not value.isdigit():
            raise UsageError(f"{option}: turn_limit needs a whole number, not {value!r}")
        params[key] = _value(value)
    return params


def _rule_params(args, game_name: str) -> dict:
    """--variant and --param of a command that takes both (the same thing under two
    names), checked against the parameters of the game `game_name`."""
    given: dict = {}
    flags: dict = {}
    for option, pairs in (("--variant", args.variant), ("--param", args.param)):
        for name, value in _variants(pairs, option).items():
            given[name] = value
            flags[name] = f"{option} {name}"
    return _checked_params(game_name, given, flags)


def _checked_params(game_name: str, given: dict, flags: dict) -> dict:
    """`given` parameters, each one a parameter of the game (`Game.params`); a UsageError
    names the flag (`flags[name]`) of one it lacks."""
    default = _game_named(game_name)
    if default is None:
        return given  # a game that needs parameters: its factory names what is wrong
    known = default.params
    for name in given:
        if name not in known:
            takes = ", ".join(sorted(known)) or "no parameters"
            raise UsageError(f"{flags[name]}: {game_name} has no parameter {name}; it takes: {takes}")
    return given


def _game_named(name: str):
    """The game `name` made with its defaults, checked first of all a command's options;
    None for a game that needs parameters (its factory names what is wrong later)."""
    try:
        return make_game(name)
    except UnknownGameError:
        raise UsageError(f"--game: no game {name!r}; the games: {', '.join(game_names())}") from None
    except (TypeError, ValueError):
        return None


def _value(text: str):
    """A parameter's value from the command line: JSON where it reads as JSON, else text."""
    try:
        return jsonread.loads(text)
    except ValueError:
        return text


SEED_MAX = 2**64 - 1  # seeds are unsigned 64-bit numbers (the shuffle's SplitMix64)

# `hzai new`'s named options and the game parameter each one sets (given only when used)
PARAM_FLAGS = (("--mission", "mission"), ("--heroes", "heroes"), ("--difficulty", "difficulty"),
               ("--first-player", "first_player"), ("--data", "data"), ("--deck", "deck"))


def _new_params(args) -> dict:
    """The parameters `hzai new` makes its game with: --param NAME=VALUE, --variant
    NAME=VALUE, and the named options (PARAM_FLAGS), each checked against the game's
    parameters (`Game.params`) before the game is made."""
    given: dict = {}
    flags: dict = {}
    for flag, name in PARAM_FLAGS:
        value = getattr(args, name, None)
        if value is not None:
            given[name] = value.split(",") if name == "heroes" else value
            flags[name] = flag
    for option, pairs in (("--variant", args.variant), ("--param", args.param)):
        for name, value in _variants(pairs, option).items():
            given[name] = value
            flags[name] = f"{option} {name}"
    return _checked_params(args.game, given, flags)


def cmd_new(args) -> int:
    game = _game_named(args.game)  # an unknown game is said before any other option
    if args.help_params:
        if game is None:
            game = make_game(args.game)
        print(f"{args.game} ({game.presentation.title}): {game.presentation.params_help}")
        return 0
    if args.seed is None:
        raise UsageError(f"--seed: give the seed of the shuffle, a whole number from 0 to {SEED_MAX}")
    if not 0 <= args.seed <= SEED_MAX:
        raise UsageError(f"--seed: a whole number from 0 to {SEED_MAX}, not {args.seed}")
    if args.deal and args.seed_only:
        raise UsageError("--deal and --seed-only: give one")
    params = _new_params(args)
    try:
        game = make_game(args.game, **params)
    except TypeError as exc:  # a parameter the factory does not take
        raise UsageError(f"--game {args.game}: {exc}") from None
    keep_seed = args.seed_only or (game.records.keeps_seed and not args.deal)
    record = game.records.of_seed(args.seed) if keep_seed else game.records.new(args.seed)
    text = json.dumps(game.records.write(record), indent=2) + "\n"
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def cmd_show(args) -> int:
    record, state = _replayed(args.record, args.upto)
    game = record.game
    seat = _seat(game, args.side, referee=True)
    print(game.presentation.referee_text(state) if seat is None else game.presentation.board_text(state, seat))
    return 0


def cmd_view(args) -> int:
    record, state = _replayed(args.record, args.upto)
    game = record.game
    print(json.dumps(state.view(_observer(game, state, args.side)).to_json(), indent=args.indent))
    return 0


def cmd_belief(args) -> int:
    if args.samples < 1:
        raise UsageError(f"--samples: at least 1, not {args.samples}")
    record = _cut(load_record(args.record), args.upto)
    game = record.game
    _require(game, "belief_report", "hzai belief reads it")
    if args.temperature is not None:
        _require(game, "opponent_model", "--temperature is its temperature")
    observer = _seat(game, args.side)  # a seat the game lacks is said before the replay
    state = game.records.replay(record)
    view = state.view(_observer(game, state, args.side) if observer is None else observer)
    options = {} if args.temperature is None else {"temperature": args.temperature}
    try:
        report = game.presentation.belief_report(view, args.samples, args.seed, **options)
    except ValueError as exc:
        if args.temperature is not None and "temperature" in str(exc):
            raise UsageError(f"--temperature: {exc}") from None
        raise
    if args.json:
        write_json_option(args, report, indent=2)
    else:
        print(game.presentation.belief_text(report))
    return 0


def _limits(args):
    try:
        return Limits.parse(args.budget, args.threads)
    except LimitsError as exc:
        raise UsageError(f"--budget: {str(exc).removeprefix('budget ')}") from None


def _progress_line(done: int, total: int) -> None:
    sys.stderr.write(f"\r[{done}/{total}]")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def cmd_analyze(args) -> int:
    record = _cut(load_record(args.record), args.upto)
    _seat(record.game, args.side)  # a seat the game lacks is said before the replay
    return _other_game(analyze_record, record, args, record.game.records.replay(record))


def add_root_move_options(p) -> None:
    """--allow and --avoid (repeatable): the moves an analysis may search at its root."""
    p.add_argument("--allow", action="append", default=None, metavar="MOVE",
                   help="search only this move (repeat for several), in notation as `hzai legal` writes it")
    p.add_argument("--avoid", action="append", default=None, metavar="MOVE",
                   help="leave this move out of the search (repeatable)")


def _ray_target(args, paths: list[str] | None = None) -> str | None:
    """The --ray address (None without --ray). A path right after --ray is a record,
    not an address: it goes back to `paths`."""
    if args.ray is None:
        return None
    if paths is not None and not is_address(args.ray):
        paths.insert(0, args.ray)
        return "local"
    return args.ray


def _record_paths(names: list[str]) -> tuple[list[Path], bool]:
    """The record files named (a folder: its *.json files, sorted), and whether the
    input is a batch (a folder, or more than one file)."""
    paths: list[Path] = []
    batch = len(names) > 1
    for name in names:
        path = Path(name)
        if path.is_dir():
            batch = True
            found = sorted(path.glob("*.json"))
            if not found:
                raise UsageError(f"{name}: a folder with no .json records")
            paths.extend(found)
        else:
            paths.append(path)
    return paths, batch


def _analyze_batch(args, paths: list[Path], ray: str | None) -> int:
    """One JSON line per record, in the order given: {"record", "decisions"} or
    {"record", "error"}; exit 2 when any record failed. Each record is read here by
    the one loader, then sent as its JSON (with its folder) to be reviewed."""
    loaded, failed, games = [], [], []
    for path in paths:
        try:
            data = record_file.read_json(path)
            base = path.resolve().parent
            game = record_file.record_of(data, base).game
            seats = None if args.side is None else [_seat(game, args.side)]
        except (RecordError, UsageError) as exc:
            failed.append({"record": str(path), "error": str(exc)})
            continue
        loaded.append((str(path), data, seats, str(base)))
        games.append(game)
    if games:
        _review_bot(args, games[0])  # a bad --bot is said before anything is searched

    def progress(done: int, total: int) -> None:
        sys.stderr.write(f"\r[{done}/{total}] records")
        sys.stderr.write("\n" if done == total else "")
        sys.stderr.flush()

    entries = review_many(loaded, _limits(args), args.seed, ray=ray, progress=None if args.quiet else progress,
                          bot=args.bot)
    by_name = {e["record"]: e for e in entries + failed}
    json_file = None if args.json in (None, JSON_STDOUT) else args.json
    if args.output and json_file and args.output != json_file:
        raise UsageError("-o and --json FILE both name where the JSON lines go: give one")
    target = args.output or json_file
    out = open(target, "w", encoding="utf-8") if target else sys.stdout
    try:
        for path in paths:
            entry = by_name[str(path)]
            out.write(json.dumps(entry) + "\n")
            if "error" in entry:
                print(f"hzai analyze-game: {entry['record']}: {entry['error']}", file=sys.stderr)
    finally:
        if out is not sys.stdout:
            out.close()
    return EXIT_BAD_INPUT if any("error" in e for e in by_name.values()) else 0


def _review_bot(args, game) -> str:
    """--bot's spec for a review of `game`, checked before anything is searched."""
    try:
        analyst_of(args, game)
    except AnalysisUsageError as exc:
        raise UsageError(str(exc)) from None
    return args.bot


def cmd_analyze_game(args) -> int:
    names = list(args.records)
    ray = _ray_target(args, names)
    if not names:
        raise UsageError("give a record, several, or a folder of records")
    paths, batch = _record_paths(names)
    if batch or ray is not None:
        if args.plot:
            raise UsageError("--plot draws one record: give a single record file")
        return _analyze_batch(args, paths, ray)
    record = load_record(paths[0])
    _seat(record.game, args.side)
    if args.plot:
        _plot_format(args.plot)
        check_matplotlib()  # a missing matplotlib is said before the review runs
    progress = None if args.quiet else _progress_line

    def review(record, args, limits, out):
        rows = review_record(record, args, limits, out, progress, belief=bool(args.plot))
        if rows and args.plot:
            plot_review(rows, args.plot, f"{paths[0].name} · {limits} a decision · seed {args.seed}")
            print(f"hzai analyze-game: plot written to {args.plot}", file=sys.stderr)
        return 0

    return _other_game(review, record, args)


PLOT_FORMATS = (".png", ".svg", ".pdf")  # --plot's formats, by the file's extension


def _plot_format(path: str) -> None:
    suffix = Path(path).suffix.lower()
    if suffix not in PLOT_FORMATS:
        raise UsageError(f"--plot: {path}: the picture is PNG, SVG or PDF, chosen by the extension "
                         f"({', '.join(PLOT_FORMATS)}), not {suffix or 'no extension'}")


def cmd_arena(args) -> int:
    check_json_target(args)  # before the games, not after
    if args.games < 1:
        raise UsageError(f"--games: at least 1, not {args.games}")
    _game_named(args.game)  # an unknown game is said before its parameters and the bots
    params = _rule_params(args, args.game)
    try:
        game = make_game(args.game, **params)
    except TypeError as exc:  # a parameter the factory does not take
        raise UsageError(f"--game {args.game}: {exc}") from None
    if game.capabilities.cooperative:
        raise UsageError(f"--game: the arena plays two bots against each other, and {args.game} is cooperative "
                         f"(every seat wins or loses together): hzai team plays it")
    if len(game.seats) != 2:
        raise UsageError(f"--game: the arena seats two bots, and {args.game} has {len(game.seats)} seats")
    for spec in (args.bot_a, args.bot_b):
        make_bot(spec, game)  # BotError naming the bot and what the game lacks, before any game is played
    limits = _limits(args)
    result = run_arena(args.bot_a, args.bot_b, args.games, limits, args.seed, args.jobs,
                       params, None if args.quiet else print_progress, game=args.game, ray=_ray_target(args))
    print(result.summary(), file=sys.stderr if json_to_stdout(args) else sys.stdout)
    if args.json:
        write_json_option(args, result.to_json())
    return 0


def cmd_team(args) -> int:
    """A team of one bot spec in every seat of a cooperative game (Legends of Hellas by
    default): the won share."""
    check_json_target(args)  # before the games, not after
    if args.games < 1:
        raise UsageError(f"--games: at least 1, not {args.games}")
    params = _new_params(args)
    if not make_game(args.game, **params).capabilities.cooperative:
        raise UsageError(f"--game: a team plays a cooperative game, and {args.game} is not one")
    result = run_team(args.bot, args.games, _limits(args), args.seed, params, args.game, args.all_seeing)
    print(result.summary(), file=sys.stderr if json_to_stdout(args) else sys.stdout)
    if args.json:
        write_json_option(args, result.to_json())
    return 0


def add_seat_option(p, help_text: str, default=None) -> None:
    """--seat, the one spelling of a seat for every game and command; --as is the same
    option under its older name. The record's game checks the name."""
    p.add_argument("--seat", "--as", dest="side", default=default, metavar="SEAT", help=f"{help_text} (--as: the same)")


def _add_budget(p, default: str = "1000") -> None:
    what = f"{default} iterations" if default.isdigit() else default
    p.add_argument("--budget", default=default,
                   help=f"iterations (1000), time (250ms, 2s) or both (1000,250ms); default {what}")
    p.add_argument("--threads", type=int, default=1, help="search threads (root parallelism); default 1")
    p.add_argument("--seed", type=int, default=0, help="seed of the search (default 0)")


def _add_ray(p, what: str) -> None:
    p.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                   help=f"run {what} as a Ray task: on a private local Ray without ADDRESS, else on the cluster "
                        "at ADDRESS (auto, ray://HOST:10001, HOST:6379); needs pip install 'hzai[ray]'")


class _Version(argparse.Action):
    """--version: the package's version and each game's shipped model (read only when asked)."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        try:
            text = f"hzai {version('hzai')}"
        except PackageNotFoundError:
            text = "hzai (not installed)"
        for name in game_names():
            try:
                model = model_id(make_game(name))
            except (TypeError, ValueError):  # a game that needs parameters, or a broken model file
                continue
            text += f"\n{name}: {'model ' + model if model else 'no model (unguided search)'}"
        parser.exit(0, text + "\n")


def build_parser(with_subparsers: bool = False):
    """The library's commands; with_subparsers: (parser, subparsers), for a front end
    that adds its own (the `hzai` command of hzai_client.cli adds suggest and play)."""
    try:
        games = game_names()
    except DuplicateGameError as exc:  # two installed declarations of one name: no command can run
        print(f"hzai: {exc}", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT) from None
    parser = argparse.ArgumentParser(
        prog="hzai",
        description=f"Rules engines, game records and AI tools for the registered games: {', '.join(games)}. "
                    "Every command that takes a record (replay, legal, show, view, belief, analyze, "
                    "analyze-game) reads any of their records, by its format.",
        epilog="The rules: docs/rules.md and docs/legends.md. Records and notation: docs/notation.md, "
               "docs/legends.md. Exit status 2 means bad input (the message says what).",
    )
    parser.add_argument("--version", action=_Version, help="print the version and the models the games ship, and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    record_help = "game record (JSON of a registered game's record format, e.g. hzai-record/1, legends-record/1)"
    p = sub.add_parser("replay", help="replay a record and print the final state as JSON")
    p.add_argument("record", help=record_help)
    p.add_argument("--indent", type=int, default=None, help="pretty-print with this indent")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("legal", help="print the legal moves after a record, one per line, sorted")
    p.add_argument("record", help=record_help)
    p.set_defaults(func=cmd_legal)

    p = sub.add_parser("new", help="deal a new game and write its record",
                       description="Deal a new game of any registered game and write its record: "
                                   f"{', '.join(games)}. Hera and Zeus by default (a dealt record); a game's "
                                   "parameters are --param NAME=VALUE (or the named options below), e.g. "
                                   "hzai new --game legends --mission 3 --heroes Perseus,Atalanta --seed 7 "
                                   "(a Legends of Hellas seed record). `hzai new --game NAME --help-params` "
                                   "says what a game takes.")
    p.add_argument("--seed", type=int, default=None, help="seed of the shuffle (a whole number from 0 to 2^64-1)")
    p.add_argument("--game", default=DEFAULT_GAME, metavar="NAME",
                   help=f"which game: {', '.join(games)} (default {DEFAULT_GAME})")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a parameter of the game (repeatable); a value that reads as JSON is that value "
                        "(3, true, [\"Perseus\"]), any other is text")
    p.add_argument("--help-params", action="store_true", help="print the parameters the game takes and exit")
    p.add_argument("--mission", type=int, default=None, help="parameter mission (legends: 1..12)")
    p.add_argument("--heroes", default=None,
                   help="parameter heroes, comma-separated (legends: 1-5 distinct heroes in seat order p1.., of "
                        "Achilles, Jason, Perseus, Hercules, Atalanta)")
    p.add_argument("--difficulty", default=None, help="parameter difficulty (legends: human, heroic or godlike)")
    p.add_argument("--first-player", dest="first_player", default=None,
                   help="parameter first_player (legends: the seat that places first and takes turn 1, p1..)")
    p.add_argument("--data", default=None, help="parameter data (legends: 'classic' or a legends-data/1 file)")
    p.add_argument("--deck", default=None, help="parameter deck (hera_zeus: 'classic' or a deck TOML file)")
    p.add_argument("--variant", action="append", default=[], metavar="NAME=VALUE",
                   help="a rules variant, the same as --param, e.g. first_player=zeus, figure_removal=pegasus, "
                        "pythia_defence=always_loses, turn_limit=100; legends: relocation=free, turn_limit=N "
                        "(repeatable)")
    p.add_argument("--deal", action="store_true", help="write the dealt setup (the default of hera_zeus)")
    p.add_argument("--seed-only", action="store_true",
                   help='write the seed instead of the dealt cards (the default of legends)')
    p.add_argument("-o", "--output", help="write to this file instead of standard output")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("show", help="draw the position after a record as text")
    p.add_argument("record", help=record_help)
    add_seat_option(p, "whose eyes: hera or zeus, p1..p5 for Legends, or referee, who sees everything (default)")
    p.add_argument("--upto", type=int, default=None, metavar="N", help="only the first N moves of the record")
    p.set_defaults(func=cmd_show)

    side_help = "whose information: hera or zeus, p1..p5 for Legends (default: the seat to decide)"
    p = sub.add_parser("view", help="what one player knows after a record (its information set), as JSON")
    p.add_argument("record", help=record_help)
    add_seat_option(p, side_help)
    p.add_argument("--upto", type=int, default=None, metavar="N", help="only the first N moves of the record")
    p.add_argument("--indent", type=int, default=None, help="pretty-print with this indent")
    p.set_defaults(func=cmd_view)

    p = sub.add_parser("belief", help="where the hidden cards probably are, for a game with a belief report "
                                      "(Hera and Zeus: above all the opponent's hostage)")
    p.add_argument("record", help=record_help)
    add_seat_option(p, "whose information: a seat of the record's game, e.g. hera or zeus (default: the seat to "
                       "decide)")
    p.add_argument("--upto", type=int, default=None, metavar="N", help="only the first N moves of the record")
    p.add_argument("--samples", type=int, default=4000, help="determinizations to draw (default 4000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the sampler (default 0)")
    p.add_argument("--temperature", type=float, default=None,
                   help="the opponent model's temperature for the inferred probabilities, for a game with an "
                        "opponent model (Hera and Zeus: default 2; high: uniform)")
    add_json_option(p, "the report")
    p.set_defaults(func=cmd_belief)

    p = sub.add_parser("analyze", help="how good is every legal move? (ISMCTS from one player's view)")
    p.add_argument("record", help=record_help)
    add_seat_option(p, "the seat to decide: hera or zeus, p1..p5 for Legends (checked; default: whoever decides)")
    p.add_argument("--upto", type=int, default=None, metavar="N", help="only the first N moves of the record")
    _add_budget(p, "1s")
    p.add_argument("--bot", default=None, metavar="SPEC",
                   help="the bot whose own search analyses (default: ismcts:replicas=4, the default bot's search as "
                        "four independent replicas whose intervals cover the spread across seeds): the analysis' "
                        "best is that bot's move for the same seed and budget, as the service's Analyze; e.g. "
                        "ismcts for the single search a bot plays, ismcts-v2 unguided")
    p.add_argument("--c", type=float, default=None, help="exploration constant (the bot's option c; default 0.7)")
    p.add_argument("--playout", choices=["random", "light"], default=None,
                   help="playout policy (the bot's option; default: the game's own)")
    p.add_argument("--tree", choices=["single", "multi"], default=None,
                   help="single: one tree of this seat's information sets (default); multi: one tree per "
                        "seat, each keyed by what that seat observes (docs/search.md)")
    p.add_argument("--prior", type=float, default=None, metavar="W",
                   help="weight of the progressive bias from the game's prior over its moves (default 0: off; Hera and Zeus only)")
    p.add_argument("--belief", type=int, default=0, metavar="N", help="add the belief report over N samples")
    p.add_argument("--top", type=int, default=20, help="rows to show (default 20)")
    p.add_argument("--words", type=int, default=0, metavar="N",
                   help="tell the first N rows' principal variations in the game's narration, as the deciding seat "
                        "would see them")
    add_json_option(p, "the analysis")
    add_root_move_options(p)
    p.set_defaults(func=cmd_analyze)

    p = sub.add_parser("analyze-game", help="annotate every decision of a record: played move vs the bot's choice",
                       description="Annotate every decision of a record: the move played against the bot's choice "
                                   "and the value lost. A record with no decision yet prints one line saying there "
                                   "is nothing to analyse (with --json: []) and exits 0.")
    p.add_argument("records", nargs="*", metavar="RECORD",
                   help="game record (a registered game's record JSON); several, or a folder of *.json records: "
                        "one JSON line "
                        "per record ({\"record\", \"decisions\"} or {\"record\", \"error\"}), in order")
    add_seat_option(p, "only this seat's decisions: hera or zeus, p1..p5 for Legends (default: every seat's)")
    _add_budget(p, "2000")
    p.add_argument("--bot", default=None, metavar="SPEC",
                   help="the bot whose own search analyses each decision (default: ismcts:replicas=4, as the "
                        "service's AnalyzeGame): its best is that bot's move there; a played move it searched "
                        "fewer than 20 times gets a search of its own, and a mark needs separate intervals")
    add_json_option(p, "the decisions (a batch: its JSON lines, as -o)")
    _add_ray(p, "each record")
    p.add_argument("-o", "--output", help="write the JSON lines of a batch to this file instead of standard output")
    p.add_argument("--plot", metavar="FILE", help="also draw the win probability over the game, mistakes marked, and, "
                                                  "for a game with a belief summary (Hera and Zeus: the opponent's "
                                                  "hostage), what each seat believed: PNG, SVG or PDF as FILE's "
                                                  "extension says (.png, .svg, .pdf; no other); needs matplotlib: "
                                                  "pip install 'hzai[plot]'")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=cmd_analyze_game)

    p = sub.add_parser("arena", help="play two bots against each other, seats swapped, with a 95%% interval")
    p.add_argument("bot_a", help=bot_spec_help())
    p.add_argument("bot_b", help="the opponent's bot spec")
    p.add_argument("--game", default=DEFAULT_GAME, metavar="NAME",
                   help=f"which game, one of two seats that is not cooperative (a team game is hzai team's): "
                        f"{', '.join(games)} (default {DEFAULT_GAME})")
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    _add_budget(p)
    p.add_argument("--jobs", type=int, default=None, help="parallel processes (default: one per core)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a parameter of the game's rules (repeatable), as for hzai new, e.g. turn_limit=100")
    p.add_argument("--variant", action="append", default=[], metavar="NAME=VALUE",
                   help="a rules variant, the same as --param (repeatable)")
    add_json_option(p, "every game and the summary (the summary line goes to stderr when the JSON is on stdout)")
    _add_ray(p, "each game")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=cmd_arena)

    p = sub.add_parser("team", help="a cooperative game (Legends of Hellas): one bot in every seat, the share won",
                       description="Play a cooperative game (Legends of Hellas missions by default) with a team of "
                                   "bots (the same spec in every seat, each deciding from its own view) and print "
                                   "the share won with a 95% interval. --all-seeing lets every bot read the whole "
                                   "state: a benchmark of what hidden hands cost, never a way to play.")
    p.add_argument("bot", help=bot_spec_help())
    p.add_argument("--game", default="legends", metavar="NAME", help="a cooperative game (default legends)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a parameter of the game (repeatable), as for hzai new")
    p.add_argument("--mission", type=int, default=None, help="parameter mission (legends: 1..12)")
    p.add_argument("--heroes", default=None, help="parameter heroes, comma-separated (legends: 1-5 distinct heroes "
                                                  "in seat order)")
    p.add_argument("--difficulty", default=None, help="parameter difficulty (legends: human, heroic or godlike)")
    p.add_argument("--variant", action="append", default=[], metavar="NAME=VALUE",
                   help="a rules variant, the same as --param (legends: relocation=free, turn_limit=N)")
    p.add_argument("--games", type=int, default=20, help="missions to play (default 20)")
    _add_budget(p, "200")
    p.add_argument("--all-seeing", action="store_true", help="every bot reads the full state (benchmarks only)")
    add_json_option(p, "every game and the summary (the summary line goes to stderr when the JSON is on stdout)")
    p.set_defaults(func=cmd_team)

    add_learning_commands(sub)  # selfplay, train, match (docs/learning.md)
    return (parser, sub) if with_subparsers else parser


def main(argv: list[str] | None = None) -> int:
    """The library's commands alone (`python -m hzai.cli`); the `hzai` console script
    is hzai_client.cli.main, which adds the service's commands."""
    return run(build_parser(), argv)


def _is_record(word: str) -> bool:
    """Whether `word` names a file holding a game record (a JSON object with a `format`)."""
    path = Path(word)
    if path.suffix.lower() != ".json" or not path.is_file():
        return False
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return isinstance(data, dict) and "format" in data


def _json_before_record(argv: list[str]) -> list[str]:
    """`hzai analyze --json game.json`, as --json was written when it took no value: a
    record right after --json (and named nowhere else) is the command's record, not a
    file to write the JSON over; it moves in front, and --json is bare (stdout)."""
    argv = list(argv)
    while True:
        for i, word in enumerate(argv[:-1]):
            if word == "--json" and argv.count(argv[i + 1]) == 1 and _is_record(argv[i + 1]):
                argv = argv[:1] + [argv[i + 1]] + argv[1:i + 1] + argv[i + 2:]
                break
        else:
            return argv


def run(parser: argparse.ArgumentParser, argv: list[str] | None = None) -> int:
    """Parse and run one command; bad input is one line and exit status 2."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if "--json" in argv:
        argv = _json_before_record(argv)
    args = parser.parse_args(argv)
    name = f"hzai {args.command}"
    try:
        return args.func(args)
    except RecordError as exc:
        print(f"{name}: {exc}", file=sys.stderr)
    except (UsageError, ValueError, BatchError, MissingCapability) as exc:
        print(f"{name}: {exc}", file=sys.stderr)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print(f"{name}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # the contract: no traceback reaches the user
        print(f"{name}: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_INTERNAL
    return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
