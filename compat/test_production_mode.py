"""Production mode: admin operations need a valid SigV4 signature from a configured key
(boto3 and the AWS CLI sign them), public operations need none; start-up and shutdown."""
import os
import signal
import subprocess
import tempfile

import pytest
import requests

from conftest import BINARY, CognateServer
from helpers import cognito_error, confirmed_user, sign_in, sign_up, unique

ACCESS_KEY, SECRET_KEY = "AKIACOGNATETEST", "s3cr3t/key+for+tests"


@pytest.fixture(scope="module")
def production():
    with tempfile.TemporaryDirectory(prefix="cognate-prod-") as workdir:
        server = CognateServer(workdir, extra_args=["--mode", "production", "--email-delivery", "outbox", "--admin-credentials",
                                                    f"{ACCESS_KEY}:{SECRET_KEY}"]).start()
        yield server
        server.stop()


def test_signed_admin_calls_pass_and_the_whole_flow_works(production):
    admin = production.client(access_key=ACCESS_KEY, secret_key=SECRET_KEY)
    pool = admin.create_user_pool(PoolName="prod", AutoVerifiedAttributes=["email"])["UserPool"]
    client = admin.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="app", ExplicitAuthFlows=["ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"]
    )["UserPoolClient"]
    # Public operations go unsigned (boto3 does not sign them) and work. Production mode has no
    # dev outbox endpoint, so an administrator confirms the user.
    public = production.client(access_key="ANYTHING", secret_key="ANYTHING")
    username = unique()
    sign_up(public, client, username)
    admin.admin_confirm_sign_up(UserPoolId=pool["Id"], Username=username)
    assert requests.get(production.endpoint + "/_dev/outbox").status_code == 404
    tokens = sign_in(public, client, username)
    assert public.get_user(AccessToken=tokens["AccessToken"])["Username"] == username
    assert admin.admin_get_user(UserPoolId=pool["Id"], Username=username)["UserStatus"] == "CONFIRMED"


def test_wrong_secret_unknown_key_and_unsigned_calls_are_refused(production):
    with cognito_error("InvalidSignatureException"):
        production.client(access_key=ACCESS_KEY, secret_key="wrong").list_user_pools(MaxResults=10)
    with cognito_error("UnrecognizedClientException"):
        production.client(access_key="AKIAUNKNOWN", secret_key=SECRET_KEY).list_user_pools(MaxResults=10)
    response = requests.post(production.endpoint + "/", data="{\"MaxResults\": 10}", headers={
        "Content-Type": "application/x-amz-json-1.1", "X-Amz-Target": "AWSCognitoIdentityProviderService.ListUserPools"})
    assert response.status_code == 400
    assert response.json()["__type"] == "MissingAuthenticationTokenException"


def test_the_aws_cli_signs_admin_calls(production):
    env = {**os.environ, "AWS_ACCESS_KEY_ID": ACCESS_KEY, "AWS_SECRET_ACCESS_KEY": SECRET_KEY,
           "AWS_DEFAULT_REGION": "us-east-1"}
    ok = subprocess.run(["aws", "cognito-idp", "list-user-pools", "--max-results", "5", "--endpoint-url",
                         production.endpoint], capture_output=True, text=True, env=env)
    assert ok.returncode == 0, ok.stderr
    env["AWS_SECRET_ACCESS_KEY"] = "wrong"
    refused = subprocess.run(["aws", "cognito-idp", "list-user-pools", "--max-results", "5", "--endpoint-url",
                              production.endpoint], capture_output=True, text=True, env=env)
    assert refused.returncode != 0 and "InvalidSignatureException" in refused.stderr


def test_production_mode_refuses_to_start_without_admin_credentials():
    with tempfile.TemporaryDirectory() as workdir:
        result = subprocess.run([str(BINARY), "serve", "--mode", "production", "--port", "0", "--database",
                                 os.path.join(workdir, "db.sqlite")], capture_output=True, text=True, timeout=60,
                                env={k: v for k, v in os.environ.items() if k != "COGNATE_ADMIN_CREDENTIALS"})
    assert result.returncode != 0
    assert "admin credentials" in (result.stderr + result.stdout)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_graceful_shutdown_keeps_everything_committed(sig):
    with tempfile.TemporaryDirectory(prefix="cognate-stop-") as workdir:
        server = CognateServer(workdir).start()
        idp = server.client()
        pool = idp.create_user_pool(PoolName="stop", AutoVerifiedAttributes=["email"])["UserPool"]
        client = idp.create_user_pool_client(
            UserPoolId=pool["Id"], ClientName="app", ExplicitAuthFlows=["ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"]
        )["UserPoolClient"]
        username, _, _ = confirmed_user(server, idp, pool, client)
        tokens = sign_in(idp, client, username)
        assert server.stop(sig) == 0
        server.start()
        idp = server.client()
        assert idp.admin_get_user(UserPoolId=pool["Id"], Username=username)["UserStatus"] == "CONFIRMED"
        idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="REFRESH_TOKEN_AUTH",
                          AuthParameters={"REFRESH_TOKEN": tokens["RefreshToken"]})
        server.stop()

