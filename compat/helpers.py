"""Small helpers shared by the compat suites: names, SECRET_HASH, sign-up/sign-in shortcuts,
error assertions, token verification against the served JWKS and raw protocol calls."""
import base64
import concurrent.futures
import contextlib
import hashlib
import hmac
import http.server
import json
import threading
import uuid

import jwt
import pytest
import requests
from botocore.config import Config
from botocore.exceptions import ClientError
from pycognito import Cognito
from pycognito.aws_srp import AWSSRP

PASSWORD = "Passw0rd!"
TARGET_PREFIX = "AWSCognitoIdentityProviderService."
AMZ_JSON = "application/x-amz-json-1.1"
USER_FLOWS = ["ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH", "ALLOW_USER_SRP_AUTH"]


def unique(prefix="user"):
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def email_for(username):
    return f"{username}@example.com"


def secret_hash(username, client_id, secret):
    """base64(HMAC-SHA256(key=secret, msg=username + clientId)), as Cognito defines it."""
    digest = hmac.new(secret.encode(), (username + client_id).encode(), hashlib.sha256).digest()
    return base64.b64encode(digest).decode()


# --- errors ---------------------------------------------------------------------------------

@contextlib.contextmanager
def cognito_error(code, message=None, contains=None):
    """Expects a botocore ClientError with `code` (or one of a tuple of codes), HTTP 400 and
    (optionally) the exact message or a message containing `contains`. Yields pytest's ExceptionInfo."""
    with pytest.raises(ClientError) as info:
        yield info
    response = info.value.response
    codes = code if isinstance(code, tuple) else (code,)
    assert response["Error"]["Code"] in codes, response["Error"]
    assert response["ResponseMetadata"]["HTTPStatusCode"] == 400, response["ResponseMetadata"]
    if message is not None:
        assert response["Error"]["Message"] == message
    if contains is not None:
        assert contains in response["Error"]["Message"], response["Error"]["Message"]


# --- users ----------------------------------------------------------------------------------

def sign_up(idp, client, username, password=PASSWORD, email=None, attributes=(), secret=None):
    """SignUp through `client` (a UserPoolClient dict); `email` defaults to <username>@example.com."""
    attrs = [{"Name": "email", "Value": email or email_for(username)}] if email is not False else []
    attrs += [{"Name": k, "Value": v} for k, v in attributes]
    kwargs = {"SecretHash": secret_hash(username, client["ClientId"], secret)} if secret else {}
    return idp.sign_up(ClientId=client["ClientId"], Username=username, Password=password, UserAttributes=attrs,
                       **kwargs)


def confirm_from_outbox(server, idp, pool_id, client, username, destination, secret=None):
    code = server.last_code(pool_id, destination)
    kwargs = {"SecretHash": secret_hash(username, client["ClientId"], secret)} if secret else {}
    idp.confirm_sign_up(ClientId=client["ClientId"], Username=username, ConfirmationCode=code, **kwargs)
    return code


def confirmed_user(server, idp, pool, client, username=None, password=PASSWORD, attributes=(), secret=None):
    """Signs up and confirms a user with an email; returns (username, email, sub)."""
    username = username or unique()
    email = email_for(username)
    sub = sign_up(idp, client, username, password, email, attributes, secret)["UserSub"]
    confirm_from_outbox(server, idp, pool["Id"], client, username, email, secret)
    return username, email, sub


def password_auth(idp, client, username, password=PASSWORD, secret=None):
    params = {"USERNAME": username, "PASSWORD": password}
    if secret:
        params["SECRET_HASH"] = secret_hash(username, client["ClientId"], secret)
    return idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="USER_PASSWORD_AUTH", AuthParameters=params)


def sign_in(idp, client, username, password=PASSWORD, secret=None):
    """USER_PASSWORD_AUTH; returns the AuthenticationResult."""
    return password_auth(idp, client, username, password, secret)["AuthenticationResult"]


def refresh(idp, client, refresh_token, username=None, secret=None):
    params = {"REFRESH_TOKEN": refresh_token}
    if secret:
        params["SECRET_HASH"] = secret_hash(username, client["ClientId"], secret)
    return idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="REFRESH_TOKEN_AUTH",
                             AuthParameters=params)["AuthenticationResult"]


def attributes_of(response):
    """{name: value} of a GetUser/AdminGetUser response."""
    return {a["Name"]: a["Value"] for a in response["UserAttributes"]}


def admin_user(idp, pool_id, username=None, password=PASSWORD, attributes=()):
    """A CONFIRMED user made by an administrator (AdminCreateUser without a message, then a
    permanent AdminSetUserPassword); `attributes` are (name, value) pairs. Returns the username."""
    username = username or unique()
    idp.admin_create_user(UserPoolId=pool_id, Username=username, MessageAction="SUPPRESS",
                          TemporaryPassword="Temp-0rary!",
                          UserAttributes=[{"Name": k, "Value": v} for k, v in attributes])
    idp.admin_set_user_password(UserPoolId=pool_id, Username=username, Password=password, Permanent=True)
    return username


def messages(server, pool_id, **match):
    """The pool's outbox messages whose fields equal `match` (e.g. username=…, purpose="invitation")."""
    return [m for m in server.outbox(pool_id) if all(m.get(k) == v for k, v in match.items())]


def user_status(idp, pool_id, username):
    return idp.admin_get_user(UserPoolId=pool_id, Username=username)["UserStatus"]


# --- codes, clients and messages (account lifecycle) ----------------------------------------

CODE_MISMATCH = "Invalid verification code provided, please try again."
CODE_EXPIRED = "Invalid code provided, please request a code again."
ATTEMPT_LIMIT = "Attempt limit exceeded, please try after some time."
ACCESS_TOKEN_REVOKED = "Access Token has been revoked"
REFRESH_TOKEN_REVOKED = "Refresh Token has been revoked"


def wrong_code(code):
    """A six-digit code different from `code`."""
    return f"{(int(code) + 1) % 1_000_000:06d}"


def last_message(server, pool_id, **match):
    """The newest outbox message of the pool whose fields equal `match` (e.g. destination=…,
    purpose="forgotPassword"); fails when there is none."""
    found = messages(server, pool_id, **match)
    assert found, f"no message {match} in the outbox of {pool_id}"
    return found[-1]


def new_client(idp, pool_id, name="app", flows=USER_FLOWS, **kwargs):
    """CreateUserPoolClient with the user flows (and `kwargs`); returns the UserPoolClient."""
    return idp.create_user_pool_client(UserPoolId=pool_id, ClientName=name, ExplicitAuthFlows=flows,
                                       **kwargs)["UserPoolClient"]


def masked_email(address):
    """Cognito's masking of an email destination: first letter of the local part and of the
    domain, nothing else (real Cognito answers "t***@e***" for test@example.com)."""
    local, domain = address.split("@")
    return f"{local[0]}***@{domain[0]}***"


def masked_phone(number):
    """Cognito's masking of a phone destination: '+', stars, the last four digits."""
    return "+" + "*" * (len(number) - 5) + number[-4:]


# --- SRP (pycognito) ------------------------------------------------------------------------

def pycognito_user(server, pool_id, client, username):
    """pycognito's high-level Cognito object for `username`, pointed at the server (it then uses
    <endpoint>/<poolId> as issuer and fetches the JWKS from there). Uses the client's secret if any."""
    return Cognito(pool_id, client["ClientId"], username=username, client_secret=client.get("ClientSecret"),
                   botocore_config=Config(retries={"max_attempts": 1, "mode": "standard"}),
                   boto3_client_kwargs={"endpoint_url": server.endpoint, "aws_access_key_id": "dev",
                                        "aws_secret_access_key": "dev"})


def srp_for(idp, pool_id, client, username, password=PASSWORD, secret=None):
    """pycognito's low-level AWSSRP for one exchange (one random `a`). `secret` defaults to the
    client's ClientSecret; pass False to leave SECRET_HASH out."""
    secret = client.get("ClientSecret") if secret is None else (secret or None)
    return AWSSRP(username, password, pool_id, client["ClientId"], client=idp, client_secret=secret)


def srp_start(idp, srp, admin=False):
    """USER_SRP_AUTH step 1 (InitiateAuth, or AdminInitiateAuth when `admin`); returns
    (AuthParameters sent, response)."""
    params = srp.get_auth_params()
    if admin:
        response = idp.admin_initiate_auth(UserPoolId=srp.pool_id, ClientId=srp.client_id, AuthFlow="USER_SRP_AUTH",
                                           AuthParameters=params)
    else:
        response = idp.initiate_auth(ClientId=srp.client_id, AuthFlow="USER_SRP_AUTH", AuthParameters=params)
    return params, response


def srp_respond(idp, srp, responses, admin=False, session=None):
    """Answers PASSWORD_VERIFIER with `responses` (ChallengeResponses, e.g. from
    srp.process_challenge) through RespondToAuthChallenge or its admin twin."""
    extra = {"Session": session} if session else {}
    if admin:
        return idp.admin_respond_to_auth_challenge(UserPoolId=srp.pool_id, ClientId=srp.client_id,
                                                   ChallengeName="PASSWORD_VERIFIER", ChallengeResponses=responses,
                                                   **extra)
    return idp.respond_to_auth_challenge(ClientId=srp.client_id, ChallengeName="PASSWORD_VERIFIER",
                                         ChallengeResponses=responses, **extra)


def srp_auth(idp, srp, admin=False):
    """Both SRP steps with pycognito's computations; returns the final response (tokens or the
    next challenge)."""
    params, started = srp_start(idp, srp, admin)
    assert started["ChallengeName"] == "PASSWORD_VERIFIER", started
    return srp_respond(idp, srp, srp.process_challenge(started["ChallengeParameters"], params), admin,
                       started.get("Session"))


# --- tokens ---------------------------------------------------------------------------------

def issuer(server, pool_id):
    return f"{server.endpoint}/{pool_id}"


def jwks(server, pool_id):
    r = requests.get(f"{issuer(server, pool_id)}/.well-known/jwks.json", timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def verify_token(server, pool_id, token, token_use, client_id):
    """Verifies the signature against the served JWKS (by kid) and the claims a Cognito
    verifier checks (iss, exp, token_use, aud or client_id); returns the claims."""
    header = jwt.get_unverified_header(token)
    assert header["alg"] == "RS256"
    keys = {k["kid"]: k for k in jwks(server, pool_id)["keys"]}
    assert header["kid"] in keys, f"kid {header['kid']} not in JWKS"
    key = jwt.PyJWK(keys[header["kid"]])
    options = {"require": ["exp", "iat", "iss", "sub"]}
    if token_use == "id":
        claims = jwt.decode(token, key, algorithms=["RS256"], issuer=issuer(server, pool_id), audience=client_id,
                            options=options)
    else:
        claims = jwt.decode(token, key, algorithms=["RS256"], issuer=issuer(server, pool_id),
                            options={**options, "verify_aud": False})
        assert "aud" not in claims
        assert claims["client_id"] == client_id
    assert claims["token_use"] == token_use
    return claims


# --- raw protocol ---------------------------------------------------------------------------

def raw_call(server, operation, body=None, data=None, target=None, content_type=AMZ_JSON, timeout=30):
    """POSTs to the API endpoint without any client-side validation. `body` is JSON-encoded,
    `data` is sent as is; `target` overrides X-Amz-Target (None → the operation's)."""
    headers = {"Content-Type": content_type}
    target = target if target is not None else (TARGET_PREFIX + operation if operation else None)
    if target is not None:
        headers["X-Amz-Target"] = target
    if data is None and body is not None:
        data = json.dumps(body)
    return requests.post(server.endpoint + "/", data=data, headers=headers, timeout=timeout)


def assert_raw_error(response, code, contains=None):
    """A Cognito-shaped 400 error: __type, message and status."""
    assert response.status_code == 400, (response.status_code, response.text)
    body = response.json()
    assert body["__type"] == code, body
    assert isinstance(body.get("message"), str) and body["message"], body
    if contains is not None:
        assert contains in body["message"], body["message"]
    return body["message"]


def assert_healthy(server):
    assert server.process.poll() is None, "server process exited"
    assert requests.get(server.endpoint + "/health", timeout=10).status_code == 200


# --- concurrency ----------------------------------------------------------------------------

def run_concurrently(server, count, call):
    """Runs call(idp, index) in `count` threads released together, each with its own boto3
    client (built up front: creating clients is not thread-safe). Returns [(status, code)],
    (200, None) for successes."""
    clients = [server.client() for _ in range(count)]
    barrier = threading.Barrier(count)

    def one(index):
        idp = clients[index]
        barrier.wait()
        try:
            call(idp, index)
            return 200, None
        except ClientError as e:
            return e.response["ResponseMetadata"]["HTTPStatusCode"], e.response["Error"]["Code"]

    with concurrent.futures.ThreadPoolExecutor(count) as executor:
        return list(executor.map(one, range(count)))


class QuietHandler(http.server.BaseHTTPRequestHandler):
    """A request handler that logs nothing (tests read what it recorded instead)."""

    def log_message(self, *args):
        pass


def local_http_server(handler):
    """Serves `handler` (a BaseHTTPRequestHandler class) on a free port of 127.0.0.1, each
    request on a thread of its own; returns the server (`shutdown()` stops it) and its URL."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"
