"""Hostile requests against a running hzai-server, counted by status code.

Every request type of BotService and MatchService, and of the health and reflection
services the server registers too, built valid and then mutated: huge,
zero and boundary numbers, long, control-character and non-UTF-8 strings, deeply nested
JSON, integers of thousands of digits, garbage and overlong records, random move texts,
bad bot options, truncated messages and raw random bytes. The server must answer every
one with a status other than INTERNAL or UNKNOWN (UNAVAILABLE would mean it died) and
still report SERVING at the end.

    python -m benchmarks.fuzz_soak --requests 10000 --seed 1     # starts its own server
    python -m benchmarks.fuzz_soak --address 127.0.0.1:50051     # or uses a running one

Prints the counts by status as JSON; exits 1 on any forbidden status.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter

import grpc

CONCERN = "service"  # its group in `python -m benchmarks list`

FORBIDDEN = ("INTERNAL", "UNKNOWN", "UNAVAILABLE")
BOT = "/hzai.v3.BotService/"
MATCH = "/hzai.v3.MatchService/"
HEALTH = "/grpc.health.v1.Health/"
REFLECTION = "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"
STREAMING = {BOT + "AnalyzeStream", BOT + "AnalyzeGame"}
FOREIGN = (HEALTH, REFLECTION)  # services the server registers that are not ours
GAMES = ["hera_zeus", "hera_zeus", "hera_zeus", ""]  # the records below are Hera and Zeus records

WORDS = ["setup", "play", "draw", "challenge", "pegasus", "hand", "front", "place", "pythia", "spy", "turn",
         "sirens", "hades", "persephone", "dionysus", "god", "recall", "top", "chance", "Hydra", "Cyclops",
         "Satyr", "Hero", "Amazon", "Medusa", "Pandora", "Pegasus", "Hera", "Zeus", "Hydra@zeus", "c1", "c3",
         "c4", "c1r1", "c3r4", "c9r9", "-", "@", "?"]
HOSTILE_SPECS = ["ismcts:c=abc", "ismcts:c=nan", "ismcts:c=inf", "ismcts:c=-1", "ismcts:c=1e308",
                 "pimc:worlds=x", "pimc:worlds=0", "pimc:worlds=200000", "pimc:worlds=-3", "ismcts:zzz=1",
                 "ismcts:c", "ismcts:playout=smart", "random:x=1", "heuristic", "random", "pimc:worlds=2",
                 "ismcts:c=0.5", ":", ",,,", "x" * 5000, "ismcts:" + "c=1," * 2000]


class Fuzzer:
    """Seeded requests (method path, message bytes, metadata)."""

    def __init__(self, seed: int, record: dict, match_id: str = "", tokens: dict | None = None):
        from hzai_proto.v3 import bot_pb2, common_pb2, hera_zeus_pb2, legends_pb2, match_pb2

        self.bot_pb2, self.common_pb2, self.match_pb2 = bot_pb2, common_pb2, match_pb2
        self.hera_zeus_pb2, self.legends_pb2 = hera_zeus_pb2, legends_pb2
        self.rng = random.Random(seed)
        self.record = record
        self.match_id = match_id
        self.tokens = tokens or {}

    # ----- hostile values -------------------------------------------------------------
    def number(self, bits: int) -> int:
        top = (1 << bits) - 1
        return self.rng.choice([0, 1, 2, 3, 7, 100, 4096, 1 << (bits - 1), top, top - 1, self.rng.randrange(top)])

    def small_budget(self):
        b = self.common_pb2.Budget(iterations=self.rng.choice([0, 1, 10, 50]), millis=self.rng.choice([0, 0, 1, 20]))
        if self.rng.random() < 0.3:  # hostile budgets; over the caps they are refused
            b.iterations = self.number(64)
            b.millis = self.number(32) if self.rng.random() < 0.5 else 0
            b.threads = self.number(32) if self.rng.random() < 0.5 else 0
        return b

    def text(self) -> str:
        r = self.rng.random()
        if r < 0.25:
            return " ".join(self.rng.choice(WORDS) for _ in range(self.rng.randint(1, 4)))
        if r < 0.4:
            return "x" * self.rng.choice([300, 5000, 100_000])
        if r < 0.55:
            return "".join(chr(self.rng.choice([0, 7, 10, 0x7F, 0xE9, 0x2028, 0xFFFD, 0x1F600])) for _ in range(20))
        if r < 0.7:
            return ""
        return "".join(chr(self.rng.randrange(32, 0x2FFF)) for _ in range(self.rng.randint(1, 40)))

    def record_json(self) -> str:
        r = self.rng.random()
        base = json.loads(json.dumps(self.record))
        if r < 0.08:
            return "[" * self.rng.choice([1000, 100_000]) + "]" * self.rng.choice([0, 1000])
        if r < 0.14:
            return '{"format": "hzai-record/1", "seed": ' + "7" * self.rng.choice([5000, 20_000]) + "}"
        if r < 0.2:
            return "".join(chr(self.rng.randrange(1, 0x7F)) for _ in range(self.rng.randint(0, 200)))
        if r < 0.3:
            base["moves"] = base["moves"][: self.rng.randrange(len(base["moves"]) + 1)] + [self.text()]
        elif r < 0.36:
            base["moves"] = ["draw"] * self.rng.choice([7000, 60_000, 100_000])
        elif r < 0.44:
            base.setdefault("variants", {})["turn_limit"] = self.rng.choice(
                [0, -1, 2**31, 2**63, 10**40, 1.5, "200", None, float("nan")])
        elif r < 0.5:
            base["seed"] = self.rng.choice([-1, 2**64, 2**64 - 1, 10**30, 1.5, "1", None, True, [1]])
            base.pop("setup", None)
        elif r < 0.58:
            key = self.rng.choice(["format", "moves", "variants", "deck", "setup", "seed", "extra"])
            base[key] = self.rng.choice([None, 1, -1, 2.5, "x" * 1000, [], {}, [[[]]], {"a": {"b": []}},
                                         float("inf"), "\udc80"])
        elif r < 0.64:
            base["moves"] = [self.rng.choice([1, None, [], {}, 2**70, "draw"]) for _ in range(5)]
        text = json.dumps(base, allow_nan=True)
        if self.rng.random() < 0.1:
            text = " " * self.rng.randrange(1000) + text + "\n" * self.rng.randrange(1000)
        return text

    def game(self) -> str:
        """Mostly the game of the records, sometimes none or one no server plays."""
        return self.rng.choice(GAMES + [self.text()])

    def position(self):
        p = self.common_pb2.Position(game=self.game())
        r = self.rng.random()
        if r < 0.6:
            p.record_json = self.record_json()
        elif r < 0.8:  # a typed record, of any game's type (the server refuses one not of its game)
            rec = self.legends_pb2.LegendsRecord(mission=self.number(32), seed=self.number(64))
            rec.heroes.extend(self.rng.choice(WORDS + [self.text()]) for _ in range(self.rng.randint(0, 6)))
            rec.moves.extend(self.text() for _ in range(self.rng.randint(0, 6)))
            p.record.Pack(rec)
        elif r < 0.85:
            rec = self.hera_zeus_pb2.HeraZeusRecord()
            if self.rng.random() < 0.5:
                rec.seed = self.number(64)
            else:
                rec.setup.hera.hand.extend(self.text() for _ in range(self.rng.randint(0, 12)))
                rec.setup.zeus.deck.extend(self.text() for _ in range(self.rng.randint(0, 12)))
            rec.moves.extend(self.text() for _ in range(self.rng.randint(0, 6)))
            if self.rng.random() < 0.4:
                rec.variants.turn_limit = self.number(32)
            if self.rng.random() < 0.2:
                rec.variants.first_player = self.text()
            if self.rng.random() < 0.2:
                rec.deck = self.text()
            p.record.Pack(rec)
        elif r < 0.95:
            p.match_id = self.match_id if self.rng.random() < 0.5 else self.text()
        return p

    def move(self):
        m = self.common_pb2.Move()
        r = self.rng.random()
        if r < 0.5:
            m.text = self.text()
        elif r < 0.8:
            m.action = self.number(32)
        else:  # the structured form is for responses; a request carrying it must still be answered
            d = self.hera_zeus_pb2.HeraZeusMove()
            d.kind = self.rng.choice(WORDS + [self.text()])
            d.col, d.row = self.number(32), self.number(32)
            d.to_col, d.to_row = self.rng.randrange(6), self.rng.randrange(6)
            d.card.name = self.rng.choice(WORDS + [self.text()])
            d.card.owner = self.rng.randrange(4)
            for _ in range(self.rng.randrange(5)):
                d.setup.add(name=self.rng.choice(WORDS), owner=self.rng.randrange(4))
            m.detail.Pack(d)
            if self.rng.random() < 0.5:
                m.text = self.text()
        return m

    def params_json(self) -> str:
        r = self.rng.random()
        if r < 0.3:
            return ""
        if r < 0.5:
            return self.record_json()  # JSON, but not parameters
        if r < 0.6:
            return self.text()
        params = {"turn_limit": self.rng.choice([0, 1, 60, 10_001, -1, 2**63, 1.5, "200", None])}
        if self.rng.random() < 0.4:
            params[self.rng.choice(["first_player", "figure_removal", "pythia_defence", "deck", "extra"])] = \
                self.rng.choice([self.text(), "zeus", "pegasus", 3, [], {}])
        return json.dumps(params)

    def seats(self) -> list[int]:
        return [self.rng.choice([0, 1, 1, 2, 5, 2**32 - 1]) for _ in range(self.rng.randrange(4))]

    def bot(self) -> str:
        return self.rng.choice(HOSTILE_SPECS + [self.text(), ""])

    # ----- requests -------------------------------------------------------------------
    def message(self, method: str):
        bot_pb2, match_pb2 = self.bot_pb2, self.match_pb2
        r = self.rng
        if method == "ListGames":
            return bot_pb2.ListGamesRequest()
        if method in ("SuggestMove",):
            return bot_pb2.SuggestMoveRequest(position=self.position(), budget=self.small_budget(),
                                              seed=self.number(64), bot=self.bot())
        if method == "AnalyzeGame":
            return bot_pb2.AnalyzeGameRequest(position=self.position(), budget=self.small_budget(),
                                              seed=self.number(64), seats=self.seats(), belief=r.random() < 0.2)
        if method in ("Check", "Watch"):
            from grpc_health.v1 import health_pb2

            return health_pb2.HealthCheckRequest(service=r.choice(["", "hzai.v3.BotService", self.text()]))
        if method == "List":
            from grpc_health.v1 import health_pb2

            return health_pb2.HealthListRequest()
        if method == "ServerReflectionInfo":
            from grpc_reflection.v1alpha import reflection_pb2

            request = reflection_pb2.ServerReflectionRequest(host=self.text())
            choice = r.randrange(4)
            if choice == 0:
                request.list_services = self.text()
            elif choice == 1:
                request.file_containing_symbol = r.choice(["hzai.v3.BotService", self.text()])
            elif choice == 2:
                request.file_by_filename = self.text()
            return request
        if method in ("Analyze", "AnalyzeStream"):
            return bot_pb2.AnalyzeRequest(position=self.position(), budget=self.small_budget(), seed=self.number(64),
                                          belief_samples=r.choice([0, 0, 1, 10, 5001, 2**32 - 1]),
                                          progress_every=r.choice([0, 1, 5, 2**32 - 1]))
        match_id = self.match_id if r.random() < 0.6 else self.text()
        seat = r.choice([None, 0, 1, 2, 2**32 - 1])
        if method == "CreateMatch":
            return match_pb2.CreateMatchRequest(game=self.game(), params_json=self.params_json(), bot_seats=self.seats(),
                                                seed=self.number(64), bot=self.bot(), budget=self.small_budget(),
                                                open=r.random() < 0.5)
        if method == "GetView":
            return match_pb2.GetViewRequest(match_id=match_id, seat=seat, with_history=r.random() < 0.5)
        if method == "ListLegalMoves":
            return match_pb2.ListLegalMovesRequest(match_id=match_id, seat=seat)
        if method == "PlayMove":
            req = match_pb2.PlayMoveRequest(match_id=match_id, seat=seat, move=self.move())
            if r.random() < 0.3:
                req.move_number = self.number(32)
            return req
        if method == "BotPlayTurn":
            req = match_pb2.BotPlayTurnRequest(match_id=match_id, seed=self.number(64))
            if r.random() < 0.3:
                req.move_number = self.number(32)
            return req
        if method == "DeleteMatch":
            return match_pb2.DeleteMatchRequest(match_id=self.text())  # never the shared match
        raise ValueError(method)

    def corrupt(self, data: bytes) -> bytes:
        r = self.rng.random()
        if r < 0.3:  # raw random bytes
            return bytes(self.rng.randrange(256) for _ in range(self.rng.randrange(200)))
        if r < 0.5 and data:  # truncated
            return data[: self.rng.randrange(len(data))]
        if r < 0.7 and data:  # flipped bytes
            out = bytearray(data)
            for _ in range(self.rng.randint(1, 8)):
                out[self.rng.randrange(len(out))] = self.rng.randrange(256)
            return bytes(out)
        # a string field holding bytes that are not UTF-8 (field 2 or 4 or 1, wire type 2)
        bad = b"\xff\xfe\xc3\x28" * self.rng.randint(1, 4)
        tag = self.rng.choice([0x0A, 0x12, 0x22, 0x2A])
        return data + bytes([tag, len(bad)]) + bad

    METHODS = [BOT + "ListGames", BOT + "SuggestMove", BOT + "Analyze", BOT + "AnalyzeStream", BOT + "AnalyzeGame",
               MATCH + "CreateMatch", MATCH + "GetView", MATCH + "ListLegalMoves", MATCH + "PlayMove",
               MATCH + "BotPlayTurn", MATCH + "DeleteMatch",
               HEALTH + "Check", HEALTH + "Watch", HEALTH + "List", REFLECTION]

    def request(self) -> tuple[str, bytes, list]:
        path = self.rng.choice(self.METHODS)
        data = self.message(path.rsplit("/", 1)[1]).SerializeToString()
        # Raw and broken bytes are most of what health and reflection get: nothing else
        # in their requests can be wrong.
        if self.rng.random() < (0.6 if path.startswith(FOREIGN) else 0.25):
            data = self.corrupt(data)
        metadata = []
        if self.tokens and self.rng.random() < 0.7:
            metadata = [("authorization", "Bearer " + self.rng.choice(list(self.tokens.values())))]
        elif self.rng.random() < 0.1:
            metadata = [("authorization", self.rng.choice(["Bearer", "Bearer " + "z" * 3000, "Basic abc", ""]))]
        return path, data, metadata


def call(channel: grpc.Channel, path: str, data: bytes, metadata, timeout: float = 10.0) -> str:
    """Send raw bytes; the status code's name."""
    try:
        if path == REFLECTION:
            for _ in channel.stream_stream(path, request_serializer=None, response_deserializer=None)(
                    iter([data]), timeout=timeout, metadata=metadata):
                pass
        elif path == HEALTH + "Watch":  # a good Watch streams until its deadline: its first answer is enough
            for _ in channel.unary_stream(path, request_serializer=None, response_deserializer=None)(
                    data, timeout=timeout, metadata=metadata):
                break
        elif path in STREAMING:
            for _ in channel.unary_stream(path, request_serializer=None, response_deserializer=None)(
                    data, timeout=timeout, metadata=metadata):
                pass
        else:
            channel.unary_unary(path, request_serializer=None, response_deserializer=None)(
                data, timeout=timeout, metadata=metadata)
    except grpc.RpcError as exc:
        return exc.code().name
    return "OK"


def shared_match(channel: grpc.Channel) -> tuple[str, dict]:
    """A match for the fuzzer to poke at, and the seat tokens its creation returned."""
    from hzai_proto.v3 import match_pb2, match_pb2_grpc

    reply = match_pb2_grpc.MatchServiceStub(channel).CreateMatch(
        match_pb2.CreateMatchRequest(game="hera_zeus", seed=3, open=True, bot_seats=[1], bot="random"), timeout=30)
    tokens = {seat.seat: seat.token for seat in getattr(reply, "seats", [])}
    return reply.status.match_id, tokens


def serving(channel: grpc.Channel) -> bool:
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=""), timeout=10)
    return reply.status == health_pb2.HealthCheckResponse.SERVING


def sample_record() -> dict:
    from hzai.rng import SplitMix64
    from hzai.games.hera_zeus.rules import Game, Record, deal

    game = Game.create()
    record = Record(game, setup=deal(game, 12))
    state = record.start()
    rng = SplitMix64(12)
    while len(record.moves) < 20 or state.is_chance:
        options = [m for m, _ in state.chance_outcomes()] if state.is_chance else state.legal_moves()
        move = options[rng.below(len(options))]
        state.push(move)
        record.moves.append(str(move))
    return record.to_json()


def soak(address: str, requests: int, seed: int, progress: bool = False) -> tuple[Counter, list]:
    """Counts by status, and (path, status) of the forbidden answers."""
    counts: Counter = Counter()
    bad = []
    options = [("grpc.max_send_message_length", 64 << 20), ("grpc.max_receive_message_length", 64 << 20)]
    with grpc.insecure_channel(address, options=options) as channel:
        match_id, tokens = shared_match(channel)
        fuzzer = Fuzzer(seed, sample_record(), match_id, tokens)
        for i in range(requests):
            path, data, metadata = fuzzer.request()
            code = call(channel, path, data, metadata)
            counts[code] += 1
            if code in FORBIDDEN:
                bad.append((i, path, code, data[:200]))
            if progress and (i + 1) % 1000 == 0:
                print(f"{i + 1} requests: {dict(counts)}", file=sys.stderr, flush=True)
        counts["serving_after"] = int(serving(channel))
    return counts, bad


# Small caps keep the searches the fuzzer asks for short; what matters is the answers.
SERVER_FLAGS = ["--max-searches", "2", "--max-iterations", "5000", "--max-millis", "400", "--default-iterations", "50",
                "--max-threads", "2", "--max-matches", "50", "--max-analysis-work", "2000"]


def internal_errors(server) -> int:
    """The `internal error` log lines of a LocalServer (each one a traceback)."""
    return sum(1 for line in server.log_path.read_text(errors="replace").splitlines() if '"internal error"' in line)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", help="a running server (default: start one on a free port)")
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", help="also write the counts to this JSON file")
    args = parser.parse_args(argv)
    result = {"requests": args.requests, "seed": args.seed}
    if args.address is None:
        from benchmarks.service import LocalServer

        with LocalServer(extra=SERVER_FLAGS) as server:
            counts, bad = soak(server.target, args.requests, args.seed, progress=True)
            result["internal_error_log_lines"] = internal_errors(server)
            result["rpc_log_lines"] = len(server.rpc_log())
    else:
        counts, bad = soak(args.address, args.requests, args.seed, progress=True)
    result["by_status"] = dict(sorted(counts.items()))
    result["forbidden"] = [{"index": i, "method": p, "code": c} for i, p, c, _ in bad]
    print(json.dumps(result, indent=1))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)
    return 1 if bad or not counts["serving_after"] or result.get("internal_error_log_lines") else 0


if __name__ == "__main__":
    sys.exit(main())
