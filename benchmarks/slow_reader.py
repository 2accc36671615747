"""The server's memory while an AnalyzeStream client reads slowly.

The client asks for a report every iteration (progress_every=1) of a large budget and
reads one message a second; the server's resident memory (VmRSS, Linux /proc) is
sampled each second. A server that queues every report for the reader grows without
bound; one that keeps only the latest stays flat. Not a test: nothing is asserted.

    python -m benchmarks.slow_reader --seconds 20                 # starts its own server
    python -m benchmarks.slow_reader --address HOST:PORT --pid PID --label before
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from pathlib import Path

import grpc

from benchmarks.harness import machine
from benchmarks.service import LocalServer

CONCERN = "service"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def measure(address: str, pid: int, seconds: int, every: int = 1) -> dict:
    from benchmarks.fuzz_soak import sample_record
    from hzai_proto.v3 import bot_pb2, bot_pb2_grpc, common_pb2

    request = bot_pb2.AnalyzeRequest(position=common_pb2.Position(game="hera_zeus", record_json=json.dumps(sample_record())),
                                     budget=common_pb2.Budget(iterations=1_000_000, millis=seconds * 1000 + 5000),
                                     progress_every=every, seed=1)
    samples = [round(rss_mb(pid), 1)]
    done = threading.Event()

    def sample() -> None:  # once a second, whether or not a message came
        while not done.wait(1.0):
            samples.append(round(rss_mb(pid), 1))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    read = 0
    last_iterations = 0
    start = time.monotonic()
    with grpc.insecure_channel(address) as channel:
        stream = bot_pb2_grpc.BotServiceStub(channel).AnalyzeStream(request, timeout=seconds + 60)
        try:
            for reply in stream:
                read += 1
                last_iterations = reply.analysis.iterations
                if time.monotonic() - start >= seconds:
                    break
                time.sleep(1.0)  # the slow reader
        finally:
            done.set()
            sampler.join()
            stream.cancel()
    time.sleep(1.0)
    return {"seconds": seconds, "progress_every": every, "messages_read": read, "iterations_at_last_read": last_iterations,
            "rss_mb_per_second": samples, "rss_mb_start": samples[0], "rss_mb_end": samples[-1],
            "rss_mb_peak": max(samples), "rss_mb_after_cancel": round(rss_mb(pid), 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address")
    parser.add_argument("--pid", type=int)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--label", default="after")
    parser.add_argument("--progress-every", type=int, default=1,
                        help="iterations between reports (a large value: the search tree's own growth alone)")
    parser.add_argument("--out", default=str(RESULTS / "slow_reader.json"))
    args = parser.parse_args(argv)
    if args.address:
        result = measure(args.address, args.pid, args.seconds, args.progress_every)
    else:
        with LocalServer(extra=["--max-millis", str(args.seconds * 1000 + 10_000)]) as server:
            result = measure(server.target, server.pid, args.seconds, args.progress_every)
    result["machine"] = machine()
    out = Path(args.out)
    runs = json.loads(out.read_text()) if out.exists() else {}
    runs[args.label] = result
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(runs, indent=1) + "\n")
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
