"""`hzai play`: a game against the bot in the terminal, through the service, for any
game the server plays.

By default the command starts a server of its own on a free loopback port and stops it
at the end (`--server HOST:PORT` plays on a running one instead). The server hosts the
match, deals, draws chance results and plays the bot seats; this side shows what the
human's seat may see, all of it as the server sends it: the board drawn for the seat
(GetViewResponse.board) once the other seats have moved, every move narrated from the
seat's side (SeenMove.narration, hidden cards already redacted), the legal moves as text.
It reads short commands (hzai_client.play_input) from a terminal (with tab completion) or
from standard input, so a script can play too. Nothing here knows a game's rules: seat
names, moves and results come from the server.

Exit status: 0 when the game ends or the player leaves with `quit` or Ctrl-D, 130 after
Ctrl-C, 1 when the service fails, 2 for bad options.
"""

from __future__ import annotations

import json
import re
import sys

from hzai_client.play_input import (SESSION_WORDS, Command, InputError, builds, group_moves, next_pieces, read_command,
                                    spell)
from hzai_client.play_record import seat_view_json, write_json, write_record

COMMANDS = """Commands:
  a move                 as the 'moves' listing writes it; any word may be cut short when
                         that leaves one legal move{example}
  NUMBER                 the move of that number in the 'moves' listing
  a first word alone     a long move (setup, support, the Oracle's order) built one
                         numbered piece at a time: setup, then a card for each column;
                         a piece that is the only choice is filled in for you
  moves                  the legal moves, by their first word, numbered
  board                  the board again
  hint                   the bot's three best moves for you, best first, with their chances
  help                   this list                      quit    leave (Ctrl-C, Ctrl-D)"""
INTRO = "Type 'help' for the commands, 'moves' for the legal moves; stop with 'quit', Ctrl-C or Ctrl-D."
SAVE_SECONDS = 5.0  # a save on the way out never waits longer for the server
DEFAULT_GAME = "hera_zeus"


def short_example(legal) -> str:
    """An example of a move typed short, from this position's own legal moves: its words
    cut to three letters, when that still means that move alone ("" if none does)."""
    from hzai_client.play_input import read_command

    for move in sorted(legal, key=lambda m: (-len(m.text.split()), m.text)):
        words = move.text.split()
        short = " ".join(w if any(c.isdigit() for c in w) else w[:3] for w in words)
        if short == move.text or not any(len(w) > 3 for w in words):
            continue
        try:
            if read_command(short, legal).move == move.text:
                return f" ('{short}' for {move.text})"
        except ValueError:
            continue
    return ""


def plural(count: int, word: str) -> str:
    """"1 move", "2 moves"."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def parse_params(pairs: list[str]) -> dict:
    """`NAME=VALUE` pairs as the game's parameters: a value that reads as JSON (a number,
    true, ...) is that value, any other a string; the server checks them."""
    from hzai_client.commands import CommandError

    out: dict = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise CommandError(f"--param: write NAME=VALUE, not {pair!r}")
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
    return out


def rejection(details: str, text: str) -> str:
    """The server's reason out of an INVALID_ARGUMENT message, without the field name
    and without the move repeated."""
    why = re.sub(r"^[\w.\[\]]*move[\w.\[\]]*: ", "", details)
    why = re.sub(r"^move \d+ '[^']*': ", "", why)
    for prefix in (f"{text}: ", f"{text.lower()}: ", f"'{text}': "):
        if why.startswith(prefix):
            why = why[len(prefix):]
    return why


def game_info(client, name: str):
    """The server's GameInfo of `name`; a CommandError naming the games it plays."""
    from hzai_client.commands import CommandError

    games = list(client.list_games())
    for info in games:
        if info.name == name:
            return info
    raise CommandError(f"--game: this server plays no game {name!r}; it plays "
                       + ", ".join(g.name for g in games))


def seat_of(info, given: str | int) -> int:
    """A seat by name or index, as its index."""
    from hzai_client.commands import CommandError

    seats = list(info.seats)
    text = str(given).lower()
    if text in seats:
        return seats.index(text)
    if text.isdigit() and int(text) < len(seats):
        return int(text)
    raise CommandError(f"--seat: {info.name} has no seat {given!r}; its seats are "
                       + ", ".join(f"{i} {s}" for i, s in enumerate(seats)))


class Session:
    """One game as one seat plays it."""

    def __init__(self, client, info, seat: int, *, out, stdin, style, hint_budget: dict, save: str | None):
        self.client, self.info, self.seat, self.out, self.stdin, self.style = client, info, seat, out, stdin, style
        self.seats = list(info.seats)
        self.hint_budget, self.save = hint_budget, save
        self.match_id = ""
        self.token: str | None = None
        self.seen: list[dict] = []  # what the seat saw, for a save before the end
        self.interactive = stdin is sys.stdin and stdin.isatty()
        self.completions: list[str] = []
        self.board_text = ""
        self.told_ending = False
        self.over = False
        self.commitment = ""  # the deal's commitment as the match was created
        self.building = None  # the pieces of a move being built (play_input.builds)

    @property
    def name(self) -> str:
        return self.seats[self.seat]

    # ----- output ----------------------------------------------------------------------
    def say(self, text: str = "", *styles: str) -> None:
        self.out.write(self.style(text, *styles) + "\n")
        self.out.flush()

    def seat_name(self, seat: int | None) -> str | None:
        return None if seat is None else self.seats[seat] if seat < len(self.seats) else f"seat {seat}"

    def who(self, seat: int | None) -> str:
        return "You" if seat == self.seat else (self.seat_name(seat) or "chance").capitalize()

    def show_events(self, events) -> None:
        """The server's events: its narration, or the move as the seat saw it."""
        for event in events:
            mover = event.seat if event.HasField("seat") else None
            lines = list(event.narration) or [f"{self.who(mover)}: {event.move.text}"]
            for line in lines:
                ending = line.startswith("Game over")
                self.told_ending |= ending
                self.say("  " + line, *(("bold",) if ending else ()))
            self.seen.append({"index": event.index, "seat": self.seat_name(mover), "move": event.move.text,
                              "narration": lines})

    def board(self) -> None:
        self.say()
        self.say(self.board_text)

    # ----- input -----------------------------------------------------------------------
    def read(self, prompt: str) -> str | None:
        if self.interactive:
            # readline counts the prompt's width: escape codes are marked as taking none
            shown = re.sub(r"(\x1b\[[0-9;]*m)", "\x01\\1\x02", self.style(prompt, "bold"))
            try:
                return input(shown)
            except EOFError:
                return None
        self.out.write(prompt)
        self.out.flush()
        line = self.stdin.readline()
        if not line:
            return None
        self.out.write(line if line.endswith("\n") else line + "\n")
        return line

    def _complete(self, text: str, state: int):
        import readline

        buffer = readline.get_line_buffer()[: readline.get_endidx()].lower()
        done = len(buffer[: readline.get_begidx()].split())  # whole words before the one completed
        options = []
        for candidate in self.completions:
            words = candidate.split()
            if " ".join(words).lower().startswith(" ".join(buffer.split())) and len(words) > done:
                word = words[done] + (" " if len(words) > done + 1 else "")
                if word.lower().startswith(text.lower()) and word not in options:
                    options.append(word)
        return options[state] if state < len(options) else None

    def _setup_readline(self) -> None:
        try:
            import readline
        except ImportError:
            return
        readline.set_completer_delims(" ")
        readline.set_completer(self._complete)
        readline.parse_and_bind("tab: complete")

    # ----- the game --------------------------------------------------------------------
    def start(self, *, seed: int | None, bot: str, budget: dict, params: dict, seats: list[str] | None = None,
              level: int = 0) -> None:
        """Create the match: every seat but this one played by the bot, or as `seats` says
        (one word a seat, `me` this terminal's, `bot` the server's bot)."""
        if seats is None:
            bot_seats = [i for i in range(len(self.seats)) if i != self.seat]
        else:
            bot_seats = [i for i, who in enumerate(seats) if who == "bot"]
        created = self.client.create_match(game=self.info.name, bot_seats=bot_seats, seed=seed or 0,
                                           open=seed is not None, bot=bot, params=params, level=level, **budget)
        self.seats = list(created.status.seats)
        if seats is not None and len(self.seats) != len(seats):
            from hzai_client.commands import CommandError

            raise CommandError(f"--seats names {len(seats)} seats but this {self.info.name} match has "
                               f"{len(self.seats)} ({', '.join(self.seats)})")
        self.match_id = created.status.match_id
        self.commitment = created.status.seed_commitment
        self.token = next((s.token for s in created.seats if s.seat == self.seat), None)
        if self.token is None:
            raise RuntimeError(f"the server answered no token for seat {self.seat} ({self.name})")
        others = ", ".join(self.seats[i].capitalize() for i in bot_seats)
        strength = f", level {level} of {self.info.max_level}" if level else ""
        self.say(f"{self.info.title}: you play {self.name.capitalize()}; the bot ({bot or 'ismcts'}{strength}) plays "
                 f"{others}.")
        if self.commitment and not created.status.open:
            self.say(f"The deal is sealed: SHA-256 of its seed and salt is {self.commitment}; both are shown, and "
                     "checked, at the end.")
        self.say(INTRO)
        if self.interactive:
            self._setup_readline()

    def run(self) -> int:
        redraw = True  # the board is drawn again whenever anything moved since it was shown
        while True:
            reply = self.client.get_view(self.match_id, token=self.token)
            status, self.board_text = reply.status, reply.board
            if status.over:
                return self.finish(status)
            to_move = status.to_move if status.HasField("to_move") else None
            if to_move != self.seat:
                turn = self.client.bot_play_turn(self.match_id, token=self.token, move_number=status.moves_played)
                self.show_events(turn.events)
                redraw = True
                continue
            if redraw:
                self.board()
                redraw = False
            legal = self.client.legal_moves(self.match_id, token=self.token)
            self.completions = sorted({m.text for m in legal} | set(SESSION_WORDS) - {"exit"})
            if not self.act(status, legal):
                return self.leave()
            redraw = True  # one's own move changed the board too

    def act(self, status, legal) -> bool:
        """Read lines until one move is played; False when the player leaves."""
        import grpc

        texts = [m.text for m in legal]
        self.building = None
        while True:
            prompt = (f"{self.name} [{spell(self.building)} …]> " if self.building
                      else f"{self.name} [{plural(len(legal), 'move')}]> ")
            line = self.read(prompt)
            if line is None:
                self.say()
                return False
            if not line.strip():
                continue
            if self.building and line.strip().lower() not in SESSION_WORDS:
                built = self.build_step(line, texts)
                if built is None:
                    continue
                command = Command(move=built, legal=True)
            elif (start := builds(line, texts)) is not None:
                self.building = start
                built = self.fill_forced(texts)
                if built is None:
                    continue
                command = Command(move=built, legal=True)
            else:
                self.building = None
                try:
                    command = read_command(line, legal)
                except InputError as exc:
                    self.say(f"  {exc}. Type 'help' for the commands.", "yellow")
                    continue
            if command.session == "quit":
                return False
            if command.session:
                self.session_command(command.session, legal)
                continue
            try:
                reply = self.client.play_move(self.match_id, command.move, token=self.token,
                                              move_number=status.moves_played)
            except grpc.RpcError as exc:
                if exc.code() not in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION):
                    raise
                self.say(f"  Not played: {command.move}: {rejection(exc.details(), command.move)}", "red")
                continue
            self.show_events(reply.events)
            return True

    # ----- a move built a piece at a time (play_input.builds) --------------------------
    def fill_forced(self, texts: list[str]) -> str | None:
        """Fill in every next piece that is the only choice, and say so; the move once it
        is whole (None, with the next choices shown, while a choice is left)."""
        filled = []
        while True:
            choices, complete = next_pieces(texts, self.building)
            if len(choices) != 1 or complete:
                break
            self.building = [*self.building, choices[0]]
            filled.append(choices[0][0])
        if filled:
            self.say(f"  Filled in {', '.join(filled)}: the only {'choice' if len(filled) == 1 else 'choices'} "
                     f"there.", "dim")
        choices, complete = next_pieces(texts, self.building)
        if complete and not choices:
            self.building = None
            return complete
        self.show_build(texts)
        return None

    @staticmethod
    def was_forced(texts: list[str], chosen) -> bool:
        """Whether the last of `chosen` was the only piece that could follow the others."""
        choices, complete = next_pieces(texts, chosen[:-1])
        return len(choices) == 1 and complete is None

    def show_build(self, texts: list[str]) -> None:
        choices, complete = next_pieces(texts, self.building)
        options = "  ".join(f"[{i}] {piece}" for i, (piece, _) in enumerate(choices, 1))
        whole = f"[0] play '{complete}' as it is  " if complete and choices else ""
        self.say(f"  {spell(self.building)} … next: {whole}{options}")
        self.say("  (a number or the piece itself; 'back' undoes the last piece, 'cancel' stops building)", "dim")

    def build_step(self, line: str, texts: list[str]) -> str | None:
        """One piece typed while building: the move once it is whole, else None."""
        word = line.strip().lower()
        if word == "cancel":
            self.building = None
            self.say("  Stopped building; type a move.")
            return None
        if word == "back":  # undoes the last piece chosen, and the pieces filled in after it
            chosen = list(self.building)
            while len(chosen) > 1 and self.was_forced(texts, chosen):
                chosen.pop()
            self.building = chosen[:-1] or None
            if self.building:
                self.show_build(texts)
            return None
        choices, complete = next_pieces(texts, self.building)
        if word == "0" and complete:
            self.building = None
            return complete
        if word.isdigit() and 1 <= int(word) <= len(choices):
            pick = choices[int(word) - 1]
        else:
            exact = [c for c in choices if c[0].lower() == word]
            short = [c for c in choices if c[0].lower().startswith(word)]
            pick = (exact or short)[0] if len(exact or short) == 1 else None
        if pick is None:
            self.say(f"  '{line.strip()}' is not one of the choices: type its number, 'back' or 'cancel'.", "yellow")
            return None
        self.building = [*self.building, pick]
        return self.fill_forced(texts)

    def session_command(self, word: str, legal) -> None:
        if word == "help":
            self.say(COMMANDS.format(example=short_example(legal)))
        elif word == "board":
            self.board()
        elif word == "moves":
            self.say(f"Legal moves ({len(legal)}):")
            for line in group_moves(legal):
                self.say(line)
        elif word == "hint":
            self.hint()

    def hint(self) -> None:
        import grpc

        try:
            analysis = self.client.analyze(match_id=self.match_id, token=self.token, **self.hint_budget)
        except grpc.RpcError as exc:
            self.say(f"  No hint: {exc.details()}", "yellow")
            return
        budget = ", ".join(part for part in (
            f"{self.hint_budget['iterations']} iterations" if self.hint_budget.get("iterations") else "",
            f"{self.hint_budget['millis'] / 1000:g} s" if self.hint_budget.get("millis") else "") if part)
        self.say(f"  The bot's best moves for you (budget {budget or 'the server default'}: "
                 f"{plural(analysis.iterations, 'iteration')} in {analysis.millis / 1000:.1f} s; your chance "
                 "of winning, 95% interval):")
        best = sorted(analysis.moves, key=lambda info: (-info.value, -info.visits))[:3]
        for info in best:
            self.say(f"    {info.move.text:<26} {info.value:6.1%}  ({info.ci_low:.0%}..{info.ci_high:.0%}, "
                     f"{plural(info.visits, 'visit')})")
        words = list(best[0].pv_words) if best else []
        if words:  # the server's narration of what the search expects after the best move
            self.say(f"  After {best[0].move.text}, the bot expects:")
            for line in words:
                self.say(f"    {line}", "dim")

    # ----- the end -----------------------------------------------------------------------
    def finish(self, status) -> int:
        self.over = True
        self.board()  # the server's picture of the end shows every card
        self.reveal(status)
        if not self.told_ending:
            reason = f" ({status.reason.replace('_', ' ')})" if status.reason else ""
            self.say(f"Game over: {status.result}{reason}.{self.verdict(status)}", "bold")
        if self.save:
            fmt = write_record(self.save, status.record_json)
            self.say(f"Saved the game record ({fmt or self.info.record_format}) to {self.save}.")
        return 0

    def reveal(self, status) -> None:
        """At the end: the moves this seat saw hidden, as the record has them, and the
        deal's seed and salt checked against the commitment given at the start."""
        try:
            moves = json.loads(status.record_json).get("moves", []) if status.record_json else []
        except ValueError:
            moves = []
        hidden = [(e["index"], e["move"], moves[e["index"]]) for e in self.seen
                  if e["index"] < len(moves) and e["move"] != moves[e["index"]]]
        if hidden:
            self.say(f"What you could not see ({plural(len(hidden), 'move')}, from the record):")
            for index, seen, played in hidden:
                self.say(f"  {index + 1:>3}. {played}   (you saw: {seen})")
        if not status.salt:
            return
        import hashlib

        computed = hashlib.sha256(f"{status.seed}:{status.salt}".encode()).hexdigest()
        promised = self.commitment or status.seed_commitment
        if computed == promised:
            self.say(f"The deal: seed {status.seed}, salt {status.salt}. SHA-256 of \"{status.seed}:{status.salt}\" "
                     f"is {computed}, the commitment given when the match was created: checked, the deal was fixed "
                     "before the first move.", "green")
        else:
            self.say(f"The deal does NOT match its commitment: SHA-256 of \"{status.seed}:{status.salt}\" is "
                     f"{computed}, but the match was created with {promised}.", "red")

    def verdict(self, status) -> str:
        """The seat's own result in words, from its return (win 1, draw 0.5, loss 0)."""
        if len(status.returns) <= self.seat:
            return ""
        mine = status.returns[self.seat]
        who = "Your team" if self.info.cooperative else "You"
        if mine == 0.5:
            return " A draw."
        return f" {who} {'won' if mine > 0.5 else 'lost'}."

    def leave(self) -> int:
        self.say("You left the game; it is not finished.")
        self.save_partial()
        return 0

    def save_partial(self) -> None:
        if not self.save or self.over or not self.match_id:
            return
        seen = self.seen
        try:
            history = self.client.get_view(self.match_id, token=self.token, with_history=True,
                                           timeout=SAVE_SECONDS).history
            if history:
                seen = [{"index": h.index, "seat": self.seat_name(h.seat if h.HasField("seat") else None),
                         "move": h.move.text, "narration": list(h.narration)} for h in history]
        except Exception:  # the log kept here is the fallback
            pass
        write_json(self.save, seat_view_json(self.info.name, self.name, self.match_id, seen))
        self.say(f"Saved what you saw so far to {self.save}: a seat's view (hzai-seat-view/1), not a game record; "
                 "what you could not see is hidden.")

    def close(self) -> None:
        import grpc

        if self.match_id:
            try:
                self.client.delete_match(self.match_id, token=self.token, timeout=SAVE_SECONDS)
            except grpc.RpcError:
                pass


SEAT_WORDS = ("me", "bot")


def parse_seats(text: str | None) -> list[str] | None:
    """`--seats me,bot,bot`: one word a seat, in seat order; exactly one `me`."""
    from hzai_client.commands import CommandError

    if text is None:
        return None
    words = [w.strip().lower() for w in text.split(",")]
    for word in words:
        if word not in SEAT_WORDS:
            raise CommandError(f"--seats: {word!r} is not a seat word; write me (your seat) or bot for each seat, "
                               "e.g. me,bot,bot")
    if words.count("me") != 1:
        raise CommandError(f"--seats: name exactly one seat me (this terminal plays one seat), not {words.count('me')}")
    return words


def play(client, seat: str | int, *, game: str = DEFAULT_GAME, seed: int | None, bot: str, budget: dict,
         params: dict, hint_budget: dict, save: str | None = None, stdin=None, out=None,
         colour: bool | None = None, seats: list[str] | None = None, level: int = 0) -> int:
    """`seats` (from parse_seats) says which seats are the bot's and which is this
    terminal's; when it names another number of seats than the game's default, the
    match asks for that many with the parameter `seats` (a game whose seat count is a
    parameter takes it; the server names the problem otherwise)."""
    from hzai_client.play_board import Style, colour_wanted

    out = out or sys.stdout
    stdin = stdin or sys.stdin
    style = Style(colour_wanted(out) if colour is None else colour)
    info = game_info(client, game)
    if seats is not None:
        if len(seats) != len(info.seats) and "seats" not in params:
            params = {**params, "seats": len(seats)}
        index = seats.index("me")
    else:
        index = seat_of(info, seat)
    session = Session(client, info, index, out=out, stdin=stdin, style=style, hint_budget=hint_budget, save=save)
    try:
        session.start(seed=seed, bot=bot, budget=budget, params=params, seats=seats, level=level)
        return session.run()
    except KeyboardInterrupt:
        out.write("\nInterrupted: you left the game.\n")
        session.save_partial()
        return 130
    finally:
        session.close()


class EmbeddedServer:
    """An hzai server in this process on a free loopback port, with its logs silenced."""

    def __init__(self, budget=None, load_games: str = ""):
        """`budget`: the default budget of a request that gives none, a Limits (a time
        budget alone: that long, iterations unbounded) or a number of iterations."""
        import logging

        try:
            from hzai_server.app import HzaiServer
            from hzai_server.config import ServerConfig
        except ImportError:
            from hzai_client.commands import CommandError

            raise CommandError("the embedded server needs the hzai_server package; give --server HOST:PORT") from None
        logger = logging.getLogger("hzai_server")
        logger.handlers[:] = [logging.NullHandler()]
        logger.propagate = False
        # The embedded game lives as long as the command: no match database on disk.
        defaults: dict = {}
        if isinstance(budget, int):
            defaults["default_iterations"] = budget
        elif budget is not None:
            defaults["default_iterations"] = budget.iterations or ServerConfig.max_iterations
            defaults["default_millis"] = budget.millis or 0
            if not budget.iterations:  # a time alone: the work cap, counted in iterations, must not refuse it
                from hzai_server.game_review import MAX_DECISIONS

                defaults["max_analysis_work"] = ServerConfig.max_iterations * MAX_DECISIONS
        config = ServerConfig(address="127.0.0.1:0", workers=4, max_searches=2, max_matches=8, data_dir=":memory:",
                              load_games=load_games, **defaults)
        try:
            self.server = HzaiServer(config)
        except OSError as exc:  # a game module that cannot be loaded
            from hzai_client.commands import CommandError

            raise CommandError(str(exc)) from None

    def __enter__(self) -> str:
        self.server.start()
        return self.server.address

    def __exit__(self, *exc) -> None:
        self.server.stop(grace=0)


def _hint_budget(text: str) -> dict:
    from hzai.search import Limits, LimitsError

    from hzai_client.commands import CommandError

    try:
        limits = Limits.parse(text, 1)
    except LimitsError as exc:
        raise CommandError(f"--hint-budget: {str(exc).removeprefix('budget ')}") from None
    return {"iterations": limits.iterations, "millis": limits.millis}


def add_play_command(sub, common=None) -> None:
    p = sub.add_parser("play", help="play against the bot in the terminal",
                       description="Play a game against the bot. Without --server the command runs a server of "
                                   "its own on a free loopback port for the game. " + INTRO)
    p.add_argument("--server", default=None, metavar="HOST:PORT",
                   help="play on the hzai-server at this address (default: one started for this game)")
    from hzai_client.commands import add_tls_options

    add_tls_options(p)
    p.add_argument("--game", default=DEFAULT_GAME,
                   help=f"the game, as the server names it (default {DEFAULT_GAME}; the server's ListGames lists them)")
    p.add_argument("--load-games", default="", metavar="MODULE,...",
                   help="without --server: modules the embedded server imports first, each registering games "
                        "(as hzai-server --load-games)")
    p.add_argument("--seat", "--as", dest="side", default="0", metavar="SEAT",
                   help="your seat, by name or index (default the first: hera in hera_zeus, p1 in legends); the bot "
                        "plays the others (--as: the same)")
    p.add_argument("--seats", default=None, metavar="WHO,WHO,...",
                   help="who plays each seat, in seat order: me (you) or bot, e.g. me,bot,bot; a game whose seat "
                        "count is a parameter gets that many seats (default: you as --seat says, the bot elsewhere)")
    from hzai_client.commands import served_bot_help

    p.add_argument("--bot", default="", help=served_bot_help("the bot you play against"))
    p.add_argument("--budget", default=None, help="the bot's budget per decision: 1000, 250ms, ... "
                                                  "(default: the server's)")
    from hzai_client.commands import add_level_option

    add_level_option(p, "every bot seat")
    p.add_argument("--threads", type=int, default=1, help="the bot's search threads (default 1)")
    p.add_argument("--hint-budget", default="1s",
                   help="budget of the search behind 'hint': a time (1s, 500ms) or iterations (2000); default 1s")
    p.add_argument("--seed", type=int, default=None,
                   help="deal from this seed (an open match, for practice and tests; default: the server's secret)")
    p.add_argument("--param", "--variant", dest="params", action="append", default=[], metavar="NAME=VALUE",
                   help="a parameter of the game, e.g. first_player=zeus or turn_limit=60 (repeatable)")
    p.add_argument("--save", default=None, metavar="FILE",
                   help="write the game record to FILE when the game ends (before the end: what you saw)")
    p.add_argument("--timeout", type=float, default=None, metavar="SECONDS", help="deadline of each call")

    from hzai_client.commands import CommandError, _budget_kwargs, _client, _command, level_of_args

    @_command
    def cmd_play(args) -> int:
        budget = _budget_kwargs(args)
        params = parse_params(args.params)
        hint_budget = _hint_budget(args.hint_budget)
        seats = parse_seats(args.seats)
        if seats is not None and args.side != "0":
            raise CommandError("--seats says which seat is yours (me): leave --seat out")
        kwargs = dict(game=args.game, seed=args.seed, bot=args.bot, budget=budget, params=params,
                      hint_budget=hint_budget, save=args.save, seats=seats, level=level_of_args(args))
        if args.server:
            if args.load_games:
                raise CommandError("--load-games is for the embedded server; the server at --server loads its own "
                                   "games (hzai-server --load-games)")
            with _client(args) as client:
                return play(client, args.side, **kwargs)
        with EmbeddedServer(load_games=args.load_games) as address:
            args.server = address
            with _client(args) as client:
                return play(client, args.side, **kwargs)

    p.set_defaults(func=cmd_play)
