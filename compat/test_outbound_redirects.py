"""Outbound calls never follow redirects: a function webhook, a delivery webhook or an identity
provider that answers 3xx fails the call (with the reason in the server's log), and the
server the redirect points to receives nothing — not the signed event, not the code, not the
client secret."""
import json
import subprocess
import tempfile
import uuid
from urllib.parse import parse_qs, urlparse

import pytest
import requests

from conftest import BINARY, CognateServer
from helpers import QuietHandler, cognito_error, local_http_server, new_client, sign_up, unique

SECRET = "redirect-test-secret"
CALLBACK = "http://localhost:8000/callback"


class Recorder:
    """A local HTTP server that records every request; with `redirect_to`, it answers each one
    with `status` and a Location at that base (same path), else 200 with `{}`."""

    def __init__(self, redirect_to=None, status=302):
        self.requests = []
        recorder = self

        class Handler(QuietHandler):
            def handle_one(self):
                length = int(self.headers.get("Content-Length") or 0)
                recorder.requests.append((self.command, self.path, dict(self.headers), self.rfile.read(length)))
                if redirect_to:
                    self.send_response(status)
                    self.send_header("Location", redirect_to + self.path)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                else:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", "2")
                    self.end_headers()
                    self.wfile.write(b"{}")

            do_GET = do_POST = handle_one

        self.httpd, self.url = local_http_server(Handler)

    def stop(self):
        self.httpd.shutdown()


@pytest.fixture(scope="module")
def target():
    recorder = Recorder()
    yield recorder
    recorder.stop()


@pytest.fixture(scope="module")
def redirector(target):
    recorder = Recorder(redirect_to=target.url, status=307)   # 307 keeps method and body: the worst case
    yield recorder
    recorder.stop()


@pytest.fixture(scope="module")
def server(redirector):
    with tempfile.TemporaryDirectory(prefix="cognate-redirects-") as workdir:
        s = CognateServer(workdir, extra_args=["--email-delivery", "webhook", "--email-webhook-url",
                                               redirector.url + "/mail"],
                          env={"COGNATE_WEBHOOK_SECRET": SECRET}).start()
        yield s
        s.stop()


@pytest.fixture(scope="module")
def idp(server):
    return server.client()


def log_of(server):
    return server.log_path.read_text(errors="replace")


def test_a_function_webhook_that_redirects_fails_the_trigger(server, idp, redirector, target):
    arn = f"arn:aws:lambda:us-east-1:123456789012:function:moved-{uuid.uuid4().hex[:6]}"
    bound = subprocess.run([str(BINARY), "functions", "put", arn, redirector.url + "/pre-sign-up", "--database",
                            server.database], capture_output=True, text=True, timeout=60)
    assert bound.returncode == 0, bound.stderr
    pool = idp.create_user_pool(PoolName=unique("moved"), LambdaConfig={"PreSignUp": arn})["UserPool"]
    client = new_client(idp, pool["Id"])
    with cognito_error("UnexpectedLambdaException", "PreSignUp invocation failed due to error the function's webhook "
                       "answered 307, a redirect, which Cognate does not follow."):
        sign_up(idp, client, unique(), email=False)
    assert [(method, path) for method, path, _, _ in redirector.requests if path == "/pre-sign-up"] == [
        ("POST", "/pre-sign-up")]
    assert not [r for r in target.requests if r[1] == "/pre-sign-up"], "the redirect was followed"
    assert f"function {arn} at {redirector.url}/pre-sign-up failed: the function's webhook answered 307" in log_of(server)


def test_a_delivery_webhook_that_redirects_does_not_deliver(server, idp, redirector, target):
    pool = idp.create_user_pool(PoolName=unique("mail"), AutoVerifiedAttributes=["email"])["UserPool"]
    client = new_client(idp, pool["Id"])
    with cognito_error("CodeDeliveryFailureException"):
        sign_up(idp, client, unique())
    sent = [body for method, path, _, body in redirector.requests if path == "/mail"]
    assert len(sent) == 1 and json.loads(sent[0])["code"]
    assert not [r for r in target.requests if r[1] == "/mail"], "the code was sent where the redirect pointed"
    assert "the webhook answered 307, a redirect, which Cognate does not follow" in log_of(server)


def federated_client(idp, details):
    pool = idp.create_user_pool(PoolName=unique("federated"))["UserPool"]
    idp.create_identity_provider(UserPoolId=pool["Id"], ProviderName="Moved", ProviderType="OIDC",
                                 ProviderDetails={"client_id": "upstream-client", "client_secret": "upstream-secret",
                                                  "authorize_scopes": "openid email", **details})
    return idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="web", CallbackURLs=[CALLBACK], AllowedOAuthFlows=["code"],
        AllowedOAuthScopes=["openid", "email"], AllowedOAuthFlowsUserPoolClient=True,
        SupportedIdentityProviders=["Moved"])["UserPoolClient"]


def begin(server, client, browser):
    return browser.get(server.endpoint + "/login", allow_redirects=False, timeout=10, params={
        "client_id": client["ClientId"], "redirect_uri": CALLBACK, "response_type": "code",
        "identity_provider": "Moved", "state": "app-state"})


def test_an_identity_provider_that_redirects_is_not_followed(server, idp, redirector, target):
    """Discovery redirected: the sign-in goes back to the app as an error. The token endpoint
    redirected (a 307 would re-send the client secret and the code): the same."""
    discovered = federated_client(idp, {"oidc_issuer": redirector.url + "/issuer"})
    answer = begin(server, discovered, requests.Session())
    assert answer.status_code == 302 and answer.headers["Location"].startswith(CALLBACK)
    assert "cannot be reached" in parse_qs(urlparse(answer.headers["Location"]).query)["error_description"][0]
    assert [path for _, path, _, _ in redirector.requests if path.startswith("/issuer")] == [
        "/issuer/.well-known/openid-configuration"]
    assert f"federation: GET {redirector.url}/issuer/.well-known/openid-configuration answered 307" in log_of(server)

    explicit = federated_client(idp, {"oidc_issuer": "https://issuer.invalid",
                                      "authorize_url": "https://issuer.invalid/authorize",
                                      "token_url": redirector.url + "/token"})
    browser = requests.Session()
    to_provider = begin(server, explicit, browser)
    state = parse_qs(urlparse(to_provider.headers["Location"]).query)["state"][0]
    back = browser.get(server.endpoint + "/oauth2/idpresponse", params={"code": "upstream-code", "state": state},
                        allow_redirects=False, timeout=10)
    assert back.status_code == 302
    described = parse_qs(urlparse(back.headers["Location"]).query)
    assert described["error"] == ["server_error"] and "a redirect" in described["error_description"][0]
    [(method, _, _, body)] = [r for r in redirector.requests if r[1] == "/token"]
    assert method == "POST" and b"upstream-secret" in body
    assert not [r for r in target.requests if r[1].startswith(("/issuer", "/token"))], "the redirect was followed"
