"""The configuration file (YAML) and `cognate config check`: every setting from a file, the
environment overriding it, flags overriding both, secrets only from files or the environment."""
import json
import os
import re
import subprocess

import pytest
from botocore.exceptions import ClientError

from conftest import BINARY, ROOT, CognateServer


def run(*args, env=None):
    return subprocess.run([str(BINARY), *args], capture_output=True, text=True, timeout=60,
                          env={**os.environ, **(env or {})})


def check(config, *args, env=None):
    result = run("config", "check", "--config", str(config), "--json", *args, env=env)
    return result.returncode, json.loads(result.stdout) if result.stdout.strip() else None, result.stderr


def private_file(path, text):
    """A secret file only its owner may read, as Cognate requires."""
    path.write_text(text)
    path.chmod(0o600)
    return path


def settings(document):
    return {row["key"]: (row["value"], row["source"]) for row in document["settings"]}


def test_a_file_sets_values_the_environment_and_flags_override(tmp_path):
    secret = private_file(tmp_path / "admin", "AKIDFILE:secret-from-file\n")
    hook_secret = private_file(tmp_path / "hook", "hook-secret-value")
    config = tmp_path / "cognate.yaml"
    config.write_text(f"""
mode: production
port: 9400
region: eu-west-1
admin_credentials_file: {secret}
email_delivery: webhook
email_webhook_url: http://127.0.0.1:9/hook
webhook_secret_file: {hook_secret}
rate_limit:
  messages: 3
log:
  level: debug
  format: json
cors_origins: [https://a.example, https://b.example]
""")
    code, document, _ = check(config)
    assert code == 0 and document["ok"], document
    values = settings(document)
    assert values["port"] == ("9400", "file") and values["region"] == ("eu-west-1", "file")
    assert values["rate_limit.messages"] == ("3", "file")
    assert values["cors_origins"] == ("https://a.example,https://b.example", "file")
    assert values["admin_credentials"] == (f"(secret from file {secret})", "file")
    assert "secret-from-file" not in json.dumps(document) and "hook-secret-value" not in json.dumps(document)
    code, document, _ = check(config, env={"COGNATE_PORT": "9401"})
    assert settings(document)["port"] == ("9401", "environment")


def test_problems_are_reported_together_with_exit_status_1(tmp_path):
    config = tmp_path / "bad.yaml"
    config.write_text("smtp:\n  password: hunter2\nbogus_setting: 1\n")
    result = run("config", "check", "--config", str(config))
    assert result.returncode == 1
    assert f"{config}:2: smtp.password is a secret" in result.stderr and f"{config}:3: unknown setting bogus_setting" in result.stderr
    assert "hunter2" not in result.stderr + result.stdout

    config.write_text("mode: production\nport: not-a-number\nemail_delivery: pigeon\n")
    code, document, _ = check(config)
    assert code == 1 and not document["ok"]
    assert f"port in {config}:2 must be a number, not not-a-number." in document["problems"], document["problems"]
    assert f"email_delivery in {config}:3 must be outbox, smtp or webhook, not pigeon." in document["problems"]
    assert any("needs admin credentials" in p for p in document["problems"])   # every problem at once

    config.write_text("mode: production\n")
    code, document, _ = check(config)
    assert code == 1 and "admin" in document["problems"][0].lower() and "email channel" in document["problems"][1]

    config.write_text("log:\n  format: xml\ntls:\n  certificate: /nonexistent.pem\n  key: /nonexistent.key\n")
    code, document, _ = check(config)
    assert code == 1
    assert f"log.format in {config}:2 must be text or json, not xml." in document["problems"], document["problems"]
    assert any("tls.certificate: cannot read" in p for p in document["problems"])

    config.write_text("port: [unclosed\n")
    result = run("config", "check", "--config", str(config))
    assert result.returncode == 1 and "not valid YAML" in result.stderr


def test_serve_takes_its_settings_from_the_file(tmp_path):
    """A production server whose admin keys, rate limits and log format come from the file."""
    secret = private_file(tmp_path / "admin", "AKIDCONF:conf-secret\n")
    config = tmp_path / "cognate.yaml"
    config.write_text(f"""
mode: production
admin_credentials_file: {secret}
email_delivery: outbox
log:
  level: debug
  format: json
""")
    server = CognateServer(tmp_path, env={"COGNATE_CONFIG": str(config)}).start()
    try:
        good = server.client(access_key="AKIDCONF", secret_key="conf-secret")
        pool = good.create_user_pool(PoolName="configured")["UserPool"]
        with pytest.raises(ClientError) as refused:
            server.client(access_key="AKIDCONF", secret_key="wrong").list_user_pools(MaxResults=5)
        assert refused.value.response["Error"]["Code"] == "InvalidSignatureException"
        good.delete_user_pool(UserPoolId=pool["Id"])
    finally:
        server.stop()
    lines = [json.loads(line) for line in server.log_path.read_text().splitlines() if line.startswith("{")]
    requests = [line for line in lines if line.get("message") == "request"]
    assert requests, "no JSON access log line at debug level"
    assert {"CreateUserPool", "ListUserPools"} <= {line["operation"] for line in requests}
    assert all(re.fullmatch(r"[0-9a-f-]{36}", line["request_id"]) for line in requests)
    assert any(line["outcome"] == "InvalidSignatureException" for line in requests)
    assert all({"time", "level", "logger"} <= line.keys() for line in lines)


def test_every_setting_is_documented_and_every_flag_has_a_key():
    keys = run("config", "keys").stdout
    variables = set(re.findall(r"`(COGNATE_[A-Z_]+)`", keys))
    deploy = (ROOT / "docs" / "deploy.md").read_text()
    undocumented = {v for v in variables if v not in deploy}
    assert not undocumented, f"docs/deploy.md does not name {sorted(undocumented)}"
    helps = run("serve", "--help").stdout + run("keys", "rotate", "--help").stdout
    named = set(re.findall(r"env (COGNATE_[A-Z_]+)", helps)) - {"COGNATE_CONFIG"}
    missing = {v for v in named if v not in variables and not v.endswith("_FILE")}
    assert not missing, f"settings without a configuration key: {sorted(missing)}"


def test_config_check_shows_values_given_as_flags(tmp_path):
    """Flags beat the environment, and `config check` says so (it printed the environment's)."""
    config = tmp_path / "empty.yaml"
    config.write_text("region: eu-west-1\n")
    code, document, _ = check(config, "--port", "5555", "--log-level=debug", "--admin-credentials", "AKID:flag-secret",
                              env={"COGNATE_PORT": "1234"})
    assert code == 0, document
    values = settings(document)
    assert values["port"] == ("5555", "flag") and values["log.level"] == ("debug", "flag")
    assert values["admin_credentials"] == ("(secret)", "flag") and "flag-secret" not in json.dumps(document)
    assert values["region"] == ("eu-west-1", "file")


def test_config_check_hides_the_database_password(tmp_path):
    """A PostgreSQL URL's password, in its user part or as libpq's password= parameter, from a
    flag, the environment or the file, is shown as ***."""
    config = tmp_path / "db.yaml"
    config.write_text("database: postgres://app:file-s3cret@db.invalid/cognate\n")
    code, document, _ = check(config)
    assert settings(document)["database"] == ("postgres://app:***@db.invalid/cognate", "file")
    assert "file-s3cret" not in json.dumps(document)
    code, document, _ = check(config, env={"COGNATE_DATABASE": "postgres://app@db.invalid/cognate?password=env-s3cret"})
    assert settings(document)["database"] == ("postgres://app@db.invalid/cognate?password=***", "environment")
    assert "env-s3cret" not in json.dumps(document)
    text = run("config", "check", "--config", str(config), "--database", "postgresql://app:flag-s3cret@db.invalid/x")
    assert "postgresql://app:***@db.invalid/x" in text.stdout
    assert "flag-s3cret" not in text.stdout + text.stderr


def test_admin_credentials_on_the_command_line_are_warned_of(tmp_path):
    """The process list shows argv to every local user: the flag still works, with a warning
    naming the private ways; the environment and a private file give no warning."""
    config = tmp_path / "production.yaml"
    config.write_text("mode: production\nemail_delivery: outbox\n")
    code, document, stderr = check(config, "--admin-credentials", "AKID:argv-secret")
    assert code == 0 and document["ok"]
    assert "Warning: --admin-credentials puts the secret in the process list" in stderr
    assert "COGNATE_ADMIN_CREDENTIALS" in stderr and "--admin-credentials-file" in stderr
    assert "argv-secret" not in stderr
    code, document, stderr = check(config, env={"COGNATE_ADMIN_CREDENTIALS": "AKID:env-secret"})
    assert code == 0 and "Warning" not in stderr
    keys = private_file(tmp_path / "keys", "AKID1:one\nAKID2:two\n")
    code, document, stderr = check(config, "--admin-credentials-file", str(keys))
    assert code == 0 and "Warning" not in stderr, stderr


def test_a_secret_file_others_may_read_is_refused(tmp_path):
    """Admin keys, the webhook secret, the SMTP password: a file its group or others may read
    is refused, whichever way it is named (flag, file key, environment)."""
    keys = tmp_path / "keys"
    keys.write_text("AKID:shared-secret\n")
    keys.chmod(0o644)
    config = tmp_path / "production.yaml"
    config.write_text(f"mode: production\nemail_delivery: outbox\nadmin_credentials_file: {keys}\n")
    code, document, _ = check(config)
    assert code == 1 and any("may be read by others" in p and "chmod 600" in p for p in document["problems"]), document
    assert "shared-secret" not in json.dumps(document)
    hook = tmp_path / "hook"
    hook.write_text("hook-secret")
    hook.chmod(0o640)
    code, document, _ = check(tmp_path / "production.yaml", "--webhook-secret-file", str(hook))
    assert code == 1 and any(str(hook) in p for p in document["problems"])
    result = run("serve", "--port", "0", "--database", str(tmp_path / "db.sqlite"), "--mode", "production",
                 "--email-delivery", "outbox", env={"COGNATE_ADMIN_CREDENTIALS_FILE": str(keys)})
    assert result.returncode != 0 and "may be read by others" in result.stderr
    keys.chmod(0o600)
    hook.chmod(0o400)
    code, document, _ = check(config, "--webhook-secret-file", str(hook))
    assert code == 0, document


def test_log_level_and_format_flags(tmp_path):
    server = CognateServer(tmp_path, extra_args=["--log-level", "debug", "--log-format", "json"]).start()
    try:
        server.client().list_user_pools(MaxResults=5)
    finally:
        server.stop()
    lines = [json.loads(line) for line in server.log_path.read_text().splitlines() if line.startswith("{")]
    assert any(line.get("message") == "request" and line["operation"] == "ListUserPools" for line in lines)


def test_an_audit_log_that_cannot_be_written_is_named_as_such(tmp_path):
    """Not reported as a database that cannot be opened."""
    result = run("serve", "--port", "0", "--database", str(tmp_path / "db.sqlite"),
                 "--audit-log", str(tmp_path / "missing" / "audit.jsonl"))
    assert result.returncode != 0
    assert "Cannot append to the audit log" in result.stderr and "Cannot open the database" not in result.stderr, result.stderr


def test_file_errors_name_the_files_keys_as_written_with_the_nearest_key(tmp_path):
    """They were named by the environment variable, nested keys flattened (`smtp_hots`), and
    an unknown key got no suggestion."""
    config = tmp_path / "cognate.yaml"
    config.write_text("smtp:\n  hots: mail.example.com\nrate_limits:\n  messages: 3\nlog_levle: debug\nfrobnicate: 1\n")
    result = run("config", "check", "--config", str(config))
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert lines[0] == f"Error: {config}:2: unknown setting smtp.hots; did you mean 'smtp.host'? (`cognate config keys` lists them)."
    assert f"{config}:4: unknown setting rate_limits.messages; did you mean 'rate_limit.messages'?" in lines[1]
    assert lines[2].startswith(f"{config}:5: unknown setting log_levle; did you mean 'log.level'?")
    assert lines[3].startswith(f"{config}:6: unknown setting frobnicate (")   # nothing near
    assert "COGNATE_SMTP_HOTS" not in result.stderr and "smtp_hots" not in result.stderr

    config.write_text("db:\n  pool_size: -1\nlog:\n  format: xml\n")
    code, document, _ = check(config)
    assert f"db.pool_size in {config}:2 must be at least 1, not -1." in document["problems"], document["problems"]
    assert f"log.format in {config}:4 must be text or json, not xml." in document["problems"]
    code, document, _ = check(config, env={"COGNATE_DB_POOL_SIZE": "many"})
    assert "COGNATE_DB_POOL_SIZE must be a number, not many." in document["problems"]   # the environment's, by its name


def test_config_check_without_a_file_shows_every_setting_and_its_default(tmp_path):
    """Without a file it printed nothing but OK: every setting's effective value, and where it
    came from (default, file, environment, flag)."""
    result = run("config", "check", env={"COGNATE_REGION": "eu-west-1"})
    assert result.returncode == 0, result.stderr
    rows = {cells[0]: cells for cells in (re.split(r"  +", line) for line in result.stdout.splitlines()[2:-1])}
    keys = {line.split("`")[1] for line in run("config", "keys").stdout.splitlines()[2:]}
    assert set(rows) == keys
    assert rows["port"][1:] == ["9229", "default"] and rows["mode"][1:] == ["dev", "default"]
    assert rows["database"][1:] == ["./.cognate/cognate.sqlite", "default"] and rows["log.level"][1:] == ["info", "default"]
    assert rows["region"][1:] == ["eu-west-1", "environment"] and rows["smtp.host"][1:] == ["(not set)", "default"]
    assert result.stdout.splitlines()[-1] == "OK"
    document = json.loads(run("config", "check", "--json", "--port", "1234").stdout)
    assert settings(document)["rate_limit.messages"] == ("10", "default")
    assert settings(document)["port"] == ("1234", "flag")
