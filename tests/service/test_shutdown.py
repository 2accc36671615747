"""SIGTERM: the server stops taking calls, lets running ones finish within the grace
period, logs it, and exits 0."""

import signal

from hzai_client import HzaiClient

from .conftest import ServerProcess, played_record


def test_sigterm_lets_a_running_search_finish_then_exits_cleanly():
    server = ServerProcess("--grace", "20")
    record = played_record(12, 24).to_json()
    try:
        with HzaiClient(server.address, timeout=30) as client:
            stream = client.analyze_stream(record, millis=1500, progress_every=64, seed=1)
            assert not next(stream).finished  # the search is running
            server.process.send_signal(signal.SIGTERM)
            final = list(stream)[-1]
            assert final.finished and final.best.text
        assert server.process.wait(30) == 0
    finally:
        server.stop()
    events = [e["event"] for e in server.logs]
    assert events.index("signal") < events.index("stopping") < events.index("stopped")
    assert all(e["level"] in ("debug", "info", "warning", "error") and e["ts"].endswith("Z") for e in server.logs)
    rpc = [e for e in server.logs if e["event"] == "rpc"]
    assert rpc and rpc[-1]["method"] == "AnalyzeStream" and rpc[-1]["code"] == "OK"
