"""A PostgreSQL URL means what it means to psql: the tool and the server connect with the
settings a libpq user expects, to a PostgreSQL server set up as Debian sets one up (TLS with a
self-signed certificate, passwords checked with SCRAM, a Unix socket beside TCP), and say why
when they cannot.

Starts a PostgreSQL server of its own (the one of Scripts/with-postgres trusts every
connection, so it could not tell a password sent from one missing)."""
import os
import pathlib
import shutil
import subprocess
import tempfile

import pytest

from conftest import BINARY, POSTGRES_URL, CognateServer, free_port
from multinode import skip_without_postgres, tool

pytestmark = [skip_without_postgres, pytest.mark.skipif(
    bool(POSTGRES_URL), reason="starts a PostgreSQL server of its own: once, in the SQLite pass, is enough")]

PASSWORD = "s3cret:with colon"


@pytest.fixture(scope="module")
def postgres():
    """A throw-away PostgreSQL server: TLS on (a self-signed certificate), SCRAM passwords
    on TCP and on its Unix socket. Yields (port, socket directory, certificate path)."""
    postgres_dir = pathlib.Path(tool("initdb")).parent
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="cognate-pgconn-"))
    as_owner = []
    if os.getuid() == 0:  # PostgreSQL refuses to run as root
        as_owner = ["runuser", "-u", "postgres", "--"]
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=snakeoil",
                    "-keyout", workdir / "server.key", "-out", workdir / "server.crt"], check=True, capture_output=True)
    (workdir / "password").write_text(PASSWORD + "\n")
    os.chmod(workdir / "server.key", 0o600)
    if as_owner:
        shutil.chown(workdir, "postgres")
        for name in ("server.key", "server.crt", "password"):
            shutil.chown(workdir / name, "postgres")
    subprocess.run([*as_owner, postgres_dir / "initdb", "-D", workdir / "data", "-U", "cognate", "-E", "UTF8",
                    "--auth=scram-sha-256", f"--pwfile={workdir / 'password'}"], check=True, capture_output=True)
    port = free_port()
    options = (f"-p {port} -k {workdir} -c listen_addresses=127.0.0.1 -c ssl=on -c fsync=off "
               f"-c ssl_cert_file={workdir / 'server.crt'} -c ssl_key_file={workdir / 'server.key'}")
    subprocess.run([*as_owner, postgres_dir / "pg_ctl", "-D", workdir / "data", "-l", workdir / "log", "-w",
                    "start", "-o", options], check=True, capture_output=True)
    # The tests' commands work on an existing Cognate database, as an operator's do: migrate makes it.
    subprocess.run([str(BINARY), "migrate", "--database", f"postgres://cognate@127.0.0.1:{port}/postgres"], check=True,
                   capture_output=True, timeout=60, env={**os.environ, "PGPASSWORD": PASSWORD})
    try:
        yield port, str(workdir), str(workdir / "server.crt")
    finally:
        subprocess.run([*as_owner, postgres_dir / "pg_ctl", "-D", workdir / "data", "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(workdir, ignore_errors=True)


def cognate(url, env=None):
    """`cognate pools list` on `url`, with only `env` added to a clean environment (no PGPASSWORD
    from the caller, a home without a password file). Returns (exit status, output)."""
    home = tempfile.mkdtemp(prefix="cognate-home-")
    environment = {"PATH": os.environ["PATH"], "HOME": home, **(env or {})}
    result = subprocess.run([str(BINARY), "pools", "list", "--database", url], capture_output=True, text=True,
                            timeout=60, env=environment)
    shutil.rmtree(home, ignore_errors=True)
    return result.returncode, result.stdout + result.stderr


def encrypted_connections(port):
    """How many of user cognate's connections use TLS, asked over the server's socket... by psql."""
    return int(subprocess.run(
        [tool("psql"), f"postgresql://cognate@127.0.0.1:{port}/postgres?sslmode=disable", "-tAc",
         "SELECT count(*) FROM pg_stat_ssl JOIN pg_stat_activity USING (pid) "
         "WHERE ssl AND usename = 'cognate' AND application_name <> 'psql'"],
        env={**os.environ, "PGPASSWORD": PASSWORD}, capture_output=True, text=True, check=True).stdout.strip())


def test_the_default_sslmode_reaches_a_server_with_a_self_signed_certificate(postgres, tmp_path):
    """prefer, like libpq: encrypted, the certificate not checked. Before, the default checked
    it and a Debian-style server was unreachable ("did not answer within 10 s")."""
    port, _, _ = postgres
    server = CognateServer(tmp_path, env={"PGPASSWORD": PASSWORD})
    server.database = f"postgres://cognate@127.0.0.1:{port}/postgres"
    server.args[server.args.index("--database") + 1] = server.database
    server.start()
    try:
        pool = server.client().create_user_pool(PoolName="over-tls")["UserPool"]
        assert pool["Name"] == "over-tls"
        assert encrypted_connections(port) > 0
    finally:
        server.stop()


@pytest.mark.parametrize("mode", ["require", "allow", "prefer"])
def test_modes_that_encrypt_without_checking_the_certificate(postgres, mode):
    port, _, _ = postgres
    status, output = cognate(f"postgres://cognate@127.0.0.1:{port}/postgres?sslmode={mode}", {"PGPASSWORD": PASSWORD})
    assert status == 0, output


def test_verify_modes_check_the_certificate(postgres):
    port, _, certificate = postgres
    base = f"postgres://cognate@127.0.0.1:{port}/postgres"
    status, output = cognate(f"{base}?sslmode=verify-full", {"PGPASSWORD": PASSWORD})
    assert status != 0 and "CERTIFICATE_VERIFY_FAILED" in output, output
    status, output = cognate(f"{base}?sslmode=verify-ca&sslrootcert={certificate}", {"PGPASSWORD": PASSWORD})
    assert status == 0, output
    # The certificate names "snakeoil", not 127.0.0.1.
    status, output = cognate(f"{base}?sslmode=verify-full&sslrootcert={certificate}", {"PGPASSWORD": PASSWORD})
    assert status != 0, output


def test_the_password_from_the_url_pgpassword_or_the_password_file(postgres, tmp_path):
    port, _, _ = postgres
    url = f"postgres://cognate@127.0.0.1:{port}/postgres"
    encoded = PASSWORD.replace(":", "%3A").replace(" ", "%20")
    assert cognate(f"postgres://cognate:{encoded}@127.0.0.1:{port}/postgres")[0] == 0
    assert cognate(url, {"PGPASSWORD": PASSWORD})[0] == 0

    passfile = tmp_path / "pgpass"
    passfile.write_text(f"# Cognate\n127.0.0.1:{port}:postgres:cognate:{PASSWORD.replace(':', chr(92) + ':')}\n")
    passfile.chmod(0o600)
    assert cognate(url, {"PGPASSFILE": str(passfile)})[0] == 0

    passfile.chmod(0o644)  # readable by others: libpq passes it over, and so does Cognate, saying why
    status, output = cognate(url, {"PGPASSFILE": str(passfile)})
    assert status != 0 and "chmod 0600" in output, output


def test_a_failure_says_why(postgres):
    """In PostgreSQL's or the network's own words; a refusal at once, a server not listening
    after the wait for it to come up (10 s)."""
    port, _, _ = postgres
    status, output = cognate(f"postgres://cognate:wrong@127.0.0.1:{port}/postgres")
    assert status != 0 and f'at 127.0.0.1:{port} as cognate: password authentication failed for user "cognate"' in output, output
    assert len(output.splitlines()) == 1, output
    assert "wrong" not in output.replace("cognate:***", "")
    closed = free_port()
    status, output = cognate(f"postgres://cognate:x@127.0.0.1:{closed}/postgres")
    assert status != 0 and output.splitlines() == [
        f"Error: Cannot connect to PostgreSQL at 127.0.0.1:{closed}: connection refused (for 10 s); is PostgreSQL running there? "
        "(from --database; --database or COGNATE_DATABASE sets it)."], output
    status, output = cognate(f"postgres://cognate@127.0.0.1:{port}/postgres?sslmode=on")
    assert status != 0 and 'Unknown sslmode "on"' in output, output
    status, output = cognate(f"postgres://cognate@127.0.0.1:{port}/postgres")
    assert status != 0 and "asks for a password and none was given" in output, output


def test_a_unix_socket(postgres):
    port, directory, _ = postgres
    status, output = cognate(f"postgresql:///postgres?host={directory}&port={port}&user=cognate",
                             {"PGPASSWORD": PASSWORD})
    assert status == 0, output
    status, output = cognate("postgresql://cognate@/postgres",
                             {"PGPASSWORD": PASSWORD, "PGHOST": directory, "PGPORT": str(port)})
    assert status == 0, output


def test_a_database_without_cognates_tables_is_named_and_left_empty(postgres):
    """The wrong database name in a URL: the commands that work on a server's database said
    nothing and gave it Cognate's tables."""
    port, _, _ = postgres
    subprocess.run([tool("psql"), f"postgresql://cognate@127.0.0.1:{port}/postgres", "-qc", "CREATE DATABASE other"],
                   env={**os.environ, "PGPASSWORD": PASSWORD}, check=True, capture_output=True)
    status, output = cognate(f"postgres://cognate@127.0.0.1:{port}/other", {"PGPASSWORD": PASSWORD})
    assert status == 1 and f"postgres://cognate@127.0.0.1:{port}/other holds no Cognate tables" in output, output
    assert "cognate migrate" in output
    tables = subprocess.run([tool("psql"), f"postgresql://cognate@127.0.0.1:{port}/other", "-tAc",
                             "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"],
                            env={**os.environ, "PGPASSWORD": PASSWORD}, capture_output=True, text=True, check=True).stdout
    assert tables.strip() == "0"
