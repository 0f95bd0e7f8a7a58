"""Helpers for suites that run Cognate on PostgreSQL, several nodes on one database.

PostgreSQL comes from the environment: `Scripts/with-postgres <command>` starts a throw-away
server and exports COGNATE_TEST_POSTGRES_URL (a superuser URL). Tests that need it are skipped
only when COGNATE_SKIP_POSTGRES=1 says so; without the URL (and without that variable) they
fail with a message saying how to run them, never skip silently.

Nodes behind one load balancer share one public URL (`--public-url`): a token's issuer is
`<public URL>/<poolId>`, and every node checks it, so each node here gets the same public URL
while the tests talk to each node at its own port.
"""
import concurrent.futures
import os
import pathlib
import select
import shutil
import socket
import subprocess
import threading
import time
import urllib.parse
import uuid

import jwt
import pytest
import requests
from botocore.exceptions import ClientError

from conftest import BINARY, CognateServer

PUBLIC_URL = "http://cognate.multinode.test"
SKIP_VARIABLE = "COGNATE_SKIP_POSTGRES"
URL_VARIABLE = "COGNATE_TEST_POSTGRES_URL"

# Skips a PostgreSQL test, only when the environment asks for it.
skip_without_postgres = pytest.mark.skipif(
    os.environ.get(SKIP_VARIABLE) == "1", reason=f"{SKIP_VARIABLE}=1: PostgreSQL tests are skipped on request")


def postgres_url():
    """The superuser URL of the test PostgreSQL server; fails (never skips) when it is missing."""
    if os.environ.get(SKIP_VARIABLE) == "1":
        pytest.skip(f"{SKIP_VARIABLE}=1: PostgreSQL tests are skipped on request")
    url = os.environ.get(URL_VARIABLE)
    if not url:
        pytest.fail(f"{URL_VARIABLE} is not set: run the suite under Scripts/with-postgres "
                    f"(e.g. `Scripts/with-postgres python3 -m pytest compat/`), or set {SKIP_VARIABLE}=1 "
                    "to skip the PostgreSQL tests on purpose", pytrace=False)
    return url


def tool(name):
    """A PostgreSQL client program (on PATH, else the newest /usr/lib/postgresql/*/bin)."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(pathlib.Path("/usr/lib/postgresql").glob(f"*/bin/{name}"),
                        key=lambda p: [int(x) for x in p.parts[-3].split(".") if x.isdigit()])
    assert candidates, f"{name} not found (install PostgreSQL's client programs)"
    return str(candidates[-1])


def run(args, timeout=60, check=True):
    """Runs a program; returns the CompletedProcess (stdout and stderr as text)."""
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=timeout)
    if check:
        assert result.returncode == 0, f"{args[0]} exited with {result.returncode}:\n{result.stdout}\n{result.stderr}"
    return result


def with_database(url, name):
    """`url` with its database (path) replaced by `name`."""
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


def with_port(url, port):
    parts = urllib.parse.urlsplit(url)
    netloc = parts.netloc.rsplit(":", 1)[0] if parts.port else parts.netloc
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{netloc}:{port}"))


class PostgresDatabase:
    """A database of its own on the test PostgreSQL server."""

    def __init__(self, admin_url, name=None):
        self.admin_url = admin_url
        self.name = name or "cognate_" + uuid.uuid4().hex[:12]
        self.url = with_database(admin_url, self.name)

    def create(self):
        self.admin_sql(f'CREATE DATABASE "{self.name}"')
        return self

    def drop(self):
        self.admin_sql(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    def admin_sql(self, sql):
        return run([tool("psql"), self.admin_url, "-v", "ON_ERROR_STOP=1", "-qAt", "-c", sql]).stdout

    def sql(self, sql):
        """Runs SQL in this database; returns psql's unaligned output (`|` between columns)."""
        return run([tool("psql"), self.url, "-v", "ON_ERROR_STOP=1", "-qAt", "-c", sql]).stdout.strip()

    def cognate(self, *args, timeout=60, check=True):
        """`cognate <args> --database <this database>`."""
        return run([BINARY, *args, "--database", self.url], timeout=timeout, check=check)


class Node(CognateServer):
    """A `cognate serve` process on a PostgreSQL database, with the shared public URL."""

    def __init__(self, workdir, database_url, extra_args=(), env=None, name="node"):
        workdir = pathlib.Path(workdir) / name
        workdir.mkdir(parents=True, exist_ok=True)
        super().__init__(workdir, extra_args, env)
        self.name = name
        self.database = database_url
        self.args = [str(BINARY), "serve", "--port", str(self.port), "--database", database_url,
                     "--public-url", PUBLIC_URL, *extra_args]
        self.started_at = None

    def start(self):
        super().start()
        self.started_at = time.monotonic()
        return self

    def __repr__(self):
        return f"<{self.name} :{self.port}>"

    def log_text(self):
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


def start_nodes(workdir, database_url, count=2, extra_args=(), names="AB", at_once=False):
    """Starts `count` nodes one after the other (or all together when `at_once`)."""
    nodes = [Node(workdir, database_url, extra_args, name=names[i]) for i in range(count)]
    try:
        if at_once:
            with concurrent.futures.ThreadPoolExecutor(count) as executor:
                list(executor.map(lambda n: n.start(), nodes))
        else:
            for node in nodes:
                node.start()
    except BaseException:
        for node in nodes:
            if node.process is not None:
                node.stop()
        raise
    return nodes


def stop_nodes(nodes, check_faults=True):
    """Stops the nodes; asserts none died early and (when `check_faults`) none logged a fault."""
    alive = {node.name: node.process is not None and node.process.poll() is None for node in nodes}
    faults = {node.name: node.faults() for node in nodes}
    for node in nodes:
        if node.process is not None:
            node.stop()
    dead = [name for name, up in alive.items() if not up]
    assert not dead, "nodes died during the module: " + ", ".join(
        f"{n.name}:\n{n.log_text()[-3000:]}" for n in nodes if n.name in dead)
    if check_faults:
        logged = {name: lines for name, lines in faults.items() if lines}
        assert not logged, "nodes logged server faults:\n" + "\n".join(
            f"{name}: {line}" for name, lines in logged.items() for line in lines[:10])


# --- tokens ---------------------------------------------------------------------------------

def public_issuer(pool_id):
    return f"{PUBLIC_URL}/{pool_id}"


def node_jwks(node, pool_id):
    r = requests.get(f"{node.endpoint}/{pool_id}/.well-known/jwks.json", timeout=10)
    assert r.status_code == 200, (node, r.status_code, r.text)
    return r.json()


def kids(node, pool_id):
    return [k["kid"] for k in node_jwks(node, pool_id)["keys"]]


def kid_of(token):
    return jwt.get_unverified_header(token)["kid"]


def verify_on(node, pool_id, token, token_use, client_id):
    """Verifies `token` against `node`'s JWKS (by kid) and the claims a Cognito verifier checks;
    returns the claims."""
    header = jwt.get_unverified_header(token)
    assert header["alg"] == "RS256"
    keys = {k["kid"]: k for k in node_jwks(node, pool_id)["keys"]}
    assert header["kid"] in keys, f"kid {header['kid']} not in the JWKS of {node}"
    key = jwt.PyJWK(keys[header["kid"]])
    options = {"require": ["exp", "iat", "iss", "sub"]}
    if token_use == "id":
        claims = jwt.decode(token, key, algorithms=["RS256"], issuer=public_issuer(pool_id), audience=client_id,
                            options=options)
    else:
        claims = jwt.decode(token, key, algorithms=["RS256"], issuer=public_issuer(pool_id),
                            options={**options, "verify_aud": False})
        assert claims["client_id"] == client_id
    assert claims["token_use"] == token_use
    return claims


# --- waiting and concurrency ----------------------------------------------------------------

def eventually(check, within, interval=0.1, what="condition"):
    """Calls `check()` until it returns a truthy value without failing (an assert or pytest.raises),
    for at most `within` seconds, then fails with the last failure. Returns (value, seconds taken)."""
    started = time.monotonic()
    last = None
    while True:
        try:
            value = check()
            if value:
                return value, time.monotonic() - started
            last = AssertionError(f"{what}: got {value!r}")
        except (AssertionError, pytest.fail.Exception) as e:  # a failed assert or pytest.raises
            last = e
        if time.monotonic() - started > within:
            raise AssertionError(f"{what} not reached within {within} s: {last}")
        time.sleep(interval)


def run_on_nodes(nodes, count, call):
    """Runs call(idp, index) in `count` threads released together, thread i on node i % len(nodes),
    each with its own boto3 client. Returns [(status, code)], (200, None) for successes."""
    clients = [nodes[i % len(nodes)].client() for i in range(count)]
    barrier = threading.Barrier(count)

    def one(index):
        barrier.wait()
        try:
            call(clients[index], index)
            return 200, None
        except ClientError as e:
            return e.response["ResponseMetadata"]["HTTPStatusCode"], e.response["Error"]["Code"]

    with concurrent.futures.ThreadPoolExecutor(count) as executor:
        return list(executor.map(one, range(count)))


# --- a TCP proxy that can cut a node off its database --------------------------------------

class CuttableProxy:
    """Forwards 127.0.0.1:<port> to a target address until `cut()`, which closes every
    connection and refuses new ones; `restore()` listens on the same port again."""

    def __init__(self, target_host, target_port):
        self.target = (target_host, target_port)
        self.port = None
        self.listener = None
        self.connections = []
        self.lock = threading.Lock()
        self.running = False

    def start(self):
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", self.port or 0))
        self.port = self.listener.getsockname()[1]
        self.listener.listen(64)
        self.running = True
        threading.Thread(target=self._accept, args=(self.listener,), daemon=True).start()
        return self

    def _accept(self, listener):
        while self.running:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=10)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.connections += [client, upstream]
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()

    def _pump(self, a, b):
        sockets = [a, b]
        try:
            while True:
                readable, _, _ = select.select(sockets, [], [], 0.5)
                if not self.running and not readable:
                    return
                for s in readable:
                    data = s.recv(65536)
                    if not data:
                        return
                    (b if s is a else a).sendall(data)
        except OSError:
            return
        finally:
            for s in sockets:
                try:
                    s.close()
                except OSError:
                    pass

    def cut(self):
        self.running = False
        self.listener.close()
        with self.lock:
            connections, self.connections = self.connections, []
        for s in connections:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            try:
                s.close()
            except OSError:
                pass

    def restore(self):
        return self.start()
