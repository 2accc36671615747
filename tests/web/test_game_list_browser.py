"""The page's list of games is the server's (ListGames), hzai's game folders included,
and a game the page has no drawing of is still played on it: Toss-up (hzai/games/tossup),
the example game, chosen in the list, started and played to its end in real headless
Chromium against a real server, as `hzai web` serves the page (its policy on, no console
error). The page says it has no drawing of the game and shows the server's board text
once; the form offers only the fields that set a parameter the game takes."""

from __future__ import annotations

import json

from hzai.core.registry import folder_games, make_game

from tests.web.conftest import wait_until
from tests.web.test_browser import wait_settled

GAME = "tossup"  # no drawing of its own in the page, no parameters, two or three moves a game


def test_the_list_holds_every_game_folder_and_the_form_only_what_the_game_takes(web, pages):
    page = pages.open(web.url)
    listed = page.eval_on_selector_all("#ng-game option", "options => options.map((o) => [o.value, o.textContent])")
    names = [name for name, _ in listed]
    assert set(folder_games()) <= set(names), listed
    for name, text in listed:
        assert text == make_game(name).presentation.title, (name, text)
    capabilities = json.loads(page.evaluate("fetch('/capabilities').then((r) => r.text())"))["games"]
    assert capabilities[GAME] == {"belief_report": make_game(GAME).capabilities.belief_report, "params": []}
    assert {"first_player", "turn_limit"} <= set(capabilities["hera_zeus"]["params"])

    # "Who starts" and "Turn limit" set first_player and turn_limit, which Toss-up does not take
    page.select_option("#ng-game", GAME)
    assert page.locator("#ng-first").is_hidden() and page.locator("#ng-turns").is_hidden()
    assert page.inner_text("#ng-help") == "Parameters: this game takes no parameters"
    page.select_option("#ng-game", "hera_zeus")
    assert page.locator("#ng-first").is_visible() and page.locator("#ng-turns").is_visible()
    # a turn limit typed for Hera and Zeus is not sent for Toss-up, which would refuse it
    page.fill("#ng-turns", "5")
    page.select_option("#ng-game", GAME)
    page.select_option("#ng-seat", "1")
    page.fill("#ng-budget", "20")
    page.click("#ng-start")
    wait_settled(page)
    assert page.locator("#error").is_hidden(), page.inner_text("#error")
    assert page.inner_text("#status").startswith(make_game(GAME).presentation.title)


def test_a_game_the_page_does_not_draw_is_started_and_played_to_its_end(web, pages):
    game = make_game(GAME)
    page = pages.open(web.url)
    page.select_option("#ng-game", GAME)
    assert page.eval_on_selector_all("#ng-seat option", "options => options.map((o) => o.textContent)") == \
        list(game.seats)
    page.select_option("#ng-seat", "0")
    page.select_option("#ng-bot", "random")
    page.fill("#ng-budget", "20")
    page.click("#ng-start")
    wait_settled(page)
    assert page.evaluate("document.body.dataset.phase") == "mine"  # the first seat moves first
    status = page.inner_text("#status")
    assert status == f"{game.presentation.title} · move 0 · Your move ({game.seats[0]})", status
    said = page.inner_text("#board .no-drawing")
    assert f"no drawing of {game.presentation.title}" in said, said
    board = page.text_content("#board pre.generic-board")
    assert board.strip() and board == page.text_content("#board-text"), "the server's board text"
    assert page.locator("#board-text-box").is_hidden(), "the board text is not shown twice"
    assert page.inner_text("#moves-hint").endswith("Pick a move here."), page.inner_text("#moves-hint")
    played = []
    for _ in range(6):  # a game is two or three moves; the bot answers in between
        if page.evaluate("document.body.dataset.phase") == "over":
            break
        moves = page.eval_on_selector_all("#moves button", "buttons => buttons.map((b) => b.dataset.move)")
        assert moves, "the legal moves are listed on the human's turn"
        before = int(page.evaluate("document.body.dataset.movesPlayed"))
        page.locator("#moves button").first.click()
        played.append(moves[0])
        wait_settled(page)
        assert int(page.evaluate("document.body.dataset.movesPlayed")) > before
    assert page.evaluate("document.body.dataset.phase") == "over", page.inner_text("#status")
    assert "Game over" in page.inner_text("#status")
    log = page.eval_on_selector_all("#log li", "items => items.map((li) => li.textContent)")
    assert log and log[0] == f"{game.seats[0]}: {played[0]}", log
    assert page.locator("#error").is_hidden(), page.inner_text("#error")
    # the record comes back whole: the game's own reader replays it to its end
    assert page.locator("#download").is_visible()
    record_json = wait_until(page, "JSON.parse(localStorage.getItem('hzai-web-match') || 'null')"
                                   "?.finished?.status?.recordJson")
    record = game.records.read(json.loads(record_json))
    assert game.records.replay(record).is_terminal
    assert len(record.moves) == len(log)
    # the deal is checked against the commitment, as for every game
    page.wait_for_selector("#deal-check[data-checked]")
    assert page.get_attribute("#deal-check", "data-checked") == "true", page.inner_text("#deal-check")
