"""The `cognate` command-line tool beside a running server, and the mistakes it names plainly."""
import json
import os
import socket
import subprocess

import pytest

from conftest import BINARY, free_port
from helpers import confirmed_user


def cognate(*args):
    return subprocess.run([str(BINARY), *args], capture_output=True, text=True, check=True, timeout=120).stdout


def attempt(*args, cwd=None, env=None, timeout=120):
    """Runs the CLI in `cwd` with a clean COGNATE_* environment (plus `env`); returns the process."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("COGNATE_", "AWS_"))}
    return subprocess.run([str(BINARY), *args], capture_output=True, text=True, timeout=timeout, cwd=cwd,
                          env={**environment, **(env or {})})


def error_line(result):
    """The one line a refused command prints: exit status 1 or 64, nothing else on stderr."""
    assert result.returncode in (1, 64), result
    lines = result.stderr.splitlines()
    assert lines and lines[0].startswith("Error: "), result.stderr
    return lines[0]


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


# --- mistakes that are named plainly -------------------------------------------------------------

@pytest.mark.parametrize("args", [["keys", "list"], ["pools", "list"], ["migrate"], ["serve", "--port", "0"]])
def test_an_unknown_database_scheme_is_refused_and_nothing_is_created(tmp_path, args):
    """`postgress://…` became a SQLite file under a directory named `postgress:`."""
    result = attempt(*args, "--database", "postgress://cognate:s3cret@db.internal/cognate", cwd=tmp_path)
    line = error_line(result)
    assert 'Unknown database scheme "postgress://"' in line and "postgres:// or postgresql://" in line, line
    assert "path" in line and "--database" in line and "s3cret" not in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [["outbox"], ["keys", "list"], ["functions", "list"], ["users", "synthesize", "--pool", "p",
                                  "--count", "1"], ["keys", "rotate"], ["pools", "list", "--database", ".cognate/cognate.sqlite"],
                                  ["users", "list", "--pool", "p", "--database", ".cognate/cognate.sqlite"]])
def test_commands_that_work_on_a_database_never_create_one(tmp_path, args):
    """Run where no database is, they made and migrated an empty one ("no such table: outbox",
    an empty table); they say where they looked and how to name the right one."""
    line = error_line(attempt(*args, cwd=tmp_path))
    assert f"No database at {tmp_path}/.cognate/cognate.sqlite" in line, line
    assert "--database" in line and "COGNATE_DATABASE" in line and "cognate serve" in line and "cognate migrate" in line
    assert list(tmp_path.iterdir()) == []

    named = attempt("keys", "list", cwd=tmp_path, env={"COGNATE_DATABASE": str(tmp_path / "elsewhere.sqlite")})
    assert f"No database at {tmp_path}/elsewhere.sqlite (from COGNATE_DATABASE)" in error_line(named)
    assert list(tmp_path.iterdir()) == []


def test_migrate_and_serve_create_the_database_the_others_then_use(tmp_path):
    database = str(tmp_path / "made" / "cognate.sqlite")
    assert "Applied migrations" in attempt("migrate", "--database", database).stdout
    listed = attempt("keys", "list", "--database", database)
    assert listed.returncode == 0 and listed.stdout.split() == ["POOL", "KID", "STATE", "CREATED", "ACTIVATES", "EXPIRES"]
    foreign = tmp_path / "foreign.sqlite"
    subprocess.run(["python3", "-c", f"import sqlite3; sqlite3.connect({str(foreign)!r}).execute('CREATE TABLE t (x)')"], check=True)
    before = foreign.read_bytes()
    assert "without Cognate's tables" in error_line(attempt("outbox", "--database", str(foreign)))
    assert foreign.read_bytes() == before


def test_a_failing_start_touches_nothing(tmp_path):
    """`--database notes.txt` narrowed the file to 0600 and then failed; a port in use or an
    unusable certificate created the database first."""
    notes = tmp_path / "notes.txt"
    notes.write_text("remember the milk\n")
    notes.chmod(0o644)
    line = error_line(attempt("serve", "--port", "0", "--database", str(notes)))
    assert f"{notes} is not a SQLite database" in line, line
    assert notes.stat().st_mode & 0o777 == 0o644 and notes.read_text() == "remember the milk\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]

    fresh = tmp_path / "fresh"
    fresh.mkdir()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert "is already in use" in error_line(attempt("serve", "--port", str(port), cwd=fresh))
    (fresh / "junk.pem").write_text("junk\n")
    assert "Cannot load the TLS certificate" in error_line(
        attempt("serve", "--port", "0", "--tls-certificate", "junk.pem", "--tls-key", "junk.pem", cwd=fresh))
    assert "--smtp-from must be an address" in error_line(attempt(
        "serve", "--port", "0", "--email-delivery", "smtp", "--smtp-host", "mail", "--smtp-from", "nobody", cwd=fresh))
    assert [p.name for p in fresh.iterdir()] == ["junk.pem"]


def test_a_refused_start_names_serve_and_the_credentials_file(tmp_path):
    """The usage line was the top-level command's, and the credentials refusal did not name the
    file option deploy.md recommends."""
    result = attempt("serve", "--mode", "production", "--email-delivery", "outbox", "--port", "0", cwd=tmp_path)
    assert result.returncode == 64
    assert "--admin-credentials-file" in result.stderr and "COGNATE_ADMIN_CREDENTIALS_FILE" in result.stderr
    assert "Usage: cognate serve" in result.stderr and "See 'cognate serve --help'" in result.stderr
    assert "Usage: cognate <subcommand>" not in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_an_unreachable_postgresql_is_one_line(tmp_path):
    """38 info lines from the driver, then a debug description: now one line saying where,
    whether PostgreSQL runs there and which setting names it, for a command and for `serve`."""
    port = free_port()
    url = f"postgres://cognate@127.0.0.1:{port}/cognate"
    runs = [subprocess.Popen([str(BINARY), *args, "--database", url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             cwd=tmp_path) for args in (["keys", "list"], ["serve", "--port", "0"])]
    for run in runs:
        _, stderr = run.communicate(timeout=120)
        assert run.returncode == 1 and len(stderr.splitlines()) == 1, stderr
        assert stderr.startswith(f"Error: Cannot connect to PostgreSQL at 127.0.0.1:{port}: connection refused"), stderr
        assert "is PostgreSQL running there?" in stderr and "--database" in stderr and "COGNATE_DATABASE" in stderr
        assert "PostgresNIO" not in stderr and "PSQLError" not in stderr


@pytest.mark.parametrize("args, says", [
    (["pool", "list"], "Unknown command 'pool'; did you mean 'pools'?"),
    (["user", "list", "--pool", "p"], "Unknown command 'user'; did you mean 'users'?"),
    (["users", "lst", "--pool", "p"], "Unknown command 'lst' of 'cognate users'; did you mean 'list'?"),
    (["users", "list", "--poool", "p"], "Unknown option '--poool' for 'cognate users list'; did you mean '--pool'?"),
    (["users", "list", "--colour", "red"], "Unknown option '--colour' for 'cognate users list'."),
    (["keys", "list", "--pool", "p"], "Unknown option '--pool' for 'cognate keys list'."),
])
def test_unknown_commands_and_options_are_named_with_the_nearest(tmp_path, args, says):
    """`cognate pool list` was reported as unexpected arguments to `serve`, `user list --pool` as
    "did you mean --port", an unknown option after a missing one."""
    result = attempt(*args, cwd=tmp_path)
    assert result.returncode == 64 and result.stderr.startswith(f"Error: {says}"), result.stderr
    assert "serve" not in result.stderr.splitlines()[0].split("The commands")[0] and "--port" not in result.stderr
    if "option" in says:
        assert "Its options: --endpoint" in result.stderr or "Its options: --config, --database" in result.stderr
    else:
        assert "The commands" in result.stderr
    assert list(tmp_path.iterdir()) == []
