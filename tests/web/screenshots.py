"""The page's screenshots in docs/, taken of the page exactly as `hzai web` serves it (its
Content-Security-Policy on, no `bypass_csp`) in headless Chromium, against a real
hzai-server; it stops with an error on any console error or uncaught exception.

    python -m tests.web.screenshots            # writes docs/screenshots/*.png and docs/web-*.png

docs/screenshots/: 1-setup, 2-midgame, 3-game-end, 4-review (after "Analyse every
position"), 5-analysis (bars and the heat map), 6-legends, 7-hot-seat-covered; docs/web-play.png,
docs/web-analysis.png and docs/web-legends.png are copies of 2, 5 and 6 (docs/web.md,
README.md). Not a test: the browser tests check the same flows; this only draws them.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from tests.service.conftest import REPO, ServerProcess
from tests.web.conftest import Pages, WebProcess, chromium_path
from tests.web.test_browser import play_one, wait_settled

SIZE = {"width": 1280, "height": 900}


def shoot(page, path: Path) -> None:
    page.wait_for_timeout(300)  # the flash of changed slots over
    page.screenshot(path=str(path), full_page=True, animations="disabled")
    print(f"wrote {path}", flush=True)


def new_game(page, url: str, turns: int, hot: bool = False) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#ng-game", "hera_zeus")
    page.select_option("#ng-seat", "0")
    page.select_option("#ng-first", "hera")
    if hot:
        page.check("#ng-hotseat")
    page.select_option("#ng-bot", "ismcts")
    page.fill("#ng-budget", "200")
    page.fill("#ng-turns", str(turns))
    page.click("#ng-start")


def hera_and_zeus(pages: Pages, url: str, out: Path) -> None:
    page = pages.open(**SIZE)
    new_game(page, url, turns=10)
    wait_settled(page)
    page.wait_for_selector("#builder:not([hidden])")
    shoot(page, out / "1-setup.png")
    actions, analysed, midgame, spread = 0, False, False, -1.0
    page.fill("#an-budget", "1s")
    page.fill("#an-samples", "300")
    while page.evaluate("document.body.dataset.phase") != "over" and actions < 200:
        moves = int(page.evaluate("document.body.dataset.movesPlayed"))
        if moves <= 16 and page.locator("#board .side.opp .slot.back").count() >= 2:
            # at each of Hera's moves: where is Zeus's hostage among his face-down cards?
            # The screenshot is of the turn where the most of it lies outside his deck.
            points = page.locator("#graph circle.point").count()
            page.click("#analyse")
            page.wait_for_selector(f"#graph circle.point >> nth={points}")
            page.wait_for_selector("#heat .cell[data-where=deck]")
            outside = 1 - float(page.get_attribute("#heat .cell[data-where=deck]", "data-probability"))
            if outside > spread:
                shoot(page, out / "5-analysis.png")
                spread = outside
            analysed = True
        if analysed and not midgame and moves >= 12:
            shoot(page, out / "2-midgame.png")
            midgame = True
        play_one(page, use_keyboard=False)
        wait_settled(page)
        actions += 1
    assert analysed and midgame and page.evaluate("document.body.dataset.phase") == "over"
    page.wait_for_selector("#deal-check[data-checked]")
    shoot(page, out / "3-game-end.png")
    page.click("#review-this")
    page.fill("#an-budget", "100")
    page.fill("#an-samples", "0")
    page.click("#rv-all")
    page.wait_for_selector("#rv-note:text-matches('^(Analysed|Stopped)')", timeout=300_000)
    assert page.locator("#error").is_hidden(), page.inner_text("#error")
    page.click("#rv-prev")  # the review at the last move, the graph of the whole game above
    page.wait_for_selector("#rv-board:not([aria-busy])")
    shoot(page, out / "4-review.png")


def legends(pages: Pages, url: str, out: Path) -> None:
    page = pages.open(**SIZE)
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#ng-game", "legends")
    page.fill("#ng-heroes", "Perseus,Atalanta")
    page.dispatch_event("#ng-heroes", "change")
    page.select_option("#ng-seat", "0")
    page.fill("#ng-budget", "100")
    page.fill("#ng-turns", "14")
    page.click("#ng-start")
    wait_settled(page)
    for _ in range(4):
        if page.evaluate("document.body.dataset.phase") == "over":
            break
        page.locator("#moves button").first.click()
        wait_settled(page)
    shoot(page, out / "6-legends.png")


def hot_seat(pages: Pages, url: str, out: Path) -> None:
    page = pages.open(**SIZE)
    new_game(page, url, turns=4, hot=True)
    wait_settled(page)
    page.locator("#moves button").first.click()  # Hera's setup; the screen is covered for Zeus
    page.wait_for_selector("body[data-phase=handover]")
    page.reload()  # the cover stays
    page.wait_for_selector("body[data-phase=handover]")
    shoot(page, out / "7-hot-seat-covered.png")


def main(argv: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    docs = REPO / "docs"
    out = Path(argv[0]) if argv else docs / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    server = ServerProcess("--max-searches", "2", "--default-iterations", "200")
    web = WebProcess(server.address)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path(), headless=True,
                                        args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
            pages = Pages(browser)
            try:
                hera_and_zeus(pages, web.url, out)
                legends(pages, web.url, out)
                hot_seat(pages, web.url, out)
                pages.check()  # no console error, no uncaught exception on any of them
            finally:
                pages.close()
                browser.close()
    finally:
        web.stop()
        server.stop()
    if out == docs / "screenshots":
        for shot, copy in (("2-midgame", "web-play"), ("5-analysis", "web-analysis"), ("6-legends", "web-legends")):
            shutil.copyfile(out / f"{shot}.png", docs / f"{copy}.png")
            print(f"wrote docs/{copy}.png", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
