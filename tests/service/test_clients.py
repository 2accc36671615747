"""The clients on hzai.v3: asyncio Python, the hzai command line (suggest, analyze, play)
and the Node.js client, each against the running server."""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import shutil
import subprocess
import sys

import grpc
import pytest

from hzai.search.levels import MAX_LEVEL
from hzai_client.cli import main as hzai_main

from tests.machine_lock import machine_lock

from .conftest import REPO

NODE_CLIENT = REPO / "clients" / "node"
NPM_CI = ["ci", "--prefix", str(NODE_CLIENT), "--no-audit", "--no-fund"]


def node_packages_installed() -> bool:
    return (NODE_CLIENT / "node_modules" / "@grpc" / "grpc-js").is_dir()


@pytest.fixture(scope="session")
def node() -> str:
    """Node.js with the client's packages: `npm ci` runs once when they are missing, so a
    fresh clone needs no separate install step. Under a lock: test workers running at
    once must not run `npm ci` into one folder together (it deletes node_modules first)."""
    node = shutil.which("node")
    if not node:
        pytest.fail("Node.js is needed for the second-language client (clients/node): install node and npm")
    with machine_lock("npm-" + hashlib.sha256(str(NODE_CLIENT).encode()).hexdigest()[:12]):  # this checkout's folder
        if not node_packages_installed():
            npm = shutil.which("npm")
            if not npm:
                pytest.fail("npm is needed to install the Node.js client's packages (npm ci --prefix clients/node)")
            done = subprocess.run([npm, *NPM_CI], capture_output=True, text=True, timeout=600)
            if done.returncode != 0:
                pytest.fail("`npm ci --prefix clients/node --no-audit --no-fund` failed (is the npm registry reachable?): "
                            + (done.stderr.strip().splitlines() or ["no output"])[-1])
    return node


def legal(record) -> set[str]:
    return {str(m) for m in record.replay().legal_moves()}


def test_asyncio_client(server, midgame):
    from hzai_client import AsyncHzaiClient

    async def run():
        async with AsyncHzaiClient(server.address, timeout=30) as client:
            assert await client.health() == "SERVING"
            replies = await asyncio.gather(*(client.suggest_move(midgame.to_json(), game="hera_zeus", bot="heuristic",
                                                                 seed=s) for s in range(2)))  # the limit is 2
            reports = [a async for a in client.analyze_stream(midgame.to_json(), game="hera_zeus", iterations=1000,
                                                              progress_every=250)]
            created = await client.create_match(game="hera_zeus", bot_seats=[0, 1], bot="random")
            status = created.status
            while not status.over:
                status = (await client.bot_play_turn(status.match_id, token=created.spectator_token,
                                                     move_number=status.moves_played)).status
            try:
                await client.suggest_move("{", game="hera_zeus", bot="random")
            except grpc.aio.AioRpcError as exc:
                code = exc.code()
            return replies, reports, status, code

    replies, reports, status, code = asyncio.run(run())
    assert all(r.move.text in legal(midgame) for r in replies)
    assert reports[-1].finished and not reports[0].finished
    assert status.over and status.result and len(status.returns) == 2
    assert code == grpc.StatusCode.INVALID_ARGUMENT


def test_hzai_suggest_and_analyze_on_the_command_line(server, midgame, tmp_record, capsys):
    path = str(tmp_record(midgame.to_json()))
    assert hzai_main(["suggest", path, "--server", server.address, "--bot", "heuristic", "--seed", "1"]) == 0
    move = capsys.readouterr().out.strip()
    assert move in legal(midgame)
    assert hzai_main(["suggest", path, "--server", server.address, "--budget", "300", "--json"]) == 0
    reply = json.loads(capsys.readouterr().out)
    assert reply["move"]["text"] in legal(midgame) and reply["bot"] == "ismcts"
    assert ["hera", "zeus"][reply.get("seat", 0)] == reply["seat_name"]  # the seat to move, by index and name
    assert not [key for key in reply if any(c.isupper() for c in key)]  # the field names of the protos, as --json elsewhere
    assert hzai_main(["analyze", path, "--server", server.address, "--budget", "400", "--json"]) == 0
    analysis = json.loads(capsys.readouterr().out)
    assert analysis["iterations"] == "400" and analysis["best"]["text"] in legal(midgame)
    assert hzai_main(["analyze", path, "--server", server.address, "--budget", "8000", "--stream", "--every", "1000"]) == 0
    out = capsys.readouterr().out
    assert out.count("... ") >= 2 and "8000 iterations" in out
    assert hzai_main(["analyze", path, "--server", server.address, "--budget", "300", "--belief", "100", "--top", "2"]) == 0
    out = capsys.readouterr().out
    assert "values are " + ["hera", "zeus"][midgame.replay().current_seat] + "'s expected result" in out
    assert re.search(r"Where the hidden cards probably are, as (hera|zeus) sees it \(100 samples\):\n  ", out)
    # --game names the game; a record of a format no game of the server writes needs it
    assert hzai_main(["suggest", path, "--server", server.address, "--game", "hera_zeus", "--bot", "random"]) == 0
    assert capsys.readouterr().out.strip() in legal(midgame)


def test_command_line_errors_are_one_line(server, midgame, tmp_record, capsys):
    path = str(tmp_record(midgame.to_json()))
    cases = [
        (["suggest", path, "--server", server.address, "--budget", "5000000"], 2,
         "--budget: 5000000 is over this server's limit"),
        (["suggest", path, "--server", server.address, "--budget", "lots"], 2, "--budget"),
        (["suggest", path, "--server", server.address, "--bot", "nobody"], 2, "unknown bot"),
        (["suggest", path, "--server", server.address, "--level", str(MAX_LEVEL + 1)], 2,
         f"--level: must be a whole number 1..{MAX_LEVEL}, not {MAX_LEVEL + 1}"),
        (["suggest", path, "--server", server.address, "--level", "weak"], 2,
         f"--level: must be a whole number 1..{MAX_LEVEL}, not 'weak'"),
        (["suggest", path, "--server", server.address, "--level", "2", "--bot", "random"], 2,
         "level: a level is of the ismcts bot, not 'random'"),
        (["suggest", str(tmp_record("{oops", "bad.json")), "--server", server.address], 2, "not valid JSON"),
        (["suggest", str(tmp_record({"format": "chess/1", "moves": []}, "chess.json")), "--server", server.address], 2,
         "no game of this server writes records of format 'chess/1'; give --game"),
        (["suggest", path, "--server", server.address, "--game", "chess"], 2, "position.game"),
        (["suggest", path + ".missing", "--server", server.address], 2, "cannot read"),
        (["suggest", str(tmp_record([1, 2], "list.json")), "--server", server.address], 2,
         "a record is a JSON object, not list"),
        (["analyze", str(tmp_record({"format": 7}, "odd.json")), "--server", server.address], 2,
         "no game of this server writes records of format 7"),
        (["analyze", path, "--server", server.address, "--c", "1.5"], 2,
         "--c sets the search run here; with --server the service analyzes with its own settings"),
        (["analyze", path, "--server", server.address, "--tree", "multi", "--prior", "2"], 2,
         "--tree, --prior set the search run here"),
        (["suggest", path, "--server", server.address, "--bot", "ismcts-v1"], 2,
         "bot 'ismcts-v1' is not offered by the service"),
        (["suggest", path, "--server", "127.0.0.1:1", "--timeout", "0.5"], 1, "no hzai-server answers at 127.0.0.1:1"),
        (["analyze", path, "--server", "127.0.0.1:1", "--timeout", "0.5"], 1, "no hzai-server answers"),
    ]
    for argv, code, words in cases:
        assert hzai_main(argv) == code, argv
        err = capsys.readouterr().err
        assert words in err, (argv, err)
        assert "Traceback" not in err
        assert err.startswith(f"hzai {argv[0]}: ")


def test_hzai_play_from_standard_input(server):
    # Lines from a pipe work as from a terminal; the whole game is in test_play_terminal.py.
    script = "999\nplay Kraken c1r1\nhelp\nmoves\n1\n"
    run = subprocess.run(
        [sys.executable, "-m", "hzai_client.cli", "play", "--server", server.address, "--bot", "random", "--seed", "5"],
        input=script, capture_output=True, text=True, timeout=60,
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "Hera and Zeus: you play Hera; the bot (random) plays Zeus." in out and "Type 'help'" in out
    assert re.search(r"no move 999: 'moves' numbers them 1 to \d+\. Type 'help' for the commands\.", out)
    assert "Not played: play Kraken c1r1: " in out and "Kraken" in out.split("Not played: play Kraken c1r1: ")[1]
    assert "Commands:" in out and re.search(r"  setup       \d+ moves: \w+ … \[1-\d+\] · ", out)
    assert re.search(r"hera \[\d+ moves\]> ", out)
    assert "  You: setup " in out or "You set up" in out  # move 1 of the listing was played and narrated
    assert "You left the game; it is not finished." in out
    assert run.stderr == ""


def served_games(client) -> str:
    """The games the server lists, in its order: what its 'no such game' messages name."""
    return ", ".join(info.name for info in client.list_games())


def test_hzai_play_rejects_bad_options_in_one_line(server, client):
    cases = [(["--param", "first_player=apollo"], "first_player"),
             (["--variant", "first_player=apollo"], "first_player"),
             (["--game", "chess"], f"this server plays no game 'chess'; it plays {served_games(client)}"),
             (["--as", "poseidon"], "hera_zeus has no seat 'poseidon'; its seats are 0 hera, 1 zeus"),
             (["--param", "turn_limit"], "--param: write NAME=VALUE, not 'turn_limit'"),
             (["--level", "0"], f"--level: must be a whole number 1..{MAX_LEVEL}, not 0")]
    for flags, words in cases:
        run = subprocess.run([sys.executable, "-m", "hzai_client.cli", "play", "--server", server.address, *flags],
                             input="", capture_output=True, text=True, timeout=60)
        assert run.returncode == 2, (flags, run.stderr)
        assert words in run.stderr and "Traceback" not in run.stderr, (flags, run.stderr)


def test_hzai_play_takes_a_seat_by_index(server):
    run = subprocess.run([sys.executable, "-m", "hzai_client.cli", "play", "--server", server.address, "--bot", "random",
                          "--seed", "5", "--as", "1"], input="quit\n", capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "you play Zeus; the bot (random) plays Hera." in run.stdout
    assert re.search(r"zeus \[\d+ moves\]> ", run.stdout)


def test_hzai_suggest_and_play_at_a_level(server, midgame, tmp_record, capsys):
    from hzai.search import Limits
    from hzai.search.levels import LevelBot

    path = str(tmp_record(midgame.to_json()))
    state = midgame.replay()
    expected = LevelBot(2).decide(state.view(state.current_seat), Limits(iterations=300), seed=4).move
    for _ in range(2):
        assert hzai_main(["suggest", path, "--server", server.address, "--budget", "300", "--seed", "4",
                          "--level", "2", "--json"]) == 0
        reply = json.loads(capsys.readouterr().out)
        assert reply["move"]["text"] == str(expected) and reply["level"] == 2 and reply["bot"] == "level"
    run = subprocess.run([sys.executable, "-m", "hzai_client.cli", "play", "--server", server.address, "--seed", "5",
                          "--budget", "100", "--level", "3"], input="1\nquit\n", capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    assert f"you play Hera; the bot (ismcts, level 3 of {MAX_LEVEL}) plays Zeus." in run.stdout
    assert "You left the game" in run.stdout and run.stderr == ""


def test_node_client_gets_a_legal_move(server, midgame, tmp_record, node):
    path = str(tmp_record(midgame.to_json()))
    for bot in ("heuristic", "ismcts"):
        run = subprocess.run([node, str(NODE_CLIENT / "suggest.js"), path, "--server", server.address,
                              "--bot", bot, "--iterations", "300", "--seed", "2"],
                             capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr
        assert run.stdout.strip() in legal(midgame)
    bad = dict(midgame.to_json(), moves=["draw"])
    run = subprocess.run([node, str(NODE_CLIENT / "suggest.js"), str(tmp_record(bad, "bad.json")),
                          "--server", server.address], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "INVALID_ARGUMENT" in run.stderr and "position.record_json.moves[0]" in run.stderr
    # the game found by the record's format, or named; a format no game writes needs --game
    run = subprocess.run([node, str(NODE_CLIENT / "suggest.js"), path, "--server", server.address, "--game", "hera_zeus",
                          "--bot", "random", "--json"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    reply = json.loads(run.stdout)
    assert reply["move"]["text"] in legal(midgame) and reply["seat_name"] in ("hera", "zeus")
    other = str(tmp_record({"format": "chess/1", "moves": []}, "other.json"))
    run = subprocess.run([node, str(NODE_CLIENT / "suggest.js"), other, "--server", server.address],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and 'no game of this server writes records of format "chess/1"' in run.stderr


def test_node_client_plays_a_hosted_match_with_its_token(server, client, node):
    run = subprocess.run([node, str(NODE_CLIENT / "match.js"), "--server", server.address, "--bot", "random"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("0: you: setup ") and "1: Zeus: setup ? ? ?" in lines
    assert any(line.startswith("over: ") for line in lines)
    assert lines[-1].startswith("commitment verified: sha256(")
    created = client.create_match(game="hera_zeus", bot_seats=[1], bot="random")
    match_id, token = created.status.match_id, created.seats[0].token
    legal_texts = {m.text for m in client.legal_moves(match_id, token=token)}
    run = subprocess.run([node, str(NODE_CLIENT / "suggest.js"), "--match", match_id, "--token", token,
                          "--server", server.address, "--bot", "random"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() in legal_texts
    run = subprocess.run([node, str(NODE_CLIENT / "suggest.js"), "--match", match_id, "--token", "x" * 32,
                          "--server", server.address], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "PERMISSION_DENIED" in run.stderr
    client.delete_match(match_id, token=token)


def test_node_match_plays_the_seat_it_is_given(server, client, node):
    run = subprocess.run([node, str(NODE_CLIENT / "match.js"), "--server", server.address, "--bot", "random",
                          "--seat", "zeus"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    moves = [line for line in run.stdout.splitlines() if not line.startswith("    ")]  # narration is indented
    assert moves[0] == "0: Hera: setup ? ? ?" and moves[1].startswith("1: you: setup ")
    lines = run.stdout.splitlines()
    assert lines[-1].startswith("commitment verified: sha256(")
    for flags, words in ((["--seat", "poseidon"], 'no seat "poseidon": the seats are 0 hera, 1 zeus'),
                         (["--game", "chess"], f'this server plays no game "chess" (it plays {served_games(client)})')):
        run = subprocess.run([node, str(NODE_CLIENT / "match.js"), "--server", server.address, *flags],
                             capture_output=True, text=True, timeout=60)
        assert run.returncode == 2 and words in run.stderr, run.stderr


def test_node_clients_ask_for_a_level(server, midgame, tmp_record, client, node):
    path = str(tmp_record(midgame.to_json()))
    expected = client.suggest_move(midgame.to_json(), iterations=200, seed=3, level=2).move.text
    run = subprocess.run([node, str(NODE_CLIENT / "suggest.js"), path, "--server", server.address, "--iterations", "200",
                          "--seed", "3", "--level", "2", "--json"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    reply = json.loads(run.stdout)
    assert reply["move"]["text"] == expected and reply["level"] == 2
    run = subprocess.run([node, str(NODE_CLIENT / "suggest.js"), path, "--server", server.address,
                          "--level", str(MAX_LEVEL + 1)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and f"level: {MAX_LEVEL + 1} is not a strength level" in run.stderr
    run = subprocess.run([node, str(NODE_CLIENT / "match.js"), "--server", server.address, "--bot", "ismcts",
                          "--iterations", "40", "--level", "1"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1].startswith("commitment verified: sha256(")


# ----- a game these clients have no code for ---------------------------------------------
@pytest.fixture(scope="module")
def toy_server():
    """A server that also plays the toy game of tests/toygame/, loaded as a plugin."""
    from .conftest import ServerProcess

    srv = ServerProcess("--load-games", "tests.toygame.plugin", "--max-searches", "2", "--default-iterations", "100")
    yield srv
    srv.stop()


TOY_MOVES = {"bet", "fold", "call", "guess 1", "guess 2", "guess 3"}


def test_hzai_play_plays_a_game_it_has_no_code_for(toy_server, tmp_path):
    saved = tmp_path / "toy.json"
    script = "moves\n1\n" * 4  # `moves`, then the first move listed, until the game ends
    run = subprocess.run([sys.executable, "-m", "hzai_client.cli", "play", "--server", toy_server.address,
                          "--game", "toy_guess", "--as", "second", "--bot", "random", "--seed", "4", "--save",
                          str(saved)], input=script, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "Toy guess: you play Second; the bot (random) plays First." in out
    assert '"seat": "second"' in out  # the server's board for the seat (the toy game draws its view)
    assert re.search(r"second \[\d+ moves\]> ", out) and "Legal moves (" in out
    assert "Game over: " in out and f"Saved the game record (toy_guess-record/1) to {saved}." in out
    # no narration from this game: the ending line is ours, with the seat's own result
    assert re.search(r"Game over: (first wins|second wins|draw)\b[^\n]*\. (You won|You lost|A draw)\.", out), out
    record = json.loads(saved.read_text())
    assert record["format"] == "toy_guess-record/1" and record["seed"] == 4
    assert record["moves"] and set(record["moves"]) <= TOY_MOVES
    assert run.stderr == ""


def test_the_node_clients_play_a_game_they_have_no_code_for(toy_server, tmp_record, node):
    run = subprocess.run([node, str(NODE_CLIENT / "match.js"), "--server", toy_server.address, "--game", "toy_guess",
                          "--seat", "1"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].split(": ", 1)[0] == "0" and lines[0].split(": ")[1] in ("First", "you")
    assert any(line.startswith("over: ") for line in lines) and lines[-1].startswith("commitment verified")
    path = str(tmp_record({"format": "toy_guess-record/1", "seed": 3, "moves": ["bet"]}, "toy.json"))
    run = subprocess.run([node, str(NODE_CLIENT / "suggest.js"), path, "--server", toy_server.address, "--bot", "random",
                          "--json"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    reply = json.loads(run.stdout)  # the game found by the record's format alone
    assert reply["seat_name"] == "second" and reply["move"]["text"] in TOY_MOVES


def test_hzai_play_loads_a_game_into_its_embedded_server(tmp_path):
    run = subprocess.run([sys.executable, "-m", "hzai_client.cli", "play", "--game", "toy_guess", "--load-games",
                          "tests.toygame.plugin", "--bot", "random", "--seed", "2"], input="1\n" * 4,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "Toy guess: you play First; the bot (random) plays Second." in run.stdout and "Game over: " in run.stdout
    for flags, words in ((["--load-games", "no_such_module_here"], "--load-games: cannot import 'no_such_module_here'"),
                         (["--load-games", "tests.toygame.plugin", "--server", "127.0.0.1:1"],
                          "--load-games is for the embedded server")):
        run = subprocess.run([sys.executable, "-m", "hzai_client.cli", "play", *flags], input="", capture_output=True,
                             text=True, timeout=60)
        assert run.returncode == 2 and words in run.stderr and "Traceback" not in run.stderr, run.stderr


def test_a_cooperative_three_seat_game_in_the_terminal_and_from_node(toy_server, node):
    run = subprocess.run([sys.executable, "-m", "hzai_client.cli", "play", "--server", toy_server.address, "--game",
                          "toy_team", "--as", "b", "--bot", "random", "--seed", "3"], input="moves\n1\n" * 3,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "Toy team: you play B; the bot (random) plays A, C." in out and "  A: " in out
    assert re.search(r"b \[\d+ moves\]> ", out) and "  show        [" in out
    assert re.search(r"Game over: (won|lost)\. Your team (won|lost)\.", out)
    run = subprocess.run([node, str(NODE_CLIENT / "match.js"), "--server", toy_server.address, "--game", "toy_team",
                          "--seat", "c"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert [line.split(": ")[1] for line in lines[:3]] == ["A", "B", "you"]
    assert re.match(r"over: (won|lost) after 3 moves", lines[3]) and lines[-1].startswith("commitment verified")


# ----- analysis of whole games and chosen moves ------------------------------------------
def test_analyze_game_through_the_server_prints_the_table_of_the_review_here(server, midgame, tmp_record, capsys):
    path = str(tmp_record(midgame.to_json()))
    assert hzai_main(["analyze-game", path, "--budget", "200", "--seed", "3", "--quiet"]) == 0
    here = capsys.readouterr().out
    assert hzai_main(["analyze-game", path, "--budget", "200", "--seed", "3", "--quiet", "--server",
                      server.address]) == 0
    there = capsys.readouterr().out
    assert there == here and "decisions, value lost" in here
    assert hzai_main(["analyze-game", path, "--budget", "200", "--as", "zeus", "--quiet", "--json",
                      "--server", server.address]) == 0
    rows = __import__("json").loads(capsys.readouterr().out)
    assert rows and {r["seat"] for r in rows} == {"zeus"}


def test_analyze_allow_and_avoid_here_and_through_the_server(server, midgame, tmp_record, capsys):
    path = str(tmp_record(midgame.to_json()))
    chosen = sorted(legal(midgame))[:2]
    for where in ([], ["--server", server.address]):
        args = ["analyze", path, "--budget", "200", "--json", *where]
        assert hzai_main([*args, "--allow", chosen[0], "--allow", chosen[1]]) == 0
        answer = __import__("json").loads(capsys.readouterr().out)
        texts = {m["move"] if isinstance(m.get("move"), str) else m["move"]["text"] for m in answer["moves"]}
        assert texts == set(chosen)
        assert hzai_main([*args, "--avoid", "fly away"]) == 2
        assert "'fly away'" in capsys.readouterr().err


def test_node_analyze_game_streams_one_row_a_decision(server, midgame, tmp_record, node):
    path = str(tmp_record(midgame.to_json()))
    run = subprocess.run([node, str(NODE_CLIENT / "analyze_game.js"), path, "--server", server.address,
                          "--iterations", "200", "--seed", "3", "--seat", "hera"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    rows = lines[1:-1]
    assert rows and all(line.split()[1] == "hera" for line in rows)
    assert lines[-1] == f"{len(rows)} of {len(rows)} decisions analysed"
    bad = subprocess.run([node, str(NODE_CLIENT / "analyze_game.js"), path, "--server", server.address,
                          "--seat", "poseidon"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and 'no seat "poseidon"' in bad.stderr


def test_a_seat_view_sent_to_the_server_is_named(server, tmp_record, capsys):
    """What `hzai play --save` writes before the end is not a record: every command that
    sends a record to a server says what the file is, in one line, before any call."""
    path = str(tmp_record({"format": "hzai-seat-view/1", "game": "hera_zeus", "seat": "zeus", "moves": []},
                          "left.json"))
    for argv in (["suggest", path], ["analyze", path], ["analyze-game", path]):
        assert hzai_main([*argv, "--server", server.address]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "this is zeus's view of an unfinished game (hzai-seat-view/1" in err, err


def test_node_clients_take_the_budget_as_every_hzai_command_writes_it(server, midgame, tmp_record, client, node):
    """`--budget 300` is `--iterations 300` (same move for the same seed); a time budget
    reads; a malformed one, or one given twice, exits 2 naming --budget."""
    path = str(tmp_record(midgame.to_json()))
    expected = client.suggest_move(midgame.to_json(), iterations=300, seed=3).move.text

    def suggest(*flags):
        return subprocess.run([node, str(NODE_CLIENT / "suggest.js"), path, "--server", server.address, "--seed", "3",
                               "--json", *flags], capture_output=True, text=True, timeout=60)

    for flags in (["--budget", "300"], ["--iterations", "300"], ["--budget", "300,20s"]):
        run = suggest(*flags)
        assert run.returncode == 0, (flags, run.stderr)
        assert json.loads(run.stdout)["move"]["text"] == expected, flags
    run = suggest("--budget", "50ms")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["move"]["text"] in legal(midgame)
    for flags, words in ((["--budget", "5x"], '--budget: "5x" is not 1000, 250ms, 2s or 1000,250ms'),
                         (["--budget", "1.5ms"], "a time in whole milliseconds"),  # the wire would round it
                         (["--budget", "9999999s"], "a time in whole milliseconds"),  # or wrap it
                         (["--budget", "1000,0ms"], "a time in whole milliseconds"),
                         (["--budget", "300", "--iterations", "300"], "--budget and --iterations/--millis")):
        run = suggest(*flags)
        assert run.returncode == 2 and words in run.stderr, (flags, run.stderr)
