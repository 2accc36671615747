"""`hzai play`: a game against the bot in the terminal, through the service.

The server hosts the match, deals, draws chance results and plays the bot; this side
shows the board as the human player sees it, lists the legal moves and checks what is
typed. It reads moves line by line from standard input, so a script can play too.
"""

from __future__ import annotations

import sys
from collections import defaultdict

HELP = ("Type a move's number or its notation (e.g. 'draw', 'play Hydra c1r2'); "
        "'moves' lists every legal move, 'board' draws the board again, 'quit' ends the game.")
LIST_ALL_UP_TO = 40


def _variants(pairs: list[str]) -> dict:
    from hzai_client.cli import CommandError

    out: dict = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise CommandError(f"--variant takes NAME=VALUE, not {pair!r}")
        if key == "turn_limit":
            if not value.isdigit():
                raise CommandError(f"--variant turn_limit needs a whole number, not {value!r}")
            out[key] = int(value)
        else:
            out[key] = value
    return out


def _print_moves(moves, out, everything: bool) -> None:
    if everything or len(moves) <= LIST_ALL_UP_TO:
        width = max(len(m.text) for m in moves) + 6
        per_line = max(1, 96 // width)
        for start in range(0, len(moves), per_line):
            out.write("".join(f"{i + 1:>3}. {moves[i].text:<{width - 5}}"
                              for i in range(start, min(start + per_line, len(moves)))).rstrip() + "\n")
        return
    by_kind = defaultdict(list)
    for index, move in enumerate(moves):
        by_kind[move.kind].append(index)
    out.write(f"{len(moves)} legal moves ('moves' lists them all):\n")
    for kind, indexes in by_kind.items():
        examples = ", ".join(f"{i + 1}. {moves[i].text}" for i in indexes[:3])
        out.write(f"  {kind}: {len(indexes)} (e.g. {examples})\n")


def _choose(moves, line: str):
    """The move a line means, or None."""
    line = line.strip()
    if line.isdigit():
        index = int(line) - 1
        return moves[index].text if 0 <= index < len(moves) else None
    wanted = " ".join(line.lower().split())
    for move in moves:
        if move.text.lower() == wanted:
            return move.text
    return line or None  # let the server judge notation we did not list (and say why)


def play(client, human: str, *, seed: int, bot: str, budget: dict, variants: dict, stdin=None, out=None) -> int:
    import grpc

    from hzai_client.messages import player_name

    stdin = stdin or sys.stdin
    out = out or sys.stdout
    echo = not stdin.isatty() if hasattr(stdin, "isatty") else True
    bot_seat = "zeus" if human == "hera" else "hera"
    status = client.create_match(seed=seed, hera_bot=bot_seat == "hera", zeus_bot=bot_seat == "zeus", bot=bot,
                                 variants=variants, **budget)
    match_id = status.match_id
    out.write(f"Match {match_id}: you play {human}, the bot ({bot or 'ismcts'}) plays {bot_seat}. {HELP}\n")
    try:
        show_board = True
        while True:
            view = client.get_view(match_id, human)
            status = view.status
            if show_board:
                out.write("\n" + view.board + "\n")
                show_board = False
            if status.over:
                result = "a draw" if status.winner == "draw" else f"{status.winner} wins"
                verdict = "You win!" if status.winner == human else ("Draw." if status.winner == "draw" else "The bot wins.")
                out.write(f"\nGame over after turn {status.turn}: {result} ({status.reason}). {verdict}\n")
                return 0
            to_move = player_name(status.to_move)
            if to_move == bot_seat:
                reply = client.bot_play_turn(match_id)
                for move in reply.moves:
                    who = "chance" if move.kind == "chance" else bot_seat
                    out.write(f"{who}: {move.text}\n")
                show_board = True
                continue
            moves = client.legal_moves(match_id, human)
            if not moves:  # nothing for anyone to do here; should not happen in a hosted match
                out.write("No legal move; waiting is not possible. Ending.\n")
                return 1
            _print_moves(moves, out, everything=False)
            while True:
                out.write(f"{human}> ")
                out.flush()
                line = stdin.readline()
                if not line:
                    out.write("\nEnd of input: the game is left unfinished.\n")
                    return 0
                if echo:
                    out.write(line if line.endswith("\n") else line + "\n")
                command = line.strip().lower()
                if command in ("quit", "exit", "q"):
                    out.write("You left the game.\n")
                    return 0
                if command in ("help", "?", ""):
                    out.write(HELP + "\n")
                    continue
                if command in ("moves", "list"):
                    _print_moves(moves, out, everything=True)
                    continue
                if command == "board":
                    out.write(view.board + "\n")
                    continue
                choice = _choose(moves, line)
                if choice is None:
                    out.write(f"No move number {line.strip()}: choose 1..{len(moves)}.\n")
                    continue
                try:
                    reply = client.play_move(match_id, human, choice)
                except grpc.RpcError as exc:
                    if exc.code() != grpc.StatusCode.INVALID_ARGUMENT:
                        raise
                    field, _, why = exc.details().partition(": ")
                    out.write(f"Not played: {why if field.startswith('move') and why else exc.details()}\n")
                    continue
                out.write(f"{human}: {reply.played.text}\n")
                for move in reply.chance:
                    out.write(f"chance: {move.text}\n")
                show_board = True
                break
    finally:
        try:
            client.delete_match(match_id)
        except grpc.RpcError:
            pass


def add_play_command(sub, common) -> None:
    p = sub.add_parser("play", help="play against the bot in the terminal, through hzai-server",
                       description="Play a game against the bot. Moves are read line by line from standard "
                                   "input: a number from the list or the notation. " + HELP)
    common(p, budget_help="the bot's budget per decision: 1000, 250ms, ... (default: the server's)")
    p.add_argument("--as", dest="side", choices=["hera", "zeus"], default="hera", help="your side (default hera)")
    p.add_argument("--seed", type=int, default=0, help="seed of the deal and of chance (default 0)")
    p.add_argument("--bot", default="", help="ismcts (default), pimc, heuristic, random")
    p.add_argument("--variant", action="append", default=[], metavar="NAME=VALUE", help="a rules variant (repeatable)")

    from hzai_client.cli import _budget_kwargs, _client, _command

    @_command
    def cmd_play(args) -> int:
        budget = _budget_kwargs(args)
        variants = _variants(args.variant)
        with _client(args) as client:
            return play(client, args.side, seed=args.seed, bot=args.bot, budget=budget, variants=variants)

    p.set_defaults(func=cmd_play)
