"""`hzai play`: a game against the bot in the terminal, through the service.

By default the command starts a server of its own on a free loopback port and stops it
at the end (`--server HOST:PORT` plays on a running one instead). The server hosts the
match, deals, draws chance results and plays the bot; this side shows what the human's
seat may see: a compact board once a turn, every action in words (the bot's face-down
cards as `?`), and reads short commands (hzai_client.play_input). Lines come from a
terminal (with tab completion) or from standard input, so a script can play too.

Exit status: 0 when the game ends or the player leaves with `quit` or Ctrl-D, 130 after
Ctrl-C, 1 when the service fails, 2 for bad options.
"""

from __future__ import annotations

import re
import sys

from hzai_client.play_input import SESSION_WORDS, InputError, group_moves, read_command
from hzai_client.play_record import record_json, redacted_text, seat_view_json, write_json

COMMANDS = """Commands (any unambiguous prefix works: dr, ch 2, pl hyd 1 2, peg h):
  setup A B C            your three front-row cards (- leaves a column empty)
  draw                   draw a card
  play CARD cXrY         play a card face down so that it ends at row Y of column X
  challenge cX           your r1 card in column X challenges the opposite r1 card
  pegasus hand | cX      Pegasus from the hand against the hand / an r1 card
  place cX               where the card Pegasus drew goes
  pythia spy | cX        Pythia: see the hand / turn a column face up
  sirens, persephone, hades CARD, dionysus cXrY cZrW, god cX, recall, top CARD
  moves                  the legal moves, by kind       board   the board again
  hint                   the bot's three best moves for you, with win chances
  help                   this list                      quit    leave (Ctrl-C, Ctrl-D)
Board: (Name) your face-down card · Name face up · ? hidden · <HERA>/<ZEUS> a figure ·
Name@z a card held by the player who does not own it (taken by Sirens)."""
INTRO = "Type 'help' for the commands, 'moves' for the legal moves; stop with 'quit', Ctrl-C or Ctrl-D."
SAVE_SECONDS = 5.0  # a save on the way out never waits longer for the server
REASONS = {"hostage_found": "the hostage was found", "no_cards": "no card left on a side",
           "no_action": "AP left and no legal action", "pandora": "Pandora's box took a hostage",
           "turn_limit": "the turn limit was reached"}


def _variants(pairs: list[str]) -> dict:
    from hzai_client.commands import CommandError

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


def rejection(details: str, text: str) -> str:
    """The engine's reason out of an INVALID_ARGUMENT message, without the field name."""
    why = details.split(": ", 1)[1] if details.startswith("move: ") else details
    why = re.sub(r"^move \d+ '[^']*': ", "", why)
    for prefix in (f"{text}: ", f"{text.lower()}: "):
        if why.startswith(prefix):
            why = why[len(prefix):]
    return why


class Session:
    """One game as one seat plays it."""

    def __init__(self, client, seat: str, *, out, stdin, style, hint_budget: dict, save: str | None):
        self.client, self.seat, self.out, self.stdin, self.style = client, seat, out, stdin, style
        self.other = "zeus" if seat == "hera" else "hera"
        self.hint_budget, self.save = hint_budget, save
        self.match_id = ""
        self.token: str | None = None
        self.seen: list[dict] = []  # what the seat saw, for a save before the end
        self.interactive = stdin is sys.stdin and stdin.isatty()
        self.completions: list[str] = []
        self.view = None
        self.told_ending = False
        self.over = False

    # ----- output ----------------------------------------------------------------------
    def say(self, text: str = "", *styles: str) -> None:
        self.out.write(self.style(text, *styles) + "\n")
        self.out.flush()

    def who(self, player: str | None) -> str:
        return "You" if player == self.seat else (player or "chance").capitalize()

    def show_events(self, events, fallback: list[tuple[str | None, object]], first_index: int, old_view) -> None:
        """The server's narrated events; without them the moves (the other seat's hidden
        cards redacted here) and what changed on the board."""
        from hzai_client.messages import player_name

        if events:
            for event in events:
                player = player_name(event.player)
                lines = list(event.narration) or [f"{self.who(player)}: {event.move.text}"]
                for line in lines:
                    ending = line.startswith("Game over")
                    self.told_ending |= ending
                    self.say("  " + line, *(("bold",) if ending else ()))
                self.seen.append({"index": event.index, "player": player, "move": event.move.text,
                                  "narration": lines})
            return
        for offset, (player, move) in enumerate(fallback):
            text = move.text if player == self.seat or move.kind == "chance" else redacted_text(move.text)
            line = f"Pegasus draws {move.text.split()[1]}" if move.kind == "chance" else f"{self.who(player)}: {text}"
            self.say("  " + line)
            self.seen.append({"index": first_index + offset, "player": player, "move": text, "narration": [line]})
        self._show_changes(old_view)

    def _show_changes(self, old_view) -> None:
        """Cards newly face up or discarded, from the seat's views before and after."""
        from collections import Counter

        new = self.client.get_view(self.match_id, self.seat, token=self.token).view
        if old_view is None:
            return
        for side in (self.seat, self.other):
            before, after = getattr(old_view, side), getattr(new, side)
            gone = Counter(c.name for c in after.discard) - Counter(c.name for c in before.discard)
            up = (Counter(s.card.name for col in after.columns for s in col.slots if s.face_up)
                  - Counter(s.card.name for col in before.columns for s in col.slots if s.face_up))
            whose = "your" if side == self.seat else f"{side.capitalize()}'s"
            if gone:
                self.say(f"    onto {whose} discard pile: {', '.join(sorted(gone.elements()))}")
            if up:
                self.say(f"    face up on {whose} side: {', '.join(sorted(up.elements()))}")
        def hand(view) -> Counter:
            return Counter(s.card.name for s in getattr(view, self.seat).hand if s.WhichOneof("content") == "card")

        drawn = hand(new) - hand(old_view)
        if drawn:
            self.say(f"    into your hand: {', '.join(sorted(drawn.elements()))}")

    def board(self, view) -> None:
        from hzai_client.play_board import draw_board

        self.say()
        self.say(draw_board(view, self.seat, self.style))

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
    def start(self, *, seed: int | None, bot: str, budget: dict, variants: dict) -> None:
        from hzai_client.messages import seat_token

        created = self.client.create_match(seed=seed or 0, open=seed is not None, bot=bot, variants=variants,
                                           hera_bot=self.other == "hera", zeus_bot=self.other == "zeus", **budget)
        self.match_id = created.status.match_id
        try:
            self.token = seat_token(created, self.seat)
        except ValueError:
            self.token = None  # a server that hands out no seat tokens yet
        self.say(f"You play {self.seat.capitalize()}; the bot ({bot or 'ismcts'}) plays {self.other.capitalize()}.")
        self.say(INTRO)
        if self.interactive:
            self._setup_readline()

    def run(self) -> int:
        from hzai_client.messages import player_name

        drawn = None
        while True:
            reply = self.client.get_view(self.match_id, self.seat, token=self.token)
            status, self.view = reply.status, reply.view
            if status.over:
                return self.finish(status)
            to_move = player_name(status.to_move)
            if to_move != self.seat:
                first = status.moves_played
                turn = self.client.bot_play_turn(self.match_id, token=self.token)
                self.show_events(turn.events, [(self._mover(m), m) for m in turn.moves], first, self.view)
                continue
            if drawn != (status.phase, status.turn):
                self.board(self.view)
                drawn = (status.phase, status.turn)
            legal = self.client.legal_moves(self.match_id, self.seat, token=self.token)
            self.completions = sorted({m.text for m in legal} | set(SESSION_WORDS) - {"exit"})
            if not self.act(status, legal):
                return self.leave()

    def _mover(self, move) -> str | None:
        return None if move.kind == "chance" else self.other

    def act(self, status, legal) -> bool:
        """Read lines until one action is played; False when the player leaves."""
        import grpc

        from hzai.games.hera_zeus.cards import load_deck

        names = sorted({c.name for c in load_deck().cards})
        decision = self.view.pending[0].decision if len(self.view.pending) else ""
        prompt = f"{self.seat} {decision or (str(status.ap_left) + ' AP' if status.phase == 'play' else 'setup')}> "
        while True:
            line = self.read(prompt)
            if line is None:
                self.say()
                return False
            if not line.strip():
                continue
            try:
                command = read_command(line, legal, names)
            except InputError as exc:
                self.say(f"  {exc}. Type 'help' for the commands.", "yellow")
                continue
            if command.session == "quit":
                return False
            if command.session:
                self.session_command(command.session, legal)
                continue
            try:
                reply = self.client.play_move(self.match_id, self.seat, command.move, token=self.token,
                                              move_number=status.moves_played)
            except grpc.RpcError as exc:
                if exc.code() not in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION):
                    raise
                self.say(f"  Not played: {command.move}: {rejection(exc.details(), command.move)}", "red")
                continue
            moves = [(self.seat, reply.played)] + [(None, m) for m in reply.chance]
            self.show_events(reply.events, moves, status.moves_played, self.view)
            return True

    def session_command(self, word: str, legal) -> None:
        if word == "help":
            self.say(COMMANDS)
        elif word == "board":
            self.board(self.view)
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
        self.say(f"  The bot's best moves for you ({analysis.iterations} iterations; win chance, 95% interval):")
        for info in list(analysis.moves)[:3]:
            self.say(f"    {info.move.text:<26} {info.value:6.1%}  ({info.ci_low:.0%}..{info.ci_high:.0%})")

    # ----- the end -----------------------------------------------------------------------
    def finish(self, status) -> int:
        self.over = True
        self.board(self.view)
        if not self.told_ending:
            winner = status.winner
            result = ("You win!" if winner == self.seat else "The game is drawn." if winner == "draw"
                      else f"{winner.capitalize()} wins.")
            self.say(f"Game over: {REASONS.get(status.reason, status.reason.replace('_', ' '))}. {result}", "bold")
        if self.save:
            write_json(self.save, record_json(status.record))
            self.say(f"Saved the game record to {self.save} (hzai replay / hzai analyze-game read it).")
        return 0

    def leave(self) -> int:
        self.say("You left the game; it is not finished.")
        self.save_partial()
        return 0

    def save_partial(self) -> None:
        if not self.save or self.over or not self.match_id:
            return
        seen = self.seen
        try:
            from hzai_client.messages import player_name

            history = self.client.get_view(self.match_id, self.seat, token=self.token, with_history=True,
                                           timeout=SAVE_SECONDS).history
            if history:
                seen = [{"index": h.index, "player": player_name(h.player), "move": h.move.text,
                         "narration": list(h.narration)} for h in history]
        except Exception:  # the log kept here is the fallback
            pass
        write_json(self.save, seat_view_json(self.seat, self.match_id, seen))
        self.say(f"Saved what you saw so far to {self.save}: a seat's view (hzai-seat-view/1), not a game record; "
                 "the bot's hidden cards are '?'.")

    def close(self) -> None:
        import grpc

        if self.match_id:
            try:
                self.client.delete_match(self.match_id, token=self.token, timeout=SAVE_SECONDS)
            except grpc.RpcError:
                pass


def play(client, seat: str, *, seed: int | None, bot: str, budget: dict, variants: dict, hint_budget: dict,
         save: str | None = None, stdin=None, out=None, colour: bool | None = None) -> int:
    from hzai_client.play_board import Style, colour_wanted

    out = out or sys.stdout
    stdin = stdin or sys.stdin
    style = Style(colour_wanted(out) if colour is None else colour)
    session = Session(client, seat, out=out, stdin=stdin, style=style, hint_budget=hint_budget, save=save)
    try:
        session.start(seed=seed, bot=bot, budget=budget, variants=variants)
        return session.run()
    except KeyboardInterrupt:
        out.write("\nInterrupted: you left the game.\n")
        session.save_partial()
        return 130
    finally:
        session.close()


class EmbeddedServer:
    """An hzai server in this process on a free loopback port, with its logs silenced."""

    def __init__(self, iterations: int | None = None):
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
        config = ServerConfig(address="127.0.0.1:0", workers=4, max_searches=2, max_matches=8, data_dir=":memory:",
                              **({"default_iterations": iterations} if iterations else {}))
        self.server = HzaiServer(config)

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
        raise CommandError(f"--hint-budget: {exc}") from None
    return {"iterations": limits.iterations, "millis": limits.millis}


def add_play_command(sub, common=None) -> None:
    p = sub.add_parser("play", help="play against the bot in the terminal",
                       description="Play a game against the bot. Without --server the command runs a server of "
                                   "its own on a free loopback port for the game. " + INTRO)
    p.add_argument("--server", default=None, metavar="HOST:PORT",
                   help="play on the hzai-server at this address (default: one started for this game)")
    p.add_argument("--as", dest="side", choices=["hera", "zeus"], default="hera", help="your side (default hera)")
    p.add_argument("--bot", default="", help="ismcts (default), pimc, heuristic, random")
    p.add_argument("--budget", default=None, help="the bot's budget per decision: 1000, 250ms, ... "
                                                  "(default: the server's)")
    p.add_argument("--threads", type=int, default=1, help="the bot's search threads (default 1)")
    p.add_argument("--hint-budget", default="2000", help="budget of the search behind 'hint' (default 2000)")
    p.add_argument("--seed", type=int, default=None,
                   help="deal from this seed (an open match, for practice and tests; default: the server's secret)")
    p.add_argument("--variant", action="append", default=[], metavar="NAME=VALUE", help="a rules variant (repeatable)")
    p.add_argument("--save", default=None, metavar="FILE",
                   help="write the game record to FILE when the game ends (before the end: what you saw)")
    p.add_argument("--timeout", type=float, default=None, metavar="SECONDS", help="deadline of each call")

    from hzai_client.commands import _budget_kwargs, _client, _command

    @_command
    def cmd_play(args) -> int:
        budget = _budget_kwargs(args)
        variants = _variants(args.variant)
        hint_budget = _hint_budget(args.hint_budget)
        kwargs = dict(seed=args.seed, bot=args.bot, budget=budget, variants=variants, hint_budget=hint_budget,
                      save=args.save)
        if args.server:
            with _client(args) as client:
                return play(client, args.side, **kwargs)
        with EmbeddedServer() as address:
            args.server = address
            with _client(args) as client:
                return play(client, args.side, **kwargs)

    p.set_defaults(func=cmd_play)
