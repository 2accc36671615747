"""The `hzai` command line.

Exit codes: 0 done, 2 bad input (malformed record, illegal move, bad option) with one
line on stderr, 3 an internal error (also one line; never a traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from hzai import jsonread
from hzai.batch import BatchError
from hzai.games.hera_zeus.cards import PLAYERS, DeckError

from hzai.games.hera_zeus.rules import Game, Record, RecordError, VariantError, deal, state_to_json
from hzai.search.bot import bot_spec_help  # the registry's bots, for the help of a command that takes one

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3


class UsageError(Exception):
    """Bad command-line input; reported as one line with exit code 2."""


def _load(path: str, upto: int | None = None):
    record = Record.load(path)
    return record, record.replay(upto)


def _legends(path: str, upto: int | None = None):
    """The replayed Legends state when the file is a legends-record/1, else None (the
    Hera and Zeus commands then read it, and report its problems, as they always have)."""
    record = _legends_record(path)
    return None if record is None else record.replay(upto)


def _legends_record(path: str):
    """The Legends record when the file is a legends-record/1, else None."""
    from hzai.games.legends.record import FORMAT, MAX_RECORD_BYTES, Record as LegendsRecord

    try:
        with open(path, "rb") as handle:
            raw = jsonread.loads(handle.read(MAX_RECORD_BYTES + 1), path)
    except (OSError, jsonread.JsonShapeError):
        return None  # the Hera and Zeus reader then says what is wrong with the file
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        return None
    return LegendsRecord.from_json(raw, base=Path(path).resolve().parent)


def _other_game(run, record, args, *extra) -> int:
    """A command of hzai.analysis_cli on a record of a game other than Hera and Zeus."""
    from hzai.analysis_cli import AnalysisUsageError

    try:
        return run(record, *extra, args, _limits(args), sys.stdout)
    except AnalysisUsageError as exc:
        raise UsageError(str(exc)) from None


def _hera_zeus_side(side: str | None, referee: bool = False) -> int | None:
    """The --seat of a Hera and Zeus record as a player index (None: not given, or the
    referee where `referee` allows it)."""
    if side is None or (referee and side == "referee"):
        return None
    if side not in PLAYERS:
        seats = ", ".join((*PLAYERS, "referee") if referee else PLAYERS)
        raise UsageError(f"--seat: a Hera and Zeus record's seats are {seats}, not {side}")
    return PLAYERS.index(side)


def _seat_of(state, seat: str | None, referee: bool = False) -> int | None:
    """The --seat of a Legends record as a seat index (not given: the seat to decide;
    None for the referee where `referee` allows it)."""
    game = state.game
    if referee and seat in (None, "referee"):
        return None
    if seat is None:
        return state.t.actor if state.t.actor is not None else state.t.turn_seat
    if seat not in game.seats:
        seats = ", ".join((*game.seats, "referee") if referee else game.seats)
        raise UsageError(f"--seat: this mission's seats are {seats}, not {seat}")
    return game.seats.index(seat)


def cmd_replay(args) -> int:
    legends = _legends(args.record)
    if legends is not None:
        print(json.dumps(legends.to_json(), indent=args.indent))
        return 0
    _, state = _load(args.record)
    print(json.dumps(state_to_json(state), indent=args.indent))
    return 0


def _legends_legal(state) -> int:
    if state.is_chance:
        seat = state.game.seats[state.t.actor]
        print(f"hzai legal: the next event is chance: the order in which {seat}'s hand goes under the pile "
              "(write it as 'chance order CARDS')", file=sys.stderr)
        return 0
    if state.is_terminal:
        print(f"hzai legal: the mission is over ({state.t.result}, {state.t.reason})", file=sys.stderr)
        return 0
    for text in sorted(state.game.move_text(m) for m in state.legal_moves()):
        print(text)
    return 0


def cmd_legal(args) -> int:
    legends = _legends(args.record)
    if legends is not None:
        return _legends_legal(legends)
    _, state = _load(args.record)
    if state.is_chance:
        print("hzai legal: the next event is chance: the card drawn by 'pegasus hand' (write it as 'chance CARD')", file=sys.stderr)
        return 0
    if state.is_over:
        print("hzai legal: the game is over", file=sys.stderr)
        return 0
    for text in sorted(str(m) for m in state.legal_moves()):
        print(text)
    return 0


def _variants(pairs: list[str]) -> dict:
    variants: dict = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise UsageError(f"--variant takes NAME=VALUE, not {pair!r}")
        if key == "turn_limit":
            if not value.isdigit():
                raise UsageError(f"--variant turn_limit needs a whole number, not {value!r}")
            variants[key] = int(value)
        else:
            variants[key] = value
    return variants


SEED_MAX = 2**64 - 1  # seeds are unsigned 64-bit numbers (the shuffle's SplitMix64)


def _new_legends(args):
    """`hzai new --game legends`: a seed record (or, with --deal, the dealt setup)."""
    from hzai.games.legends.game import LegendsGame
    from hzai.games.legends.record import Record as LegendsRecord

    if args.mission is None or args.heroes is None:
        raise UsageError("--game legends needs --mission N and --heroes NAME,NAME,...")
    options = {"mission": args.mission, "heroes": args.heroes.split(","), "difficulty": args.difficulty,
               "first_player": args.first_player, "data": args.data, **_variants(args.variant)}
    game = LegendsGame(**options)
    if not args.deal:
        return LegendsRecord(game, seed=args.seed)
    from hzai.games.legends.rules import shuffled_deal

    return LegendsRecord(game, setup=shuffled_deal(game, args.seed))


def cmd_new(args) -> int:
    if not 0 <= args.seed <= SEED_MAX:
        raise UsageError(f"--seed must be a whole number from 0 to {SEED_MAX}, not {args.seed}")
    if args.game == "legends":
        record = _new_legends(args)
    else:
        given = [flag for flag, value, default in (("--mission", args.mission, None), ("--heroes", args.heroes, None),
                                                   ("--difficulty", args.difficulty, "human"),
                                                   ("--first-player", args.first_player, "p1"),
                                                   ("--data", args.data, "classic"), ("--deal", args.deal, False))
                 if value != default]
        if given:
            raise UsageError(f"{', '.join(given)}: for --game legends only")
        game = Game.create(_variants(args.variant), args.deck)
        record = Record(game, seed=args.seed) if args.seed_only else Record(game, setup=deal(game, args.seed))
    text = json.dumps(record.to_json(), indent=2) + "\n"
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def cmd_show(args) -> int:
    from hzai.games.hera_zeus.render import render

    legends = _legends(args.record, args.upto)
    if legends is not None:
        from hzai.games.legends.render import render as render_legends

        print(render_legends(legends, _seat_of(legends, args.side, referee=True)))
        return 0
    viewer = _hera_zeus_side(args.side, referee=True)
    _, state = _load(args.record, args.upto)
    print(render(state, viewer))
    return 0


def _observer(args, state) -> int:
    side = _hera_zeus_side(args.side)
    if side is not None:
        return side
    return state.to_move if state.to_move is not None else state.turn_player


def cmd_view(args) -> int:
    from hzai.games.hera_zeus.belief import view_of

    legends = _legends(args.record, args.upto)
    if legends is not None:
        print(json.dumps(legends.view(_seat_of(legends, args.side)).to_json(), indent=args.indent))
        return 0
    _hera_zeus_side(args.side)
    _, state = _load(args.record, args.upto)
    print(json.dumps(view_of(state, _observer(args, state)).to_json(), indent=args.indent))
    return 0


def cmd_belief(args) -> int:
    from hzai.games.hera_zeus.belief import belief_report, format_report, view_of

    from hzai.games.hera_zeus.belief.inference import check_temperature

    if args.samples < 1:
        raise UsageError("--samples must be at least 1")
    try:
        temperature = check_temperature(args.temperature)
    except ValueError as exc:
        raise UsageError(f"--temperature: {exc}") from None
    _, state = _load(args.record, args.upto)
    report = belief_report(view_of(state, _observer(args, state)), args.samples, args.seed, temperature, learned=True)
    print(json.dumps(report, indent=2) if args.json else format_report(report))
    return 0


def _limits(args):
    from hzai.search import Limits

    return Limits.parse(args.budget, args.threads)


def _progress_line(done: int, total: int) -> None:
    sys.stderr.write(f"\r[{done}/{total}]")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def cmd_analyze(args) -> int:
    from hzai.games.hera_zeus.belief import view_of

    legends = _legends_record(args.record)
    if legends is not None:
        from hzai.analysis_cli import analyze_record

        return _other_game(analyze_record, legends, args, legends.replay(args.upto))
    _hera_zeus_side(args.side)
    _, state = _load(args.record, args.upto)
    if state.is_over or state.is_chance:
        raise UsageError("nothing to decide after this record (the game is over or a chance event comes next)")
    observer = state.to_move if args.side is None else PLAYERS.index(args.side)
    if observer != state.to_move:
        raise UsageError(f"{PLAYERS[state.to_move]} is to decide here, not {args.side}")
    view = view_of(state, observer)
    from hzai.analysis_cli import AnalysisUsageError, analyse, analyst_of

    try:
        answer = analyse(analyst_of(args, view.game), view, _limits(args), args.seed, _root_moves(view, args))
    except AnalysisUsageError as exc:
        raise UsageError(str(exc)) from None
    if args.belief:
        from hzai.games.hera_zeus.belief import belief_report

        answer.belief = belief_report(view, args.belief, args.seed)
    if args.json:
        print(json.dumps(answer.to_json(), indent=2))
        return 0
    print(f"{answer.perspective} to decide · budget {_limits(args)}: {answer.iterations} iterations in "
          f"{answer.millis:.0f} ms · values are {answer.perspective}'s win probability")
    from hzai.review import ANALYSIS_HEADER, format_move_row

    print(ANALYSIS_HEADER)
    for m in answer.moves[: args.top]:
        print(format_move_row(str(m.move), m.visits, m.value, m.ci_low, m.ci_high, m.pv))
    if args.words:
        _print_words(view, answer, args)
    if answer.belief:
        from hzai.games.hera_zeus.belief import format_report

        print()
        print(format_report(answer.belief))
    return 0


def _print_words(view, answer, args) -> None:
    """--words: the first rows' variations told in the game's narration (hzai.explain)."""
    from hzai.explain import pv_in_words

    game = view.game
    for m in answer.moves[: min(args.top, args.words)]:
        move = game.move_text(m.move)
        print(f"\nafter {move}, the search expects:")
        for line in pv_in_words(game, view, m.pv, seed=args.seed) or ["(nothing it can tell)"]:
            print(f"  {line}")


def _root_moves(view, args):
    """--allow / --avoid as chosen root moves of `view` (None without either)."""
    from hzai.core.bot import RootMoves, RootMovesError

    allow, avoid = getattr(args, "allow", None), getattr(args, "avoid", None) or []
    if allow is None and not avoid:
        return None
    try:
        chosen = RootMoves.parse(view.game, allow, avoid)
        chosen.select(view)
    except RootMovesError as exc:
        why = str(exc)  # "allow move 'x': ..." names its option
        raise UsageError(f"--{why}" if why.startswith(("allow", "avoid")) else why) from None
    return chosen


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
    from hzai.batch import is_address

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
    {"record", "error"}; exit 2 when any record failed."""
    from hzai.review import review_many

    sides = (0, 1) if args.side is None else (_hera_zeus_side(args.side),)
    loaded, failed = [], []
    for path in paths:
        try:
            loaded.append((str(path), Record.load(path).to_json()))
        except RecordError as exc:
            failed.append({"record": str(path), "error": str(exc)})

    def progress(done: int, total: int) -> None:
        sys.stderr.write(f"\r[{done}/{total}] records")
        sys.stderr.write("\n" if done == total else "")
        sys.stderr.flush()

    entries = review_many(loaded, _limits(args), args.seed, sides, ray, None if args.quiet else progress,
                          bot=_review_bot(args, Record.from_json(loaded[0][1]).game) if loaded else args.bot)
    by_name = {e["record"]: e for e in entries + failed}
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout
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
    from hzai.analysis_cli import AnalysisUsageError, analyst_of

    try:
        analyst_of(args, game)
    except AnalysisUsageError as exc:
        raise UsageError(str(exc)) from None
    return args.bot


def cmd_analyze_game(args) -> int:
    from hzai.review import Decision, decisions_json, format_review, review_record

    names = list(args.records)
    ray = _ray_target(args, names)
    if not names:
        raise UsageError("give a record, several, or a folder of records")
    paths, batch = _record_paths(names)
    if batch or ray is not None:
        if args.plot:
            raise UsageError("--plot draws one record: give a single record file")
        return _analyze_batch(args, paths, ray)
    legends = _legends_record(str(paths[0]))
    if legends is not None:
        from hzai.analysis_cli import review_record as review_other

        if args.plot:
            raise UsageError("--plot: only for Hera and Zeus records")
        return _other_game(lambda r, a, lim, out: review_other(r, a, lim, out, None if a.quiet else _progress_line),
                           legends, args)
    _hera_zeus_side(args.side)
    record = Record.load(paths[0])
    sides = (0, 1) if args.side is None else (PLAYERS.index(args.side),)
    if args.plot:
        from hzai.review_plot import _pyplot

        _pyplot()  # a missing matplotlib is said before the review runs
    rows = list(review_record(record, _limits(args), args.seed, sides, None if args.quiet else _progress_line,
                              belief=bool(args.plot), bot=_review_bot(args, record.game)))
    decisions = [Decision.of(row) for row in rows]
    if rows and args.plot:
        from hzai.review_plot import plot_review

        plot_review(rows, args.plot, f"{paths[0].name} · {_limits(args)} a decision · seed {args.seed}")
        print(f"hzai analyze-game: plot written to {args.plot}", file=sys.stderr)
    if not decisions:  # not an error: a fresh record simply has nothing to look at yet (exit 0)
        whose = "" if args.side is None else f" by {args.side}"
        note = f"hzai analyze-game: nothing to analyse: the record has no decisions{whose} yet"
        if args.json:
            print("[]")
            print(note, file=sys.stderr)
        else:
            print(note)
        return 0
    print(json.dumps(decisions_json(decisions), indent=1) if args.json else format_review(decisions))
    return 0


def cmd_arena(args) -> int:
    from hzai.search.arena import print_progress, run_arena, write_json

    if args.games < 1:
        raise UsageError("--games must be at least 1")
    result = run_arena(args.bot_a, args.bot_b, args.games, _limits(args), args.seed, args.jobs,
                       _variants(args.variant), None if args.quiet else print_progress, ray=_ray_target(args))
    print(result.summary())
    if args.json:
        write_json(result, args.json)
    return 0


def cmd_team(args) -> int:
    """A team of one bot spec in every seat of a Legends mission: the won share."""
    from hzai.search.arena import run_team

    if args.games < 1:
        raise UsageError("--games must be at least 1")
    params = {"mission": args.mission, "heroes": args.heroes.split(","), "difficulty": args.difficulty,
              **_variants(args.variant)}
    result = run_team(args.bot, args.games, _limits(args), args.seed, params, "legends", args.all_seeing)
    print(result.summary())
    if args.json:
        Path(args.json).write_text(json.dumps(result.to_json(), indent=1), encoding="utf-8")
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
        from importlib.metadata import PackageNotFoundError, version

        from hzai.core.registry import game_names, make_game
        from hzai.native.model import model_id

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
    parser = argparse.ArgumentParser(
        prog="hzai",
        description="Hera and Zeus and Legends of Hellas: rules engines, game records and AI tools. "
                    "replay, legal, show and view read either game's records (by their format).",
        epilog="The rules: docs/rules.md and docs/legends.md. Records and notation: docs/notation.md, "
               "docs/legends.md. Exit status 2 means bad input (the message says what).",
    )
    parser.add_argument("--version", action=_Version, help="print the version and the models the games ship, and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    record_help = "game record (hzai-record/1 or legends-record/1 JSON)"
    p = sub.add_parser("replay", help="replay a record and print the final state as JSON")
    p.add_argument("record", help=record_help)
    p.add_argument("--indent", type=int, default=None, help="pretty-print with this indent")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("legal", help="print the legal moves after a record, one per line, sorted")
    p.add_argument("record", help=record_help)
    p.set_defaults(func=cmd_legal)

    p = sub.add_parser("new", help="deal a new game and write its record",
                       description="Deal a new game. Hera and Zeus by default (a dealt record); with --game "
                                   "legends a Legends of Hellas seed record, e.g. hzai new --game legends "
                                   "--mission 3 --heroes Perseus,Atalanta --seed 7.")
    p.add_argument("--seed", type=int, required=True, help="seed of the shuffle (a whole number from 0 to 2^64-1)")
    p.add_argument("--game", choices=["hera_zeus", "legends"], default="hera_zeus", help="which game (default hera_zeus)")
    p.add_argument("--mission", type=int, default=None, help="legends: the mission, 1..12 (required)")
    p.add_argument("--heroes", default=None, help="legends: 1-5 distinct heroes in seat order p1.., comma-separated "
                                                  "(Achilles, Jason, Perseus, Hercules, Atalanta)")
    p.add_argument("--difficulty", default="human", help="legends: human (default), heroic or godlike")
    p.add_argument("--first-player", dest="first_player", default="p1", help="legends: the seat that places first and takes turn 1 (p1)")
    p.add_argument("--data", default="classic", help="legends: 'classic' or a legends-data/1 file")
    p.add_argument("--deal", action="store_true", help="legends: write the dealt setup instead of the seed")
    p.add_argument("--variant", action="append", default=[], metavar="NAME=VALUE",
                   help="a rules variant, e.g. first_player=zeus, figure_removal=pegasus, "
                        "pythia_defence=always_loses, turn_limit=100; legends: relocation=free, turn_limit=N (repeatable)")
    p.add_argument("--deck", default="classic", help="'classic' or a deck TOML file")
    p.add_argument("--seed-only", action="store_true", help='write {"seed": N} instead of the dealt cards')
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

    p = sub.add_parser("belief", help="where the opponent's hidden cards (above all the hostage) probably are")
    p.add_argument("record", help="game record (hzai-record/1 JSON)")
    add_seat_option(p, "whose information: hera or zeus (default: the player to move)")
    p.add_argument("--upto", type=int, default=None, metavar="N", help="only the first N moves of the record")
    p.add_argument("--samples", type=int, default=4000, help="determinizations to draw (default 4000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the sampler (default 0)")
    p.add_argument("--temperature", type=float, default=None,
                   help="the opponent model's temperature for the inferred probabilities (default 2; high: uniform)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=cmd_belief)

    p = sub.add_parser("analyze", help="how good is every legal move? (ISMCTS from one player's view)")
    p.add_argument("record", help="game record (hzai-record/1 JSON)")
    add_seat_option(p, "the seat to decide: hera or zeus, p1..p5 for Legends (checked; default: whoever decides)")
    p.add_argument("--upto", type=int, default=None, metavar="N", help="only the first N moves of the record")
    _add_budget(p, "1s")
    p.add_argument("--bot", default=None, metavar="SPEC",
                   help="the bot whose own search analyses (default: the default bot, ismcts): the analysis' best "
                        "is that bot's move for the same seed and budget, as the service's Analyze; e.g. "
                        "ismcts:replicas=4 for intervals across independent searches, ismcts-v2 unguided")
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
    p.add_argument("--json", action="store_true", help="print the analysis as JSON")
    add_root_move_options(p)
    p.set_defaults(func=cmd_analyze)

    p = sub.add_parser("analyze-game", help="annotate every decision of a record: played move vs the bot's choice",
                       description="Annotate every decision of a record: the move played against the bot's choice "
                                   "and the value lost. A record with no decision yet prints one line saying there "
                                   "is nothing to analyse (with --json: []) and exits 0.")
    p.add_argument("records", nargs="*", metavar="RECORD",
                   help="game record (hzai-record/1 JSON); several, or a folder of *.json records: one JSON line "
                        "per record ({\"record\", \"decisions\"} or {\"record\", \"error\"}), in order")
    add_seat_option(p, "only this seat's decisions: hera or zeus, p1..p5 for Legends (default: every seat's)")
    _add_budget(p, "500")
    p.add_argument("--bot", default=None, metavar="SPEC",
                   help="the bot whose own search analyses each decision (default: the default bot, ismcts; "
                        "as the service's AnalyzeGame): its best is that bot's move there")
    p.add_argument("--json", action="store_true", help="print the decisions as JSON")
    _add_ray(p, "each record")
    p.add_argument("-o", "--output", help="write the JSON lines of a batch to this file instead of standard output")
    p.add_argument("--plot", metavar="FILE", help="also draw the win probability over the game, mistakes marked, and "
                                                  "the belief about the opponent's hostage (PNG, SVG or PDF; needs "
                                                  "matplotlib: pip install 'hzai[plot]')")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=cmd_analyze_game)

    p = sub.add_parser("arena", help="play two bots against each other, seats swapped, with a 95%% interval")
    p.add_argument("bot_a", help=bot_spec_help())
    p.add_argument("bot_b", help="the opponent's bot spec")
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    _add_budget(p)
    p.add_argument("--jobs", type=int, default=None, help="parallel processes (default: one per core)")
    p.add_argument("--variant", action="append", default=[], metavar="NAME=VALUE", help="a rules variant (repeatable)")
    p.add_argument("--json", metavar="FILE", help="write every game and the summary as JSON")
    _add_ray(p, "each game")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=cmd_arena)

    p = sub.add_parser("team", help="Legends of Hellas: one bot in every seat, the share of missions won",
                       description="Play Legends of Hellas missions with a team of bots (the same spec in every "
                                   "seat, each deciding from its own view) and print the share won with a 95% "
                                   "interval. --all-seeing lets every bot read the whole state: a benchmark of "
                                   "what hidden hands cost, never a way to play.")
    p.add_argument("bot", help=bot_spec_help())
    p.add_argument("--mission", type=int, required=True, help="the mission, 1..12")
    p.add_argument("--heroes", required=True, help="1-5 distinct heroes in seat order, comma-separated")
    p.add_argument("--difficulty", default="human", help="human (default), heroic or godlike")
    p.add_argument("--variant", action="append", default=[], metavar="NAME=VALUE", help="relocation=free, turn_limit=N")
    p.add_argument("--games", type=int, default=20, help="missions to play (default 20)")
    _add_budget(p, "200")
    p.add_argument("--all-seeing", action="store_true", help="every bot reads the full state (benchmarks only)")
    p.add_argument("--json", metavar="FILE", help="write every game and the summary as JSON")
    p.set_defaults(func=cmd_team)

    from hzai.learn.cli import add_commands as add_learning_commands

    add_learning_commands(sub)  # selfplay, train, match (docs/learning.md)
    return (parser, sub) if with_subparsers else parser


def main(argv: list[str] | None = None) -> int:
    """The library's commands alone (`python -m hzai.cli`); the `hzai` console script
    is hzai_client.cli.main, which adds the service's commands."""
    return run(build_parser(), argv)


def run(parser: argparse.ArgumentParser, argv: list[str] | None = None) -> int:
    """Parse and run one command; bad input is one line and exit status 2."""
    args = parser.parse_args(argv)
    name = f"hzai {args.command}"
    try:
        return args.func(args)
    except RecordError as exc:
        print(f"{name}: {exc}", file=sys.stderr)
    except (UsageError, VariantError, DeckError, ValueError, BatchError) as exc:
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
