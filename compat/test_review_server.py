"""Regression tests of the security review (issue 9, items 3, 6, 7 and 9), against real
`cognate serve` processes: secrets out of logs and the production outbox, private database
files, dev mode kept off the network, CORS only for public operations, SigV4 scope and signed
headers, bounded usernames, and a clear message for a busy port."""
import http.client
import json
import os
import pathlib
import stat
import subprocess
import tempfile
import time

import boto3
import jwt
import pytest
import requests
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

from conftest import BINARY, CognateServer
from helpers import AMZ_JSON, TARGET_PREFIX, cognito_error, confirmed_user, new_client, sign_in, sign_up, unique

ACCESS_KEY, SECRET_KEY = "AKIACOGNATEREVIEW", "review/secret+key"


def mode_of(path):
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture(scope="module")
def production():
    with tempfile.TemporaryDirectory(prefix="cognate-review-") as workdir:
        server = CognateServer(workdir, extra_args=["--mode", "production", "--email-delivery", "outbox", "--admin-credentials",
                                                    f"{ACCESS_KEY}:{SECRET_KEY}"]).start()
        yield server
        server.stop()


def outbox_rows(database):
    result = subprocess.run([str(BINARY), "outbox", "--database", database, "--json"], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


# --- 3. no secrets in logs or in the production outbox ---------------------------------------

def test_codes_and_temporary_passwords_never_reach_the_log(server, idp, pool, app_client):
    confirmed_user(server, idp, pool, app_client)
    temporary = "Temp-0rary-Secret!"
    idp.admin_create_user(UserPoolId=pool["Id"], Username=unique(), TemporaryPassword=temporary,
                          UserAttributes=[{"Name": "email", "Value": "invitee@example.com"}])
    log = server.log_path.read_text()
    codes = [m["code"] for m in server.outbox(pool["Id"])]
    assert codes and temporary in codes
    for code in codes:
        assert code not in log
    assert "outbox: EMAIL to i***@e*** [invitation]" in log


def test_production_keeps_no_codes_in_the_outbox(production):
    admin = production.client(access_key=ACCESS_KEY, secret_key=SECRET_KEY)
    pool = admin.create_user_pool(PoolName="prod", AutoVerifiedAttributes=["email"])["UserPool"]
    client = new_client(admin, pool["Id"])
    sign_up(production.client(), client, unique())
    admin.admin_create_user(UserPoolId=pool["Id"], Username=unique(), TemporaryPassword="Temp-0rary-Secret!",
                            UserAttributes=[{"Name": "email", "Value": "invitee@example.com"}])
    rows = [row for row in outbox_rows(production.database) if row["poolId"] == pool["Id"]]
    assert len(rows) == 2
    for row in rows:
        assert row.get("code") is None
        assert "******" in row["body"]
        assert "Temp-0rary-Secret!" not in row["body"]
    assert "Temp-0rary-Secret!" not in production.log_path.read_text()


# --- 6. private database files, no password in the banner -------------------------------------

def test_database_directory_and_files_are_private(tmp_path):
    server = CognateServer(tmp_path, extra_args=[])
    server.database = str(tmp_path / "nested" / "state" / "cognate.sqlite")
    server.args[server.args.index("--database") + 1] = server.database
    server.start()
    try:
        server.client().create_user_pool(PoolName="files")  # makes the WAL and shared-memory files
        directory = pathlib.Path(server.database).parent
        assert mode_of(directory) == 0o700
        for suffix in ("", "-wal", "-shm"):
            path = server.database + suffix
            assert os.path.exists(path), path
            assert mode_of(path) == 0o600, (path, oct(mode_of(path)))
    finally:
        server.stop()


@pytest.mark.sqlite_only
def test_an_existing_readable_database_is_narrowed(tmp_path):
    server = CognateServer(tmp_path).start()
    server.stop()
    os.chmod(server.database, 0o644)
    server.start()
    server.stop()
    assert mode_of(server.database) == 0o600
    assert "was readable by other users" in server.log_path.read_text()


# --- 7. dev mode stays on loopback; CORS for public operations only ---------------------------

def test_dev_mode_refuses_a_network_address(tmp_path):
    result = subprocess.run([str(BINARY), "serve", "--host", "0.0.0.0", "--port", "0", "--database",
                             str(tmp_path / "db.sqlite")], capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "--dev-mode-on-network" in result.stderr + result.stdout


def test_dev_mode_on_the_network_needs_the_explicit_flag(tmp_path):
    server = CognateServer(tmp_path, extra_args=["--host", "0.0.0.0", "--dev-mode-on-network"]).start()
    try:
        assert server.client().list_user_pools(MaxResults=5)["UserPools"] == []
    finally:
        server.stop()


def raw_call(endpoint, operation, body, origin="https://app.example"):
    return requests.post(endpoint + "/", data=json.dumps(body), timeout=10, headers={
        "Content-Type": AMZ_JSON, "X-Amz-Target": TARGET_PREFIX + operation, "Origin": origin})


def test_cors_headers_on_public_operations_only(server, pool, app_client):
    public = raw_call(server.endpoint, "SignUp", {"ClientId": app_client["ClientId"], "Username": unique(),
                                                  "Password": "Passw0rd!"})
    assert public.status_code == 200
    assert public.headers["Access-Control-Allow-Origin"] == "*"
    assert "x-amzn-RequestId" in public.headers["Access-Control-Expose-Headers"]
    error = raw_call(server.endpoint, "SignUp", {"ClientId": app_client["ClientId"]})
    assert error.status_code == 400 and error.headers["Access-Control-Allow-Origin"] == "*"

    # Dev mode: a web page cannot run admin operations (CORS would only hide the answer) nor read the outbox.
    name = unique("from-a-page")
    admin = raw_call(server.endpoint, "CreateUserPool", {"PoolName": name})
    assert admin.status_code == 403 and "admin operations" in admin.text
    assert not any(h.lower().startswith("access-control-") for h in admin.headers)
    assert name not in [p["Name"] for p in server.client().list_user_pools(MaxResults=60)["UserPools"]]
    outbox = requests.get(server.endpoint + "/_dev/outbox", headers={"Origin": "https://evil.example"}, timeout=10)
    assert outbox.status_code == 403 and "Access-Control-Allow-Origin" not in outbox.headers
    # Nor by a path the router reads as the same one.
    host, port = server.endpoint.split("//")[1].split(":")
    for path in ("//", "///", "/./"):
        connection = http.client.HTTPConnection(host, int(port), timeout=10)
        connection.request("POST", path, body=json.dumps({"PoolName": name}), headers={
            "Content-Type": AMZ_JSON, "X-Amz-Target": TARGET_PREFIX + "CreateUserPool", "Origin": "https://evil.example"})
        assert connection.getresponse().status in (403, 404), path
    for path in ("//_dev/outbox", "///_dev//outbox", "/_DEV/outbox"):
        connection = http.client.HTTPConnection(host, int(port), timeout=10)
        connection.request("GET", path, headers={"Origin": "https://evil.example"})
        assert connection.getresponse().status in (403, 404), path
    assert name not in [p["Name"] for p in server.client().list_user_pools(MaxResults=60)["UserPools"]]

    preflight = requests.options(server.endpoint + "/", timeout=10, headers={
        "Origin": "https://app.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,x-amz-target"})
    assert preflight.status_code == 204
    assert "x-amz-target" in preflight.headers["Access-Control-Allow-Headers"]
    jwks = requests.get(f"{server.endpoint}/{pool['Id']}/.well-known/jwks.json", headers={"Origin": "https://x.example"},
                        timeout=10)
    assert jwks.headers["Access-Control-Allow-Origin"] == "*"


def test_dev_mode_answers_only_to_names_of_this_machine_or_its_public_url(server, pool):
    """DNS rebinding: a page of evil.example whose name now resolves to 127.0.0.1 sends its own
    name as Host; dev mode refuses it, so the page reads no outbox and calls no operation."""
    port = server.port
    for host in (f"evil.example:{port}", "evil.example", f"localhost.evil.example:{port}"):
        refused = requests.get(server.endpoint + "/_dev/outbox", headers={"Host": host}, timeout=10)
        assert refused.status_code == 421 and "rebinding" in refused.text, host
        api = requests.post(server.endpoint + "/", data="{}", timeout=10, headers={
            "Host": host, "Content-Type": AMZ_JSON, "X-Amz-Target": TARGET_PREFIX + "ListUserPools"})
        assert api.status_code == 421
    for host in (f"localhost:{port}", f"auth.localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}", "127.0.0.2"):
        assert requests.get(server.endpoint + "/_dev/outbox", headers={"Host": host}, timeout=10).status_code == 200, host


def test_cors_origins_are_a_setting(tmp_path):
    server = CognateServer(tmp_path, extra_args=["--cors-origins", "https://app.example"]).start()
    try:
        pool = server.client().create_user_pool(PoolName="cors")["UserPool"]
        client = new_client(server.client(), pool["Id"])
        body = {"ClientId": client["ClientId"], "Username": unique(), "Password": "Passw0rd!"}
        allowed = raw_call(server.endpoint, "SignUp", body, origin="https://app.example")
        assert allowed.headers["Access-Control-Allow-Origin"] == "https://app.example"
        assert allowed.headers["Vary"] == "Origin"
        other = raw_call(server.endpoint, "SignUp", {**body, "Username": unique()}, origin="https://evil.example")
        assert other.status_code == 200 and "Access-Control-Allow-Origin" not in other.headers
    finally:
        server.stop()


# --- 9. SigV4 scope and signed headers; bounded usernames -------------------------------------

def signed_post(endpoint, operation, body, region="us-east-1", service="cognito-idp", unsigned=()):
    """A SigV4-signed request as botocore would make it, except that headers in `unsigned` are
    added after signing (so they are not covered by the signature)."""
    headers = {"Content-Type": AMZ_JSON, "X-Amz-Target": TARGET_PREFIX + operation}
    request = AWSRequest(method="POST", url=endpoint + "/", data=json.dumps(body),
                         headers={k: v for k, v in headers.items() if k not in unsigned})
    SigV4Auth(Credentials(ACCESS_KEY, SECRET_KEY), service, region).add_auth(request)
    prepared = dict(request.headers.items())
    prepared.update({k: headers[k] for k in unsigned})
    return requests.post(endpoint + "/", data=request.body, headers=prepared, timeout=10)


def test_sigv4_must_be_scoped_to_this_region_and_service(production):
    assert signed_post(production.endpoint, "ListUserPools", {"MaxResults": 5}).status_code == 200
    for kwargs in ({"region": "eu-west-1"}, {"service": "s3"}):
        response = signed_post(production.endpoint, "ListUserPools", {"MaxResults": 5}, **kwargs)
        assert response.status_code == 400
        assert response.json()["__type"] == "InvalidSignatureException", kwargs
    elsewhere = boto3.client("cognito-idp", endpoint_url=production.endpoint, region_name="eu-west-1",
                             aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY)
    with cognito_error("InvalidSignatureException"):
        elsewhere.list_user_pools(MaxResults=5)


def test_sigv4_must_sign_the_operation_and_content_type(production):
    for header in ("X-Amz-Target", "Content-Type"):
        response = signed_post(production.endpoint, "ListUserPools", {"MaxResults": 5}, unsigned=(header,))
        assert response.status_code == 400
        assert response.json()["__type"] == "IncompleteSignatureException", header
        assert header.lower() in response.json()["message"]


def test_usernames_are_bounded_on_every_flow(server, idp, pool, app_client):
    huge = "u" * 100_000
    for flow, parameters in (("USER_PASSWORD_AUTH", {"USERNAME": huge, "PASSWORD": "x"}),
                             ("USER_SRP_AUTH", {"USERNAME": huge, "SRP_A": "0a"}),
                             ("REFRESH_TOKEN_AUTH", {"USERNAME": huge, "REFRESH_TOKEN": "x"})):
        with cognito_error("InvalidParameterException", contains="authParameters.USERNAME"):
            idp.initiate_auth(ClientId=app_client["ClientId"], AuthFlow=flow, AuthParameters=parameters)
    with cognito_error("InvalidParameterException", contains="challengeResponses.USERNAME"):
        idp.respond_to_auth_challenge(ClientId=app_client["ClientId"], ChallengeName="PASSWORD_VERIFIER",
                                      ChallengeResponses={"USERNAME": huge, "PASSWORD_CLAIM_SECRET_BLOCK": "x",
                                                          "PASSWORD_CLAIM_SIGNATURE": "x", "TIMESTAMP": "x"})


# --- newcomers: a busy port names the port and the way out -------------------------------------

def test_a_busy_port_says_so(server, tmp_path):
    result = subprocess.run([str(BINARY), "serve", "--port", str(server.port), "--database",
                             str(tmp_path / "db.sqlite")], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    output = result.stderr + result.stdout
    assert f"Port {server.port}" in output and "--port" in output
    assert "errno" not in output


# --- 8. limits per caller and per destination ---------------------------------------------------

@pytest.mark.fixed_window(60)
def test_sign_ups_are_limited_per_client_and_address(tmp_path):
    server = CognateServer(tmp_path, extra_args=["--rate-limit-user-creation", "3",
                                                 "--client-address-header", "X-Forwarded-For"]).start()
    try:
        idp = server.client()
        pool = idp.create_user_pool(PoolName="limits")["UserPool"]
        client = new_client(idp, pool["Id"])

        def attempt(address):
            return requests.post(server.endpoint + "/", timeout=10, data=json.dumps(
                {"ClientId": client["ClientId"], "Username": unique(), "Password": "Passw0rd!"}), headers={
                "Content-Type": AMZ_JSON, "X-Amz-Target": TARGET_PREFIX + "SignUp", "X-Forwarded-For": f"10.0.0.9, {address}"})
        assert [attempt("203.0.113.7").status_code for _ in range(3)] == [200] * 3
        refused = attempt("203.0.113.7")
        assert refused.status_code == 400 and refused.json()["__type"] == "TooManyRequestsException"
        assert attempt("203.0.113.8").status_code == 200  # another caller is not affected
        # Another client of the pool has its own allowance.
        other = new_client(idp, pool["Id"], name="other")
        sign_up(idp, other, unique())
    finally:
        server.stop()


@pytest.mark.fixed_window(60)
def test_refused_requests_count_against_the_limit_as_successes_do(tmp_path):
    """An existence oracle cannot run at full speed: a sign-up refused for an existing name or a
    weak password, and a LEGACY ForgotPassword for a user who does not exist, count as much as
    successes; only the TooManyRequests refusal goes uncounted."""
    server = CognateServer(tmp_path, extra_args=["--rate-limit-user-creation", "3",
                                                 "--rate-limit-account-recovery", "2"]).start()
    try:
        idp = server.client()
        pool = idp.create_user_pool(PoolName="limits")["UserPool"]
        client = new_client(idp, pool["Id"], PreventUserExistenceErrors="LEGACY")
        taken = unique()
        sign_up(idp, client, taken)
        with cognito_error("UsernameExistsException"):
            sign_up(idp, client, taken)
        with cognito_error("InvalidPasswordException"):
            sign_up(idp, client, unique(), password="short")
        with cognito_error("TooManyRequestsException"):
            sign_up(idp, client, unique())
        with cognito_error("UserNotFoundException"):
            idp.forgot_password(ClientId=client["ClientId"], Username=unique())
        with cognito_error("UserNotFoundException"):
            idp.forgot_password(ClientId=client["ClientId"], Username=unique())
        with cognito_error("TooManyRequestsException"):
            idp.forgot_password(ClientId=client["ClientId"], Username=unique())
    finally:
        server.stop()


@pytest.mark.fixed_window(3600)
def test_codes_to_one_address_are_limited_per_hour(server, idp, pool, app_client):
    target = f"{unique('inbox')}@example.com"
    accepted = 0
    for _ in range(15):
        try:
            sign_up(idp, app_client, unique(), email=target)
            accepted += 1
        except idp.exceptions.LimitExceededException:
            pass
    assert accepted == 10
    assert len([m for m in server.outbox(pool["Id"]) if m["destination"] == target]) == 10


# --- 10. keys per pool; a leaked key retired at once ---------------------------------------------

def cognate_cli(server, *args):
    result = subprocess.run([str(BINARY), *args, "--database", server.database], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_retiring_a_leaked_key_stops_it_on_the_running_server_within_a_second(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    tokens = sign_in(idp, app_client, username)
    kid = jwt.get_unverified_header(tokens["AccessToken"])["kid"]
    listed = [json.loads(line) for line in cognate_cli(server, "keys", "list", "--json").splitlines()]
    assert {"kid": kid, "pool": pool["Id"], "state": "signing"}.items() <= next(k for k in listed if k["kid"] == kid).items()

    print(cognate_cli(server, "keys", "retire", kid))
    deadline = time.time() + 3
    while time.time() < deadline:
        try:
            idp.get_user(AccessToken=tokens["AccessToken"])
            time.sleep(0.1)
        except idp.exceptions.NotAuthorizedException:
            break
    try:
        idp.get_user(AccessToken=tokens["AccessToken"])
        still_accepted = True
    except idp.exceptions.NotAuthorizedException:
        still_accepted = False
    assert not still_accepted, ("the retired key's token is still accepted 3 s later; the server's log ends:\n"
                                + server.log_path.read_text(errors="replace")[-4000:])
    published = {k["kid"] for k in requests.get(f"{server.endpoint}/{pool['Id']}/.well-known/jwks.json", timeout=10).json()["keys"]}
    assert kid not in published and len(published) == 1
    fresh = sign_in(idp, app_client, username)
    assert jwt.get_unverified_header(fresh["AccessToken"])["kid"] in published
    assert idp.get_user(AccessToken=fresh["AccessToken"])["Username"] == username


def test_a_kid_that_begins_with_a_dash_is_read_as_the_kid(server):
    # Kids are base64url: one in 64 begins with "-", and must not be taken for an option.
    for words in (["-xigfmfTyzbmbBNYXdEEBuXsn"], ["--", "-xigfmfTyzbmbBNYXdEEBuXsn"]):
        result = subprocess.run(
            [str(BINARY), "keys", "retire", "--database", server.database, *words], capture_output=True, text=True, timeout=60)
        assert result.returncode != 0
        assert "No signing key has the kid -xigfmfTyzbmbBNYXdEEBuXsn." in result.stderr, result.stderr


def test_rotating_one_pool_leaves_the_others_alone(server, idp, pool):
    other = idp.create_user_pool(PoolName="untouched")["UserPool"]
    before = requests.get(f"{server.endpoint}/{other['Id']}/.well-known/jwks.json", timeout=10).json()
    cognate_cli(server, "keys", "rotate", "--pool", pool["Id"])
    time.sleep(1.5)
    assert len(requests.get(f"{server.endpoint}/{pool['Id']}/.well-known/jwks.json", timeout=10).json()["keys"]) == 2
    assert requests.get(f"{server.endpoint}/{other['Id']}/.well-known/jwks.json", timeout=10).json() == before
