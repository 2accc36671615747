"""clients/node/README.md as a reader follows it: its shell blocks run as written, in
order, in one shell, from a copy of the repository's clients/node (without node_modules,
so its `npm ci` really installs) and proto/, against a server started with the README's
own `hzai-server` flags (its address put where the README says 127.0.0.1:50051)."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import REPO, ServerProcess

NODE_DIR = REPO / "clients" / "node"
README = NODE_DIR / "README.md"
README_ADDRESS = "127.0.0.1:50051"
MARK = "@@@ command "


def sh_blocks() -> list[tuple[str, str]]:
    """(the section's heading, the block's text) of every ```sh block, in order."""
    text = README.read_text(encoding="utf-8")
    blocks = []
    for match in re.finditer(r"^```sh\n(.*?)^```", text, re.MULTILINE | re.DOTALL):
        heading = re.findall(r"^## (.+)$", text[:match.start()], re.MULTILINE)[-1]
        blocks.append((heading, match.group(1)))
    return blocks


def commands(block: str) -> list[str]:
    joined = block.replace("\\\n", " ")
    return [line.strip() for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def server_flags() -> list[str]:
    [server] = [commands(block) for heading, block in sh_blocks() if heading == "A server to talk to"]
    assert len(server) == 1 and server[0].startswith("hzai-server"), server
    flags = shlex.split(server[0], comments=True)[1:]
    assert "--address" not in flags  # the README's server is on the default address, which the scripts use
    return flags


@pytest.fixture(scope="module")
def readme_server():
    srv = ServerProcess(*server_flags())
    yield srv
    srv.stop()


@pytest.fixture
def checkout(tmp_path) -> Path:
    """The parts of a checkout the Node.js client uses, its packages not installed."""
    root = tmp_path / "repo"
    shutil.copytree(NODE_DIR, root / "clients" / "node", ignore=shutil.ignore_patterns("node_modules"))
    shutil.copytree(REPO / "proto" / "hzai", root / "proto" / "hzai")
    return root


def run_script(lines: list[str], cwd: Path, timeout: float) -> tuple[int, list[str | None]]:
    """The lines in one bash (stopping at the first failure, as `bash -e`), each one's
    output (stdout and stderr together) kept apart; None for a line that did not run."""
    script = ["exec 2>&1", "set -e"]
    for i, line in enumerate(lines):
        script += [f"echo '{MARK}{i}'", line]
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])}
    done = subprocess.run(["bash", "-c", "\n".join(script)], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)
    parts = re.split(rf"^{MARK}(\d+)\n", done.stdout, flags=re.MULTILINE)
    outputs: list[str | None] = [None] * len(lines)
    for index, text in zip(parts[1::2], parts[2::2]):
        outputs[int(index)] = text
    return done.returncode, outputs


def test_without_npm_ci_the_scripts_stop_as_the_readme_says(checkout):
    text = README.read_text(encoding="utf-8")
    assert "Without this step every script stops at once with `Cannot find module '@grpc/grpc-js'`" in text
    for script in ("suggest.js", "match.js", "analyze_game.js"):
        done = subprocess.run(["node", script, "--server", "127.0.0.1:1"], cwd=checkout / "clients" / "node",
                              capture_output=True, text=True, timeout=60)
        assert done.returncode != 0 and "Cannot find module '@grpc/grpc-js'" in done.stderr, (script, done.stderr)


def test_the_readme_runs_as_written(checkout, readme_server):
    lines = [line.replace(README_ADDRESS, readme_server.address)
             for heading, block in sh_blocks() if heading != "A server to talk to" for line in commands(block)]
    assert [shlex.split(line, comments=True) for line in lines[:2]] == [["cd", "clients/node"], ["npm", "ci"]], \
        lines[:2]  # the install comes first
    scripts = [shlex.split(line)[1] for line in lines if line.startswith("node ")]
    assert set(scripts) == {"suggest.js", "match.js", "analyze_game.js"}, scripts  # the three examples
    assert all(readme_server.address in line for line in lines if line.startswith("node "))

    code, outputs = run_script(lines, checkout, timeout=300)
    ran = [i for i, out in enumerate(outputs) if out is not None]
    assert code == 0, f"`{lines[ran[-1]]}` failed:\n{outputs[ran[-1]]}"
    here = checkout / "clients" / "node"
    assert (here / "node_modules" / "@grpc" / "grpc-js").is_dir() and (here / "node_modules" / "@grpc" / "proto-loader").is_dir()

    def legal(record: str) -> set[str]:
        done = subprocess.run([str(Path(sys.executable).parent / "hzai"), "legal", record], cwd=here,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return set(done.stdout.splitlines())

    game = json.loads((here / "game.json").read_text(encoding="utf-8"))
    assert game["format"] == "hzai-record/1" and len(game["moves"]) > 10  # a whole game, saved at its end
    checked = set()
    for line, out in zip(lines, outputs):
        words = shlex.split(line, comments=True)
        if words[0] != "node":
            continue
        script, record = words[1], words[2] if not words[2].startswith("--") else None
        if script == "suggest.js" and "--json" in words:
            reply = json.loads(out)
            assert reply["move"]["text"] in legal(record) and reply["seat_name"] == "hera", out
            assert reply["bot"] == words[words.index("--bot") + 1]
        elif script == "suggest.js":
            assert out.strip() in legal(record), (line, out)
            if "--level" in words:
                assert words[words.index("--level") + 1] == "2"
        elif script == "match.js":
            shown = out.splitlines()
            assert any(s.startswith("over: ") for s in shown), out
            assert shown[-1].startswith("commitment verified: sha256("), out
            if "--seat" in words and words[words.index("--seat") + 1] == "zeus":
                moves = [s for s in shown if not s.startswith("    ")]  # the narration is indented
                assert moves[0] == "0: Hera: setup ? ? ?" and moves[1].startswith("1: you: setup "), out
                assert shown[1].startswith("    Hera sets up"), out
        elif script == "analyze_game.js":
            shown = out.splitlines()
            assert shown[0].split()[:3] == ["#", "player", "played"], out
            rows = shown[1:-1]
            assert rows and all(row.split()[1] == "hera" for row in rows), out
            assert shown[-1] == f"{len(rows)} of {len(rows)} decisions analysed", out
        checked.add(script)
    assert checked == {"suggest.js", "match.js", "analyze_game.js"}
