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
    assert result["fixedBaseModexpMilliseconds"] > 0
    srp = result["fixedBaseModexpMilliseconds"] + 2 * result["modexpMilliseconds"] + 2 * result["rsaSignMilliseconds"]
    assert abs(result["srpSignInMilliseconds"] - srp) < 1e-6


def test_keys_and_functions_list_as_a_table_and_as_json_lines(server, pool):
    """The database commands print a padded table, or one JSON object per line with --json."""
    table = cognate("keys", "list", "--database", server.database).splitlines()
    assert table[0].split() == ["POOL", "KID", "STATE", "CREATED", "ACTIVATES", "EXPIRES"]
    keys = [json.loads(line) for line in cognate("keys", "list", "--database", server.database, "--json").splitlines()]
    mine = [k for k in keys if k["pool"] == pool["Id"]]
    assert mine and any(k["state"] == "signing" for k in mine)
    assert any(line.split()[:3] == [pool["Id"], mine[0]["kid"], mine[0]["state"]] for line in table[1:])

    arn = "arn:aws:lambda:us-east-1:000000000000:function:cli-listed"
    cognate("functions", "put", arn, "https://hooks.example.com/cli?x=1", "--database", server.database)
    try:
        listed = [json.loads(line) for line in cognate("functions", "list", "--database", server.database, "--json").splitlines()]
        assert {"arn": arn, "url": "https://hooks.example.com/cli?x=1"}.items() <= next(f for f in listed if f["arn"] == arn).items()
        rows = cognate("functions", "list", "--database", server.database).splitlines()
        assert rows[0].split() == ["ARN", "URL", "UPDATED"] and any(r.split()[:2] == [arn, "https://hooks.example.com/cli?x=1"] for r in rows)
    finally:
        cognate("functions", "delete", arn, "--database", server.database)
