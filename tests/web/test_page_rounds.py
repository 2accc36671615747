"""What a player meets after the first game: game after game in one tab against `hzai
web`'s own embedded server (which keeps at most 8 matches), the analysis of a Legends
position with the form's defaults, and the owner mark on the Hera and Zeus board.

Each match the page leaves (New game, asked first while it is unfinished) or finishes is
deleted on the server: without that the ninth game in a row is refused by the embedded
server's cap. And the hot seat's cover: nothing of the next seat in the page, nothing
analysed, across a reload. Every page as served, failing on any console error (`pages`).
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request

import pytest

from tests.web.conftest import WebProcess, wait_until
from tests.web.test_browser import SETTLED, wait_settled

GAMES = 10
EMBEDDED_CAP = 8  # EmbeddedServer's max_matches (docs/web.md)


@pytest.fixture(scope="module")
def embedded():
    page_server = WebProcess(None)  # `hzai web` with its embedded server
    yield page_server
    page_server.stop()


def start_hera_zeus(page, turns: str = "") -> None:
    page.select_option("#ng-game", "hera_zeus")
    page.select_option("#ng-seat", "0")
    page.select_option("#ng-bot", "random")
    page.fill("#ng-turns", turns)
    page.click("#ng-start")
    wait_settled(page)


def leave_the_game(page):
    """New game on an unfinished game: the page asks first; "Keep playing" keeps it,
    "Leave this game" leaves it."""
    page.click("#new-match")
    page.wait_for_selector("#leave:not([hidden])")
    page.click("#leave-no")
    assert page.locator("#leave").is_hidden() and page.locator("#game").is_visible()
    page.click("#new-match")
    page.click("#leave-yes")
    page.wait_for_selector("body[data-phase=form]")


def test_ten_games_in_a_row_in_one_tab(embedded, pages):
    assert GAMES > EMBEDDED_CAP
    page = pages.open(embedded.url)
    deleted, created = [], []
    page.on("request", lambda r: deleted.append(r.post_data_json["matchId"]) if r.url.endswith("/DeleteMatch") else None)
    page.on("response", lambda r: created.append(r.json()["status"]["matchId"])
            if r.url.endswith("/CreateMatch") and r.ok else None)
    for game in range(GAMES - 1):
        start_hera_zeus(page)
        assert page.locator("#error").is_hidden(), page.inner_text("#error")
        page.locator("#moves button").first.click()  # one move, then leave the game unfinished
        wait_settled(page)
        if game == 0:
            leave_the_game(page)
        else:
            page.click("#new-match")
            page.click("#leave-yes")
            page.wait_for_selector("body[data-phase=form]")
        assert len(deleted) == game + 1
    # the last one played to its end (a turn limit of 1): the end releases it too
    start_hera_zeus(page, turns="1")
    for _ in range(200):
        if page.evaluate("document.body.dataset.phase") == "over":
            break
        page.locator("#moves button").first.click()
        wait_settled(page)
    assert "Game over" in page.inner_text("#status")
    # the finished game stays in the page, its match deleted and its tokens dropped
    wait_until(page, "JSON.parse(localStorage.getItem('hzai-web-match') || 'null')?.finished?.status?.over")
    assert page.evaluate("JSON.parse(localStorage.getItem('hzai-web-match')).token") is None
    assert len(created) == GAMES and deleted == created  # every match, in order, once
    assert page.locator("#error").is_hidden(), page.inner_text("#error")
    assert page.locator("#download").is_visible()  # the record stays in the page
    # the end shows every card and checks the deal against the commitment of CreateMatch
    page.wait_for_selector("#deal-check[data-checked]")
    assert page.get_attribute("#deal-check", "data-checked") == "true", page.inner_text("#deal-check")
    assert "the commitment given when the match was created: checked" in page.inner_text("#deal-check")
    assert page.evaluate("document.querySelector('#board-text-box').open")
    assert "Every card" in page.inner_text("#board-text-title")
    rows = [line for line in page.text_content("#board-text").splitlines() if line.strip().startswith("r")]
    assert rows and not any(" ? " in f" {line} " for line in rows)  # no hidden card left on the board
    # the finished game in the review: a board at every step, every card named
    page.click("#review-this")
    page.wait_for_selector("#rv-board[data-step='0'] .side.opp")
    assert page.locator("#rv-board .slot.card").count() == 0  # nothing set up yet
    page.click("#rv-next")
    page.click("#rv-next")
    page.wait_for_selector("#rv-board[data-step='2'] .side.opp .slot.card")
    assert page.locator("#rv-board .back").count() == 0  # the review hides nothing: no '?' backs
    front = page.eval_on_selector_all("#rv-board .side.mine .slot.card", "ns => ns.map((n) => n.textContent)")
    assert len(front) == 3 and all(t.startswith("(") for t in front)  # the first setup, face down, named
    page.click("#rv-prev")
    page.wait_for_selector("#rv-board[data-step='1']")
    assert page.locator("#rv-board .slot.card").count() == 3
    labels = page.eval_on_selector_all("#graph text.axis-label", "ns => ns.map((n) => n.textContent)")
    assert labels == ["move number", "hera's win %"]
    ticks = page.eval_on_selector_all("#graph text.tick.y", "ns => ns.map((n) => n.textContent)")
    assert ticks == ["0%", "50%", "100%"]
    page.click("#tab-play")
    # and an eleventh starts as the first did: a finished game is left without a question
    page.click("#new-match")
    page.wait_for_selector("body[data-phase=form]")
    assert page.locator("#leave").is_hidden()
    start_hera_zeus(page)
    assert page.locator("#error").is_hidden() and page.locator("#moves button").count() >= 1


def test_legends_analysis_with_the_forms_defaults(embedded, pages):
    page = pages.open(embedded.url)
    page.select_option("#ng-game", "legends")
    page.select_option("#ng-seat", "0")
    page.fill("#ng-budget", "20")
    page.click("#ng-start")
    wait_settled(page)
    assert page.evaluate("document.body.dataset.phase") == "mine"
    assert page.input_value("#an-budget") == "1s" and int(page.input_value("#an-samples")) > 0  # untouched
    page.click("#analyse")
    page.wait_for_selector("#an-moves li")
    assert page.locator("#error").is_hidden(), page.inner_text("#error")
    summary = page.inner_text("#an-summary")
    assert summary.startswith("Budget 1 s (spent ") and "iterations" in summary
    assert "no belief report" in page.inner_text("#an-samples-note") and page.locator("#an-samples").is_disabled()
    # each of the first rows can tell its variation in the game's words
    words = page.locator("#an-moves details.pv-words")
    assert words.count() >= 1
    words.first.locator("summary").click()
    assert words.first.locator("p").first.inner_text().startswith("You placed your disc on m")
    # the second evaluation goes straight through
    page.click("#analyse")
    wait_until(page, "document.querySelector('#an-summary').textContent.startsWith('Budget')")
    assert page.locator("#error").is_hidden(), page.inner_text("#error")


def test_evaluate_waits_for_a_position_and_a_budget_it_can_read(embedded, pages):
    page = pages.open(embedded.url)
    # no game yet: nothing to evaluate, and the panel says why
    assert page.locator("#analyse").is_disabled()
    assert "Start a game or open a record" in page.inner_text("#an-why")
    page.click("#tab-review")
    assert page.locator("#analyse").is_disabled() and "Open a record" in page.inner_text("#an-why")
    page.click("#tab-play")
    start_hera_zeus(page)
    assert page.locator("#analyse").is_enabled() and page.locator("#an-why").is_hidden()
    page.fill("#an-budget", "fast")
    page.click("#analyse")
    page.wait_for_selector("#error:not([hidden])")
    assert 'Budget: write a time (1s, 500ms) or a number of iterations (2000), not "fast"' in page.inner_text("#error")
    # the icon the browser asks for is there, as the page links it
    assert page.evaluate("fetch('/favicon.ico').then((r) => r.ok && r.headers.get('content-type'))") == "image/svg+xml"
    assert page.get_attribute("link[rel=icon]", "href") == "/favicon.svg"


OWNED = {
    "sides": {
        "hera": {"columns": [[{"card": "Hydra", "owner": "hera", "face_up": True},
                              {"card": "Cyclops", "owner": "zeus", "face_up": True}]],
                 "hand": [{"card": "Kraken", "owner": "zeus"}, {"card": "Titan", "owner": "hera"}],
                 "deck_size": 3, "discard": []},
        "zeus": {"columns": [[{"card": "Cyclops", "owner": "zeus", "face_up": True},
                              {"card": "Sirens", "owner": "hera", "face_up": True}]],
                 "hand": [{}], "deck_size": 4, "discard": []},
    },
}


def test_the_owner_mark_is_for_cards_away_from_their_owners_side(embedded, pages):
    page = pages.open(embedded.url)
    texts = page.evaluate("""async (view) => {
      const { drawBoard } = await import('/board.js');
      const root = document.createElement('div');
      drawBoard(root, view, 'hera', null);
      return Object.fromEntries([...root.querySelectorAll('[data-key]')].map((n) => [n.dataset.key, n.textContent]));
    }""", OWNED)
    assert texts["opp:c1r1"] == "Cyclops" and texts["opp:c1r2"] == "Sirens@hera"  # Zeus's side
    assert texts["mine:c1r1"] == "Hydra" and texts["mine:c1r2"] == "Cyclops@zeus"  # Hera's side
    assert "hand:Kraken@zeus" in texts and "hand:Titan" in texts


def test_a_setup_built_card_by_card(embedded, pages):
    page = pages.open(embedded.url)
    start_hera_zeus(page)
    moves = page.eval_on_selector_all("#moves button", "bs => bs.map((b) => b.dataset.move)")
    assert moves and all(m.startswith("setup ") for m in moves)
    assert page.locator("#builder").is_visible()
    chosen = []
    for column in range(3):
        if column == 0:  # a card clicked in the hand on the board begins the setup...
            card = next(m.split()[1] for m in moves if m.split()[1] != "-")
            page.click(f"#board .hand [data-key='hand:{card}']")
        elif column == 1:  # ...the builder's buttons go on with it...
            options = page.eval_on_selector_all("#builder .builder-piece", "bs => bs.map((b) => b.dataset.piece)")
            card = next(o for o in options if o != "-")
            page.click(f"#builder .builder-piece[data-piece='{card}']")
        else:  # ...and so does the board again
            options = page.eval_on_selector_all("#builder .builder-piece", "bs => bs.map((b) => b.dataset.piece)")
            card = next(o for o in options if o != "-")
            page.click(f"#board .hand [data-key='hand:{card}']")
        chosen.append(card)
        assert page.get_attribute("#builder [data-built]", "data-built") == " ".join(["setup", *chosen])
    wanted = "setup " + " ".join(chosen)
    assert wanted in moves
    before = len(page.locator("#log li").all())
    page.click("#builder .builder-play")
    wait_settled(page)
    assert page.locator("#error").is_hidden(), page.inner_text("#error")
    log = page.locator("#log li").all_inner_texts()
    assert len(log) > before and any(all(card in line for card in chosen) for line in log), log
    # the cards chosen stand face down in the front row, c1 to c3 in order
    for column, card in enumerate(chosen, 1):
        assert page.inner_text(f"#board [data-key='mine:c{column}r1']") == f"({card})"


# What of any seat the page holds while the hot seat's screen is covered: all of it empty.
COVERED = """() => ({
  cards: document.querySelectorAll('#game .handcard, #game .slot, #game .lg-seat, #game .lg-monster').length,
  board: document.querySelector('#board').childElementCount,
  boardText: document.querySelector('#board-text').textContent,
  moves: document.querySelectorAll('#moves li, #builder *').length,
  log: document.querySelectorAll('#log li').length,
  rows: document.querySelectorAll('#an-moves li').length,
  heat: document.querySelector('#heat').childElementCount,
  summary: document.querySelector('#an-summary').textContent,
  analyse: document.querySelector('#analyse').disabled,
  typed: document.querySelector('#move-text').value + document.querySelector('#move-filter').value,
})"""
EMPTY = {"cards": 0, "board": 0, "boardText": "", "moves": 0, "log": 0, "rows": 0, "heat": 0, "summary": "",
         "analyse": True, "typed": ""}


def next_hand(url: str, page) -> list[str]:
    """The cards in the hand of the seat the screen is covered for, asked of the API with
    that seat's token (which the page keeps for the hot seat)."""
    saved = page.evaluate("JSON.parse(localStorage.getItem('hzai-web-match'))")
    token = saved["tokens"][str(saved["seat"])]
    request = urllib.request.Request(url + "hzai.v3.MatchService/GetView", data=json.dumps({"matchId": saved["matchId"]}).encode(),
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as reply:
        view = json.loads(json.loads(reply.read())["view"]["json"])
    if "sides" in view:  # Hera and Zeus
        side = list(view["sides"])[saved["seat"]]
        return [slot["card"] for slot in view["sides"][side]["hand"] if slot.get("card")]
    return list(view["seats"][f"p{saved['seat'] + 1}"]["hand"])


def assert_covered(page, url):
    assert page.locator("#layout").is_hidden() and "pass the screen to" in page.inner_text("#handover")
    assert page.evaluate(COVERED) == EMPTY
    text = page.inner_text("#game") + page.inner_text("#analysis")
    # (a card named as a seat, Hera's card Hera, is left out: the status line names the seat)
    hand = [card for card in next_hand(url, page) if card.lower() not in ("hera", "zeus")]
    assert hand and not [card for card in hand if re.search(rf"\b{re.escape(card)}\b", text, re.IGNORECASE)], (hand, text)


@pytest.mark.parametrize("game", ["hera_zeus", "legends"])
def test_a_hot_seat_game_at_one_screen(embedded, pages, game):
    page = pages.open(embedded.url)
    analyses = []
    page.on("request", lambda r: analyses.append(r.url) if r.url.endswith("/Analyze") else None)
    page.select_option("#ng-game", game)
    page.check("#ng-hotseat")
    page.fill("#ng-turns", "1" if game == "hera_zeus" else "3")
    page.fill("#an-budget", "20")
    page.click("#ng-start")
    seats_seen, handovers, evaluated, reloaded = set(), 0, False, False
    for _ in range(120):
        page.wait_for_selector(f"{SETTLED}, body[data-phase=handover]", timeout=120_000)
        phase = page.evaluate("document.body.dataset.phase")
        assert phase != "error", page.inner_text("#error")
        if phase == "over":
            break
        if phase == "handover":
            # the screen is covered: nothing of the next seat drawn, listed or analysed
            asked = len(analyses)
            assert_covered(page, embedded.url)
            page.locator("#analyse").click(force=True)  # disabled: the click does nothing
            page.wait_for_timeout(100)
            assert page.evaluate(COVERED)["rows"] == 0 and len(analyses) == asked
            if not reloaded:  # the cover survives a reload
                page.reload()
                page.wait_for_selector("body[data-ready=true]")
                assert page.evaluate("document.body.dataset.phase") == "handover"
                assert_covered(page, embedded.url)
                reloaded = True
            page.click("#handover-go")
            handovers += 1
            continue
        seat = page.evaluate("JSON.parse(localStorage.getItem('hzai-web-match')).seat")
        seats_seen.add(seat)
        mine = "#board .side.mine" if game == "hera_zeus" else "#board .lg-seat.mine"
        assert page.locator(mine).count() == 1  # the board of the seat to move, its own hand shown
        if not evaluated:  # the seat's own moves listed by the analysis, cleared by the cover next
            page.click("#analyse")
            page.wait_for_selector("#an-moves li")
            evaluated = True
        page.locator("#moves button").first.click()
    assert page.evaluate("document.body.dataset.phase") == "over"
    assert seats_seen == {0, 1} and handovers >= 2 and evaluated and reloaded  # both seats played here
    assert len(analyses) == 1  # the one evaluation asked for, on a seat's own turn
    assert "Game over" in page.inner_text("#status")


def test_an_analysis_answered_after_the_handover_is_not_drawn_under_the_cover(embedded, pages):
    """A seat asks for an analysis and plays before it comes back: the answer (that seat's
    moves, naming its cards) arrives while the screen is covered for the next seat, and is
    dropped; what the first seat typed goes with it."""
    page = pages.open(embedded.url)
    answered = []
    asked = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/Analyze") else None)
    page.on("response", lambda r: answered.append(r.status) if r.url.endswith("/Analyze") else None)
    page.select_option("#ng-game", "hera_zeus")
    page.check("#ng-hotseat")
    page.fill("#ng-turns", "1")
    page.click("#ng-start")
    page.wait_for_selector(f"{SETTLED}, body[data-phase=handover]", timeout=120_000)
    if page.evaluate("document.body.dataset.phase") == "handover":
        page.click("#handover-go")
        wait_settled(page)
    page.fill("#an-budget", "2s")
    page.fill("#move-text", "typed by the seat that leaves")
    page.click("#analyse")
    end = time.monotonic() + 30
    while not asked and time.monotonic() < end:
        page.wait_for_timeout(20)
    # the service takes the analysis (and checks its seat) first, then searches 2 s: the
    # move below is played while it searches, before it answers
    page.wait_for_timeout(500)
    page.locator("#moves button").first.click()
    page.wait_for_selector("body[data-phase=handover]", timeout=120_000)
    end = time.monotonic() + 60
    while not answered and time.monotonic() < end:
        page.wait_for_timeout(100)
    assert answered == [200]  # the answer came back, under the cover
    for _ in range(20):  # watched for a second after it came: never drawn, not even for a moment
        assert page.evaluate(COVERED) == EMPTY
        page.wait_for_timeout(50)
    assert_covered(page, embedded.url)


def post_review(url: str, body: bytes):
    request = urllib.request.Request(url + "review/position", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_the_review_position_names_what_is_wrong(embedded):
    record = {"format": "legends-record/1", "mission": 1, "heroes": ["Perseus", "Atalanta"], "seed": 7,
              "moves": ["place m1", "place m2"]}
    status, answer = post_review(embedded.url, json.dumps({"record_json": json.dumps(record), "upto": 2}).encode())
    assert status == 200 and answer["game"] == "legends" and "[referee]" in answer["board"].splitlines()[0]
    for body, words in ((b"{", "the request is not JSON"),
                        (json.dumps({"record_json": "{}", "upto": -1}).encode(), "upto: a whole number of moves"),
                        (json.dumps({"record_json": json.dumps(record), "upto": 3}).encode(),
                         "upto: the record has 2 moves, not 3"),
                        (json.dumps({"record_json": json.dumps({**record, "moves": ["place m9"]}), "upto": 1}).encode(),
                         "the record cannot be replayed"),
                        (json.dumps({"record_json": json.dumps({"format": "chess/1"})}).encode(),
                         'no game here writes records of format "chess/1"')):
        status, answer = post_review(embedded.url, body)
        assert status == 400 and words in answer["message"], answer


def test_the_legends_board_shows_the_pile_the_oracle_showed(embedded, pages):
    from hzai.core import make_game
    from hzai.games.legends import Record

    game = make_game("legends", mission=1, heroes=["Perseus", "Atalanta"])
    record = Record(game, seed=7, moves=["place m1", "place m2", "oracle"])
    state = record.replay()
    back = game.move_text(state.legal_moves()[0])  # discard one, the rest back in this order
    record.moves.append(back)
    view = record.replay().view(0).to_json()
    order = back.split(" order ")[1].split(",")
    assert view["draw_pile"][:len(order)] == order  # p1 knows the top of the pile now
    page = pages.open(embedded.url)
    text = page.evaluate("""async (view) => {
      const { drawLegends } = await import('/legends.js');
      const root = document.createElement('div');
      drawLegends(root, view);
      return root.querySelector('[data-pile=draw]').textContent;
    }""", view)
    assert text.startswith(f"draw pile {view['draw_pile_size']} (from the top: {', '.join(order[:6])}")


def test_the_board_says_what_the_seat_has_learned(embedded, pages):
    """From the seat's view: a name known to be among some of the opponent's cards (a
    group's `known`) and a name known not to be in a slot (`excluded`, after Pythia)."""
    view = {"sides": {
        "hera": {"columns": [[], [], []], "hand": [], "deck_size": 3, "discard": []},
        "zeus": {"columns": [[{"face_up": False, "group": 0, "excluded": ["Argus"]}], [],
                             [{"face_up": False, "group": 1}, {"face_up": False, "group": 0, "excluded": ["Argus"]}]],
                 "hand": [{"face_up": False, "group": 1}, {"face_up": False, "group": 1}], "deck_size": 4, "discard": []}},
        "groups": [{"owner": "zeus", "known": {}, "wildcards": []},
                   {"owner": "zeus", "known": {"Hydra": 1, "Satyr": 2}, "wildcards": []}]}
    page = pages.open(embedded.url)
    text = page.evaluate("""async (view) => {
      const { drawBoard } = await import('/board.js');
      const root = document.createElement('div');
      drawBoard(root, view, 'hera', null);
      return root.querySelector('.side.opp [data-learned]')?.textContent || '';
    }""", view)
    assert text == "You know: Hydra, Satyr ×2 among c3r1, 2 in hand; no Argus at c1r1, c3r2."


def a_record(moves: int) -> str:
    """A Hera and Zeus record of `moves` moves (the first legal move each time)."""
    from hzai.core import make_game

    game = make_game("hera_zeus")
    record = game.records.new(3)
    state = game.records.replay(record)
    for _ in range(moves):
        move = state.legal_moves()[0]
        record.moves.append(game.move_text(move))
        state.apply(move)
    return json.dumps(game.records.write(record))


def test_an_analysis_that_fails_is_said_and_stops(embedded, pages):
    """The service failing in the middle of "Analyse every position" (its third Analyze
    answered 503 here): the red box says where and why, nothing stays on "Thinking…", the
    steps can be used again."""
    page = pages.open(embedded.url)
    answered = []

    def third_fails(route):
        answered.append(route.request.url)
        if len(answered) == 3:
            route.fulfill(status=503, json={"code": "unavailable", "message": "the server went away"})
        else:
            route.continue_()

    page.route("**/hzai.v3.BotService/Analyze", third_fails)
    page.click("#tab-review")
    page.set_input_files("#record-file", files=[{"name": "game.json", "mimeType": "application/json",
                                                 "buffer": a_record(6).encode()}])
    page.wait_for_selector("#rv-board[data-step='0']")
    page.fill("#an-budget", "20")
    page.fill("#an-samples", "0")
    with pages.refused(page, "/hzai.v3.BotService/Analyze", 503):
        page.click("#rv-all")
        page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error") == ("Analyse every position stopped after 2 moves: "
                                         "the server went away (unavailable)")
    assert page.inner_text("#rv-note") == "Stopped after 2 positions."
    assert page.inner_text("#an-summary") == "" and page.locator("#graph circle.point").count() == 2
    assert page.inner_text("#rv-where") == "after 2 of 6 moves" and page.get_attribute("#rv-board", "data-step") == "2"
    assert page.locator("#rv-all").is_enabled() and page.locator("#analyse").is_enabled()
    # a second run goes through, every position of the unfinished record analysed
    page.click("#rv-all")
    page.wait_for_selector("#rv-note:text-matches('^Analysed')")
    assert page.inner_text("#rv-note") == "Analysed 7 positions."
    assert page.locator("#error").is_hidden()
