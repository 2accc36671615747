"""What a line typed at `hzai play` means: a session command or a move, for any game.

The server sends the legal moves as text; a line is read against those texts alone, so
a new game needs nothing here. Every word may be cut to a prefix (`dr` for draw, `pl hyd`
for play Hydra ...), and the numbers of a line are compared with the numbers of a move's
text in order, whatever letters stand around them (`ch 2` is challenge c2, `pl hyd 1 2`
or `pl hyd 12` play Hydra c1r2). A number alone plays the move of that number in the
`moves` listing, unless a legal move is written so. A line that means one legal move plays it; a line that fits no legal
move is sent as typed, so that the server, the referee, says why it is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SESSION_WORDS = ("moves", "board", "hint", "help", "quit", "exit")
# A group of the listing longer than this is summed up in a line.
LISTED = 16
WIDTH = 100  # the listing's lines wrap before this many characters
SUMMED = 8  # a summed-up group names this many second words, then how many more
_NUMBERED = re.compile(r"[a-z]?\d+(?:[a-z]\d+)*")  # c2, c1r2, 1r2, 12: a word that stands for numbers


class InputError(ValueError):
    """The line cannot be read; the message says what to type instead."""


@dataclass
class Command:
    session: str | None = None  # a session word, or None for a move
    move: str | None = None     # the text to send
    legal: bool = False         # the move is in the legal list


def _shape(words: list[str]) -> tuple[list[str], str]:
    """The words that are not numbers (lower case), and the digits of those that are."""
    names, digits = [], ""
    for word in words:
        lower = word.lower()
        if _NUMBERED.fullmatch(lower):
            digits += re.sub(r"\D", "", lower)
        else:
            names.append(lower)
    return names, digits


def _prefix(typed: str, word: str) -> bool:
    """`typed` cuts `word` short, part by part around an `@` (hyd@z for Hydra@zeus)."""
    typed_parts, parts = typed.split("@"), word.split("@")
    return len(typed_parts) <= len(parts) and all(p.startswith(t) for t, p in zip(typed_parts, parts))


def matches(line: str, text: str) -> bool:
    """Whether a typed line can mean the move written `text`."""
    names, digits = _shape(line.split())
    move_names, move_digits = _shape(text.split())
    return (len(names) <= len(move_names) and all(_prefix(t, w) for t, w in zip(names, move_names))
            and move_digits.startswith(digits) and bool(names or digits))


def listing_order(legal) -> list[str]:
    """The legal moves' texts in the order `moves` numbers them: grouped by first word."""
    texts = [m.text for m in legal]
    firsts = list(dict.fromkeys(t.split()[0] for t in texts if t.split()))
    return [t for first in firsts for t in texts if t.split()[:1] == [first]]


def _session(word: str) -> list[str]:
    return [w for w in SESSION_WORDS if w.startswith(word.lower())]


def read_command(line: str, legal) -> Command:
    """What `line` means, given the legal moves (messages with a `text`) of the position."""
    words = line.split()
    if not words:
        raise InputError("empty line")
    if words == ["?"]:
        return Command(session="help")
    ordered = listing_order(legal)
    exact = {t.lower(): t for t in ordered}
    if " ".join(words).lower() in exact:  # a move as written; before numbers, for games whose moves are numbers
        return Command(move=exact[" ".join(words).lower()], legal=True)
    if len(words) == 1 and words[0].isdigit():
        number = int(words[0])
        if not 1 <= number <= len(ordered):
            raise InputError(f"no move {number}: 'moves' numbers them 1 to {len(ordered)}" if ordered
                             else f"no move {number}: you have no move to make")
        return Command(move=ordered[number - 1], legal=True)
    fitting = [t for t in ordered if matches(line, t)]
    word = words[0].lower()
    if word in SESSION_WORDS:
        return Command(session="quit" if word == "exit" else word)
    session = _session(word) if len(words) == 1 else []
    if session:
        if len(session) == 1 and not fitting:
            return Command(session="quit" if session[0] == "exit" else session[0])
        options = session + fitting[:4]
        raise InputError(f"{words[0]!r} could be {', '.join(options[:-1])} or {options[-1]}: type more letters")
    if len(fitting) == 1:
        return Command(move=fitting[0], legal=True)
    closest = _closest(line, fitting)
    if closest is not None:
        return Command(move=closest, legal=True)
    if fitting:
        shown = ", ".join(fitting[:6]) + (f", ... ({len(fitting)} moves)" if len(fitting) > 6 else "")
        raise InputError(f"which one? {shown}")
    return Command(move=_filled(line, ordered) or " ".join(words))


def _closest(line: str, fitting: list[str]) -> str | None:
    """Of several moves a line fits, the one it writes out most exactly: as many words and
    numbers as the line, and more of its words in full than any other (`sup p2 courage`
    is support p2 courage, not support p2 courage,speed). None when no one stands out."""
    names, digits = _shape(line.split())
    scored = []
    for text in fitting:
        move_names, move_digits = _shape(text.split())
        if len(move_names) == len(names) and move_digits == digits:
            scored.append((sum(t == w for t, w in zip(names, move_names)), text))
    if not scored:
        return None
    best = max(score for score, _ in scored)
    top = [text for score, text in scored if score == best]
    return top[0] if len(top) == 1 else None


def _filled(line: str, ordered: list[str]) -> str | None:
    """The line's numbers written into the one pattern of the legal moves its words fit
    (`ch 1` with challenge c2 legal is challenge c1), so that the server can say why
    that move is refused; None when there is no single such pattern."""
    names, digits = _shape(line.split())
    if not names or not digits:
        return None
    patterns = set()
    for text in ordered:
        move_names = _shape(text.split())[0]
        if len(names) <= len(move_names) and all(_prefix(n, w) for n, w in zip(names, move_names)):
            patterns.add(re.sub(r"\d", "#", text))
    if len(patterns) != 1:
        return None
    pattern = patterns.pop()
    if pattern.count("#") != len(digits):
        return None
    for digit in digits:
        pattern = pattern.replace("#", digit, 1)
    return pattern


def _numbers(numbers: list[int]) -> str:
    """[4] or [4-7] for consecutive numbers, else each one."""
    if len(numbers) > 1 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"[{numbers[0]}-{numbers[-1]}]"
    return " ".join(f"[{n}]" for n in numbers)


def _span(numbers: list[int]) -> str:
    """[4-7] for consecutive numbers, else how many they are."""
    if len(numbers) == 1:
        return f"[{numbers[0]}]"
    if numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"[{numbers[0]}-{numbers[-1]}]"
    return f"({len(numbers)} moves)"


def _wrapped(lead: str, items: list[str], indent: int) -> list[str]:
    """`items` joined by " · " after `lead`, wrapped before WIDTH, later lines indented."""
    lines, line = [], lead
    for k, item in enumerate(items):
        piece = item if k == 0 else " · " + item
        if k and len(line) + len(piece) > WIDTH:
            lines.append(line + " ·")
            line = " " * indent + item
        else:
            line += piece
    lines.append(line)
    return lines


def _by_second_word(entries: list[tuple[int, str]]) -> list[tuple[str, list[tuple[int, str]]]]:
    groups: dict[str, list[tuple[int, str]]] = {}
    for number, rest in entries:
        second, _, tail = rest.partition(" ")
        groups.setdefault(second, []).append((number, tail))
    return list(groups.items())


def group_moves(legal) -> list[str]:
    """The legal moves, one line per first word, each with the number to type it by
    (wrapped when long). A long group gets a line per second word (`Hydra: c1r1 [2] ·
    c1r2 [3]`); one still too long is summed up: its second words, each with the range of
    its numbers, and an example."""
    ordered = listing_order(legal)
    groups: dict[str, list[tuple[int, str]]] = {}
    for number, text in enumerate(ordered, 1):
        first, _, rest = text.partition(" ")
        groups.setdefault(first, []).append((number, rest))
    lines = []
    for first, entries in groups.items():
        if len(entries) == 1 and not entries[0][1]:
            lines.append(f"  {first:<11} [{entries[0][0]}]")
            continue
        if len(entries) <= LISTED:
            lines += _wrapped(f"  {first:<11} ", [f"{rest} [{n}]" for n, rest in entries], 14)
            continue
        subgroups = _by_second_word(entries)
        if len(subgroups) <= LISTED and all(len(tails) <= LISTED for _, tails in subgroups):
            for k, (second, tails) in enumerate(subgroups):
                lead = f"  {first:<11} " if k == 0 else " " * 14
                lines += _wrapped(f"{lead}{second}: ", [f"{tail or '(alone)'} [{n}]" for n, tail in tails],
                                  16 + len(second))
            continue
        seconds = [f"{second} … {_span([n for n, _ in tails])}" if any(t for _, t in tails)
                   else f"{second} {_span([n for n, _ in tails])}" for second, tails in subgroups[:SUMMED]]
        if len(subgroups) > SUMMED:
            seconds.append(f"{len(subgroups) - SUMMED} more")
        lines += _wrapped(f"  {first:<11} {len(entries)} moves: ", seconds, 14)
        lines.append(" " * 14 + f"e.g. {first} {entries[0][1]}")
        lines.append(" " * 14 + f"type '{first}' alone to build one piece by piece")
    return lines


# ----- a move built a piece at a time ----------------------------------------------------
# A setup is a card for each column, an Oracle's return a discard and then an order, a
# Support a list of cards: too many moves to list. Typed as its first word alone, such a
# move is built one piece at a time from numbered choices. The pieces are the words of
# the legal moves' texts, each card of a comma-separated list a piece of its own.

Piece = tuple[str, str]  # the piece and what follows it: " ", "," or "" at the end


def pieces(text: str) -> list[Piece]:
    """`discard arms order speed,guile` -> discard, arms, order, speed, guile with their separators."""
    out: list[Piece] = []
    words = text.split(" ")
    for w, word in enumerate(words):
        parts = word.split(",")
        for k, part in enumerate(parts):
            out.append((part, "," if k < len(parts) - 1 else " " if w < len(words) - 1 else ""))
    return out


def spell(chosen: list[Piece]) -> str:
    return "".join(piece + sep for piece, sep in chosen).strip()


def next_pieces(texts: list[str], chosen: list[Piece]) -> tuple[list[Piece], str | None]:
    """The pieces some legal move has after `chosen` (in the moves' order), and the move
    `chosen` spells whole (None if none)."""
    choices: list[Piece] = []
    complete = None
    for text in texts:
        split = pieces(text)
        if split[:len(chosen)] != chosen:
            continue
        if len(split) == len(chosen):
            complete = text
        elif split[len(chosen)] not in choices:
            choices.append(split[len(chosen)])
    return choices, complete


def builds(line: str, texts: list[str]) -> list[Piece] | None:
    """The start of a build when `line` is the first word alone of two or more legal
    moves (`setup`, `support`, `discard`), else None."""
    word = line.strip().lower()
    if not word or " " in word:
        return None
    starts = [t for t in texts if t.split(" ")[0].lower() == word]
    if len(starts) < 2 or word in (t.lower() for t in texts):
        return None
    return [pieces(starts[0])[0]]
