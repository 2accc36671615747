"""What a line typed at `hzai play` means: a session command or a move.

Words may be cut to any prefix that is unambiguous (`dr` draw, `ch 2` challenge c2,
`pl hyd 1 2` play Hydra c1r2, `peg h` pegasus hand, `dio 1 2 3 1` dionysus c1r2 c3r1);
a prefix shared by several words is settled by the moves legal now, and the same typing
always means the same move kind while it is legal. Slots are `c1r2`, `1r2`, `1 2` or
`12`. A line that means exactly one legal move plays it; one that is complete but not
legal is still sent, so that the server says why it is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MOVE_WORDS = ("setup", "draw", "play", "challenge", "pegasus", "place", "pythia", "sirens", "hades",
              "persephone", "dionysus", "god", "recall", "top")
SESSION_WORDS = ("moves", "board", "hint", "help", "quit", "exit")
# How many numbers each kind takes (columns and rows), after its card if it has one.
NUMBERS = {"play": 2, "challenge": 1, "pegasus": 1, "place": 1, "pythia": 1, "dionysus": 4, "god": 1}
CARD_KINDS = ("play", "hades", "top")
SPECIAL = {"pegasus": "hand", "pythia": "spy"}  # `pegasus hand`, `pythia spy`


class InputError(ValueError):
    """The line cannot be read; the message says what to type instead."""


@dataclass
class Command:
    session: str | None = None  # a session word, or None for a move
    move: str | None = None     # the notation to send
    legal: bool = False         # the move is in the legal list


def _pick(prefix: str, words, available=None, what: str = "command") -> str:
    prefix = prefix.lower()
    if prefix in words:
        return prefix
    found = [w for w in words if w.startswith(prefix)]
    if len(found) > 1 and available is not None:
        narrowed = [w for w in found if w in available]
        found = narrowed or found
    if len(found) == 1:
        return found[0]
    if not found:
        raise InputError(f"unknown {what} {prefix!r}")
    raise InputError(f"{prefix!r} could be {', '.join(found[:-1])} or {found[-1]}: type more letters")


def _kind_of(move) -> str:
    return move.kind.split()[0]


def _card_text(move) -> str:
    return move.text.split()[1] if move.kind in CARD_KINDS or move.kind == "chance" else ""


def _card(word: str, names: list[str], preferred: list[str]) -> str:
    """A card name from a prefix, with an optional @owner; cards of the legal moves first."""
    base, at, owner = word.partition("@")
    for pool in (preferred, names):
        exact = [n for n in pool if n.lower() == base.lower()]
        found = exact or [n for n in pool if n.lower().startswith(base.lower())]
        found = sorted(set(found))
        if len(found) == 1:
            break
        if len(found) > 1:
            raise InputError(f"{base!r} could be {', '.join(found)}: type more letters")
    else:
        raise InputError(f"unknown card {base!r}")
    if at:
        owner = _pick(owner, ("hera", "zeus"), what="owner")
        return f"{found[0]}@{owner}"
    return found[0]


def _numbers(words: list[str]) -> list[int]:
    text = "".join(words).lower()
    if not re.fullmatch(r"[cr1-4]*", text):
        raise InputError(f"expected columns and rows like c1r2 or 1 2, not {' '.join(words)!r}")
    return [int(d) for d in re.findall(r"[1-4]", text)]


def _notation(kind: str, card: str | None, numbers: list[int]) -> str:
    if kind == "play":
        return f"play {card} c{numbers[0]}r{numbers[1]}"
    if kind == "dionysus":
        return f"dionysus c{numbers[0]}r{numbers[1]} c{numbers[2]}r{numbers[3]}"
    if kind in CARD_KINDS:
        return f"{kind} {card}"
    if kind in NUMBERS:
        return f"{kind} c{numbers[0]}"
    return kind


def _digits(move) -> list[int]:
    return [int(d) for d in re.findall(r"[cr]([1-4])", " ".join(move.text.split()[1:]))]


def read_command(line: str, legal, card_names: list[str]) -> Command:
    """What `line` means, given the legal moves (hzai.v1.Move) of the position."""
    words = line.split()
    if not words:
        raise InputError("empty line")
    if words[0] == "?":
        return Command(session="help")
    available = {_kind_of(m) for m in legal} | set(SESSION_WORDS)
    head = _pick(words[0], MOVE_WORDS + SESSION_WORDS, available)
    if head in SESSION_WORDS:
        return Command(session="quit" if head == "exit" else head)
    args = words[1:]
    same = [m for m in legal if _kind_of(m) == head]
    exact = {m.text.lower(): m.text for m in legal}
    if head == "setup":
        if len(args) != 3:
            raise InputError("setup takes three cards (or - for an empty column): setup Hydra Cyclops Satyr")
        preferred = sorted({w for m in same for w in m.text.split()[1:] if w != "-"})
        text = "setup " + " ".join("-" if a == "-" else _card(a, card_names, preferred) for a in args)
        return Command(move=exact.get(text.lower(), text), legal=text.lower() in exact)
    kind = head
    if head in SPECIAL:
        if args and SPECIAL[head].startswith(args[0].lower()) and not re.search(r"\d", args[0]):
            kind, args = f"{head} {SPECIAL[head]}", args[1:]
            if args:
                raise InputError(f"{kind} takes nothing more")
            return Command(move=kind, legal=kind in exact)
        same = [m for m in same if m.kind == head]
    card = None
    if head in CARD_KINDS:
        if not args:
            raise InputError(f"{head} needs a card: {head} CARD" + (" cXrY" if head == "play" else ""))
        card = _card(args[0], card_names, sorted({_card_text(m).split("@")[0] for m in same}))
        args = args[1:]
        same = [m for m in same if _card_text(m).lower() == card.lower()
                or ("@" not in card and _card_text(m).split("@")[0].lower() == card.lower())]
    numbers = _numbers(args) if args else []
    want = NUMBERS.get(head, 0)
    if len(numbers) > want:
        raise InputError(f"{head} takes {want} number{'s' if want != 1 else ''} (columns and rows), not {len(numbers)}")
    matching = [m for m in same if _digits(m)[:len(numbers)] == numbers] if head in NUMBERS else same
    if len(matching) == 1:
        return Command(move=matching[0].text, legal=True)
    if len(numbers) == want and (card is not None or head not in CARD_KINDS):
        text = _notation(head, card, numbers)
        return Command(move=exact.get(text.lower(), text), legal=text.lower() in exact)
    if matching:
        shown = ", ".join(m.text for m in matching[:6]) + (", ..." if len(matching) > 6 else "")
        raise InputError(f"which one? {shown}")
    usage = {"play": "play CARD cXrY", "dionysus": "dionysus cXrY cZrW"}.get(head, f"{head} cX")
    raise InputError(f"no legal {head} like that; write it in full: {usage}")


def group_moves(legal) -> list[str]:
    """The legal moves, one line per kind, in a fixed order of kinds."""
    by_kind: dict[str, list] = {}
    for move in legal:
        by_kind.setdefault(move.kind, []).append(move)
    order = ["setup", "draw", "play", "challenge", "pegasus hand", "pegasus", "place", "pythia spy", "pythia",
             "sirens", "hades", "persephone", "dionysus", "god", "recall", "top"]
    lines = []
    for kind in order + sorted(set(by_kind) - set(order)):
        moves = by_kind.get(kind)
        if not moves:
            continue
        if kind == "setup":
            cards = sorted({w for m in moves for w in m.text.split()[1:] if w != "-"})
            lines.append(f"  setup       choose 3 of {', '.join(cards)} (e.g. {moves[0].text})")
        elif kind == "play":
            per_card: dict[str, list[str]] = {}
            for m in moves:
                _, card, slot = m.text.split()
                per_card.setdefault(card, []).append(slot)
            lines.append("  play        " + " · ".join(f"{c}: {' '.join(s)}" for c, s in per_card.items()))
        elif kind in ("draw", "pegasus hand", "pythia spy", "sirens", "persephone", "recall"):
            lines.append(f"  {kind}")
        else:
            rest = [" ".join(m.text.split()[1:]) for m in moves]
            lines.append(f"  {kind:<11} {' '.join(rest)}")
    return lines
