"""The `cognate` admin commands (pools, clients, users, groups, users export/import) against a
production mode server: every call is signed with SigV4 from the environment or a credentials
file, and what the CLI does is checked with boto3 against the same server."""
import csv
import json
import os
import pty
import select
import subprocess
import tempfile

import pytest
from botocore.exceptions import ClientError

from conftest import BINARY, CognateServer
from helpers import cognito_error, unique

ACCESS_KEY, SECRET_KEY = "AKIACOGNATECLI", "cli/s3cr3t+key"


@pytest.fixture(scope="module")
def production():
    with tempfile.TemporaryDirectory(prefix="cognate-cli-admin-") as workdir:
        server = CognateServer(workdir, extra_args=["--mode", "production", "--email-delivery", "outbox",
                                                    "--admin-credentials", f"{ACCESS_KEY}:{SECRET_KEY}"]).start()
        server.workdir_path = workdir
        yield server
        alive = server.process.poll() is None
        server.stop()
        assert alive, f"cognate died during the module:\n{server.log_path.read_text()[-4000:]}"
        assert not server.faults(), "cognate logged server faults:\n" + "\n".join(server.faults()[:20])


@pytest.fixture(scope="module")
def admin(production):
    return production.client(access_key=ACCESS_KEY, secret_key=SECRET_KEY)


def cli_env(server, **extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("AWS_", "COGNATE_"))}
    env.update({"COGNATE_ENDPOINT": server.endpoint, "AWS_ACCESS_KEY_ID": ACCESS_KEY, "AWS_SECRET_ACCESS_KEY": SECRET_KEY})
    env.update(extra)
    return {k: v for k, v in env.items() if v is not None}


def run(server, *args, env=None, check=True, timeout=300, input=None):
    result = subprocess.run([str(BINARY), *args], capture_output=True, text=True, timeout=timeout,
                            env=env or cli_env(server), input=input)
    if check:
        assert result.returncode == 0, f"cognate {' '.join(args)} exited {result.returncode}:\n{result.stderr}"
    return result


def run_json(server, *args, **kwargs):
    return json.loads(run(server, *args, "--output", "json", **kwargs).stdout)


def all_users(admin, pool_id):
    users = []
    for page in admin.get_paginator("list_users").paginate(UserPoolId=pool_id):
        users += page["Users"]
    return users


def attributes(user):
    return {a["Name"]: a["Value"] for a in user.get("Attributes", user.get("UserAttributes", [])) if a["Name"] != "sub"}


# --- pools, clients, users, groups ----------------------------------------------------------

def test_pools_created_by_the_cli_are_seen_by_boto3_and_back(production, admin):
    name = unique("cli-pool")
    created = run_json(production, "pools", "create", name, "--auto-verify", "email")["UserPool"]
    described = admin.describe_user_pool(UserPoolId=created["Id"])["UserPool"]
    assert described["Name"] == name and described["AutoVerifiedAttributes"] == ["email"]

    other = admin.create_user_pool(PoolName=unique("boto-pool"))["UserPool"]
    listed = run_json(production, "pools", "list")["UserPools"]
    assert {created["Id"], other["Id"]} <= {p["Id"] for p in listed}
    table = run(production, "pools", "list").stdout
    assert table.splitlines()[0].split() == ["ID", "NAME", "CREATED"]
    assert name in table and other["Name"] in table
    assert created["Id"] in run(production, "pools", "describe", created["Id"]).stdout
    assert run_json(production, "pools", "describe", other["Id"])["UserPool"]["Name"] == other["Name"]

    run(production, "pools", "delete", created["Id"])
    with cognito_error("ResourceNotFoundException"):
        admin.describe_user_pool(UserPoolId=created["Id"])


def test_clients(production, admin):
    pool = admin.create_user_pool(PoolName=unique("clients"))["UserPool"]
    created = run_json(production, "clients", "create", "--pool", pool["Id"], "web", "--generate-secret",
                       "--auth-flows", "ALLOW_USER_SRP_AUTH,ALLOW_REFRESH_TOKEN_AUTH")["UserPoolClient"]
    seen = admin.describe_user_pool_client(UserPoolId=pool["Id"], ClientId=created["ClientId"])["UserPoolClient"]
    assert seen["ClientName"] == "web" and seen["ClientSecret"] == created["ClientSecret"]
    assert set(seen["ExplicitAuthFlows"]) == {"ALLOW_USER_SRP_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"}
    boto_client = admin.create_user_pool_client(UserPoolId=pool["Id"], ClientName="mobile")["UserPoolClient"]
    listed = run_json(production, "clients", "list", "--pool", pool["Id"])["UserPoolClients"]
    assert {c["ClientId"] for c in listed} == {created["ClientId"], boto_client["ClientId"]}
    table = run(production, "clients", "list", "--pool", pool["Id"]).stdout
    assert "mobile" in table and "web" in table
    assert "mobile" in run(production, "clients", "describe", "--pool", pool["Id"], boto_client["ClientId"]).stdout
    run(production, "clients", "delete", "--pool", pool["Id"], created["ClientId"])
    with cognito_error("ResourceNotFoundException"):
        admin.describe_user_pool_client(UserPoolId=pool["Id"], ClientId=created["ClientId"])


def test_users(production, admin):
    pool = admin.create_user_pool(PoolName=unique("users"))["UserPool"]
    names = [unique("boto") for _ in range(3)]
    for name in names:
        admin.admin_create_user(UserPoolId=pool["Id"], Username=name, MessageAction="SUPPRESS",
                                UserAttributes=[{"Name": "email", "Value": f"{name}@example.com"}])
    listed = run_json(production, "users", "list", "--pool", pool["Id"])["Users"]
    assert sorted(u["Username"] for u in listed) == sorted(names)
    assert all(u["UserStatus"] == "FORCE_CHANGE_PASSWORD" for u in listed)
    table = run(production, "users", "list", "--pool", pool["Id"]).stdout
    assert all(name in table and f"{name}@example.com" in table for name in names)

    mine = unique("cli")
    created = run_json(production, "users", "create", "--pool", pool["Id"], mine, "--attribute", f"email={mine}@example.com",
                       "--attribute", "given_name=Ada Lovelace", "--suppress-message")["User"]
    assert created["Username"] == mine
    got = admin.admin_get_user(UserPoolId=pool["Id"], Username=mine)
    assert attributes(got)["given_name"] == "Ada Lovelace" and got["UserStatus"] == "FORCE_CHANGE_PASSWORD"
    assert "Ada Lovelace" in run(production, "users", "get", "--pool", pool["Id"], mine).stdout

    run(production, "users", "disable", "--pool", pool["Id"], mine)
    assert admin.admin_get_user(UserPoolId=pool["Id"], Username=mine)["Enabled"] is False
    run(production, "users", "enable", "--pool", pool["Id"], mine)
    assert admin.admin_get_user(UserPoolId=pool["Id"], Username=mine)["Enabled"] is True

    run(production, "users", "set-password", "--pool", pool["Id"], mine, "--permanent",
        env=cli_env(production, COGNATE_USER_PASSWORD="Corr3ct-horse!"))
    assert admin.admin_get_user(UserPoolId=pool["Id"], Username=mine)["UserStatus"] == "CONFIRMED"
    client = admin.create_user_pool_client(UserPoolId=pool["Id"], ClientName="app",
                                           ExplicitAuthFlows=["ALLOW_ADMIN_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"])
    signed_in = admin.admin_initiate_auth(UserPoolId=pool["Id"], ClientId=client["UserPoolClient"]["ClientId"],
                                          AuthFlow="ADMIN_USER_PASSWORD_AUTH",
                                          AuthParameters={"USERNAME": mine, "PASSWORD": "Corr3ct-horse!"})
    assert "AccessToken" in signed_in["AuthenticationResult"]
    run(production, "users", "set-password", "--pool", pool["Id"], mine, "--password-file", "-", input="Temp0rary-pass!\n")
    assert admin.admin_get_user(UserPoolId=pool["Id"], Username=mine)["UserStatus"] == "FORCE_CHANGE_PASSWORD"
    refused = run(production, "users", "set-password", "--pool", pool["Id"], mine, check=False)
    assert refused.returncode != 0 and "COGNATE_USER_PASSWORD" in refused.stderr

    run(production, "users", "delete", "--pool", pool["Id"], mine)
    with cognito_error("UserNotFoundException"):
        admin.admin_get_user(UserPoolId=pool["Id"], Username=mine)
    missing = run(production, "users", "get", "--pool", pool["Id"], mine, check=False)
    assert missing.returncode == 1 and "UserNotFoundException" in missing.stderr


def test_groups(production, admin):
    pool = admin.create_user_pool(PoolName=unique("groups"))["UserPool"]
    users = [unique("member") for _ in range(2)]
    for name in users:
        admin.admin_create_user(UserPoolId=pool["Id"], Username=name, MessageAction="SUPPRESS")
    group = run_json(production, "groups", "create", "--pool", pool["Id"], "staff", "--description", "The staff",
                     "--precedence", "3")["Group"]
    assert group["GroupName"] == "staff" and group["Precedence"] == 3
    assert admin.get_group(UserPoolId=pool["Id"], GroupName="staff")["Group"]["Description"] == "The staff"
    admin.create_group(UserPoolId=pool["Id"], GroupName="readers")
    assert {g["GroupName"] for g in run_json(production, "groups", "list", "--pool", pool["Id"])["Groups"]} == {"staff", "readers"}
    table = run(production, "groups", "list", "--pool", pool["Id"]).stdout
    assert "staff" in table and "readers" in table and "The staff" in table

    for name in users:
        run(production, "groups", "add-user", "--pool", pool["Id"], "staff", name)
    boto_members = admin.list_users_in_group(UserPoolId=pool["Id"], GroupName="staff")["Users"]
    assert sorted(u["Username"] for u in boto_members) == sorted(users)
    members = run_json(production, "groups", "members", "--pool", pool["Id"], "staff")["Users"]
    assert sorted(u["Username"] for u in members) == sorted(users)
    assert users[0] in run(production, "groups", "members", "--pool", pool["Id"], "staff").stdout

    run(production, "groups", "remove-user", "--pool", pool["Id"], "staff", users[0])
    groups = admin.admin_list_groups_for_user(UserPoolId=pool["Id"], Username=users[0])["Groups"]
    assert groups == []
    run(production, "groups", "delete", "--pool", pool["Id"], "readers")
    with cognito_error("ResourceNotFoundException"):
        admin.get_group(UserPoolId=pool["Id"], GroupName="readers")


def test_output_id_prints_only_ids_for_scripts(production, admin):
    """deploy.md said `pools create` "prints the id"; it printed a table. `--output id` prints
    what names each item, one per line."""
    name = unique("ids")
    created = run(production, "pools", "create", name, "--output", "id").stdout
    pool_id = created.strip()
    assert created == pool_id + "\n" and admin.describe_user_pool(UserPoolId=pool_id)["UserPool"]["Name"] == name
    client_id = run(production, "clients", "create", "--pool", pool_id, "web", "--output", "id").stdout.strip()
    assert admin.describe_user_pool_client(UserPoolId=pool_id, ClientId=client_id)["UserPoolClient"]["ClientName"] == "web"
    assert run(production, "clients", "list", "--pool", pool_id, "--output", "id").stdout == client_id + "\n"
    assert run(production, "users", "create", "--pool", pool_id, "ada", "--suppress-message", "--output", "id").stdout == "ada\n"
    assert run(production, "groups", "create", "--pool", pool_id, "staff", "--output", "id").stdout == "staff\n"
    assert pool_id in run(production, "pools", "list", "--output", "id").stdout.splitlines()
    assert run(production, "pools", "delete", pool_id, "--output", "id").stdout == pool_id + "\n"


# --- credentials ----------------------------------------------------------------------------

def test_a_wrong_secret_unknown_key_or_no_credentials_fail_with_the_servers_error(production, tmp_path):
    wrong = run(production, "pools", "list", env=cli_env(production, AWS_SECRET_ACCESS_KEY="wrong"), check=False)
    assert wrong.returncode == 1 and "InvalidSignatureException" in wrong.stderr and wrong.stdout == ""
    unknown = run(production, "pools", "list", env=cli_env(production, AWS_ACCESS_KEY_ID="AKIAUNKNOWN"), check=False)
    assert unknown.returncode == 1 and "UnrecognizedClientException" in unknown.stderr
    unsigned = run(production, "pools", "list",
                   env=cli_env(production, AWS_ACCESS_KEY_ID=None, AWS_SECRET_ACCESS_KEY=None), check=False)
    assert unsigned.returncode == 1 and "MissingAuthenticationTokenException" in unsigned.stderr
    other_region = run(production, "pools", "list", env=cli_env(production, COGNATE_REGION="eu-west-1"), check=False)
    assert other_region.returncode == 1 and "InvalidSignatureException" in other_region.stderr

    credentials = tmp_path / "credentials"
    credentials.write_text(f"{ACCESS_KEY}:{SECRET_KEY}\n")
    credentials.chmod(0o644)
    readable = run(production, "pools", "list", "--credentials-file", str(credentials), check=False)
    assert readable.returncode != 0 and "may be read by others" in readable.stderr   # a secret file is its owner's
    credentials.chmod(0o600)
    from_file = run(production, "pools", "list", "--output", "json", "--credentials-file", str(credentials),
                    env=cli_env(production, AWS_ACCESS_KEY_ID=None, AWS_SECRET_ACCESS_KEY=None))
    assert "UserPools" in json.loads(from_file.stdout)
    credentials.write_text(f"{ACCESS_KEY}:wrong\n")
    refused = run(production, "pools", "list", "--credentials-file", str(credentials), check=False)
    assert refused.returncode == 1 and "InvalidSignatureException" in refused.stderr

    stopped = run(production, "pools", "list", env=cli_env(production, COGNATE_ENDPOINT="http://127.0.0.1:9"), check=False)
    assert stopped.returncode == 1 and "Cannot reach" in stopped.stderr


# --- export and import ----------------------------------------------------------------------

SCHEMA = [{"Name": "clinic", "AttributeDataType": "String", "Mutable": True}]
TRICKY = {"given_name": 'Ada, "the" first', "family_name": "Lovelace\nByron", "custom:clinic": "Nörth",
          "email_verified": "true"}


@pytest.fixture(scope="module")
def source_pool(production, admin):
    """1000 synthesized users (in the database) and three made through the API with awkward values."""
    pool = admin.create_user_pool(PoolName=unique("export"), Schema=SCHEMA)["UserPool"]
    subprocess.run([str(BINARY), "users", "synthesize", "--database", production.database, "--pool", pool["Id"],
                    "--count", "1000"], check=True, capture_output=True, timeout=300)
    for i in range(3):
        name = unique(f"tricky{i}")
        admin.admin_create_user(UserPoolId=pool["Id"], Username=name, MessageAction="SUPPRESS", UserAttributes=[
            {"Name": "email", "Value": f"{name}@example.com"}, *({"Name": k, "Value": v} for k, v in TRICKY.items())])
    return pool


def expected_users(admin, pool_id):
    return {u["Username"]: attributes(u) for u in all_users(admin, pool_id)}


def test_export_writes_every_user_as_csv_and_json_lines(production, admin, source_pool, tmp_path):
    users = expected_users(admin, source_pool["Id"])
    assert len(users) == 1003
    csv_path, jsonl_path = tmp_path / "users.csv", tmp_path / "users.jsonl"
    done = run(production, "users", "export", "--pool", source_pool["Id"], "--file", str(csv_path))
    assert "Exported 1003 users" in done.stderr and "\r" not in done.stderr   # no progress line off a terminal
    run(production, "users", "export", "--pool", source_pool["Id"], "--file", str(jsonl_path))   # format from .jsonl

    with open(csv_path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    header = admin.get_csv_header(UserPoolId=source_pool["Id"])["CSVHeader"]
    assert list(rows[0].keys()) == header and len(rows) == 1003
    by_name = {r["cognito:username"]: r for r in rows}
    assert set(by_name) == set(users)
    for name, attrs in users.items():
        assert {k: v for k, v in by_name[name].items() if v and not k.startswith("cognito:")} == attrs

    lines = jsonl_path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1003
    assert {json.loads(line)["Username"]: attributes(json.loads(line)) for line in lines} == users

    stdout = run(production, "users", "export", "--pool", source_pool["Id"], "--format", "jsonl").stdout
    assert len(stdout.splitlines()) == 1003


def on_terminal(server, *args):
    """Runs the CLI with standard error on a pseudo-terminal; its exit status and what it wrote there."""
    master, slave = pty.openpty()
    process = subprocess.Popen([str(BINARY), *args], stdout=subprocess.PIPE, stderr=slave, env=cli_env(server))
    os.close(slave)
    output = b""
    while True:
        ready, _, _ = select.select([master], [], [], 120)
        if not ready:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:   # the child closed the terminal
            break
        if not chunk:
            break
        output += chunk
    os.close(master)
    stdout = process.communicate(timeout=60)[0].decode()
    return process.returncode, output.decode(errors="replace"), stdout


def test_export_and_import_show_progress_on_a_terminal(production, admin, source_pool, tmp_path):
    exported = tmp_path / "p.csv"
    status, terminal, _ = on_terminal(production, "users", "export", "--pool", source_pool["Id"], "--file", str(exported))
    assert status == 0 and "\r\x1b[K" in terminal and "Exported 1003 users" in terminal
    assert "of about 1003 users" in terminal   # DescribeUserPool's estimate

    target = admin.create_user_pool(PoolName=unique("progress"), Schema=SCHEMA)["UserPool"]
    status, terminal, stdout = on_terminal(production, "users", "import", "--pool", target["Id"], "--file", str(exported))
    assert status == 0 and "\r\x1b[K" in terminal and "imported 1003, skipped 0, failed 0 of 1003 rows read" in terminal
    assert "Imported 1003, skipped 0, failed 0" in stdout


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_import_brings_back_the_same_users(production, admin, source_pool, tmp_path, fmt):
    exported = tmp_path / f"users.{fmt}"
    run(production, "users", "export", "--pool", source_pool["Id"], "--format", fmt, "--file", str(exported))
    target = admin.create_user_pool(PoolName=unique("import"), Schema=SCHEMA)["UserPool"]
    extra = ["--max-job-bytes", "40000"] if fmt == "jsonl" else []   # several jobs, one after the other
    done = run(production, "users", "import", "--pool", target["Id"], "--file", str(exported), *extra)
    assert "Imported 1003, skipped 0, failed 0" in done.stdout, done.stdout + done.stderr
    jobs = admin.list_user_import_jobs(UserPoolId=target["Id"], MaxResults=60)["UserImportJobs"]
    assert all(job["Status"] == "Succeeded" for job in jobs)
    assert (len(jobs) > 1) == (fmt == "jsonl") and f"{len(jobs)} import job" in done.stdout

    imported = all_users(admin, target["Id"])
    assert {u["Username"]: attributes(u) for u in imported} == expected_users(admin, source_pool["Id"])
    assert {u["UserStatus"] for u in imported} == {"RESET_REQUIRED"}

    again = run(production, "users", "import", "--pool", target["Id"], "--file", str(exported), check=False)
    assert again.returncode == 0 and "Imported 0, skipped 0, failed 1003" in again.stdout   # names exist: rows fail


def test_a_disabled_user_stays_disabled_through_export_and_import(production, admin, tmp_path):
    """`users export` -> `users import` enabled every disabled user. JSON lines carry Enabled and
    the import disables the users it made; CSV, whose columns are Cognito's, says it cannot."""
    source = admin.create_user_pool(PoolName=unique("disabled-src"))["UserPool"]
    for name in ("on", "off", "taken"):
        admin.admin_create_user(UserPoolId=source["Id"], Username=name, MessageAction="SUPPRESS")
    for name in ("off", "taken"):
        admin.admin_disable_user(UserPoolId=source["Id"], Username=name)
    target = admin.create_user_pool(PoolName=unique("disabled-dst"))["UserPool"]
    admin.admin_create_user(UserPoolId=target["Id"], Username="taken", MessageAction="SUPPRESS")   # someone else's

    exported = tmp_path / "users.jsonl"
    run(production, "users", "export", "--pool", source["Id"], "--file", str(exported))
    done = run(production, "users", "import", "--pool", target["Id"], "--file", str(exported))
    assert "Imported 2, skipped 0, failed 1 (3 rows, 1 import job); disabled 1, as the file marks them." in done.stdout, done.stdout
    enabled = {u["Username"]: u["Enabled"] for u in all_users(admin, target["Id"])}
    assert enabled == {"on": True, "off": False, "taken": True}   # the existing user is left as it was

    as_csv = run(production, "users", "export", "--pool", source["Id"], "--format", "csv", "--file", str(tmp_path / "u.csv"))
    assert "2 of the users are disabled" in as_csv.stderr and "--format jsonl keeps it" in as_csv.stderr
    quiet = run(production, "users", "export", "--pool", target["Id"], "--format", "csv", "--file", str(tmp_path / "t.csv"))
    assert "1 of the users is disabled" in quiet.stderr


def test_an_import_the_server_refuses_fails(production, admin, tmp_path):
    target = admin.create_user_pool(PoolName=unique("import-bad"))["UserPool"]
    bad = tmp_path / "bad.csv"
    bad.write_text("cognito:username,favourite_colour\r\n" + "".join(f"user{i},blue\r\n" for i in range(50)))
    failed = run(production, "users", "import", "--pool", target["Id"], "--file", str(bad), "--max-job-bytes", "200",
                 check=False)
    assert failed.returncode == 1 and "favourite_colour" in failed.stderr and "Failed" in failed.stderr
    jobs = admin.list_user_import_jobs(UserPoolId=target["Id"], MaxResults=60)["UserImportJobs"]
    assert [job["Status"] for job in jobs] == ["Failed"]   # the first failed part ends the import
    assert all_users(admin, target["Id"]) == []


def test_import_reads_json_lines_from_standard_input(production, admin):
    target = admin.create_user_pool(PoolName=unique("stdin"))["UserPool"]
    lines = [json.dumps({"Username": f"piped-{i}", "Attributes": [{"Name": "email", "Value": f"piped-{i}@example.com"},
                                                                  {"Name": "sub", "Value": "ignored"}]}) for i in range(3)]
    done = run(production, "users", "import", "--pool", target["Id"], "--file", "-", "--format", "jsonl",
               input="\n".join(lines) + "\n\n")
    assert "Imported 3, skipped 0, failed 0 (3 rows, 1 import job)" in done.stdout
    assert "left out" not in done.stderr   # sub is expected to go
    users = {u["Username"]: attributes(u) for u in all_users(admin, target["Id"])}
    assert users == {f"piped-{i}": {"email": f"piped-{i}@example.com"} for i in range(3)}
    broken = run(production, "users", "import", "--pool", target["Id"], "--file", "-", "--format", "jsonl",
                 input='{"Username": "x"}\nnot json\n', check=False)
    assert broken.returncode == 1 and "Line 2" in broken.stderr and "Usage" not in broken.stderr


# --- with the server stopped: --database -------------------------------------------------------

def test_with_the_server_stopped_the_cli_works_on_the_database_with_the_same_rules(tmp_path):
    """`--database` runs the same operations in the CLI's own process: what it writes is what a
    server then serves, and the API's rules (validation, errors) hold as over HTTP."""
    args = ["--mode", "production", "--email-delivery", "outbox", "--admin-credentials", f"{ACCESS_KEY}:{SECRET_KEY}"]
    server = CognateServer(str(tmp_path), extra_args=args).start()
    admin = server.client(access_key=ACCESS_KEY, secret_key=SECRET_KEY)
    pool = admin.create_user_pool(PoolName="offline", AutoVerifiedAttributes=["email"])["UserPool"]
    admin.admin_create_user(UserPoolId=pool["Id"], Username="before", MessageAction="SUPPRESS")
    server.stop()

    # No endpoint, no credentials: production settings from the environment, the database by flag.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "COGNATE_"))}
    env.update({"COGNATE_MODE": "production", "COGNATE_EMAIL_DELIVERY": "outbox"})
    db = ["--database", server.database]

    def offline(*cli, check=True, input=None):
        return run(server, *cli, *db, env=env, check=check, input=input)

    assert pool["Id"] in offline("pools", "list").stdout
    made = json.loads(offline("users", "create", "--pool", pool["Id"], "ada", "--attribute", "email=ada@example.com",
                              "--output", "json").stdout)["User"]
    assert made["UserStatus"] == "FORCE_CHANGE_PASSWORD"
    offline("users", "disable", "--pool", pool["Id"], "before")
    offline("groups", "create", "--pool", pool["Id"], "nurses")
    refused = offline("users", "create", "--pool", pool["Id"], "bad", "--attribute", "email_verified=maybe", check=False)
    assert refused.returncode == 1 and refused.stderr.startswith("Error: InvalidParameterException"), refused.stderr
    missing = offline("users", "get", "--pool", pool["Id"], "nobody", check=False)
    assert missing.returncode == 1 and "UserNotFoundException" in missing.stderr
    lines = "".join(json.dumps({"Username": f"offline-{i}", "Attributes": [{"Name": "email", "Value": f"o{i}@example.com"}]})
                    + "\n" for i in range(5))
    imported = offline("users", "import", "--pool", pool["Id"], "--file", "-", "--format", "jsonl", input=lines)
    assert "Imported 5, skipped 0, failed 0" in imported.stdout, imported.stderr
    config = tmp_path / "cognate.yaml"
    config.write_text("region: eu-west-1\n")   # read from COGNATE_CONFIG as `serve` would
    other = json.loads(run(server, "pools", "create", "elsewhere", *db, "--output", "json",
                           env={**env, "COGNATE_CONFIG": str(config)}).stdout)["UserPool"]
    assert other["Id"].startswith("eu-west-1_"), other["Id"]
    both = run(server, "pools", "list", *db, "--endpoint", server.endpoint, env=env, check=False)
    assert both.returncode != 0 and "exclude each other" in both.stderr

    # The invitation waits in the database; a server started on it serves what the CLI wrote.
    sent = run(server, "outbox", "--database", server.database, "--json", env=env).stdout
    assert "ada@example.com" in sent
    server = CognateServer(str(tmp_path), extra_args=args).start()
    try:
        admin = server.client(access_key=ACCESS_KEY, secret_key=SECRET_KEY)
        users = {u["Username"]: u for u in all_users(admin, pool["Id"])}
        assert users["ada"]["UserStatus"] == "FORCE_CHANGE_PASSWORD" and not users["before"]["Enabled"]
        assert {users[f"offline-{i}"]["UserStatus"] for i in range(5)} == {"RESET_REQUIRED"}
        assert [g["GroupName"] for g in admin.list_groups(UserPoolId=pool["Id"])["Groups"]] == ["nurses"]
    finally:
        server.stop()
    assert not server.faults(), server.faults()
