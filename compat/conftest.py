"""Fixtures that run the real Cognate server and hand tests real clients.

Each test module gets its own server process on a free port with a fresh SQLite database, so
modules cannot see each other's data. The binary is `COGNATE_BIN` or `.build/debug/cognate`
(`Scripts/test` builds it first).

With `COGNATE_COMPAT_POSTGRES_URL` (a superuser's URL), every server runs on PostgreSQL instead,
on a database of its own per working directory (a restart finds its data again), whose default
collation is linguistic (ICU's en-US, as on many production servers); tests marked `sqlite_only`
(they open the SQLite file itself) are skipped.
"""
import hashlib
import json
import os
import pathlib
import re
import socket
import sqlite3
import ssl
import subprocess
import tempfile
import time
import urllib.request
import uuid

import boto3
import pytest
from botocore.config import Config

ROOT = pathlib.Path(__file__).resolve().parent.parent
BINARY = pathlib.Path(os.environ.get("COGNATE_BIN", ROOT / ".build" / "debug" / "cognate"))
REGION = "us-east-1"
POSTGRES_URL = os.environ.get("COGNATE_COMPAT_POSTGRES_URL")


def pytest_collection_modifyitems(config, items):
    if POSTGRES_URL:
        skip = pytest.mark.skip(reason="reads the SQLite database file itself")
        for item in items:
            if "sqlite_only" in item.keywords:
                item.add_marker(skip)


# The server's request and code limits count in fixed windows (the minute or the hour since the
# epoch). A test counting up to a limit must not straddle a window's end, where the count starts
# afresh: it starts with this much of its window left, waiting for the next one if need be.
WINDOW_MARGIN = {60: 20, 3600: 60}


@pytest.fixture(autouse=True)
def clear_of_window_end(request):
    marker = request.node.get_closest_marker("fixed_window")
    if marker:
        length = marker.args[0]
        left = length - time.time() % length
        if left < WINDOW_MARGIN[length]:
            time.sleep(left + 0.05)


def postgres_database(workdir):
    """The URL of the database of `workdir`'s servers on COGNATE_COMPAT_POSTGRES_URL's server,
    created the first time."""
    name = "compat_" + hashlib.sha256(str(workdir).encode()).hexdigest()[:20]
    exists = subprocess.run(["psql", POSTGRES_URL, "-tAc", f"SELECT 1 FROM pg_database WHERE datname = '{name}'"],
                            capture_output=True, text=True, check=True).stdout.strip()
    if not exists:
        subprocess.run(["psql", POSTGRES_URL, "-qc", f"CREATE DATABASE {name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.utf8'"], check=True)
    return POSTGRES_URL.rsplit("/", 1)[0] + "/" + name


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class CognateServer:
    """A running `cognate serve` process."""

    def __init__(self, workdir, extra_args=(), env=None, ca_file=None):
        if not BINARY.exists():
            raise RuntimeError(f"{BINARY} not found: run `swift build` first (Scripts/test does)")
        self.workdir = pathlib.Path(workdir)
        self.port = free_port()
        self.ca_file = ca_file          # with TLS: the CA that signed the server's certificate
        self.endpoint = f"{'https' if ca_file else 'http'}://127.0.0.1:{self.port}"
        self.database = postgres_database(self.workdir) if POSTGRES_URL else str(self.workdir / "cognate.sqlite")
        self.log_path = self.workdir / "server.log"
        self.args = [str(BINARY), "serve", "--port", str(self.port), "--database", self.database, *extra_args]
        self.env = {**os.environ, **(env or {})}
        self.process = None

    def start(self):
        self.log = open(self.log_path, "ab")
        self.process = subprocess.Popen(self.args, stdout=self.log, stderr=subprocess.STDOUT, env=self.env)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"cognate exited with {self.process.returncode}:\n{self.log_path.read_text()}")
            try:
                context = ssl.create_default_context(cafile=self.ca_file) if self.ca_file else None
                with urllib.request.urlopen(self.endpoint + "/health", timeout=1, context=context) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"cognate did not start:\n{self.log_path.read_text()}")

    def stop(self, sig=None):
        if self.process and self.process.poll() is None:
            if sig:
                self.process.send_signal(sig)
            else:
                self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        return self.process.returncode

    def restart(self):
        self.stop()
        return self.start()

    def outbox(self, pool_id=None):
        query = f"?pool={pool_id}" if pool_id else ""
        with urllib.request.urlopen(f"{self.endpoint}/_dev/outbox{query}&limit=1000" if query else
                                    f"{self.endpoint}/_dev/outbox?limit=1000") as r:
            return json.load(r)["messages"]

    def last_code(self, pool_id, destination=None):
        """The code of the newest message of the pool (to `destination` if given)."""
        messages = [m for m in self.outbox(pool_id) if destination is None or m["destination"] == destination]
        assert messages, f"no message in the outbox of {pool_id}"
        return messages[-1]["code"]

    def rows(self, table, **equal):
        """The rows of `table` whose columns have the values given, as dicts, read from the
        database itself (SQLite or PostgreSQL), not through the server."""
        condition = " AND ".join(f"{column} = '{str(value).replace(chr(39), chr(39) * 2)}'" for column, value in equal.items())
        query = f"SELECT * FROM {table}" + (f" WHERE {condition}" if condition else "")
        if POSTGRES_URL:
            out = subprocess.run(["psql", self.database, "-tAc", f"SELECT row_to_json(t) FROM ({query}) t"],
                                 capture_output=True, text=True, check=True).stdout
            return [json.loads(line) for line in out.splitlines() if line.strip()]
        db = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True)
        try:
            db.row_factory = sqlite3.Row
            return [dict(row) for row in db.execute(query).fetchall()]
        finally:
            db.close()

    def execute(self, statement, *values):
        """Runs one statement with `?` placeholders on the database itself (SQLite or
        PostgreSQL), from another process than the server, as an operator's hand change would."""
        if POSTGRES_URL:
            pieces = statement.split("?")
            assert len(pieces) == len(values) + 1, "one value per ?"
            quoted = ["'" + str(value).replace("'", "''") + "'" for value in values]
            text = "".join(piece + value for piece, value in zip(pieces, quoted + [""]))
            subprocess.run(["psql", self.database, "-qc", text], check=True)
            return
        db = sqlite3.connect(self.database, timeout=10)
        try:
            db.execute(statement, values)
            db.commit()
        finally:
            db.close()

    def faults(self):
        """Lines the server logged at error level (it logs every 500 it answers)."""
        if not self.log_path.exists():
            return []
        return [line for line in self.log_path.read_text(errors="replace").splitlines()
                if re.match(r"\S+ (error|critical) ", line)]

    def client(self, service="cognito-idp", **kwargs):
        return boto3.client(
            service, endpoint_url=self.endpoint, region_name=REGION, verify=self.ca_file or True,
            aws_access_key_id=kwargs.pop("access_key", "dev"),
            aws_secret_access_key=kwargs.pop("secret_key", "dev"),
            config=Config(retries={"max_attempts": 1, "mode": "standard"}), **kwargs)


@pytest.fixture(scope="module")
def server():
    with tempfile.TemporaryDirectory(prefix="cognate-compat-") as workdir:
        s = CognateServer(workdir).start()
        yield s
        alive = s.process.poll() is None
        s.stop()
        assert alive, f"cognate died during the module:\n{s.log_path.read_text()[-4000:]}"
        assert not s.faults(), "cognate logged server faults:\n" + "\n".join(s.faults()[:20])


@pytest.fixture(scope="module")
def idp(server):
    """boto3 cognito-idp client against the module's server."""
    return server.client()


@pytest.fixture
def pool(idp):
    """A fresh pool with email auto-verification and a default password policy."""
    name = "compat-" + uuid.uuid4().hex[:8]
    return idp.create_user_pool(PoolName=name, AutoVerifiedAttributes=["email"])["UserPool"]


@pytest.fixture
def app_client(idp, pool):
    """A client without secret that allows password and refresh sign-in."""
    return idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="app",
        ExplicitAuthFlows=["ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH", "ALLOW_USER_SRP_AUTH"],
    )["UserPoolClient"]
