"""Throwaway PostgreSQL and nginx instances under one directory, for `hzai cluster`,
the tests and the benchmarks.

PostgreSQL listens on a Unix socket in its own directory only (no TCP port), trusts
local connections and runs as the invoking user, or, when that is root (PostgreSQL
refuses root), as the `postgres` system user (else `nobody`), which then owns the
directory. nginx runs with the directory as its prefix, its logs and temporary files
there; started by root, its workers run as `nobody`.

When the programs are missing, `ensure_installed` runs deploy/install-services.sh
(Debian's packages) if it can (root, apt-get and a checkout), else says how to install.
"""

from __future__ import annotations

import fcntl
import glob
import os
import pwd
import shutil
import socket
import string
import subprocess
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
INSTALL_SCRIPT = REPO / "deploy" / "install-services.sh"
INSTALL_LOCK = Path(tempfile.gettempdir()) / "hzai-install-services.lock"
NGINX_TEMPLATE = REPO / "deploy" / "nginx.conf"
INSTALL_HINT = ("install PostgreSQL and nginx: sudo sh deploy/install-services.sh "
                "(on Debian/Ubuntu: apt-get install postgresql nginx)")
DB_USER = "hzai"


class ServiceError(RuntimeError):
    """A service could not be found, started or stopped; the message says why."""


def _postgres_bin() -> Path | None:
    on_path = shutil.which("pg_ctl")
    if on_path and shutil.which("initdb"):
        return Path(os.path.realpath(on_path)).parent
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


def _nginx_bin() -> str | None:
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)


def _missing(need_nginx: bool) -> bool:
    return _postgres_bin() is None or (need_nginx and _nginx_bin() is None)


def ensure_installed(need_nginx: bool = True) -> None:
    """PostgreSQL (and nginx) present, installed first if this is root with apt-get. One
    installer at a time on the machine (an flock on INSTALL_LOCK): two clusters or test
    workers starting together would otherwise run apt-get at once, and one would fail on
    dpkg's lock."""
    if not _missing(need_nginx):
        return
    if os.geteuid() == 0 and shutil.which("apt-get") and INSTALL_SCRIPT.exists():
        with open(INSTALL_LOCK, "a+") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            if _missing(need_nginx):  # the previous holder may have installed them
                done = subprocess.run(["sh", str(INSTALL_SCRIPT)], capture_output=True, text=True, timeout=900)
                if done.returncode != 0:
                    raise ServiceError(f"{INSTALL_SCRIPT} failed ({done.returncode}): {done.stderr[-500:]}")
    if _missing(need_nginx):
        raise ServiceError(f"PostgreSQL{' or nginx' if need_nginx else ''} is not installed; {INSTALL_HINT}")


def service_user() -> pwd.struct_passwd | None:
    """Who the services run as: None for the invoking user, a system user under root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise ServiceError("running as root, and neither a 'postgres' nor a 'nobody' user exists to run PostgreSQL")


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


class Postgres:
    """A PostgreSQL instance in `directory` (created by initdb on first start)."""

    def __init__(self, directory: str | os.PathLike, *, durable: bool = True):
        self.directory = Path(directory)
        self.data = self.directory / "data"
        self.durable = durable  # False: fsync off, for tests only
        self.user = service_user()

    def _run(self, *command: str, timeout: float = 120) -> subprocess.CompletedProcess:
        owner = {} if self.user is None else {"user": self.user.pw_uid, "group": self.user.pw_gid,
                                              "extra_groups": []}
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=self.directory,
                              **owner)
        if done.returncode != 0:
            raise ServiceError(f"{Path(command[0]).name} failed ({done.returncode}): "
                               f"{(done.stderr or done.stdout).strip()[-800:]}")
        return done

    @property
    def log_path(self) -> Path:
        return self.directory / "postgres.log"

    def start(self) -> "Postgres":
        ensure_installed(need_nginx=False)
        binaries = _postgres_bin()
        self.directory.mkdir(parents=True, exist_ok=True)
        if self.user is not None:
            os.chown(self.directory, self.user.pw_uid, self.user.pw_gid)
            self.directory.parent.chmod(self.directory.parent.stat().st_mode | 0o711)
        os.chmod(self.directory, 0o700)
        if not (self.data / "PG_VERSION").exists():
            self._run(str(binaries / "initdb"), "-D", str(self.data), "-U", DB_USER, "--auth=trust", "-E", "UTF8",
                      "--no-sync", "--locale=C")
        options = f"-c listen_addresses='' -c unix_socket_directories='{self.directory}' -c max_connections=200"
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        if not self.running():
            self._run(str(binaries / "pg_ctl"), "-D", str(self.data), "-l", str(self.log_path), "-o", options,
                      "-w", "-t", "60", "start")
        return self

    def running(self) -> bool:
        if not (self.data / "PG_VERSION").exists():
            return False
        done = subprocess.run([str(_postgres_bin() / "pg_ctl"), "-D", str(self.data), "status"],
                              capture_output=True, text=True, timeout=30,
                              **({} if self.user is None else {"user": self.user.pw_uid, "group": self.user.pw_gid,
                                                               "extra_groups": []}))
        return done.returncode == 0

    def stop(self) -> None:
        if self.running():
            self._run(str(_postgres_bin() / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{DB_USER}@/{database}?host={self.directory}"

    def create_database(self, name: str) -> str:
        """A new empty database (its name: letters, digits, underscores); its URL."""
        import psycopg

        if not name.replace("_", "").isalnum():
            raise ValueError(f"database names here are letters, digits and underscores, not {name!r}")
        with psycopg.connect(self.url(), autocommit=True) as db:
            exists = db.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
            if not exists:
                db.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def render_nginx_config(prefix: Path, listen: str, upstreams: list[str], worker_user: str | None,
                        tls: tuple[str, str] | None = None) -> str:
    """deploy/nginx.conf with its fields (PREFIX, LISTEN, LISTEN_TLS, TLS_LINES,
    UPSTREAM_SERVERS, USER_LINE) filled in; `tls`: (certificate, key) PEM files for
    nginx to serve TLS to clients with."""
    servers = "\n".join(f"        server {address} max_fails=1 fail_timeout=5s;" for address in upstreams)
    if tls is None:
        tls_lines = "        # plain text to clients (docs/tls.md: TLS)"
    else:
        tls_lines = (f"        ssl_certificate {tls[0]};\n        ssl_certificate_key {tls[1]};\n"
                     "        ssl_protocols TLSv1.2 TLSv1.3;")
    fields = {"PREFIX": str(prefix), "LISTEN": listen, "LISTEN_TLS": "ssl " if tls else "", "TLS_LINES": tls_lines,
              "UPSTREAM_SERVERS": servers,
              "USER_LINE": f"user {worker_user};" if worker_user else "# (not root: the workers run as this user)"}
    text = string.Template(NGINX_TEMPLATE.read_text()).safe_substitute(fields)  # nginx's own $variables stay
    left = [name for name in fields if "${" + name + "}" in text]
    if left:
        raise ServiceError(f"{NGINX_TEMPLATE}: fields left unfilled: {', '.join(left)}")
    return text


class Nginx:
    """nginx as a daemon with `directory` as its prefix, balancing gRPC over `upstreams`."""

    def __init__(self, directory: str | os.PathLike, listen: str, upstreams: list[str],
                 tls: tuple[str, str] | None = None):
        self.directory = Path(directory)
        self.listen = listen
        self.upstreams = upstreams
        self.tls = tls  # (certificate, key) PEM files: nginx serves TLS to clients
        self.conf = self.directory / "nginx.conf"
        self.pid_path = self.directory / "nginx.pid"

    def _command(self, *extra: str) -> list[str]:
        return [_nginx_bin(), "-p", str(self.directory), "-c", str(self.conf), "-e", str(self.directory / "error.log"),
                *extra]

    def start(self) -> "Nginx":
        ensure_installed()
        worker = None
        if os.geteuid() == 0:
            worker = pwd.getpwnam("nobody")
        (self.directory / "tmp").mkdir(parents=True, exist_ok=True)
        if worker is not None:
            os.chown(self.directory / "tmp", worker.pw_uid, worker.pw_gid)
        group = None if worker is None else _group_name(worker.pw_gid)
        self.conf.write_text(render_nginx_config(self.directory, self.listen, self.upstreams,
                                                 None if worker is None else f"{worker.pw_name} {group}", self.tls))
        for command in (self._command("-t", "-q"), self._command()):
            done = subprocess.run(command, capture_output=True, text=True, timeout=60)
            if done.returncode != 0:
                raise ServiceError(f"nginx failed ({done.returncode}): {done.stderr.strip()[-800:]}")
        deadline = time.monotonic() + 10
        while self.pid() is None:
            if time.monotonic() > deadline:
                raise ServiceError(f"nginx wrote no pid file; see {self.directory / 'error.log'}")
            time.sleep(0.05)
        return self

    def pid(self) -> int | None:
        try:
            pid = int(self.pid_path.read_text().strip())
        except (OSError, ValueError):
            return None
        return pid if pid_alive(pid) else None

    def stop(self) -> None:
        pid = self.pid()
        if pid is None:
            return
        subprocess.run(self._command("-s", "quit"), capture_output=True, timeout=30)
        if not wait_gone(pid, 10):
            os.kill(pid, 9)
            wait_gone(pid, 5)


def _group_name(gid: int) -> str:
    import grp

    return grp.getgrgid(gid).gr_name


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie (ended, not yet reaped) counts as gone
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return True


def wait_gone(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while pid_alive(pid):
        try:  # reap it if it is our child
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True
