"""PostgreSQL fails the server's statements and connections (a restart, a failover, an
operator's pg_terminate_backend, a lock held too long): every request still gets an answer, and
the node serves as before once the database does.

Each was a hang or a lasting failure once: a statement written to a connection PostgresNIO had
already closed was never answered (the request hung with its pooled connection); a statement
whose preparation timed out on a lock failed on that connection from then on.
"""
import subprocess
import tempfile
import threading
import time
import urllib.request
from contextlib import contextmanager

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

from conftest import POSTGRES_URL, REGION, CognateServer
from multinode import eventually

pytestmark = pytest.mark.skipif(not POSTGRES_URL, reason="fails PostgreSQL connections (the PostgreSQL pass)")

PASSWORD = "Passw0rd!x"


def sql(query):
    return subprocess.run(["psql", POSTGRES_URL, "-tAc", query], capture_output=True, text=True, check=True).stdout.strip()


@contextmanager
def serving(*args):
    """A server of its own (the errors these tests cause are logged as faults), and a client
    that never retries and waits far beyond any deadline of the server's: a hang shows."""
    with tempfile.TemporaryDirectory(prefix="cognate-compat-") as workdir:
        server = CognateServer(workdir, extra_args=args).start()
        try:
            idp = boto3.client("cognito-idp", endpoint_url=server.endpoint, region_name=REGION,
                               aws_access_key_id="dev", aws_secret_access_key="dev",
                               config=Config(retries={"total_max_attempts": 1, "mode": "standard"}, read_timeout=60,
                                             connect_timeout=5))
            yield server, idp, server.database.rsplit("/", 1)[1]
        finally:
            server.stop()


@contextmanager
def users_locked(database_url, database_name):
    """psql holds the users table locked (EXCLUSIVE: reads pass, writes wait) until the block ends."""
    holder = subprocess.Popen(["psql", database_url, "-q"], stdin=subprocess.PIPE, text=True)
    try:
        holder.stdin.write("BEGIN; LOCK TABLE users IN EXCLUSIVE MODE;\n")
        holder.stdin.flush()
        eventually(lambda: sql(
            f"SELECT count(*) FROM pg_stat_activity WHERE datname = '{database_name}' AND state = 'idle in transaction'") == "1",
            within=30, what="psql holds the lock")
        yield
        holder.stdin.write("ROLLBACK;\n\\q\n")
        holder.stdin.flush()
        holder.wait(timeout=10)
    finally:
        if holder.poll() is None:
            holder.kill()


def update_name(idp, pool, value="Ann"):
    """AdminUpdateUserAttributes: its error code, or "ok"."""
    try:
        idp.admin_update_user_attributes(UserPoolId=pool, Username="ann", UserAttributes=[{"Name": "name", "Value": value}])
        return "ok"
    except ClientError as error:
        return error.response["Error"]["Code"]


def pool_with_ann(idp):
    pool = idp.create_user_pool(PoolName="database-failures")["UserPool"]["Id"]
    idp.admin_create_user(UserPoolId=pool, Username="ann", MessageAction="SUPPRESS")
    idp.admin_set_user_password(UserPoolId=pool, Username="ann", Password=PASSWORD, Permanent=True)
    return pool


def test_requests_answer_while_the_database_ends_their_connections():
    with serving() as (server, idp, name):
        pool = pool_with_ann(idp)
        client = idp.create_user_pool_client(UserPoolId=pool, ClientName="app",
                                             ExplicitAuthFlows=["ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"],
                                             )["UserPoolClient"]["ClientId"]

        def sign_in_read_and_update():
            tokens = idp.initiate_auth(ClientId=client, AuthFlow="USER_PASSWORD_AUTH",
                                       AuthParameters={"USERNAME": "ann", "PASSWORD": PASSWORD})["AuthenticationResult"]
            idp.get_user(AccessToken=tokens["AccessToken"])
            return update_name(idp, pool)

        outcomes, unexpected = [], []
        stop = threading.Event()

        def worker():
            while not stop.is_set():
                try:
                    outcomes.append(sign_in_read_and_update())
                except ClientError as error:
                    outcomes.append(error.response["Error"]["Code"])
                except Exception as error:   # a read timeout: a request that hung
                    unexpected.append(repr(error))

        workers = [threading.Thread(target=worker) for _ in range(4)]
        for thread in workers:
            thread.start()
        ended = 0
        for _ in range(8):
            time.sleep(0.5)
            ended += int(sql(f"SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                             f"WHERE datname = '{name}' AND pid <> pg_backend_pid()"))
        stop.set()
        for thread in workers:
            thread.join(timeout=90)
        assert not any(thread.is_alive() for thread in workers), "a request never got an answer"
        assert not unexpected, unexpected[:5]
        assert ended >= 8 and "ok" in outcomes
        assert set(outcomes) <= {"ok", "InternalErrorException"}, set(outcomes)

        def ready():
            try:
                with urllib.request.urlopen(server.endpoint + "/ready", timeout=5) as response:
                    return response.status == 200
            except OSError:
                return False
        eventually(ready, within=30, what="the node is ready again")
        assert [sign_in_read_and_update() for _ in range(12)] == ["ok"] * 12


def test_a_write_whose_connection_ends_inside_its_transaction_fails_at_once_and_the_node_goes_on():
    with serving() as (server, idp, name):
        pool = pool_with_ann(idp)
        with users_locked(server.database, name):
            outcome = []
            writer = threading.Thread(target=lambda: outcome.append(update_name(idp, pool)))
            writer.start()
            waiting = f"FROM pg_stat_activity WHERE datname = '{name}' AND wait_event_type = 'Lock'"
            eventually(lambda: sql(f"SELECT count(*) {waiting}") == "1", within=30, what="the write waits for the lock")
            assert sql(f"SELECT count(pg_terminate_backend(pid)) {waiting}") == "1"
            writer.join(timeout=90)
            assert not writer.is_alive(), "the write never answered"
            assert outcome == ["InternalErrorException"]
        assert [update_name(idp, pool, f"Ann {n}") for n in range(12)] == ["ok"] * 12   # beyond the pool's 10
        assert {"Name": "name", "Value": "Ann 11"} in idp.admin_get_user(UserPoolId=pool, Username="ann")["UserAttributes"]


def test_a_write_that_timed_out_on_a_lock_does_not_fail_the_next_ones():
    with serving("--db-statement-timeout", "1") as (server, idp, name):
        pool = pool_with_ann(idp)
        with users_locked(server.database, name):
            assert update_name(idp, pool) == "InternalErrorException"   # the statement timeout
        assert [update_name(idp, pool, f"Ann {n}") for n in range(12)] == ["ok"] * 12
