"""`hzai show` for Legends: the position drawn as text, from the referee's state JSON or
from one seat's view JSON (hidden cards as `?`, other hands as sizes)."""

from __future__ import annotations

from hzai.text import plural


def render(state, seat: int | None = None) -> str:
    """The referee's picture (seat None) or what `seat` sees."""
    data = state.to_json() if seat is None else state.view(seat).to_json()
    game = state.game
    lines = []
    who = "referee" if seat is None else f"as you, {game.seats[seat]}, see it"
    mover = data["to_move"] or "chance"
    if seat is not None and mover == game.seats[seat]:
        mover = f"you ({mover})"  # the seat is spoken to, as the narration speaks to it
    status = f"{data['result']} ({data['reason']})" if data["result"] else f"{mover} to decide ({data['pending']})"
    lines.append(f"Legends of Hellas, mission {game.mission.id} {game.mission.name} ({game.difficulty}), "
                 f"turn {data['turn']}: {status} [{who}]")
    lines.append("Monsters:")
    for m in data["monsters"]:
        discs = [s for s, e in data["seats"].items() if e["disc"] == m["id"]]
        played = " ".join(_card(p) for p in m["played"]) or "-"
        tag = "final " if m["final"] else ""
        state_word = "vanquished" if m["status"] == "defeated" else f"{len(m['played'])}/{m['size']}"
        lines.append(f"  {m['id']} {tag}{' + '.join(m['cards'])} needs {' '.join(m['requires'])} "
                     f"[{state_word}]: {played}" + (f"   discs: {' '.join(discs)}" if discs else ""))
    deck = data["monster_deck"]
    lines.append(f"Monster deck: {plural(deck if isinstance(deck, int) else len(deck), 'card')} left")
    lines.append("Seats:")
    for s, e in data["seats"].items():
        hand = e["hand"]
        if isinstance(hand, int):
            known = e.get("known_in_hand") or []
            hand_text = plural(hand, "card") + (f" (known: {' '.join(known)})" if known else "")
        else:
            hand_text = " ".join(hand) or "(empty)"
        where = f"on {e['disc']}" if e["disc"] else "disc not placed"
        lines.append(f"  {s} {e['hero']} ({game.data.attributes[game.hero_attr[int(s[1:]) - 1]]}), "
                     f"{'broken' if e['broken'] else 'bright'}, {where}{' (stranded)' if e['stranded'] else ''}: {hand_text}")
    pile = data["draw_pile"]
    size = data.get("draw_pile_size", len(pile))
    lines.append(f"Draw pile: {plural(size, 'card')}{_pile_top(pile)}")
    discards = data["discard_pile"]
    lines.append(f"Discard pile: {plural(len(discards), 'card')}" + (f", top {discards[-1]['card']} by {discards[-1]['by']}" if discards else ""))
    aside = data["set_aside_di"]
    lines.append(f"Set aside: {plural(aside if isinstance(aside, int) else len(aside), 'DI card')}")
    if data.get("oracle_revealed"):
        lines.append(f"Oracle shows (top first): {' '.join(data['oracle_revealed'])}")
    return "\n".join(lines)


def _pile_top(pile) -> str:
    """The draw pile from the top: the referee's names every card (the first six shown);
    a seat's view names the cards it knows (the Oracle's) and counts the runs it does not."""
    if not pile:
        return ""
    if not isinstance(pile, list) or not any(isinstance(x, str) for x in pile):
        return ", none of them known"
    shown, left = [], 6
    for x in pile:
        if left == 0:
            break
        shown.append(x if isinstance(x, str) else f"{plural(x, 'unknown card')}")
        left -= 1
    more = len(pile) > len(shown)
    return f", from the top: {', '.join(shown)}{', …' if more else ''}"


def _card(p: dict) -> str:
    if p["face"] == "sideways":
        return f"di-slay({p['by']})"
    shown = p["card"] if p["card"] == p["as"] else f"{p['card']}={p['as']}"
    return f"{shown}{'*' if p['face'] == 'down' else ''}({p['by']})"
