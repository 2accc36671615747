"""TLS end to end with certificates this test makes (issue 34): the server with
--tls-cert/--tls-key, and with --tls-client-ca (mutual TLS); the Python client and the
command line with --tls-ca (and --tls-cert/--tls-key); the warning for plain text
beyond loopback."""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import json
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from cryptography import x509  # in the test extra
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from hzai_client import AsyncHzaiClient, HzaiClient
from hzai_server.app import plain_text_warning
from hzai_server.config import ServerConfig, parse_config

from .conftest import ServerProcess, played_record
from .test_clients import node  # noqa: F401  (the fixture: Node.js with the client's packages)



def _name(common: str):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _issue(subject: str, key, issuer_name, issuer_key, *, ca: bool, sans=()):
    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (x509.CertificateBuilder().subject_name(_name(subject)).issuer_name(issuer_name)
               .public_key(key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if sans:
        builder = builder.add_extension(x509.SubjectAlternativeName(list(sans)), critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


def _write(path, cert=None, key=None):
    if cert is not None:
        path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    else:
        path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return str(path)


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    """A CA, a server certificate for 127.0.0.1 and localhost, and a client certificate."""
    where = tmp_path_factory.mktemp("pki")
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = _issue("hzai test CA", ca_key, _name("hzai test CA"), ca_key, ca=True)
    server_key = ec.generate_private_key(ec.SECP256R1())
    server = _issue("localhost", server_key, ca.subject, ca_key, ca=False,
                    sans=[x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))])
    client_key = ec.generate_private_key(ec.SECP256R1())
    client = _issue("a client", client_key, ca.subject, ca_key, ca=False)
    return {"ca": _write(where / "ca.pem", cert=ca),
            "cert": _write(where / "server.pem", cert=server), "key": _write(where / "server.key", key=server_key),
            "client_cert": _write(where / "client.pem", cert=client),
            "client_key": _write(where / "client.key", key=client_key)}


def games(client: HzaiClient) -> list[str]:
    return [g.name for g in client.list_games()]


def test_tls_end_to_end(pki, tmp_path):
    server = ServerProcess("--tls-cert", pki["cert"], "--tls-key", pki["key"])
    try:
        listening = next(e for e in server.logs if e.get("event") == "listening")
        assert listening["tls"] is True
        assert not [e for e in server.logs if e.get("event") == "plain text"]  # loopback, and TLS anyway
        with HzaiClient(server.address, timeout=10, ca=pki["ca"]) as client:
            assert "hera_zeus" in games(client)

        async def async_games():
            async with AsyncHzaiClient(server.address, timeout=10, ca=pki["ca"]) as client:
                return [g.name for g in await client.list_games()]

        assert "hera_zeus" in asyncio.run(async_games())
        # A plain-text client gets no answer from a TLS port.
        with HzaiClient(server.address, timeout=5) as plain:
            with pytest.raises(grpc.RpcError) as caught:
                games(plain)
            assert caught.value.code() == grpc.StatusCode.UNAVAILABLE
        # Nor does one that does not trust the server's CA (the system's roots do not know it).
        with HzaiClient(server.address, timeout=5, tls=True) as untrusting:
            with pytest.raises(grpc.RpcError) as caught:
                games(untrusting)
            assert caught.value.code() == grpc.StatusCode.UNAVAILABLE
        # The command line.
        record = tmp_path / "game.json"
        record.write_text(json.dumps(played_record(12, 24).to_json()), encoding="utf-8")
        proc = subprocess.run([sys.executable, "-m", "hzai_client.cli", "suggest", str(record), "--server",
                               server.address, "--tls-ca", pki["ca"], "--budget", "50", "--timeout", "30"],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip()
    finally:
        assert server.stop() == 0


def test_mutual_tls_refuses_a_client_without_a_certificate(pki):
    server = ServerProcess("--tls-cert", pki["cert"], "--tls-key", pki["key"], "--tls-client-ca", pki["ca"])
    try:
        listening = next(e for e in server.logs if e.get("event") == "listening")
        assert listening["tls"] == "mutual"
        with HzaiClient(server.address, timeout=5, ca=pki["ca"]) as anonymous:
            with pytest.raises(grpc.RpcError) as caught:
                games(anonymous)
            assert caught.value.code() == grpc.StatusCode.UNAVAILABLE
        with HzaiClient(server.address, timeout=10, ca=pki["ca"], cert=pki["client_cert"],
                        key=pki["client_key"]) as known:
            assert "hera_zeus" in games(known)
        # The command line without a client certificate: one line saying what to check.
        proc = subprocess.run([sys.executable, "-m", "hzai_client.cli", "suggest", "tests/data/handmade_game.json",
                               "--server", server.address, "--tls-ca", pki["ca"], "--budget", "20"],
                              cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr  # 1: the service
        assert len(proc.stderr.strip().splitlines()) == 1 and "over TLS" in proc.stderr and "--tls-cert" in proc.stderr
    finally:
        assert server.stop() == 0


def test_the_server_warns_when_it_listens_beyond_loopback_in_plain_text(pki):
    assert plain_text_warning(ServerConfig(address="127.0.0.1:50051")) is None
    assert plain_text_warning(ServerConfig(address="localhost:50051")) is None
    assert plain_text_warning(ServerConfig(address="[::1]:50051")) is None
    warning = plain_text_warning(ServerConfig(address="0.0.0.0:50051"))
    assert warning is not None and "seat tokens" in warning and "--tls-cert" in warning
    assert plain_text_warning(ServerConfig(address="0.0.0.0:50051", tls_cert=pki["cert"], tls_key=pki["key"])) is None
    # and the server logs it at start
    server = ServerProcess("--address", "0.0.0.0:0")
    try:
        (entry,) = [e for e in server.logs if e.get("event") == "plain text"]
        assert entry["level"] == "warning" and "seat tokens" in entry["warning"]
    finally:
        assert server.stop() == 0


@pytest.mark.parametrize("flags,words", [
    (["--tls-cert", "CERT"], "--tls-cert and --tls-key go together"),
    (["--tls-key", "KEY"], "--tls-cert and --tls-key go together"),
    (["--tls-client-ca", "CA"], "needs --tls-cert"),
    (["--tls-cert", "/no/such.pem", "--tls-key", "KEY"], "cannot read '/no/such.pem'"),
])
def test_tls_flags_are_checked(pki, capsys, flags, words):
    given = [{"CERT": pki["cert"], "KEY": pki["key"], "CA": pki["ca"]}.get(f, f) for f in flags]
    with pytest.raises(SystemExit) as exited:
        parse_config(given, env={})
    assert exited.value.code == 2
    assert words in capsys.readouterr().err


def test_a_client_certificate_without_its_key_is_one_line(pki, tmp_path):
    record = tmp_path / "game.json"
    record.write_text(json.dumps(played_record(12, 24).to_json()), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "hzai_client.cli", "suggest", str(record), "--server",
                           "127.0.0.1:1", "--tls-cert", pki["client_cert"]], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "--tls-key" in proc.stderr


def test_nginx_of_deploy_terminates_tls_in_front_of_a_plain_replica(pki, tmp_path):
    """deploy/nginx.conf with its TLS fields: clients speak TLS to nginx, nginx plain
    gRPC to a replica on loopback."""
    import socket

    from hzai_server.devcluster import Nginx, render_nginx_config  # start() installs nginx where missing

    text = render_nginx_config(tmp_path, "127.0.0.1:1", ["127.0.0.1:2"], None, (pki["cert"], pki["key"]))
    assert "listen 127.0.0.1:1 ssl http2;" in text and f"ssl_certificate {pki['cert']};" in text
    plain = render_nginx_config(tmp_path, "127.0.0.1:1", ["127.0.0.1:2"], None)
    assert "listen 127.0.0.1:1 http2;" in plain and "ssl_certificate /" not in plain
    replica = ServerProcess()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    nginx = Nginx(tmp_path / "nginx", f"127.0.0.1:{port}", [replica.address], tls=(pki["cert"], pki["key"]))
    try:
        nginx.start()
        with HzaiClient(f"127.0.0.1:{port}", timeout=10, ca=pki["ca"]) as client:
            assert "hera_zeus" in games(client)
        with HzaiClient(f"127.0.0.1:{port}", timeout=5) as plain_client:
            with pytest.raises(grpc.RpcError):
                games(plain_client)
    finally:
        nginx.stop()
        assert replica.stop() == 0


def test_hzai_web_reaches_a_tls_server_with_tls_ca(pki):
    """The browser page's Connect bridge (`hzai web --server ... --tls-ca ...`)."""
    import urllib.request

    from tests.web.conftest import WebProcess

    server = ServerProcess("--tls-cert", pki["cert"], "--tls-key", pki["key"])
    page = WebProcess(server.address, ("--tls-ca", pki["ca"]))
    try:
        request = urllib.request.Request(f"{page.url}hzai.v3.BotService/ListGames", data=b"{}", method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as reply:
            assert reply.status == 200
            assert "hera_zeus" in [g["name"] for g in json.loads(reply.read())["games"]]
    finally:
        page.stop()
        assert server.stop() == 0


def test_the_node_client_speaks_tls_with_tls_ca(pki, node):
    """clients/node: suggest.js --tls-ca, and mutual TLS with --tls-cert/--tls-key."""
    repo = Path(__file__).resolve().parents[2]
    server = ServerProcess("--tls-cert", pki["cert"], "--tls-key", pki["key"], "--tls-client-ca", pki["ca"])
    try:
        base = [node, "clients/node/suggest.js", "tests/data/handmade_game.json", "--server", server.address,
                "--iterations", "20", "--tls-ca", pki["ca"]]
        done = subprocess.run([*base, "--tls-cert", pki["client_cert"], "--tls-key", pki["client_key"]], cwd=repo,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip()
        refused = subprocess.run([*base, "--timeout", "3"], cwd=repo, capture_output=True, text=True, timeout=60)
        assert refused.returncode == 1 and refused.stdout == "", refused.stderr  # no client certificate
    finally:
        assert server.stop() == 0


@pytest.mark.parametrize("which,words", [
    ("key of another certificate", "does not go with --tls-cert"),
    ("not PEM", "is not a PEM file"),
    ("CA file without a certificate", "--tls-client-ca"),
])
def test_a_bad_certificate_or_key_stops_the_start_in_one_line(pki, tmp_path, which, words):
    junk = tmp_path / "junk.pem"
    junk.write_text("not a certificate\n")
    nothing = tmp_path / "nothing.pem"
    nothing.write_text("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")
    flags = {"key of another certificate": ["--tls-cert", pki["cert"], "--tls-key", pki["client_key"]],
             "not PEM": ["--tls-cert", str(junk), "--tls-key", pki["key"]],
             "CA file without a certificate": ["--tls-cert", pki["cert"], "--tls-key", pki["key"],
                                               "--tls-client-ca", str(nothing)]}[which]
    done = subprocess.run([sys.executable, "-m", "hzai_server", "--address", "127.0.0.1:0", "--data-dir", ":memory:",
                           *flags], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr[-1000:]
    errors = [json.loads(line) for line in done.stderr.splitlines() if line.startswith("{")]
    (cannot,) = [e for e in errors if e["event"] == "cannot start"]
    assert words in cannot["error"], cannot
    assert "Traceback" not in done.stderr
