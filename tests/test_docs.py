"""The documents and the --help texts point only at things that exist.

Every Markdown document of the repository and every `--help` text is searched for
repository paths (a token that starts with a top-level folder, like `docs/rules.md`, or
that ends in a file extension, like `classic.toml`) and for relative Markdown links
(`[text](path#anchor)`). A path must name a tracked file or folder, or a build output the
repository ignores on purpose; a link must resolve from the document's folder, and its
anchor must be a heading of the target.
"""

from __future__ import annotations

import fnmatch
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

TOP_FOLDERS = ("hzai", "server", "clients", "benchmarks", "docs", "tests", "proto", ".ci")
EXTENSIONS = ("md", "py", "toml", "json", "proto", "js", "svg", "png", "txt", "cpp", "hpp", "h", "so", "cfg",
              "yml", "yaml", "lock", "ts", "cc")
# Names of files a reader makes, not files of the repository: the examples' own records,
# deck files and outputs.
EXAMPLE_FILES = {"game.json", "RECORD.json", "record.json", "FILE.toml", "my_deck.toml", "bad.json", "out.json",
                 "games.json", "report.json", "arena.json", "result.json", "view.json", "mid.json", "deal.json",
                 "meta.json"}  # meta.json: what a self-play folder writes
NOT_PATHS = {"Node.js"}  # words that only look like file names

PATH_TOKEN = re.compile(
    r"(?<![\w./@:-])"                                   # not the middle of a word, URL or module path
    r"((?:\.\.?/)*"                                     # ./ or ../ in front
    r"(?:[\w.*<>{}-]+/)*[\w.*<>{}-]*[\w*>}/]"           # folders, then a name
    r")"
)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)


def markdown_files() -> list[Path]:
    patterns = ("README.md", "docs/**/*.md", "benchmarks/**/*.md", "clients/**/README*", "tests/**/*.md")
    found = {p for pattern in patterns for p in REPO.glob(pattern) if "node_modules" not in p.parts}
    return sorted(found)


@cache
def tracked() -> frozenset[str]:
    """Tracked files and the folders that hold them (relative, '/'-separated), plus the
    untracked files git would add (new work not yet committed)."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                         capture_output=True, text=True, check=True).stdout.split("\n")
    names = set()
    for name in filter(None, out):
        if not (REPO / name).exists():
            continue  # deleted in the work tree
        parts = name.split("/")
        names.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
    return frozenset(names)


def ignored(path: str) -> bool:
    """A build output the repository ignores on purpose (e.g. the native module)."""
    done = subprocess.run(["git", "check-ignore", "-q", "--no-index", path], cwd=REPO, capture_output=True)
    return done.returncode == 0


def exists(path: str) -> bool:
    """`path` (relative to the repository root) names something of the repository; a `*`
    or a `<placeholder>` matches any part."""
    path = path.rstrip("/")
    if not path:
        return True
    pattern = re.sub(r"<[^>]+>|\{[^}]+\}", "*", path)
    if "*" in pattern:
        return any(fnmatch.fnmatchcase(name, pattern) for name in tracked()) or ignored(path)
    return path in tracked() or ignored(path)


def is_pathlike(token: str) -> bool:
    """A token with a known top-level folder or with a file extension."""
    if token in NOT_PATHS:
        return False
    bare = re.sub(r"^(?:\.\.?/)+", "", token)
    if "/" in bare and bare.split("/", 1)[0] in TOP_FOLDERS:
        return True
    last = token.rstrip("/").rsplit("/", 1)[-1]
    return "." in last and last.rsplit(".", 1)[-1] in EXTENSIONS and last.rsplit(".", 1)[0] != ""


def path_tokens(text: str) -> list[str]:
    text = URL.sub(" ", text)
    text = re.sub(r"(\]\()[^)\s]+\)", r"\1 )", text)  # link targets are checked on their own
    tokens = []
    for match in PATH_TOKEN.finditer(text):
        token = match.group(1).rstrip(".")
        if is_pathlike(token):
            tokens.append(token)
    return tokens


def resolves(token: str, base: Path) -> bool:
    """A path token names a repository file: from the root, from the document's folder,
    or (for a bare file name or a partial path) as the tail of a repository path."""
    if token.rsplit("/", 1)[-1] in EXAMPLE_FILES:
        return True
    clean = token.removeprefix("./")
    if clean.startswith("../") or "/" not in clean.rstrip("/") or clean.split("/", 1)[0] not in TOP_FOLDERS:
        relative = (base / clean).resolve()
        if relative.is_relative_to(REPO) and exists(relative.relative_to(REPO).as_posix()):
            return True
        if clean.startswith("../"):
            return False
        tail = clean.rstrip("/")
        pattern = "*" + re.sub(r"<[^>]+>|\{[^}]+\}", "*", tail)
        return any(name == tail or name.endswith("/" + tail) or ("*" in pattern and fnmatch.fnmatchcase(name, pattern))
                   for name in tracked())
    return exists(clean)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"`|\*\*|\*|_(?=\w)|(?<=\w)_", "", heading.strip()).lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {slug(h) for h in HEADING.findall(text)}


def link_problems(doc: Path) -> list[str]:
    problems = []
    text = doc.read_text(encoding="utf-8")
    for target in LINK.findall(FENCE.sub("", text)):
        if URL.match(target) or target.startswith("mailto:"):
            continue
        path, _, anchor = target.partition("#")
        where = (doc.parent / path).resolve() if path else doc
        if not where.is_relative_to(REPO) or not exists(where.relative_to(REPO).as_posix()):
            problems.append(f"link ({target}) does not resolve")
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            problems.append(f"link ({target}): no heading #{anchor} in {where.relative_to(REPO)}")
    return problems


def path_problems(text: str, base: Path) -> list[str]:
    return [f"{token} does not exist" for token in dict.fromkeys(path_tokens(text)) if not resolves(token, base)]


def help_texts() -> dict[str, str]:
    from hzai_client.cli import build_parser  # the `hzai` command: library and service commands
    from hzai_server.config import parse_config

    parser = build_parser()
    texts = {"hzai --help": parser.format_help()}
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    for name, p in sub.choices.items():
        texts[f"hzai {name} --help"] = p.format_help()
    done = subprocess.run([__import__("sys").executable, "-m", "hzai_server", "--help"], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    texts["hzai-server --help"] = done.stdout
    assert parse_config  # the server's parser is importable here too
    return texts


# ----- the checker itself ------------------------------------------------------------


def test_path_tokens_find_repository_paths_and_skip_the_rest():
    text = ("see docs/rules.md, hzai/games/hera_zeus/data/classic.toml and `benchmarks/y.py`; the module hzai.games.hera_zeus.rules, "
            "https://example.com/docs/x.md, 2.5 minutes, e.g. a ratio 1.46x, version 3.11")
    assert path_tokens(text) == ["docs/rules.md", "hzai/games/hera_zeus/data/classic.toml", "benchmarks/y.py"]
    assert path_tokens("run tests/service/ then clients/node/suggest.js") == ["tests/service/", "clients/node/suggest.js"]
    assert path_tokens("[the rules](docs/rules.md), `.ci/run`, Node.js") == [".ci/run"]


def test_missing_paths_and_broken_links_are_reported(tmp_path):
    base = REPO / "docs"
    assert path_problems("read docs/rules.md and hzai/games/hera_zeus/data/classic.toml", base) == []
    assert path_problems("read docs/nowhere.md and benchmarks/y.py", base) == [
        "docs/nowhere.md does not exist", "benchmarks/y.py does not exist"]
    assert path_problems("the rules: rules.md, observed.py, hzai/_native*.so, benchmarks/results/<size>/", base) == []
    assert path_problems("lost.toml", base) == ["lost.toml does not exist"]
    doc = REPO / "docs" / "rules.md"
    assert link_problems(doc) == []
    fake = tmp_path / "x.md"
    fake.write_text("[a](nowhere.md) [b](../README.md)\n", encoding="utf-8")
    assert [p.split(")")[0] for p in link_problems(fake)] == ["link (nowhere.md", "link (../README.md"]


def test_anchors_follow_github_slugs():
    assert slug("What a seat sees") == "what-a-seat-sees"
    assert slug("The replay contract (command line)") == "the-replay-contract-command-line"
    assert slug("Game records: `hzai-record/1`") == "game-records-hzai-record1"
    assert "what-a-seat-sees" in anchors(REPO / "docs" / "notation.md")


# ----- the repository's documents ------------------------------------------------------


def test_the_expected_documents_are_checked():
    names = {p.relative_to(REPO).as_posix() for p in markdown_files()}
    assert {"README.md", "docs/rules.md", "docs/notation.md", "tests/rules/RULE_COVERAGE.md",
            "benchmarks/results/report.md"} <= names


@pytest.mark.parametrize("doc", markdown_files(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_markdown_mentions_only_existing_paths_and_links(doc):
    problems = path_problems(doc.read_text(encoding="utf-8"), doc.parent) + link_problems(doc)
    assert not problems, f"{doc.relative_to(REPO)}: " + "; ".join(problems)


def test_help_texts_mention_only_existing_paths():
    texts = help_texts()
    assert "hzai replay --help" in texts and "hzai-server --help" in texts
    problems = [f"{where}: {p}" for where, text in texts.items() for p in path_problems(text, REPO)]
    assert not problems, "; ".join(problems)


def card_table() -> dict[str, tuple[int | None, int]]:
    """The card table of docs/rules.md: name -> (strength, count)."""
    text = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    start = text.index("| card | strength |")
    rows = {}
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0]] = (None if cells[1] == "none" else int(cells[1]), int(cells[-1]))
    return rows


def test_the_card_table_of_rules_md_matches_the_classic_deck_file():
    import tomllib

    data = tomllib.loads((REPO / "hzai" / "games" / "hera_zeus" / "data" / "classic.toml").read_text(encoding="utf-8"))
    deck = {}
    for card in data["cards"]:
        name = card["name"] if isinstance(card["name"], str) else f"{card['name']['hera']} / {card['name']['zeus']}"
        deck[name] = (card.get("strength"), card["count"])
    assert card_table() == deck
    assert sum(count for _, count in deck.values()) == data["deck_size"] == 43


def test_nothing_in_the_repository_reaches_outside_it():
    """The rules and the notation live in docs/; no file points at a folder beside the
    repository (the project once read its rules text from a folder beside the checkout)."""
    outside = re.compile(r"\.\./shared|\bshared/(?:RULES|NOTATION)\.md|\bRULES\.md|\bNOTATION\.md")
    hits = []
    for name in sorted(tracked()):
        path = REPO / name
        if path.is_dir() or path.suffix not in {".py", ".md", ".toml", ".js", ".json", ".txt", ".cfg", ""} \
                or path == Path(__file__):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        hits += [f"{name}: {m.group(0)}" for m in outside.finditer(text)]
    assert not hits, hits


def seat_table() -> list[list[str]]:
    """The rows of the table in docs/notation.md, "What a seat sees", cells without backticks."""
    text = (REPO / "docs" / "notation.md").read_text(encoding="utf-8")
    section = text[text.index("## What a seat sees"):]
    start = section.index("| move in the record |")
    rows = []
    for line in section[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip("|").split("|")])
    return rows


def test_the_what_a_seat_sees_table_is_what_the_code_shows():
    """Each row of the table, replayed through hzai.games.hera_zeus.rules.observed for the three viewers."""
    from hzai.games.hera_zeus.rules import Game, Record, parse_move
    from hzai.games.hera_zeus.rules.observed import seen_text
    from hzai.games.hera_zeus.rules.position import Side, position

    def first(cell: str) -> str:
        return re.findall(r"`([^`]+)`", cell)[0]

    setup_state = Record(Game.create(), seed=1).start()  # Hera to set up
    played = position(hera=Side(columns=[["Satyr"], ["Harpy"]], hand=["Centaur", "Hydra", "Hydra@zeus"]),
                      zeus=Side(columns=[["Satyr"]]), turn=3, ap=2)
    rows = seat_table()
    assert len(rows) == 4
    for cells in rows[:3]:
        text = first(cells[0])
        state = setup_state if text.startswith("setup") else played
        move = parse_move(text, state.deck)
        shown = [seen_text(state, move, seat) for seat in (0, 1, None)]  # Hera moves
        assert shown == [first(c) for c in cells[1:]], (text, shown)
    public = re.findall(r"`([^`]+)`", rows[3][0])
    assert rows[3][1:] == ["as written"] * 3 and len(public) == 4
