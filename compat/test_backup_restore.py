"""Backups and restore (issue 5 item 7, docs/deploy.md): back up a live server's database, wipe
it, restore the backup, restart, and the users and tokens from before the backup work again.

SQLite: the online backup API (Python's `Connection.backup`, or the sqlite3 shell's `.backup`)
copies a consistent snapshot while the server runs. PostgreSQL: `pg_dump -Fc` while a node
runs, `pg_restore` into a recreated database (needs Scripts/with-postgres; skipped only with
COGNATE_SKIP_POSTGRES=1).
"""
import pathlib
import shutil
import sqlite3
import tempfile

import pytest
import requests

from conftest import CognateServer
from helpers import USER_FLOWS, cognito_error, email_for, refresh, sign_in, sign_up, unique
from multinode import Node, PostgresDatabase, postgres_url, run, skip_without_postgres, stop_nodes, tool


def code_for(server, pool_id, email):
    found = [m for m in server.outbox(pool_id) if m["destination"] == email]
    assert found, f"no message to {email}"
    return found[-1]["code"]


class Account:
    """A pool, a client and a confirmed user made through the API, with tokens from before the backup."""

    def __init__(self, server):
        idp = server.client()
        self.pool = idp.create_user_pool(PoolName=unique("backup"), AutoVerifiedAttributes=["email"])["UserPool"]
        self.client = idp.create_user_pool_client(UserPoolId=self.pool["Id"], ClientName="app",
                                                  ExplicitAuthFlows=USER_FLOWS)["UserPoolClient"]
        self.username = unique()
        self.sub = sign_up(idp, self.client, self.username)["UserSub"]
        idp.confirm_sign_up(ClientId=self.client["ClientId"], Username=self.username,
                            ConfirmationCode=code_for(server, self.pool["Id"], email_for(self.username)))
        self.tokens = sign_in(idp, self.client, self.username)
        self.jwks = jwks_of(server, self.pool["Id"])

    def after_backup(self, server):
        """Changes made after the backup, which the restore must undo."""
        idp = server.client()
        self.late_user = unique("late")
        sign_up(idp, self.client, self.late_user)
        idp.admin_update_user_attributes(UserPoolId=self.pool["Id"], Username=self.username,
                                         UserAttributes=[{"Name": "name", "Value": "after the backup"}])

    def check_gone(self, server):
        """The wiped database knows nothing of the account."""
        with cognito_error("ResourceNotFoundException"):
            server.client().describe_user_pool(UserPoolId=self.pool["Id"])

    def check_restored(self, server):
        idp = server.client()
        pool_id, client_id = self.pool["Id"], self.client["ClientId"]
        assert idp.describe_user_pool_client(UserPoolId=pool_id, ClientId=client_id)["UserPoolClient"]["ClientId"]
        user = idp.admin_get_user(UserPoolId=pool_id, Username=self.username)
        assert user["UserStatus"] == "CONFIRMED"
        attributes = {a["Name"]: a["Value"] for a in user["UserAttributes"]}
        assert attributes["sub"] == self.sub
        assert "name" not in attributes  # set after the backup
        with cognito_error("UserNotFoundException"):
            idp.admin_get_user(UserPoolId=pool_id, Username=self.late_user)

        # The signing keys came back: same JWKS, and the tokens from before the backup work.
        assert jwks_of(server, pool_id) == self.jwks
        assert idp.get_user(AccessToken=self.tokens["AccessToken"])["Username"] == self.username
        refreshed = refresh(idp, self.client, self.tokens["RefreshToken"])
        assert idp.get_user(AccessToken=refreshed["AccessToken"])["Username"] == self.username
        fresh = sign_in(idp, self.client, self.username)
        assert idp.get_user(AccessToken=fresh["AccessToken"])["Username"] == self.username
        with cognito_error("NotAuthorizedException", "Incorrect username or password."):
            sign_in(idp, self.client, self.username, "Wr0ng-password!")


def jwks_of(server, pool_id):
    r = requests.get(f"{server.endpoint}/{pool_id}/.well-known/jwks.json", timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def backup_with_python(database, target):
    source, destination = sqlite3.connect(database), sqlite3.connect(target)
    try:
        source.backup(destination)
    finally:
        destination.close()
        source.close()


def backup_with_shell(database, target):
    run(["sqlite3", database, f".backup '{target}'"])


def wipe_sqlite(database):
    for suffix in ("", "-wal", "-shm"):
        pathlib.Path(database + suffix).unlink(missing_ok=True)


@pytest.mark.parametrize("backup", [backup_with_python, backup_with_shell], ids=["backup-api", "sqlite3-shell"])
@pytest.mark.sqlite_only
def test_sqlite_back_up_wipe_restore_sign_in(backup):
    with tempfile.TemporaryDirectory(prefix="cognate-backup-") as workdir:
        server = CognateServer(workdir).start()
        try:
            account = Account(server)
            copy = str(pathlib.Path(workdir) / "backup.sqlite")
            backup(server.database, copy)  # while the server runs
            assert sqlite3.connect(copy).execute("PRAGMA integrity_check").fetchone() == ("ok",)
            account.after_backup(server)

            server.stop()
            wipe_sqlite(server.database)
            server.start()
            account.check_gone(server)
            server.stop()

            wipe_sqlite(server.database)
            shutil.copyfile(copy, server.database)
            server.start()
            account.check_restored(server)
        finally:
            alive = server.process is not None and server.process.poll() is None
            server.stop()
        assert alive, server.log_path.read_text()[-3000:]
        assert not server.faults(), "\n".join(server.faults()[:20])


@skip_without_postgres
def test_postgres_dump_drop_restore_sign_in(tmp_path):
    admin_url = postgres_url()
    db = PostgresDatabase(admin_url).create()
    node = Node(tmp_path, db.url, name="restored")
    try:
        node.start()
        account = Account(node)
        dump = tmp_path / "cognate.dump"
        run([tool("pg_dump"), "-Fc", "-f", dump, db.url])  # while the node runs
        account.after_backup(node)
        node.stop()

        db.drop()
        db.create()
        assert db.sql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == "0"
        node.start()
        account.check_gone(node)
        node.stop()

        db.drop()
        db.create()
        run([tool("pg_restore"), "--exit-on-error", "--no-owner", "-d", db.url, dump])
        assert "up to date" in db.cognate("migrate").stdout
        node.start()
        account.check_restored(node)
        stop_nodes([node])  # asserts it stayed up and logged no fault
    finally:
        if node.process is not None and node.process.poll() is None:
            node.stop()
        db.drop()
