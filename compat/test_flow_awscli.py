"""The core journey through the AWS CLI (`aws cognito-idp ... --endpoint-url`)."""
import json
import os
import shutil
import subprocess

import pytest

from helpers import PASSWORD, email_for, unique, verify_token

pytestmark = pytest.mark.skipif(shutil.which("aws") is None, reason="the AWS CLI is not installed")


class AwsCli:
    def __init__(self, server, tmp_path):
        self.server = server
        self.env = {
            **os.environ,
            "AWS_ACCESS_KEY_ID": "dev", "AWS_SECRET_ACCESS_KEY": "dev", "AWS_DEFAULT_REGION": "us-east-1",
            "AWS_CONFIG_FILE": str(tmp_path / "config"), "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "credentials"),
            "AWS_MAX_ATTEMPTS": "1", "AWS_RETRY_MODE": "standard", "AWS_PAGER": "",
        }
        for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_COGNITO_IDP"):
            self.env.pop(name, None)

    def run(self, *args):
        command = ["aws", "cognito-idp", *args, "--endpoint-url", self.server.endpoint, "--output", "json"]
        return subprocess.run(command, env=self.env, capture_output=True, text=True, timeout=120)

    def __call__(self, *args):
        """Runs a command that must succeed; returns its JSON output ({} when empty)."""
        done = self.run(*args)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout) if done.stdout.strip() else {}

    def fails(self, *args):
        """Runs a command that must fail; returns its stderr."""
        done = self.run(*args)
        assert done.returncode != 0, done.stdout
        return done.stderr


@pytest.fixture
def aws(server, tmp_path):
    return AwsCli(server, tmp_path)


def test_core_journey(server, aws):
    pool = aws("create-user-pool", "--pool-name", unique("cli"), "--auto-verified-attributes", "email")["UserPool"]
    pool_id = pool["Id"]
    assert aws("describe-user-pool", "--user-pool-id", pool_id)["UserPool"]["Name"] == pool["Name"]

    client = aws("create-user-pool-client", "--user-pool-id", pool_id, "--client-name", "cli-app",
                 "--explicit-auth-flows", "ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH")["UserPoolClient"]
    client_id = client["ClientId"]
    assert sorted(client["ExplicitAuthFlows"]) == ["ALLOW_REFRESH_TOKEN_AUTH", "ALLOW_USER_PASSWORD_AUTH"]

    username = unique("cli")
    email = email_for(username)
    signed_up = aws("sign-up", "--client-id", client_id, "--username", username, "--password", PASSWORD,
                    "--user-attributes", f"Name=email,Value={email}")
    assert signed_up["UserConfirmed"] is False
    assert signed_up["CodeDeliveryDetails"]["DeliveryMedium"] == "EMAIL"

    stderr = aws.fails("sign-up", "--client-id", client_id, "--username", username, "--password", PASSWORD)
    assert "An error occurred (UsernameExistsException) when calling the SignUp operation" in stderr
    assert stderr.strip().endswith(": User already exists")

    stderr = aws.fails("confirm-sign-up", "--client-id", client_id, "--username", username,
                       "--confirmation-code", "000000" if server.last_code(pool_id, email) != "000000" else "111111")
    assert "(CodeMismatchException)" in stderr

    aws("confirm-sign-up", "--client-id", client_id, "--username", username,
        "--confirmation-code", server.last_code(pool_id, email))

    result = aws("initiate-auth", "--client-id", client_id, "--auth-flow", "USER_PASSWORD_AUTH",
                 "--auth-parameters", f"USERNAME={username},PASSWORD={PASSWORD}")["AuthenticationResult"]
    assert result["TokenType"] == "Bearer"
    assert result["ExpiresIn"] == 3600
    claims = verify_token(server, pool_id, result["IdToken"], "id", client_id)
    assert claims["cognito:username"] == username
    assert claims["sub"] == signed_up["UserSub"]

    me = aws("get-user", "--access-token", result["AccessToken"])
    assert me["Username"] == username
    assert {"Name": "email", "Value": email} in me["UserAttributes"]

    admin_view = aws("admin-get-user", "--user-pool-id", pool_id, "--username", username)
    assert admin_view["UserStatus"] == "CONFIRMED"
    assert admin_view["Enabled"] is True
    assert {"Name": "email_verified", "Value": "true"} in admin_view["UserAttributes"]

    refreshed = aws("initiate-auth", "--client-id", client_id, "--auth-flow", "REFRESH_TOKEN_AUTH",
                    "--auth-parameters", f"REFRESH_TOKEN={result['RefreshToken']}")["AuthenticationResult"]
    assert "RefreshToken" not in refreshed
    assert verify_token(server, pool_id, refreshed["AccessToken"], "access", client_id)["username"] == username

    stderr = aws.fails("initiate-auth", "--client-id", client_id, "--auth-flow", "USER_PASSWORD_AUTH",
                       "--auth-parameters", f"USERNAME={username},PASSWORD=Wr0ng-password!")
    assert "(NotAuthorizedException)" in stderr and "Incorrect username or password." in stderr

    aws("admin-delete-user", "--user-pool-id", pool_id, "--username", username)
    stderr = aws.fails("admin-get-user", "--user-pool-id", pool_id, "--username", username)
    assert "(UserNotFoundException)" in stderr


def test_list_commands_paginate(aws):
    created = {aws("create-user-pool", "--pool-name", unique("clipage"))["UserPool"]["Id"] for _ in range(3)}
    # list-user-pools requires --max-results, which turns the CLI's own paging off: follow NextToken.
    ids, token = [], None
    while True:
        page = aws("list-user-pools", "--max-results", "2", *(["--next-token", token] if token else []))
        ids += [p["Id"] for p in page["UserPools"]]
        token = page.get("NextToken")
        if not token:
            break
    assert created <= set(ids)
    assert len(ids) == len(set(ids))

    pool_id = sorted(created)[0]
    clients = {aws("create-user-pool-client", "--user-pool-id", pool_id, "--client-name", f"c{i}")
               ["UserPoolClient"]["ClientId"] for i in range(3)}
    # Here the CLI follows NextToken itself (--page-size 1: one client per call) and merges the pages.
    listed = aws("list-user-pool-clients", "--user-pool-id", pool_id, "--page-size", "1")["UserPoolClients"]
    assert {c["ClientId"] for c in listed} == clients
    assert len(listed) == 3

    # --max-results alone is one call: a page and a NextToken to continue from.
    page = aws("list-user-pool-clients", "--user-pool-id", pool_id, "--max-results", "2")
    assert len(page["UserPoolClients"]) == 2
    rest = aws("list-user-pool-clients", "--user-pool-id", pool_id, "--max-results", "2",
               "--next-token", page["NextToken"])
    assert len(rest["UserPoolClients"]) == 1 and "NextToken" not in rest


def test_cli_reports_validation_errors(aws):
    stderr = aws.fails("create-user-pool", "--pool-name", "p" * 129)
    assert "(InvalidParameterException)" in stderr
    assert "Member must have length less than or equal to 128" in stderr
