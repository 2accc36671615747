"""The README's first code block is the newcomer's two commands, and CI runs the first."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def first_code_block() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"^```[a-z]*\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    assert block, "README.md has no code block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def commands(script: str) -> list[str]:
    """The command lines of a shell script: no comments, no blank lines, no `set`/`cd`."""
    out = []
    for line in script.splitlines():
        line = line.strip()
        if line and not line.startswith("#") and not re.match(r"(set|cd) ", line):
            out.append(line)
    return out


def test_the_first_code_block_holds_the_two_commands():
    install_and_test, play = first_code_block()
    assert "pip install" in install_and_test and "pytest" in install_and_test
    assert "#" not in install_and_test and "&" not in install_and_test.replace("&&", "")
    assert play == "hzai play"


def test_ci_runs_the_readmes_test_command_verbatim():
    install_and_test = first_code_block()[0]
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert commands(ci) == ["python3 --version", install_and_test]


def test_the_readme_leaves_no_server_in_the_background():
    """A command ending in `&` would leave a server logging into the terminal."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    background = [line for block in blocks for line in block.splitlines()
                  if "&" in line.split(" #")[0].replace("&&", "")]
    assert not background, background
    assert "Ctrl-C" in text
