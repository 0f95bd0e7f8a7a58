"""Single sign-on on the hosted pages: for an hour after a hosted sign-in, the same browser gets
any app client's code without the sign-in page, as Cognito's managed login session allows —
until /logout, a revocation or a password change ends it; `prompt=login` shows the page anyway
and `prompt=none` never does. Driven like a browser with requests and authlib, verified with PyJWT."""
import secrets
from urllib.parse import parse_qs, urlparse

import requests

from helpers import confirmed_user, verify_token
from test_oauth import CALLBACK, SIGNED_OUT, app_session, authorize, hosted_sign_in, oauth_pool


def second_client(idp, pool):
    return idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="second", GenerateSecret=True, CallbackURLs=[CALLBACK],
        AllowedOAuthFlows=["code"], AllowedOAuthScopes=["openid", "email"], AllowedOAuthFlowsUserPoolClient=True,
        SupportedIdentityProviders=["COGNITO"], ExplicitAuthFlows=["ALLOW_REFRESH_TOKEN_AUTH"])["UserPoolClient"]


def signed_in_browser(server, idp, pool, client, username):
    app = app_session(server, client)
    verifier = secrets.token_urlsafe(48)
    uri, _ = authorize(server, app, verifier)
    browser = requests.Session()
    answer = hosted_sign_in(server, browser, uri, username)
    assert answer.status_code == 302 and "cognate_session" in browser.cookies, answer.headers
    tokens = app.fetch_token(server.endpoint + "/oauth2/token", authorization_response=answer.headers["Location"],
                             code_verifier=verifier)
    return browser, tokens


def authorize_in(server, browser, client, scope="openid email", **extra):
    """The browser opens an app's authorization URL; returns (where it ends: the app's callback
    or a page, the app session, the verifier)."""
    app = app_session(server, client, scope=scope)
    verifier = secrets.token_urlsafe(48)
    uri, _ = authorize(server, app, verifier, **extra)
    first = browser.get(uri, allow_redirects=False, timeout=10)
    assert first.status_code == 302, first.text
    landed = browser.get(first.headers["Location"] if first.headers["Location"].startswith("http")
                         else server.endpoint + first.headers["Location"], allow_redirects=False, timeout=10)
    return landed, app, verifier


def test_a_second_app_signs_in_without_the_page_until_logout(server, idp):
    pool, client = oauth_pool(idp)
    username, _, sub = confirmed_user(server, idp, pool, client, secret=client["ClientSecret"])
    other = second_client(idp, pool)
    browser, _ = signed_in_browser(server, idp, pool, client, username)

    landed, app, verifier = authorize_in(server, browser, other)
    assert landed.status_code == 302 and landed.headers["Location"].startswith(CALLBACK + "?code="), landed.text[:300]
    tokens = app.fetch_token(server.endpoint + "/oauth2/token", authorization_response=landed.headers["Location"],
                             code_verifier=verifier)
    claims = verify_token(server, pool["Id"], tokens["id_token"], "id", other["ClientId"])
    assert claims["sub"] == sub and claims["cognito:username"] == username

    # prompt=login shows the page all the same; prompt=none does not need it.
    landed, _, _ = authorize_in(server, browser, other, prompt="login")
    assert landed.status_code == 200 and 'autocomplete="current-password"' in landed.text
    landed, _, _ = authorize_in(server, browser, other, prompt="none")
    assert landed.status_code == 302 and "code=" in landed.headers["Location"]

    # Another browser with the session cookie alone (no binding) gets the page.
    thief = requests.Session()
    thief.cookies.set("cognate_session", browser.cookies["cognate_session"])
    landed, _, _ = authorize_in(server, thief, other)
    assert landed.status_code == 200 and 'autocomplete="current-password"' in landed.text

    # /logout ends it: the page again, and prompt=none is login_required.
    out = browser.get(server.endpoint + "/logout", params={"client_id": client["ClientId"], "logout_uri": SIGNED_OUT},
                      allow_redirects=False, timeout=10)
    assert out.status_code == 302 and "cognate_session" not in browser.cookies
    landed, _, _ = authorize_in(server, browser, other)
    assert landed.status_code == 200 and 'autocomplete="current-password"' in landed.text
    landed, _, _ = authorize_in(server, browser, other, prompt="none")
    query = parse_qs(urlparse(landed.headers["Location"]).query)
    assert landed.headers["Location"].startswith(CALLBACK) and query["error"] == ["login_required"]


def test_a_revocation_or_a_new_password_ends_the_session(server, idp):
    pool, client = oauth_pool(idp)
    username, _, _ = confirmed_user(server, idp, pool, client, secret=client["ClientSecret"])
    other = second_client(idp, pool)

    browser, tokens = signed_in_browser(server, idp, pool, client, username)
    idp.admin_user_global_sign_out(UserPoolId=pool["Id"], Username=username)
    landed, _, _ = authorize_in(server, browser, other)
    assert landed.status_code == 200 and 'autocomplete="current-password"' in landed.text

    browser, tokens = signed_in_browser(server, idp, pool, client, username)
    landed, _, _ = authorize_in(server, browser, other)
    assert landed.status_code == 302                                   # the session stands
    idp.admin_set_user_password(UserPoolId=pool["Id"], Username=username, Password="An0ther-Passw0rd!", Permanent=True)
    landed, _, _ = authorize_in(server, browser, other)
    assert landed.status_code == 200 and 'autocomplete="current-password"' in landed.text


def test_a_session_is_of_its_pool_only(server, idp):
    pool, client = oauth_pool(idp)
    username, _, _ = confirmed_user(server, idp, pool, client, secret=client["ClientSecret"])
    browser, _ = signed_in_browser(server, idp, pool, client, username)
    _, elsewhere = oauth_pool(idp)
    landed, _, _ = authorize_in(server, browser, elsewhere)
    assert landed.status_code == 200 and 'autocomplete="current-password"' in landed.text


def test_a_prompt_other_than_login_or_none_goes_back_to_the_app(server, idp):
    _, client = oauth_pool(idp)
    uri, _ = authorize(server, app_session(server, client), secrets.token_urlsafe(48), prompt="consent")
    answer = requests.get(uri, allow_redirects=False, timeout=10)
    assert answer.status_code == 302
    query = parse_qs(urlparse(answer.headers["Location"]).query)
    assert answer.headers["Location"].startswith(CALLBACK) and query["error"] == ["invalid_request"]


def test_a_password_session_does_not_open_a_client_of_providers_only(server, idp):
    """A client restricted to an identity provider never gets a code from a session that began
    with a password: its page (the provider's button) is shown instead."""
    pool, client = oauth_pool(idp)
    username, _, _ = confirmed_user(server, idp, pool, client, secret=client["ClientSecret"])
    idp.create_identity_provider(
        UserPoolId=pool["Id"], ProviderName="Google", ProviderType="Google",
        ProviderDetails={"client_id": "1234.apps.googleusercontent.com", "client_secret": "s", "authorize_scopes": "openid email"})
    corporate = idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="corporate", GenerateSecret=True, CallbackURLs=[CALLBACK],
        AllowedOAuthFlows=["code"], AllowedOAuthScopes=["openid", "email"], AllowedOAuthFlowsUserPoolClient=True,
        SupportedIdentityProviders=["Google"])["UserPoolClient"]
    browser, _ = signed_in_browser(server, idp, pool, client, username)
    landed, _, _ = authorize_in(server, browser, corporate)
    assert landed.status_code == 200 and "Continue with Google" in landed.text, landed.headers
    assert 'autocomplete="current-password"' not in landed.text
