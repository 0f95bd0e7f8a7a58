"""The `cognate` command-line tool beside a running server."""
import json
import subprocess

from conftest import BINARY
from helpers import confirmed_user


def cognate(*args):
    return subprocess.run([str(BINARY), *args], capture_output=True, text=True, check=True, timeout=120).stdout


def test_outbox_prints_the_sent_codes(server, idp, pool, app_client):
    """`cognate outbox` reads the outbox GET /_dev/outbox serves, straight from the database."""
    _, email, _ = confirmed_user(server, idp, pool, app_client)
    code = server.last_code(pool["Id"], email)
    text = cognate("outbox", "--database", server.database, "--pool", pool["Id"], "--last", "5")
    assert f"EMAIL to {email}" in text and code in text
    last = cognate("outbox", "--database", server.database, "--json", "--last", "1").splitlines()[-1]
    assert json.loads(last)["code"] == code


def test_migrate_reports_an_up_to_date_schema(server):
    assert "Schema is up to date" in cognate("migrate", "--database", server.database)


def test_crypto_cost_measures_the_signing_floor():
    result = json.loads(cognate("crypto-cost", "--json"))
    assert result["modexpMilliseconds"] > 0 and result["rsaSignMilliseconds"] > 0
    assert abs(result["srpSignInMilliseconds"] - (3 * result["modexpMilliseconds"] + 2 * result["rsaSignMilliseconds"])) < 1e-6
