"""How much these rule tests notice: each mutant breaks one rule in a scratch copy of
the tree (never in the checkout), and the rule tests must then fail.

    python -m tests.legends.rules.mutants            # every mutant (a few minutes)
    python -m tests.legends.rules.mutants M3 V1      # some of them

A line per mutant: KILLED with the first failing test, SURVIVED, or STALE when the
engine's code has moved and the mutant no longer applies. Known survivors that change
nothing observable: M28 (one seat has no other seat to support anyway), V6 and V7 each
alone (together, V8, they leak the monster deck's order), D2 (another check
of the loader refuses the same file). Not collected by pytest: a tool, not a test.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
R = "hzai/games/legends/rules.py"
K = "hzai/games/legends/knowledge.py"
V = "hzai/games/legends/view.py"
D = "hzai/games/legends/data.py"

MUTANTS = [
 ("M1 c+1+d<N", R, "len(m.played) + 1 + m.deficit() <= m.size", "len(m.played) + 1 + m.deficit() < m.size"),
 ("M2 no covered check", R, "return m.cnt[attr] < m.req[attr] or len(m.played) + 1 + m.deficit() <= m.size", "return True"),
 ("M3 slay always", R, "if on.deficit() == 0:  # L-DI-2", "if True:"),
 ("M4 ability when broken", R, "if not t.broken[seat] and playable(on, hero):", "if playable(on, hero):"),
 ("M5 ability anywhere", R, "if not t.broken[seat] and playable(on, hero):", "if not t.broken[seat]:"),
 ("M6 recover 0 from empty", R, "if h + k >= 1]", "]"),
 ("M7 recover to 4", R, "min(RECOVER_TO - h, P)", "min(RECOVER_TO - 1 - h, P)"),
 ("M8 support discard may be 0", R, "need = max(1, len(hand) - HAND)", "need = max(0, len(hand) - HAND)"),
 ("M9 oracle 5", R, "m = min(ORACLE_LOOK, len(t.draw))", "m = min(5, len(t.draw))"),
 ("M10 support turn to receiver's neighbour", R, "    for name in move.cards:\n        _to_discard(t, seat, _take(g, t, seat, name))\n    _end_turn(g, t)", "    for name in move.cards:\n        _to_discard(t, seat, _take(g, t, seat, name))\n    t.turn_seat = seat\n    _end_turn(g, t)"),
 ("M11 free also paid", R, "        if free:\n            out.append(MoveTo(m.id, None))\n        else:", "        if free:\n            out.append(MoveTo(m.id, None))\n        if True:"),
 ("M12 di use on final counts", R, "di_use = typ in (FightWild, FightSlay) and not m.final", "di_use = typ in (FightWild, FightSlay)"),
 ("M13 forced recover never lost", R, "        if not t.hands[seat] and not t.draw:\n            _lose(t, \"forced_recover\")", "        if False:\n            _lose(t, \"forced_recover\")"),
 ("M14 m10 enter after slay", R, "t.normals_entered < 6 and not slay:", "t.normals_entered < 6:"),
 ("M15 no exhausted loss", R, "    if not t.hands[seat] and not t.draw:\n        _lose(t, \"exhausted\")", "    if False:\n        _lose(t, \"exhausted\")"),
 ("M16 m6 order reversed", R, "t.draw[:0] = block[::-1]", "t.draw[:0] = block"),
 ("M17 first final wins", R, "if t.finals_defeated == g.mission.finals:", "if t.finals_defeated >= 1:"),
 ("M18 chimera cards reversed", R, "cards = tuple(t.monster_deck[:take])", "cards = tuple(t.monster_deck[:take][::-1])"),
 ("M19 turn limit off by one", R, "if t.turn >= g.turn_limit:", "if t.turn > g.turn_limit:"),
 ("M21 stranded can fight", R, "if on is not None and not on.defeated and hand:", "if on is not None and hand:"),
 ("M22 requirement a set", R, "            req[a] += 1", "            req[a] = 1"),
 ("M23 support to self", R, "            if other != seat:", "            if True:"),
 ("M24 forced recover after triggers", R, "    if di_use and special == \"di_recover\":  # (4) L-MISSION-4", "    if di_use and special == \"di_recover\" and defeat:\n        _triggers(g, t, defeat, slay); t.after_fight = (0, slay)\n    if di_use and special == \"di_recover\":  # (4) L-MISSION-4"),
 ("M25 m7 takes from bottom", R, "taken = [t.discard.pop()[0] for _ in range(n)]", "taken = [t.discard.pop(0)[0] for _ in range(n)]"),
 ("M26 wild any attribute", R, "out.extend(FightWild(names[a]) for a in range(di) if playable(on, a))", "out.extend(FightWild(names[a]) for a in range(di))"),
 ("M27 oracle on empty", R, "    if t.draw:  # L-ORACLE-1", "    if True:  # L-ORACLE-1"),
 ("M28 solo support", R, "if g.n > 1 and hand:", "if hand:"),
 ("M29 no win check", R, "            if t.finals_defeated == g.mission.finals:  # (3) L-END-1", "            if False:"),
 ("M30 count defeat at N-1", R, "if slay or len(m.played) == m.size:", "if slay or len(m.played) >= m.size - 1:"),
]

MUTANTS += [
 ("V1 move discard shown", K, "    if typ is MoveTo and move.card is not None:\n        return MoveTo(move.monster, HIDDEN)", "    if False:\n        return MoveTo(move.monster, HIDDEN)"),
 ("V2 ability shown", K, "    if typ is FightAbility:\n        return FightAbility(HIDDEN)", "    if False:\n        return FightAbility(HIDDEN)"),
 ("V3 support shown", K, "    if typ is Support and move.seat != o:", "    if False:"),
 ("V4 discards shown", K, "    if typ is Discard and pending in (\"recover_discard\", \"support_discard\"):", "    if False:"),
 ("V5 chance shown", K, "    if seat is None:  # a chance order: nobody knows it (L-INFO-2)\n        return ChanceOrder((HIDDEN,) * len(move.cards))", "    if seat is None:\n        return move"),
 ("V6 monster deck order", V, "\"monster_deck_holds\": sorted(game.data.monsters[c][0] for c in self.monster_deck_left),", "\"monster_deck_holds\": [game.data.monsters[c][0] for c in self.monster_deck_left],"),
 ("V7 monster deck order kept", V, "v.monster_deck_left = sorted(t.monster_deck)", "v.monster_deck_left = list(t.monster_deck)"),
 ("D1 no di supply check", D, "        for n in row:\n            _need(", "        for n in row:\n            (lambda *a: None)("),
 ("D2 no repeat check", D, "    _need(len(set(attrs)) == len(attrs), \"an attribute name repeats\")", "    pass"),
 ("D3 no never-fires check", D, "        _need(before >= k,", "        (lambda *a: None)(before >= k,"),
 ("D4 no card count check", D, "    _need(cards <= monster_cards,", "    (lambda *a: None)(cards <= monster_cards,"),
]
MUTANTS += [
 ("V8 monster deck order leaked", V,
  ("v.monster_deck_left = sorted(t.monster_deck)",
   "\"monster_deck_holds\": sorted(game.data.monsters[c][0] for c in self.monster_deck_left),"),
  ("v.monster_deck_left = list(t.monster_deck)",
   "\"monster_deck_holds\": [game.data.monsters[c][0] for c in self.monster_deck_left],")),
 ("K1 face-down leave keeps knowledge", K, "        if k is None:\n            self.hand[seat].clear()\n        elif", "        if k is None:\n            pass\n        elif"),
 ("K2 oracle order not tracked", K, "            self.draw.extend(reversed(order))\n            self.oracle = []", "            self.draw.extend([None] * len(order))\n            self.oracle = []"),
]


def run(name: str, path: str, old: str, new: str, scratch: Path) -> str:
    tree = scratch / "tree"
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(REPO, tree, ignore=shutil.ignore_patterns(".git", "__pycache__", "node_modules", ".pytest_cache"))
    target = tree / path
    text = target.read_text(encoding="utf-8")
    for o, n in zip(*((old, new) if isinstance(old, tuple) else ((old,), (new,)))):  # one edit, or several
        if text.count(o) != 1:
            return "STALE"
        text = text.replace(o, n)
    target.write_text(text, encoding="utf-8")
    paths = [tree, tree / "proto" / "python", tree / "server", tree / "clients" / "python"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(map(str, paths)))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-n", "0", "-p", "no:cacheprovider", "tests/legends/rules"],
                          cwd=tree, env=env, capture_output=True, text=True, check=False)
    failed = [line for line in done.stdout.splitlines() if line.startswith("FAILED")]
    return f"KILLED {failed[0][7:] if failed else '(error)'}" if done.returncode else "SURVIVED"


def main(only: list[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="legends-mutants-") as tmp:
        for name, path, old, new in MUTANTS:
            if not only or name.split()[0] in only:
                print(f"{name}: {run(name, path, old, new, Path(tmp))}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
