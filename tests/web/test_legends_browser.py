"""Legends of Hellas on the page, in real headless Chromium against a real server: a whole
mission with the page's hero (p1) and a bot teammate (p2), played to its end by clicks on
the board and the move list, keyboard and phone width.

Every answer the page gets and a snapshot of the page after every move are recorded; at
the end the referee's states are rebuilt from the server's final record and checked: the
views are exactly p1's, the teammate's hand is shown as a count equal to the referee's
(never as cards), and a card the teammate played face down that p1 does not know is a `?`
in the page.
"""

from __future__ import annotations

import json
import re

import pytest

from hzai.core.registry import make_game
from hzai.games.legends.state import state_to_json

from tests.web.test_browser import CONTRAST, SETTLED, wait_settled

HUMAN = 0
TURN_LIMIT = 6  # a mission cut short by the turn limit: it ends fast, with every kind of decision
MAX_ACTIONS = 120

SNAPSHOT = """() => {
  const mate = document.querySelector('.lg-seat[data-seat=p2]');
  return {n: Number(document.body.dataset.movesPlayed), over: document.body.dataset.phase === 'over',
          mate: mate ? mate.innerText : null,
          mateSize: mate ? Number(mate.querySelector('.lg-count').dataset.handSize) : null,
          hand: [...document.querySelectorAll('.lg-seat.mine .handcard')].map((n) => n.textContent),
          played: [...document.querySelectorAll('.lg-monster')].map((m) => [m.dataset.monster,
              [...m.querySelectorAll('.lg-played')].map((n) => [n.textContent, n.getAttribute('aria-label')])])};
}"""


def referee_states(record_json: str):
    record = make_game("legends").records.read(json.loads(record_json))
    game = record.game
    states = [game.records.start_of(record)]
    for index, text in enumerate(record.moves):
        after = states[-1].clone()
        game.records.play(after, index, text)
        states.append(after)
    return game, states


def new_mission(page, web, budget="20", turns=TURN_LIMIT):
    """A new mission on `page`, opened at the page's address."""
    page.goto(web.url)
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#ng-game", "legends")
    page.fill("#ng-mission", "1")
    page.select_option("#ng-difficulty", "human")
    page.fill("#ng-heroes", "Perseus,Atalanta")
    page.dispatch_event("#ng-heroes", "change")
    page.select_option("#ng-seat", str(HUMAN))
    page.fill("#ng-budget", budget)
    page.fill("#ng-turns", str(turns))
    page.click("#ng-start")
    wait_settled(page)


def play_one(page, action: int) -> str:
    """A click pair (card, then monster or requirement), a direct click, or the move list
    by keyboard."""
    sources, targets = page.locator("#board .source"), page.locator("#board .target")
    if action % 3 != 2 and sources.count():
        sources.first.click()
        target = page.locator("#board .target").first
        key = target.get_attribute("data-key")
        target.click()
        return f"click {key}"
    if action % 3 != 2 and targets.count():
        key = targets.first.get_attribute("data-key")
        targets.first.click()
        return f"click {key}"
    first = page.locator("#moves button").first
    text = first.get_attribute("data-move")
    first.focus()
    page.keyboard.press("Enter")
    return text


def check_snapshot(shot, game, states):
    truth = state_to_json(states[shot["n"]])
    mate = truth["seats"]["p2"]
    assert shot["mateSize"] == len(mate["hand"]), shot
    assert f"{len(mate['hand'])} card" in shot["mate"]
    for card in set(mate["hand"]):
        # the teammate's box names no card (as a word: "di" is also the start of "disc")
        assert not re.search(rf"\b{re.escape(card)}\b", shot["mate"]), (shot["n"], card, shot["mate"])
    assert sorted(shot["hand"]) == sorted(truth["seats"]["p1"]["hand"])
    view = states[shot["n"]].view(HUMAN).to_json()
    hidden = 0
    by_id = dict(shot["played"])
    for seen in view["monsters"]:
        if seen["status"] == "defeated":
            continue
        drawn = by_id[seen["id"]]
        assert len(drawn) == len(seen["played"])
        for (text, label), card in zip(drawn, seen["played"]):
            if card["card"] == "?":
                hidden += 1
                assert text.startswith("?") and label.startswith("a hidden card"), (text, label)
    return hidden + len(mate["hand"])


def check_answer(url, body, game, states, record_moves):
    status = body.get("status")
    if status is None or status.get("over"):
        return 0
    assert not status.get("recordJson") and not status.get("finalStateJson"), url
    n = int(status.get("movesPlayed", 0))
    if "view" in body:
        assert json.loads(body["view"]["json"]) == json.loads(json.dumps(states[n].view(HUMAN).to_json())), url
        assert body["board"] == game.presentation.board_text(states[n], HUMAN), url
    for event in body.get("history", []) + body.get("events", []):
        i = int(event.get("index", 0))
        seen = game.records.observed(states[i], game.parse_move(record_moves[i]), HUMAN).text
        assert event["move"]["text"] == seen, (url, i)  # the teammate's moves as p1 saw them
    return 1


CARD_WORD = re.compile(r"\b(arms|courage|di|guile|speed|strength)\b", re.IGNORECASE)


def check_without_referee(shots, answers):
    """What needs no referee: the teammate's box names no card, its count is the view's,
    and no answer holds the teammate's hand as cards."""
    sizes = {}
    for _, body in answers:
        if "view" in body:
            hand = json.loads(body["view"]["json"])["seats"]["p2"]["hand"]
            assert isinstance(hand, int), hand  # a count, never the cards
            sizes[int(body["status"].get("movesPlayed", 0))] = hand
    for shot in shots:
        assert not CARD_WORD.search(shot["mate"]), shot["mate"]
        assert shot["mateSize"] == sizes[shot["n"]], shot
    return len(sizes)


def test_a_whole_mission_with_a_bot_teammate(web, pages):
    page = pages.open()
    answers: list[tuple[str, dict]] = []
    page.on("response", lambda r: answers.append((r.url, r.json())) if "/hzai.v3." in r.url else None)
    new_mission(page, web)
    assert page.locator(".legends .lg-monster").count() >= 1
    assert page.locator(".lg-seat[data-seat=p2] .handcard").count() == 0

    snapshots, played, error = [], [], ""
    for action in range(MAX_ACTIONS):
        if page.evaluate("document.body.dataset.phase") == "over":
            break
        snapshots.append(page.evaluate(SNAPSHOT))
        before, log_before = page.evaluate("document.body.dataset.movesPlayed"), page.locator("#log li").count()
        played.append(play_one(page, action))
        page.wait_for_selector(SETTLED, timeout=120_000)
        if page.evaluate("document.body.dataset.phase") == "error":
            error = page.inner_text("#error")
            break
        assert page.evaluate("document.body.dataset.movesPlayed") != before, played[-1]
        assert page.locator("#log li").count() > log_before  # every event narrated
    assert any(p.startswith("click monster:") for p in played), played  # placing a disc, or moving it
    assert any(not p.startswith("click ") for p in played), played  # the move list by keyboard
    assert check_without_referee(snapshots, answers) >= len(snapshots) >= 4
    assert not error, error
    assert page.evaluate("document.body.dataset.phase") == "over", played
    assert "Game over" in page.inner_text("#status")

    final = [body for _, body in answers if body.get("status", {}).get("over")][-1]["status"]
    game, states = referee_states(final["recordJson"])
    assert states[-1].is_terminal
    assert sum(1 for seat, *_ in states[-1].t.history if seat == 1) >= 2  # the teammate played
    hidden = sum(check_snapshot(shot, game, states) for shot in snapshots if not shot["over"])
    assert hidden >= len(snapshots)  # there was something to leak, every time
    moves = json.loads(final["recordJson"])["moves"]
    assert sum(check_answer(url, body, game, states, moves) for url, body in answers) >= len(snapshots)


def test_legends_at_phone_width(web, pages):
    page = pages.open(width=390, height=844)
    new_mission(page, web)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    # keyboard: Tab reaches the board's buttons and Enter on a move list entry plays it
    before = page.evaluate("document.body.dataset.movesPlayed")
    page.locator("#moves button").first.focus()
    page.keyboard.press("Enter")
    wait_settled(page)
    assert page.evaluate("document.body.dataset.movesPlayed") != before
    ratios = page.evaluate(CONTRAST, "#status, .lg-head span, .lg-piles span, .lg-played:not(.back), .lg-attr, .lg-count, .handcard")
    assert ratios and min(ratios) >= 4.5, ratios
