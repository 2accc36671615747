"""The Connect bridge of `hzai web` without a browser: the same messages as gRPC in
Connect's JSON form, the server's errors passed on with their codes, bad and hostile
requests refused with a reason, and nothing but the committed page served besides."""

from __future__ import annotations

import json
import struct
import urllib.error
import urllib.request

import pytest

from hzai.search.levels import MAX_LEVEL


def post(url: str, body: bytes, content_type: str = "application/json", headers: dict | None = None):
    request = urllib.request.Request(url, data=body, method="POST",
                                     headers={"Content-Type": content_type, **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=60) as reply:
            return reply.status, reply.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def rpc(web, method: str, message: dict, token: str | None = None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    status, body = post(f"{web.url}hzai.v3.{method}", json.dumps(message).encode(), headers=headers)
    return status, json.loads(body or b"{}")


def test_list_games_is_the_grpc_answer_in_json(web):
    from google.protobuf import json_format

    from hzai_client import HzaiClient
    from hzai_proto.v3 import bot_pb2

    status, body = rpc(web, "BotService/ListGames", {})
    assert status == 200
    reply = json_format.ParseDict(body, bot_pb2.ListGamesResponse())
    with HzaiClient(web.target, timeout=30) as client:
        assert list(reply.games) == list(client.list_games())
    assert "hera_zeus" in [g.name for g in reply.games]


def test_a_match_call_without_its_token_is_unauthenticated(web):
    status, created = rpc(web, "MatchService/CreateMatch", {"game": "hera_zeus", "botSeats": [1]})
    assert status == 200
    match_id = created["status"]["matchId"]
    status, body = rpc(web, "MatchService/GetView", {"matchId": match_id})
    assert status == 401 and body["code"] == "unauthenticated"
    status, body = rpc(web, "MatchService/GetView", {"matchId": match_id}, token="not-a-token")
    assert status == 403 and body["code"] == "permission_denied"
    token = created["seats"][0]["token"]
    status, body = rpc(web, "MatchService/PlayMove", {"matchId": match_id, "move": {"text": "play Kraken c1r1"}},
                       token=token)
    assert status == 400 and body["code"] == "invalid_argument" and "Kraken" in body["message"]
    status, body = rpc(web, "MatchService/GetView", {"matchId": match_id}, token=token)
    assert status == 200 and body["status"].get("movesPlayed", 0) == 0  # the refused move changed nothing


@pytest.mark.parametrize("body, reason", [
    (b"{not json", "request"),
    (b'{"matchId": 5}', "request"),
    (b'{"noSuchField": 1}', "noSuchField"),
    (b"\xff\xfe", "request"),
])
def test_a_malformed_request_names_what_is_wrong(web, body, reason):
    status, reply = post(f"{web.url}hzai.v3.MatchService/GetView", body)
    answer = json.loads(reply)
    assert status == 400 and answer["code"] == "invalid_argument" and reason in answer["message"], answer


NEW_DEAL = {"game": "hera_zeus", "recordJson": '{"format": "hzai-record/1", "seed": 1, "moves": []}'}


@pytest.mark.parametrize("method, message, named", [
    ("BotService/SuggestMove", {"position": NEW_DEAL, "level": "three"}, "level field"),
    ("BotService/SuggestMove", {"position": NEW_DEAL, "level": -1}, "level field"),
    ("BotService/SuggestMove", {"position": NEW_DEAL, "level": MAX_LEVEL + 1},
     f"level: {MAX_LEVEL + 1} is not a strength level: give 1..{MAX_LEVEL}"),
    ("MatchService/CreateMatch", {"game": "hera_zeus", "botSeats": [1], "botLevels": ["x"]}, "botLevels field"),
    ("MatchService/CreateMatch", {"game": "hera_zeus", "botSeats": [1], "botLevels": [MAX_LEVEL + 1]},
     f"bot_levels[0]: {MAX_LEVEL + 1}"),
])
def test_a_level_of_the_wrong_type_or_range_is_refused_naming_it(web, method, message, named):
    status, answer = rpc(web, method, message)
    assert status == 400 and answer["code"] == "invalid_argument" and named in answer["message"], answer


def test_a_hostile_size_is_refused_before_it_is_read_whole(web):
    huge = json.dumps({"position": {"game": "hera_zeus", "recordJson": "x" * (5 * 1024 * 1024)}}).encode()
    status, reply = post(f"{web.url}hzai.v3.BotService/Analyze", huge)
    answer = json.loads(reply)
    assert status != 200 and answer["code"] in ("resource_exhausted", "invalid_argument"), answer


def test_the_stream_reports_progress_then_the_final_analysis(web):
    request = {"position": {"game": "hera_zeus", "recordJson": json.dumps({"format": "hzai-record/1", "seed": 7,
                                                                           "moves": []})},
               "budget": {"iterations": "400"}, "progressEvery": "100"}
    payload = json.dumps(request).encode()
    status, body = post(f"{web.url}hzai.v3.BotService/AnalyzeStream", struct.pack(">BI", 0, len(payload)) + payload,
                        content_type="application/connect+json")
    assert status == 200
    frames = []
    while body:
        flags, size = struct.unpack(">BI", body[:5])
        frames.append((flags, json.loads(body[5:5 + size])))
        body = body[5 + size:]
    messages = [m["analysis"] for flags, m in frames if not flags & 2]
    assert frames[-1][0] & 2 and "error" not in frames[-1][1]  # the end of the stream, no error
    assert messages[-1]["finished"] and not any(m.get("finished") for m in messages[:-1])
    assert len(messages) >= 2


@pytest.mark.parametrize("path, status", [("/", 200), ("/app.js", 200), ("/style.css", 200), ("/favicon.ico", 200),
                                          ("/favicon.svg", 200), ("/nothing.js", 404),
                                          ("/../bridge.py", 404), ("/%2e%2e/bridge.py", 404), ("/static", 404)])
def test_only_the_committed_page_is_served(web, path, status):
    try:
        with urllib.request.urlopen(web.url.rstrip("/") + path, timeout=30) as reply:
            got, headers = reply.status, reply.headers
    except urllib.error.HTTPError as error:
        got, headers = error.code, error.headers
    assert got == status
    if status == 200:
        assert "default-src 'self'" in headers["Content-Security-Policy"]


def test_the_page_names_nothing_outside_loopback():
    from hzai_client.web.app import STATIC

    for file in STATIC.iterdir():
        text = file.read_text().replace("http://www.w3.org/2000/svg", "")  # SVG's namespace name, never fetched
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, file.name


def test_the_page_needs_nothing_its_policy_refuses():
    """default-src 'self' refuses inline scripts, inline event handlers and inline style
    attributes: none in the HTML, and no script writes markup or a style attribute (the
    browser tests catch the rest at run time, as console errors)."""
    import re

    from hzai_client.web.app import HEADERS, STATIC

    policy = dict(HEADERS)[b"content-security-policy"].decode()
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    html = (STATIC / "index.html").read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)", html)  # every script from a file
    assert not re.search(r"\sstyle=|<style|\son[a-z]+=", html)
    for file in STATIC.glob("*.js"):
        text = file.read_text()
        found = re.findall(r"innerHTML|outerHTML|insertAdjacentHTML|cssText|setAttribute\(\s*[\"']style|"
                           r"style:\s*[`\"']|\beval\(|new Function", text)
        assert not found, (file.name, found)


def test_web_refuses_an_address_that_is_not_loopback(capsys):
    from hzai_client.cli import main

    assert main(["web", "--host", "0.0.0.0"]) == 2
    assert "not a loopback address" in capsys.readouterr().err


def test_hzai_web_alone_embeds_a_server_and_stops_on_ctrl_c():
    import signal

    from tests.web.conftest import WebProcess

    page_server = WebProcess(None)
    try:
        assert "gRPC server 127.0.0.1:" in "".join(page_server.lines)
        status, body = rpc(page_server, "BotService/ListGames", {})
        assert status == 200 and "hera_zeus" in [g["name"] for g in body["games"]]
        page_server.process.send_signal(signal.SIGINT)
        assert page_server.process.wait(30) == 0
    finally:
        page_server.stop()
