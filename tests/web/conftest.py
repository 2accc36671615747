"""The browser tests' fixtures: Debian's Chromium (installed by deploy/install-browser.sh
when it is missing), an hzai-server process, and `hzai web --server` in front of it.

Playwright drives the system Chromium through `executable_path`; it never downloads
browsers of its own."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

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
        server = ["--server", target] if target else ["--iterations", "40"]
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


@pytest.fixture
def screenshots() -> Path | None:
    """HZAI_WEB_SCREENSHOTS=DIR saves the screenshots there (docs/ for the committed ones)."""
    folder = os.environ.get("HZAI_WEB_SCREENSHOTS")
    return Path(folder) if folder else None
