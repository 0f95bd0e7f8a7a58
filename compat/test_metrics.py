"""Prometheus metrics (issue 14): `GET /metrics` scraped and parsed with prometheus_client's own
parser after real traffic — requests by operation and outcome with latency histograms, sign-ins
by flow and result, messages by medium and channel, lockouts."""
import requests
from prometheus_client.parser import text_string_to_metric_families

from helpers import PASSWORD, cognito_error, confirmed_user, new_client, password_auth, sign_in, unique


def scrape(server):
    response = requests.get(server.endpoint + "/metrics", timeout=10)
    assert response.status_code == 200 and response.headers["Content-Type"].startswith("text/plain")
    samples = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, name, **labels):
    return samples.get((name, tuple(sorted(labels.items()))), 0)


def test_metrics_count_what_happened(server, idp):
    before = scrape(server)
    pool = idp.create_user_pool(PoolName=unique("metrics"), AutoVerifiedAttributes=["email"])["UserPool"]
    client = new_client(idp, pool["Id"])
    username, _, _ = confirmed_user(server, idp, pool, client)
    sign_in(idp, client, username)
    for _ in range(6):                                       # the sixth wrong password locks the user out
        with cognito_error("NotAuthorizedException"):
            password_auth(idp, client, username, password="Wr0ng-password")
    after = scrape(server)

    def grew(name, by=1, **labels):
        assert value(after, name, **labels) - value(before, name, **labels) >= by, (name, labels)

    grew("cognate_requests_total", operation="SignUp", outcome="ok")
    grew("cognate_requests_total", by=6, operation="InitiateAuth", outcome="NotAuthorizedException")
    grew("cognate_request_duration_seconds_count", operation="SignUp")
    assert value(after, "cognate_request_duration_seconds_bucket", operation="SignUp", le="+Inf") >= 1
    grew("cognate_sign_ins_total", flow="USER_PASSWORD_AUTH", result="tokens")
    grew("cognate_sign_ins_total", by=6, flow="USER_PASSWORD_AUTH", result="failed")
    grew("cognate_messages_sent_total", medium="email", channel="server")
    grew("cognate_lockouts_total")
    # Database pool use: every transaction waited for a connection (recorded), none is held now.
    grew("cognate_db_connection_wait_seconds_count", by=8, kind="write")
    grew("cognate_db_connection_wait_seconds_count", kind="read")
    assert value(after, "cognate_db_connections_in_use", kind="write") == 0
    assert ("cognate_db_connections_in_use", (("kind", "read"),)) in after


def test_every_route_is_counted_by_its_route(server, idp):
    """Not only the API: the OAuth endpoints and hosted pages are counted as `METHOD /route`, and
    every answer carries a request id."""
    import secrets
    from test_oauth import app_session, authorize, hosted_sign_in, oauth_pool
    before = scrape(server)
    pool, client = oauth_pool(idp)
    username, _, _ = confirmed_user(server, idp, pool, client, secret=client["ClientSecret"])
    app = app_session(server, client)
    verifier = secrets.token_urlsafe(48)
    uri, _ = authorize(server, app, verifier)
    answer = hosted_sign_in(server, requests.Session(), uri, username)
    assert answer.headers["x-amzn-RequestId"]
    app.fetch_token(server.endpoint + "/oauth2/token", authorization_response=answer.headers["Location"],
                    code_verifier=verifier)
    wrong = requests.post(server.endpoint + "/oauth2/token", data={"grant_type": "nope"}, timeout=10)
    assert wrong.status_code in (400, 401) and wrong.headers["x-amzn-RequestId"]
    after = scrape(server)
    for operation, outcome in [("GET /login", "ok"), ("POST /login", "ok"), ("POST /oauth2/token", "ok"),
                               ("GET /oauth2/authorize", "ok"), ("POST /oauth2/token", str(wrong.status_code))]:
        assert value(after, "cognate_requests_total", operation=operation, outcome=outcome) > \
            value(before, "cognate_requests_total", operation=operation, outcome=outcome), (operation, outcome)
    assert value(after, "cognate_request_duration_seconds_count", operation="POST /oauth2/token") >= 2


def test_a_refusal_before_the_api_is_counted_under_its_route(server):
    """A dev-mode server refuses a web page's admin call before the API reads it (403): counted
    as `POST /`, not as an unmatched route."""
    before = scrape(server)
    refused = requests.post(server.endpoint + "/", data=b"{}", timeout=10, headers={
        "Origin": "https://page.example", "Content-Type": "application/x-amz-json-1.1",
        "X-Amz-Target": "AWSCognitoIdentityProviderService.AdminDeleteUser"})
    assert refused.status_code == 403 and refused.headers["x-amzn-RequestId"]
    after = scrape(server)
    assert value(after, "cognate_requests_total", operation="POST /", outcome="403") == \
        value(before, "cognate_requests_total", operation="POST /", outcome="403") + 1
    assert value(after, "cognate_requests_total", operation="unmatched", outcome="403") == \
        value(before, "cognate_requests_total", operation="unmatched", outcome="403")
