"""The page draws from the typed messages: the Connect JSON of a view's `detail` (an Any,
"@type" beside its fields) read back by details.js into the drawings' shapes gives what
the game's view JSON says, for Hera and Zeus and for Legends; and a page whose answers
carry no View.json at all still draws both games' boards."""

from __future__ import annotations

import json
import urllib.request

from hzai.rng import SplitMix64

from tests.web.test_legends_browser import new_mission
from tests.web.test_page_rounds import start_hera_zeus


def connect(web, method: str, request: dict, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json", "Connect-Protocol-Version": "1"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    service = "MatchService"
    call = urllib.request.Request(f"{web.url.rstrip('/')}/hzai.v3.{service}/{method}", data=json.dumps(request).encode(),
                                  headers=headers, method="POST")
    with urllib.request.urlopen(call, timeout=60) as reply:
        return json.loads(reply.read())


def played_view(web, game: str, params: dict, moves: int) -> tuple[dict, list[str]]:
    """A hosted match of human seats played `moves` random moves in; the first seat's
    GetView answer (Connect JSON) and the seat names."""
    created = connect(web, "CreateMatch", {"game": game, "paramsJson": json.dumps(params), "seed": "5", "open": True})
    match_id, tokens = created["status"]["matchId"], {s.get("seat", 0): s["token"] for s in created["seats"]}
    rng = SplitMix64(3)
    status = created["status"]
    for _ in range(moves):
        if status.get("over") or "toMove" not in status:
            break
        token = tokens[status["toMove"]]
        legal = connect(web, "ListLegalMoves", {"matchId": match_id}, token)["moves"]
        status = connect(web, "PlayMove", {"matchId": match_id, "move": {"text": legal[rng.below(len(legal))]["text"]},
                                           "moveNumber": status.get("movesPlayed", 0)}, token)["status"]
    return connect(web, "GetView", {"matchId": match_id}, tokens[0])["view"], created["status"]["seats"]


ADAPT = """async ([view, seats]) => {
  const { drawingOf, typeOf } = await import('/details.js');
  return { type: typeOf(view.detail), drawing: drawingOf(view, seats) };
}"""


def test_a_legends_view_detail_reads_as_its_view_json(web, pages):
    view, seats = played_view(web, "legends", {"heroes": ["Perseus", "Atalanta", "Hercules"]}, 40)
    page = pages.open(web.url)
    got = page.evaluate(ADAPT, [view, seats])
    assert got["type"] == "hzai.v3.LegendsView" and got["drawing"]["kind"] == "legends"
    expected = json.loads(view["json"])
    expected.pop("game")
    assert got["drawing"]["view"] == expected
    assert all(isinstance(s["hand"], int) for name, s in got["drawing"]["view"]["seats"].items() if name != "p1")


def test_a_hera_zeus_view_detail_reads_as_its_view_json(web, pages):
    view, seats = played_view(web, "hera_zeus", {}, 30)
    page = pages.open(web.url)
    got = page.evaluate(ADAPT, [view, seats])
    assert got["type"] == "hzai.v3.HeraZeusView" and got["drawing"]["kind"] == "board"
    expected = json.loads(view["json"])

    def slot(s):  # the JSON's slot with the keys the board reads
        if s.get("card") == "figure":
            return {"card": "figure"}
        return {k: v for k, v in s.items() if k in ("card", "owner", "group", "face_up") or (k == "excluded" and v)}

    for name, side in expected["sides"].items():
        drawn = got["drawing"]["view"]["sides"][name]
        assert drawn["columns"] == [[slot(s) for s in column] for column in side["columns"]]
        assert drawn["hand"] == [slot(s) for s in side["hand"]]
        assert drawn["deck_size"] == side["deck_size"] and drawn["discard"] == side["discard"]
    assert [(g["owner"], g["known"]) for g in got["drawing"]["view"]["groups"]] == \
        [(g["owner"], g["known"]) for g in expected["groups"]]


def without_view_json(route):
    """GetView answered as the server answers it, less View.json."""
    reply = route.fetch()
    body = reply.json()
    if "view" in body:
        body["view"].pop("json", None)
    route.fulfill(response=reply, json=body)


def test_the_page_draws_both_games_from_the_typed_view_alone(web, pages):
    page = pages.open(web.url)
    page.route("**/hzai.v3.MatchService/GetView", without_view_json)
    start_hera_zeus(page)
    assert page.locator("#board .side.mine").count() == 1 and page.locator("#board .generic-board").count() == 0
    assert page.locator("#board .side.mine .handcard").count() > 0  # Hera's hand, named from the HeraZeusView
    page = pages.open(web.url)
    page.route("**/hzai.v3.MatchService/GetView", without_view_json)
    new_mission(page, web)
    assert page.locator("#board .legends").count() == 1 and page.locator("#board .generic-board").count() == 0
    assert page.locator(".lg-seat.mine .handcard").count() == 4
    assert page.locator(".lg-seat[data-seat=p2] .lg-count").get_attribute("data-hand-size") == "4"
