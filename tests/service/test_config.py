"""Server settings: flags, HZAI_* environment variables, and refusals of bad values."""

import pytest

from dataclasses import replace

from hzai_server.config import ServerConfig, default_data_dir, parse_config, usable_cores


def test_defaults_listen_on_loopback():
    config = parse_config([], env={})
    # A config built in code is one process; the command line's default is the usable cores.
    assert config == replace(ServerConfig(), data_dir=default_data_dir({}), processes=usable_cores())
    assert config.address == "127.0.0.1:50051"


def test_the_data_directory_follows_xdg_and_the_environment():
    assert parse_config([], env={"XDG_DATA_HOME": "/srv/data"}).data_dir == "/srv/data/hzai"
    assert parse_config([], env={"HZAI_DATA_DIR": "/var/lib/hzai"}).data_dir == "/var/lib/hzai"
    assert parse_config(["--data-dir", ":memory:"], env={}).data_dir == ":memory:"
    assert default_data_dir({}).endswith("/.local/share/hzai")


def test_environment_sets_defaults_and_flags_win():
    env = {"HZAI_ADDRESS": "127.0.0.1:6000", "HZAI_MAX_SEARCHES": "3", "HZAI_MATCH_TTL": "60"}
    config = parse_config(["--max-searches", "5"], env=env)
    assert config.address == "127.0.0.1:6000"
    assert config.max_searches == 5
    assert config.match_ttl == 60.0


@pytest.mark.parametrize("argv, env", [
    (["--max-searches", "0"], {}),
    (["--workers", "many"], {}),
    ([], {"HZAI_MAX_ITERATIONS": "lots"}),
    (["--default-iterations", "10", "--max-iterations", "5"], {}),
    (["--log-level", "chatty"], {}),
    (["--address", "nonsense"], {}),
    (["--address", "127.0.0.1:99999"], {}),
    (["--sweep-interval", "0"], {}),
    (["--max-matches-per-client", "0"], {}),
    (["--finished-ttl", "0"], {}),
    ([], {"HZAI_FINISHED_TTL": "nan"}),
    (["--max-finished", "0"], {}),
    (["--match-cache", "0"], {}),
])
def test_bad_settings_exit_with_status_2(argv, env, capsys):
    with pytest.raises(SystemExit) as stop:
        parse_config(argv, env=env)
    assert stop.value.code == 2
    assert "hzai-server: error:" in capsys.readouterr().err


def test_a_port_in_use_is_one_log_line_and_exit_1(server):
    """A second server on the first one's port says so in one line, and nothing else
    (no gRPC core log line before it)."""
    import json
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "hzai_server", "--address", server.address],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr
    event = json.loads(lines[0])
    assert event["event"] == "cannot start" and event["level"] == "error"
    assert f"cannot listen on {server.address}" in event["error"] and "in use" in event["error"]
    assert run.stdout == ""


def test_every_budget_is_capped_in_wall_time():
    from hzai_proto.v3 import bot_pb2, common_pb2
    from hzai_server.convert import limits_from_proto

    config = ServerConfig(max_millis=500, default_iterations=300)
    assert limits_from_proto(common_pb2.Budget(iterations=10_000), config).millis == 500
    assert limits_from_proto(common_pb2.Budget(millis=200), config).millis == 200
    default = limits_from_proto(None, config)
    assert (default.iterations, default.millis, default.threads) == (300, 500, 1)


def test_an_unusable_match_database_is_one_log_line_and_exit_1(tmp_path):
    import json
    import subprocess
    import sys

    (tmp_path / "matches.sqlite3").write_text("not a database")
    run = subprocess.run([sys.executable, "-m", "hzai_server", "--address", "127.0.0.1:0", "--data-dir", str(tmp_path)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    events = [json.loads(line) for line in run.stderr.splitlines() if line.startswith("{")]
    assert events[-1]["event"] == "cannot start" and "matches.sqlite3" in events[-1]["error"]


def test_the_store_is_sqlite_by_default_or_a_postgresql_url():
    assert parse_config([], env={}).store == ""
    url = "postgresql://hzai:secret@db:5432/hzai"
    assert parse_config(["--store", url], env={}).store == url
    assert parse_config([], env={"HZAI_STORE": "postgres://h/db"}).store == "postgres://h/db"


def test_a_bad_store_is_refused_without_repeating_it(capsys):
    with pytest.raises(SystemExit) as stop:
        parse_config(["--store", "mysql://root:hunter2@db/x"], env={})
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--store must be empty" in err and "hunter2" not in err


def test_help_never_shows_the_store_url(capsys):
    with pytest.raises(SystemExit):
        parse_config(["--help"], env={"HZAI_STORE": "postgresql://u:hunter2@db/x"})
    out = capsys.readouterr().out
    assert "--store" in out and "hunter2" not in out


def test_an_unreachable_postgresql_store_stops_the_server_with_one_line(tmp_path):
    import subprocess
    import sys

    url = f"postgresql://nobody@/none?host={tmp_path}"  # no server on that socket
    run = subprocess.run([sys.executable, "-m", "hzai_server", "--address", "127.0.0.1:0", "--store", url],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    lines = [line for line in run.stderr.splitlines() if "cannot start" in line]
    assert len(lines) == 1 and "cannot open the match database" in lines[0] and "Traceback" not in run.stderr


@pytest.mark.parametrize("processes", ["1", "2"])
def test_a_game_name_two_distributions_claim_stops_the_server_in_one_line(tmp_path, processes):
    """An installed distribution that gives one of hzai's game names another factory
    (a DuplicateGameError) stops the start with a 'cannot start' line naming both, never a
    traceback: one process says so once, a supervisor's first failing worker too."""
    import os
    import subprocess
    import sys

    info = tmp_path / "otherdist-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: otherdist\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[hzai.games]\nhera_zeus = othergame:make\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))}
    run = subprocess.run([sys.executable, "-m", "hzai_server", "--address", "127.0.0.1:0", "--metrics-address", "",
                          "--processes", processes], capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    lines = [line for line in run.stderr.splitlines() if "cannot start" in line]
    named = [line for line in lines if "'hera_zeus' is declared twice" in line and "othergame:make" in line]
    # one process says it; of a supervisor's workers, at least the first to fail (the
    # supervisor stops the others, which may not get to say it)
    assert named and len(named) <= int(processes), run.stderr
