"""The hosted pages and OAuth endpoints as an attacker uses them: the caller's address reaches
every route (blocked ranges, per-address limits), anonymous page views store nothing, flows
are bound to the browser that began them (forms and federated callbacks alike)."""
import re
import secrets
import tempfile
from urllib.parse import urlparse

import pytest
import requests

from conftest import CognateServer
from helpers import PASSWORD, cognito_error, confirmed_user, sign_in, unique
from test_federation import federated_pool, upstream, upstream_pool, upstream_user  # noqa: F401 (fixture)
from test_oauth import CALLBACK, app_session, authorize, flow_of, hosted_sign_in, oauth_pool


def test_a_blocked_address_range_refuses_the_hosted_sign_in_as_the_api(server, idp):
    pool, client = oauth_pool(idp)
    idp.update_user_pool(UserPoolId=pool["Id"], AutoVerifiedAttributes=["email"],
                         UserPoolAddOns={"AdvancedSecurityMode": "ENFORCED"})
    username, _, _ = confirmed_user(server, idp, pool, client, secret=client["ClientSecret"])
    idp.set_risk_configuration(UserPoolId=pool["Id"], RiskExceptionConfiguration={"BlockedIPRangeList": ["127.0.0.0/8"]})
    with cognito_error("NotAuthorizedException", "Request not allowed due to security reasons."):
        sign_in(idp, client, username, secret=client["ClientSecret"])
    uri, _ = authorize(server, app_session(server, client), secrets.token_urlsafe(48))
    answer = hosted_sign_in(server, requests.Session(), uri, username)
    assert answer.status_code == 200 and "Location" not in answer.headers
    assert "Request not allowed due to security reasons." in answer.text
    events = idp.admin_list_user_auth_events(UserPoolId=pool["Id"], Username=username)["AuthEvents"]
    assert events[0]["EventContextData"]["IpAddress"] == "127.0.0.1"


@pytest.fixture(scope="module")
def limited_server():
    """A server allowing 2 sign-ups and 4 stored hosted steps per client and address per minute."""
    with tempfile.TemporaryDirectory(prefix="cognate-limited-") as workdir:
        limited = CognateServer(workdir, extra_args=[
            "--rate-limit-user-creation", "2", "--rate-limit-hosted-flows", "4"]).start()
        yield limited
        limited.stop()


@pytest.mark.fixed_window(60)
def test_hosted_sign_ups_count_against_the_callers_address(limited_server):
    idp = limited_server.client()
    pool, client = oauth_pool(idp)
    uri, _ = authorize(limited_server, app_session(limited_server, client), secrets.token_urlsafe(48))
    signup_url = limited_server.endpoint + "/signup?" + urlparse(uri).query
    answers = []
    for _ in range(3):
        browser = requests.Session()
        page = browser.get(signup_url, timeout=10)
        answers.append(browser.post(limited_server.endpoint + "/login", timeout=10, allow_redirects=False, data={
            "flow": flow_of(page), "username": unique(), "password": PASSWORD,
            "attribute.email": f"{unique()}@example.com"}))
    assert all(a.status_code == 200 for a in answers), [a.status_code for a in answers]
    assert "Confirm your account" in answers[0].text and "Confirm your account" in answers[1].text
    assert "Too many UserCreation requests" in answers[2].text


@pytest.mark.fixed_window(60)
def test_anonymous_page_views_store_nothing_and_stored_steps_are_limited_per_address(limited_server):
    idp = limited_server.client()
    pool, client = oauth_pool(idp)
    uri, _ = authorize(limited_server, app_session(limited_server, client), secrets.token_urlsafe(48))
    login_url = limited_server.endpoint + "/login?" + urlparse(uri).query
    stored = len(limited_server.rows("auth_sessions"))
    for _ in range(30):
        assert requests.get(login_url, timeout=10).status_code == 200
    assert len(limited_server.rows("auth_sessions")) == stored
    # Each wrong password stores the next page: four per minute here, then 429 with a page.
    browser = requests.Session()
    page = browser.get(login_url, timeout=10)
    statuses = []
    for _ in range(5):
        answer = browser.post(limited_server.endpoint + "/login", timeout=10, allow_redirects=False,
                              data={"flow": flow_of(page), "username": "nobody", "password": "wrong"})
        statuses.append(answer.status_code)
    assert statuses == [200, 200, 200, 200, 429], statuses
    assert "Too many HostedSignIn requests" in answer.text


def test_state_and_nonce_are_bounded(server, idp):
    pool, client = oauth_pool(idp)
    base = {"client_id": client["ClientId"], "redirect_uri": CALLBACK, "response_type": "code", "scope": "openid"}
    ok = requests.get(server.endpoint + "/login", params={**base, "state": "s" * 2048, "nonce": "n" * 512}, timeout=10)
    assert ok.status_code == 200
    for extra in ({"state": "s" * 2049}, {"nonce": "n" * 513}):
        refused = requests.get(server.endpoint + "/login", params={**base, **extra}, timeout=10, allow_redirects=False)
        assert refused.status_code == 400 and "too long" in refused.text and "Location" not in refused.headers


def test_a_form_posted_from_another_browser_is_refused(server, idp):
    pool, client = oauth_pool(idp)
    username, _, _ = confirmed_user(server, idp, pool, client, secret=client["ClientSecret"])
    uri, _ = authorize(server, app_session(server, client), secrets.token_urlsafe(48))
    attacker = requests.Session()
    page = attacker.get(uri, timeout=10)
    # The victim's browser has a binding of its own, not the attacker's: the attacker's form fails there.
    victim = requests.Session()
    victim.get(uri, timeout=10)
    answer = victim.post(server.endpoint + "/login", timeout=10, allow_redirects=False,
                         data={"flow": flow_of(page), "username": username, "password": PASSWORD})
    assert answer.status_code == 400 and "expired" in answer.text
    # Without any binding cookie: refused before anything is read.
    bare = requests.post(server.endpoint + "/login", timeout=10, allow_redirects=False,
                         data={"flow": flow_of(page), "username": username, "password": PASSWORD})
    assert bare.status_code == 403
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", attacker.cookies.get("cognate_browser", ""))
    assert re.fullmatch(r"cognate_browser=[A-Za-z0-9_-]{43}; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax",
                        page.headers["Set-Cookie"])


def test_a_federated_answer_completes_only_in_the_browser_that_began_it(server, idp, upstream):  # noqa: F811
    """RFC 6749 §10.12: a link to /oauth2/idpresponse carrying the attacker's upstream sign-in
    must not sign the victim's browser in as the attacker."""
    up_idp, up_pool, up_client = upstream_pool(server, upstream)
    up_name, _, _ = upstream_user(upstream, up_idp, up_pool, up_client)
    pool, client = federated_pool(idp, upstream, up_pool["Id"], up_client)
    uri, _ = authorize(server, app_session(server, client, scope="openid email"), secrets.token_urlsafe(48),
                       identity_provider="Upstream")
    attacker = requests.Session()
    page = attacker.get(uri, timeout=10)
    answered = attacker.post(upstream.endpoint + "/login", allow_redirects=False, timeout=10,
                             data={"flow": flow_of(page), "username": up_name, "password": PASSWORD})
    callback = answered.headers["Location"]
    assert callback.startswith(server.endpoint + "/oauth2/idpresponse?")
    victim = requests.Session()
    followed = victim.get(callback, allow_redirects=False, timeout=10)
    assert followed.status_code == 400 and "Location" not in followed.headers
    assert "started in another browser" in followed.text


@pytest.mark.parametrize("url, message", [
    ("http://app.example/callback", "cannot use the HTTP protocol"),
    ("https://app.example/callback#token", "cannot contain a fragment"),
    ("https://*.app.example/callback", "cannot contain a wildcard"),
    ("javascript:alert(document.cookie)", "is not an absolute URL"),
    ("javascript://%0aalert(1)", "cannot use the javascript scheme"),
    ("data://text/html,<script>", "cannot use the data scheme"),
    ("/callback", "is not an absolute URL"),
    ("http://evil.example\\@localhost/callback", "characters a URL cannot have"),
])
def test_callback_and_logout_urls_are_refused_as_cognito_refuses_them(server, idp, url, message):
    pool = idp.create_user_pool(PoolName=unique("urls"))["UserPool"]
    for member in ("CallbackURLs", "LogoutURLs"):
        with cognito_error("InvalidParameterException", contains=message):
            idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="web", **{member: [url]})
    client = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="web")["UserPoolClient"]
    with cognito_error("InvalidParameterException", contains=message):
        idp.update_user_pool_client(UserPoolId=pool["Id"], ClientId=client["ClientId"], CallbackURLs=[url])


def test_loopback_http_app_schemes_and_https_are_accepted(server, idp):
    pool = idp.create_user_pool(PoolName=unique("urls"))["UserPool"]
    urls = ["https://app.example/cb", "http://localhost:3000/cb", "http://127.0.0.1/cb", "http://[::1]:8080/cb",
            "myapp://callback", "com.example.app://oauth2redirect"]
    created = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="web", CallbackURLs=urls, LogoutURLs=urls,
                                          DefaultRedirectURI="myapp://callback")["UserPoolClient"]
    assert created["CallbackURLs"] == urls
    with cognito_error("InvalidParameterException", contains="must be one of the CallbackURLs"):
        idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="web", CallbackURLs=urls,
                                    DefaultRedirectURI="https://elsewhere.example/cb")


@pytest.mark.fixed_window(60)
def test_a_limited_caller_learns_nothing_of_a_password(limited_server):
    """A posted step is counted before its answer is judged: once the limit is reached, even
    the right password gets the limit's page, not a sign-in."""
    idp = limited_server.client()
    pool, client = oauth_pool(idp)
    username, _, _ = confirmed_user(limited_server, idp, pool, client, secret=client["ClientSecret"])
    uri, _ = authorize(limited_server, app_session(limited_server, client), secrets.token_urlsafe(48))
    browser = requests.Session()
    page = browser.get(uri, timeout=10)
    for _ in range(4):
        page = browser.post(limited_server.endpoint + "/login", timeout=10, allow_redirects=False,
                            data={"flow": flow_of(page), "username": username, "password": "wrong-Passw0rd!"})
        assert page.status_code == 200
    answer = browser.post(limited_server.endpoint + "/login", timeout=10, allow_redirects=False,
                          data={"flow": flow_of(page), "username": username, "password": PASSWORD})
    assert answer.status_code == 429 and "Location" not in answer.headers, answer.text


def test_a_flow_posted_from_another_browser_stays_its_own_browsers(server, idp):
    """Knowing a stored flow's token is not enough to end someone else's sign-in: a post from
    another browser is refused and leaves the flow for the browser it belongs to."""
    pool, client = oauth_pool(idp)
    username, _, _ = confirmed_user(server, idp, pool, client, secret=client["ClientSecret"])
    uri, _ = authorize(server, app_session(server, client), secrets.token_urlsafe(48))
    victim = requests.Session()
    first = victim.get(uri, timeout=10)
    stored = victim.post(server.endpoint + "/login", timeout=10, allow_redirects=False,
                         data={"flow": flow_of(first), "username": username, "password": "wrong-Passw0rd!"})
    assert stored.status_code == 200 and "Incorrect username or password." in stored.text
    attacker = requests.Session()
    attacker.get(uri, timeout=10)
    refused = attacker.post(server.endpoint + "/login", timeout=10, allow_redirects=False,
                            data={"flow": flow_of(stored), "username": username, "password": "other-Passw0rd!"})
    assert refused.status_code == 400 and "expired" in refused.text
    answer = victim.post(server.endpoint + "/login", timeout=10, allow_redirects=False,
                         data={"flow": flow_of(stored), "username": username, "password": PASSWORD})
    assert answer.status_code == 302 and answer.headers["Location"].startswith(CALLBACK), answer.text


def test_on_https_the_browser_binding_is_a_host_only_cookie():
    """With an https public URL the binding cookie is `__Host-` prefixed (no sibling subdomain
    or plain-http page can plant one), and the unprefixed name is not taken."""
    with tempfile.TemporaryDirectory(prefix="cognate-https-") as workdir:
        secure = CognateServer(workdir, extra_args=["--public-url", "https://auth.example.test"]).start()
        try:
            idp = secure.client()
            pool, client = oauth_pool(idp)
            uri, _ = authorize(secure, app_session(secure, client), secrets.token_urlsafe(48))
            login = secure.endpoint + "/login?" + urlparse(uri).query
            page = requests.get(login, timeout=10)
            cookie = page.headers["Set-Cookie"]
            assert re.fullmatch(
                r"__Host-cognate_browser=[A-Za-z0-9_-]{43}; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax; Secure", cookie)
            value = cookie.split(";")[0].split("=", 1)[1]
            planted = requests.post(secure.endpoint + "/login", timeout=10, allow_redirects=False,
                                    headers={"Cookie": f"cognate_browser={value}"},
                                    data={"flow": flow_of(page), "username": "someone", "password": "wrong-Passw0rd!"})
            assert planted.status_code == 403
            kept = requests.post(secure.endpoint + "/login", timeout=10, allow_redirects=False,
                                 headers={"Cookie": f"__Host-cognate_browser={value}"},
                                 data={"flow": flow_of(page), "username": "someone", "password": "wrong-Passw0rd!"})
            assert kept.status_code == 200 and 'role="alert"' in kept.text
        finally:
            secure.stop()
