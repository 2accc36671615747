"""The browser tests' fixtures: Debian's Chromium (installed by deploy/install-browser.sh
when it is missing), an hzai-server process, `hzai web --server` in front of it, and
`pages`, which opens the page as it is served (its Content-Security-Policy on: no
`bypass_csp`) and fails the test on any console error or uncaught exception.

Playwright drives the system Chromium through `executable_path`; it never downloads
browsers of its own. Under the page's policy (no 'unsafe-eval') Playwright's
`wait_for_function` cannot run its predicate in the page: tests wait on selectors, or
poll `page.evaluate` with `wait_until` (CDP evaluation is not subject to the policy)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import time
from contextlib import contextmanager

import pytest

from tests.machine_lock import machine_lock
from tests.service.conftest import REPO, START_TIMEOUT, ServerProcess

INSTALLER = REPO / "deploy" / "install-browser.sh"


def installed_chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def chromium_path() -> str:
    with machine_lock("chromium"):  # one installer at a time, whichever worker asks first
        found = installed_chromium()
        if found:
            return found
        done = subprocess.run(["sh", str(INSTALLER)], capture_output=True, text=True, timeout=900)
    found = shutil.which("chromium")
    if not found:
        pytest.fail(f"Chromium is not installed and {INSTALLER.name} could not install it:\n{done.stdout[-2000:]}"
                    f"\n{done.stderr[-2000:]}")
    return found


class WebProcess:
    """`hzai web --server ADDRESS` on a free port, read from the line it prints; with no
    target, `hzai web` with its embedded server."""

    def __init__(self, target: str | None, extra: tuple[str, ...] = ()):
        """`extra`: more flags of `hzai web` (--tls-ca ...)."""
        self.target = target
        server = ["--server", target] if target else ["--budget", "40"]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "hzai_client.cli", "web", *server, "--port", "0", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"}, cwd=REPO)
        self.url = None
        self.lines: list[str] = []
        ready = threading.Event()

        def read():
            for line in self.process.stdout:
                self.lines.append(line)
                found = re.search(r"open (http://\S+/)", line)
                if found and self.url is None:
                    self.url = found.group(1)
                    ready.set()
            ready.set()

        self._reader = threading.Thread(target=read, daemon=True)
        self._reader.start()
        if not ready.wait(START_TIMEOUT) or self.url is None:
            self.process.kill()
            raise RuntimeError(f"hzai web did not start: {''.join(self.lines)}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(15)
        self._reader.join(5)


@pytest.fixture(scope="module")
def web():
    server = ServerProcess("--max-searches", "2", "--default-iterations", "40", "--max-matches-per-client", "100")
    page_server = WebProcess(server.address)
    yield page_server
    page_server.stop()
    server.stop()


@pytest.fixture(scope="module")
def browser():
    from playwright import sync_api  # the test extra has it
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), headless=True,
                              args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        yield b
        b.close()


def wait_until(page, expression: str, timeout: float = 120.0, every: float = 0.05):
    """Polls `expression` (JavaScript, evaluated by CDP as page.evaluate does) until it is
    truthy; its value. TimeoutError naming the expression after `timeout` seconds."""
    end = time.monotonic() + timeout
    while True:
        value = page.evaluate(expression)
        if value:
            return value
        if time.monotonic() > end:
            raise TimeoutError(f"waited {timeout} s for {expression}")
        page.wait_for_timeout(every * 1000)


class Pages:
    """Opens pages as `hzai web` serves them and keeps every console error and uncaught
    exception of each. A test that makes the server refuse a request on purpose (an
    illegal move) says so with `refused`; the browser logs that refusal as a console error
    ("Failed to load resource: ... 400"), and it is then expected exactly as often as said.
    At the end of the test (`check`, called by the fixture) any other error fails it."""

    def __init__(self, browser):
        self.browser = browser
        self.contexts = []
        self.errors: list[str] = []
        self.refusals: list[str] = []

    def open(self, url: str | None = None, width: int = 1280, height: int = 900):
        context = self.browser.new_context(viewport={"width": width, "height": height})  # the policy on
        self.contexts.append(context)
        page = context.new_page()
        page.on("console", lambda message: self._console(message))
        page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))
        if url:
            page.goto(url)
            page.wait_for_selector("body[data-ready=true]")
        return page

    def _console(self, message) -> None:
        if message.type != "error":
            return
        where = message.location.get("url", "")
        self.errors.append(f"{message.text} [{where}]")

    @contextmanager
    def refused(self, page, path: str, status: int, times: int = 1):
        """The block makes the server refuse `times` requests to a URL ending in `path`
        with `status`: those console errors are expected (and must come)."""
        before = len(self.errors)
        yield
        words = f"status of {status}"

        def ours():
            return [e for e in self.errors[before:] if words in e and e.rstrip("]").endswith(path)]

        end = time.monotonic() + 10
        while len(ours()) < times and time.monotonic() < end:
            page.wait_for_timeout(50)  # the log entry can come a moment after the answer
        found = ours()
        assert len(found) == times, (path, status, self.errors[before:])
        for entry in found:
            self.errors.remove(entry)
            self.refusals.append(entry)

    def check(self) -> None:
        for context in self.contexts:
            for page in context.pages:
                page.wait_for_timeout(0)  # deliver the events still queued
        assert not self.errors, f"{len(self.errors)} console errors: " + "\n".join(self.errors[:20])

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        self.contexts = []


@pytest.fixture
def pages(browser):
    """`pages.open(url)`: the page as served, its console watched; fails at the end of the
    test on any console error or uncaught exception."""
    opened = Pages(browser)
    yield opened
    try:
        opened.check()
    finally:
        opened.close()
