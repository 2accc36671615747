"""`hzai cluster up|status|down`: N hzai-server replicas behind nginx, sharing one
PostgreSQL, all on this machine, for trying a cluster out and for the tests.

    hzai cluster up --replicas 2      # prints the address to use (nginx's)
    hzai cluster status               # each part, up or down; exit 1 if one is down
    hzai cluster down                 # stops everything; the database stays for next time

Everything lives in one directory (--dir, default /tmp/hzai-cluster-UID): PostgreSQL's
data and socket (pg/), nginx's config, logs and pid (nginx/), each replica's log
(replica-N.log) and cluster.json, which says what runs where. Replicas listen on free
loopback ports; nginx on --port (default: a free one). Flags after `--` go to every
replica (e.g. `-- --max-searches 1`).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hzai_server.devcluster import Nginx, Postgres, ServiceError, free_port, pid_alive, wait_gone

STATE_FILE = "cluster.json"
REPLICA_START_S = 60.0
MAX_REPLICAS = 32


def default_directory() -> Path:
    return Path(tempfile.gettempdir()) / f"hzai-cluster-{os.getuid()}"


def _is_replica(pid: int) -> bool:
    """Whether `pid` is still an hzai-server (and not a process that took its number)."""
    try:
        return b"hzai_server" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def start_replica(directory: Path, index: int, store_url: str, flags: list[str]) -> dict:
    """One `python -m hzai_server` on a free loopback port, in a session of its own,
    logging to replica-INDEX.log; its pid and address once it listens."""
    log_path = directory / f"replica-{index}.log"
    with open(log_path, "w") as log_file:
        process = subprocess.Popen(
            [sys.executable, "-m", "hzai_server", "--address", "127.0.0.1:0", "--store", store_url,
             "--processes", "1", *flags],  # a replica is one process unless its flags say otherwise
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log_file, start_new_session=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + REPLICA_START_S
    while time.monotonic() < deadline:
        for line in log_path.read_text().splitlines():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            if entry.get("event") == "listening":
                return {"pid": process.pid, "address": entry["address"], "log": str(log_path)}
        if process.poll() is not None:
            break
        time.sleep(0.05)
    if process.poll() is None:
        process.kill()
    process.wait(10)
    raise ServiceError(f"replica {index} did not start: {log_path.read_text()[-800:]}")


def stop_replica(pid: int, sig: int = signal.SIGTERM, wait: float = 15.0) -> None:
    if not _is_replica(pid) or not pid_alive(pid):
        return
    os.kill(pid, sig)
    if not wait_gone(pid, wait) and _is_replica(pid):
        os.kill(pid, signal.SIGKILL)
        wait_gone(pid, 5)


class Cluster:
    def __init__(self, directory: str | os.PathLike | None = None):
        self.directory = Path(directory) if directory else default_directory()
        self.state_path = self.directory / STATE_FILE

    def state(self) -> dict | None:
        try:
            return json.loads(self.state_path.read_text())
        except (OSError, ValueError):
            return None

    def up(self, replicas: int = 2, port: int = 0, flags: list[str] = (), durable: bool = True) -> dict:
        if not 1 <= replicas <= MAX_REPLICAS:
            raise ServiceError(f"--replicas must be 1 to {MAX_REPLICAS}, not {replicas}")
        if self.state() is not None:
            raise ServiceError(f"a cluster is already up in {self.directory}: `hzai cluster down --dir "
                               f"{self.directory}` first")
        self.directory.mkdir(parents=True, exist_ok=True)
        state: dict = {"directory": str(self.directory), "replicas": []}
        try:
            postgres = Postgres(self.directory / "pg", durable=durable).start()
            state["postgres"] = str(postgres.directory)
            state["store"] = postgres.create_database("hzai")
            self._save(state)
            for index in range(replicas):
                state["replicas"].append(start_replica(self.directory, index, state["store"], list(flags)))
                self._save(state)
            listen = f"127.0.0.1:{port or free_port()}"
            Nginx(self.directory / "nginx", listen, [r["address"] for r in state["replicas"]]).start()
            state["address"] = listen
            state["nginx"] = str(self.directory / "nginx")
            self._save(state)
        except BaseException:
            self.down()
            raise
        return state

    def _save(self, state: dict) -> None:
        temporary = self.state_path.with_suffix(".tmp")
        temporary.write_text(json.dumps(state, indent=2))
        temporary.replace(self.state_path)

    def down(self) -> bool:
        """Stop every part that runs; False when there was no cluster here."""
        state = self.state()
        if state is None:
            return False
        for replica in state.get("replicas", []):
            stop_replica(replica["pid"])
        if "nginx" in state:
            Nginx(state["nginx"], state.get("address", ""), []).stop()
        if "postgres" in state:
            Postgres(state["postgres"]).stop()
        self.state_path.unlink(missing_ok=True)
        return True

    def status(self) -> dict:
        state = self.state()
        if state is None:
            return {"directory": str(self.directory), "up": False, "parts": []}
        parts = []
        if "postgres" in state:
            parts.append({"part": "postgresql", "where": state["postgres"], "up": Postgres(state["postgres"]).running()})
        for index, replica in enumerate(state.get("replicas", [])):
            alive = pid_alive(replica["pid"]) and _is_replica(replica["pid"])
            parts.append({"part": f"replica {index}", "where": replica["address"], "pid": replica["pid"],
                          "up": alive and serving(replica["address"])})
        if "nginx" in state:
            nginx = Nginx(state["nginx"], state["address"], [])
            parts.append({"part": "nginx", "where": state["address"], "pid": nginx.pid(),
                          "up": nginx.pid() is not None and serving(state["address"])})
        return {"directory": str(self.directory), "address": state.get("address"),
                "up": bool(parts) and all(p["up"] for p in parts), "parts": parts}


def serving(address: str, timeout: float = 3.0) -> bool:
    """Whether the gRPC health check at `address` answers SERVING."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with grpc.insecure_channel(address) as channel:
        try:
            answer = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=timeout)
        except grpc.RpcError:
            return False
    return answer.status == health_pb2.HealthCheckResponse.SERVING


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hzai cluster", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", default=None, help=f"the cluster's directory (default: {default_directory()})")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    up = sub.add_parser("up", help="start PostgreSQL, the replicas and nginx; print the address to use")
    up.add_argument("--replicas", type=int, default=2, help="hzai-server processes (default 2)")
    up.add_argument("--port", type=int, default=0, help="nginx's loopback port (default: a free one)")
    up.add_argument("--dir", dest="sub_dir", default=None, help=argparse.SUPPRESS)
    up.add_argument("server_flags", nargs="*", metavar="-- FLAGS",
                    help="flags for every hzai-server replica, after --")
    for name, text in (("status", "each part, up or down (exit 1 when one is down)"), ("down", "stop everything")):
        p = sub.add_parser(name, help=text)
        p.add_argument("--dir", dest="sub_dir", default=None, help=argparse.SUPPRESS)
        if name == "status":
            from hzai.cli_options import add_json_option  # --json [FILE], as in every hzai command

            add_json_option(p, "the status")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    cluster = Cluster(args.sub_dir or args.dir)
    try:
        if args.action == "up":
            if not 0 <= args.port <= 65535:
                raise ServiceError(f"--port must be 0 to 65535, not {args.port}")
            state = cluster.up(args.replicas, args.port, args.server_flags)
            print(f"hzai cluster: {len(state['replicas'])} replicas behind nginx at {state['address']} "
                  f"(store {state['store']}); stop with: hzai cluster down --dir {cluster.directory}")
            print(state["address"])
            return 0
        if args.action == "down":
            if not cluster.down():
                print(f"hzai cluster: no cluster in {cluster.directory}", file=sys.stderr)
                return 1
            print(f"hzai cluster: stopped ({cluster.directory})")
            return 0
        status = cluster.status()
        if args.json:
            from hzai.cli_options import UsageError, write_json_option

            try:
                write_json_option(args, status, indent=2)
            except UsageError as exc:
                raise ServiceError(str(exc)) from None
        elif not status["parts"]:
            print(f"hzai cluster: no cluster in {cluster.directory}")
        else:
            for part in status["parts"]:
                print(f"{part['part']:<12} {'up' if part['up'] else 'DOWN':<5} {part['where']}")
        return 0 if status["up"] else 1
    except ServiceError as exc:
        print(f"hzai cluster: {exc}", file=sys.stderr)
        return 1
