"""Social identity providers (Google, Facebook, Login with Amazon, Sign in with Apple) created
through boto3 exactly as for Cognito (client id, secret and scopes; Apple's team, key id and
private key), described with the details Cognito fills in, and signed in with through the
hosted endpoints against local fakes that speak each provider's shapes: Facebook's Graph API
(token by GET, `/me?fields=`), Google's token endpoint (an ID token) and People API, Amazon's
`/user/profile`, Apple's form post and ES256 client secret (checked with PyJWT). The server
points the providers' hosts at the fakes with `--identity-provider-urls`."""
import html
import json
import re
import secrets
import tempfile
import threading
import time
from urllib.parse import parse_qs, urlencode, urljoin, urlparse

import jwt
import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from conftest import CognateServer
from helpers import QuietHandler, cognito_error, local_http_server, unique, verify_token
from test_oauth import CALLBACK, app_session, authorize

TEAM_ID = "3EXAMPLE42"
KEY_ID = "2EXAMPLE42"


class FakeProvider:
    """One provider's fake: an authorization endpoint that signs `user` in at once (the user the
    test chose) and answers with a code, and the endpoints `routes` names. Records requests."""

    def __init__(self, routes):
        self.routes = routes            # (method, path) → handler(fake, request, query, form) → (status, body)
        self.user = None                # the provider's user the next authorization signs in
        self.codes = {}                 # code → (user, nonce, redirect_uri, client_id)
        self.tokens = {}                # access token → user
        self.seen = []                  # (method, path, query, form, headers)
        self.form_post = False
        fake = self

        class Handler(QuietHandler):
            def do_GET(self):
                self.answer("GET", b"")

            def do_POST(self):
                self.answer("POST", self.rfile.read(int(self.headers.get("Content-Length") or 0)))

            def answer(self, method, body):
                url = urlparse(self.path)
                query = {k: v[0] for k, v in parse_qs(url.query).items()}
                form = {k: v[0] for k, v in parse_qs(body.decode()).items()}
                fake.seen.append((method, url.path, query, form, dict(self.headers)))
                route = fake.routes.get((method, url.path)) or (fake.authorize if (method, url.path) == fake.authorize_route else None)
                if route is None:
                    status, payload = 404, {"error": "not_found"}
                else:
                    status, payload = route(fake, self, query, form)
                if status == 302:
                    self.send_response(302)
                    self.send_header("Location", payload)
                    self.end_headers()
                    return
                data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/html" if isinstance(payload, str) else "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd, self.url = local_http_server(Handler)

    authorize_route = None

    @staticmethod
    def authorize(fake, handler, query, form):
        code = secrets.token_urlsafe(16)
        fake.codes[code] = (fake.user, query.get("nonce"), query["redirect_uri"], query["client_id"])
        fields = {"code": code, "state": query["state"]}
        if not fake.form_post:
            return 302, query["redirect_uri"] + "?" + urlencode(fields)
        fields["user"] = json.dumps({"name": {"firstName": fake.user["first"], "lastName": fake.user["last"]},
                                     "email": "forged@example.com"})
        inputs = "".join(f'<input type="hidden" name="{k}" value="{html.escape(v)}">' for k, v in fields.items())
        return 200, f'<form method="post" action="{html.escape(query["redirect_uri"])}">{inputs}</form>'

    def redeem(self, code, client_id, redirect_uri):
        user, nonce, expected_redirect, expected_client = self.codes.pop(code)
        assert (client_id, redirect_uri) == (expected_client, expected_redirect)
        access = secrets.token_urlsafe(24)
        self.tokens[access] = user
        return user, nonce, access

    def bearer(self, handler):
        header = handler.headers.get("Authorization", "")
        assert header.startswith("Bearer "), header
        return self.tokens[header[len("Bearer "):]]

    def stop(self):
        self.httpd.shutdown()


ID_TOKEN_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)


def id_token(issuer, audience, claims):
    now = int(time.time())
    return jwt.encode({"iss": issuer, "aud": audience, "iat": now, "exp": now + 3600, **claims}, ID_TOKEN_KEY,
                      algorithm="RS256", headers={"kid": "fake-1"})


# --- Facebook: Graph API ---------------------------------------------------------------------

def facebook_token(fake, handler, query, form):
    assert query["client_secret"] == "fb-secret"
    _, _, access = fake.redeem(query["code"], query["client_id"], query["redirect_uri"])
    return 200, {"access_token": access, "token_type": "bearer", "expires_in": 5183944}


def facebook_me(fake, handler, query, form):
    user = fake.bearer(handler)
    profile = {"id": user["id"], "email": user["email"], "name": user["name"], "first_name": user["first"]}
    return 200, {field: profile[field] for field in query["fields"].split(",") if field in profile}


def facebook():
    fake = FakeProvider({("GET", "/v17.0/oauth/access_token"): facebook_token, ("GET", "/v17.0/me"): facebook_me})
    fake.authorize_route = ("GET", "/v17.0/dialog/oauth")
    return fake


# --- Google: OAuth 2.0 token endpoint with an ID token, People API ------------------------------

def google_token(fake, handler, query, form):
    assert form["grant_type"] == "authorization_code" and form["client_secret"] == "google-secret"
    user, nonce, access = fake.redeem(form["code"], form["client_id"], form["redirect_uri"])
    token = id_token("https://accounts.google.com", getattr(fake, "audience", None) or form["client_id"], {
        "sub": user["sub"], "email": user["email"], "email_verified": True, "name": user["name"], "nonce": nonce})
    return 200, {"access_token": access, "expires_in": 3599, "token_type": "Bearer", "scope": "openid email profile",
                 "id_token": token}


def google_people(fake, handler, query, form):
    user = fake.bearer(handler)
    fields = query["personFields"].split(",")
    answer = {"resourceName": f"people/{user['sub']}", "etag": "%EgUBAi43PRoEAQIFByIMR1ZzT0E="}
    if "phoneNumbers" in fields:
        answer["phoneNumbers"] = [{"metadata": {"primary": True}, "value": user["phone"], "type": "mobile"}]
    return 200, answer


def google():
    fake = FakeProvider({("POST", "/oauth2/v4/token"): google_token, ("GET", "/v1/people/me"): google_people})
    fake.authorize_route = ("GET", "/o/oauth2/v2/auth")
    return fake


# --- Login with Amazon -------------------------------------------------------------------------

def amazon_token(fake, handler, query, form):
    assert form["grant_type"] == "authorization_code" and form["client_secret"] == "amzn-secret"
    _, _, access = fake.redeem(form["code"], form["client_id"], form["redirect_uri"])
    return 200, {"access_token": access, "refresh_token": "Atzr|x", "token_type": "bearer", "expires_in": 3600}


def amazon_profile(fake, handler, query, form):
    user = fake.bearer(handler)
    return 200, {"user_id": user["user_id"], "name": user["name"], "email": user["email"], "postal_code": "98101"}


def amazon():
    fake = FakeProvider({("POST", "/auth/o2/token"): amazon_token, ("GET", "/user/profile"): amazon_profile})
    fake.authorize_route = ("GET", "/ap/oa")
    return fake


# --- Sign in with Apple ------------------------------------------------------------------------

APPLE_KEY = ec.generate_private_key(ec.SECP256R1())
APPLE_PEM = APPLE_KEY.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption()).decode()


def apple_token(fake, handler, query, form):
    """Apple checks the client secret: ES256 by the registered key (kid), from the team, for this app."""
    secret = form["client_secret"]
    header = jwt.get_unverified_header(secret)
    assert header["alg"] == "ES256" and header["kid"] == KEY_ID, header
    claims = jwt.decode(secret, APPLE_KEY.public_key(), algorithms=["ES256"], audience="https://appleid.apple.com",
                        issuer=TEAM_ID, options={"require": ["iat", "exp", "sub"]})
    assert claims["sub"] == form["client_id"] and claims["exp"] - claims["iat"] <= 15777000
    fake.secrets_checked += 1
    user, nonce, access = fake.redeem(form["code"], form["client_id"], form["redirect_uri"])
    token = id_token("https://appleid.apple.com", form["client_id"], {
        "sub": user["sub"], "email": user["email"], "email_verified": "true", "is_private_email": "false",
        "auth_time": int(time.time()), "nonce_supported": True, "nonce": nonce})
    return 200, {"access_token": access, "token_type": "Bearer", "expires_in": 3600, "refresh_token": "r.x",
                 "id_token": token}


def apple():
    fake = FakeProvider({("POST", "/auth/token"): apple_token})
    fake.authorize_route = ("GET", "/auth/authorize")
    fake.form_post = True
    fake.secrets_checked = 0
    return fake


@pytest.fixture(scope="module")
def fakes():
    made = {"Facebook": facebook(), "Google": google(), "LoginWithAmazon": amazon(), "SignInWithApple": apple()}
    yield made
    for fake in made.values():
        fake.stop()


@pytest.fixture(scope="module")
def server(fakes):
    # Facebook's two hosts by name; Google's API hosts and api.amazon.com fall back to the
    # name identity pools use (accounts.google.com, www.amazon.com).
    urls = ",".join(f"{name}={fakes[kind].url}" for name, kind in (
        ("graph.facebook.com", "Facebook"), ("www.facebook.com", "Facebook"), ("accounts.google.com", "Google"),
        ("www.amazon.com", "LoginWithAmazon"), ("appleid.apple.com", "SignInWithApple")))
    with tempfile.TemporaryDirectory(prefix="cognate-compat-") as workdir:
        s = CognateServer(workdir, extra_args=["--identity-provider-urls", urls]).start()
        yield s
        alive = s.process.poll() is None
        s.stop()
        assert alive, f"cognate died during the module:\n{s.log_path.read_text()[-4000:]}"
        assert not s.faults(), "cognate logged server faults:\n" + "\n".join(s.faults()[:20])


@pytest.fixture(scope="module")
def idp(server):
    return server.client()


def social_pool(idp, kind, details, mapping):
    pool = idp.create_user_pool(PoolName=unique("social"))["UserPool"]
    idp.create_identity_provider(UserPoolId=pool["Id"], ProviderName=kind, ProviderType=kind, ProviderDetails=details,
                                 AttributeMapping=mapping)
    client = idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="web", GenerateSecret=True, CallbackURLs=[CALLBACK],
        AllowedOAuthFlows=["code"], AllowedOAuthScopes=["openid", "email", "profile"],
        AllowedOAuthFlowsUserPoolClient=True, SupportedIdentityProviders=[kind])["UserPoolClient"]
    return pool, client


def begin(server, app, kind):
    """The browser from the app's authorize URL to the provider (redirects followed by hand, so
    each hop is seen); returns (browser, the provider's answer, PKCE verifier)."""
    verifier = secrets.token_urlsafe(48)
    uri, _ = authorize(server, app, verifier, identity_provider=kind)
    browser = requests.Session()
    answer = browser.get(uri, allow_redirects=False, timeout=10)
    while answer.status_code == 302 and not answer.headers["Location"].startswith(server.endpoint + "/oauth2/idpresponse"):
        answer = browser.get(urljoin(answer.url, answer.headers["Location"]), allow_redirects=False, timeout=10)
    return browser, answer, verifier


def sign_in_through(server, app, kind):
    """A redirecting provider: returns (the app's callback URL, verifier)."""
    browser, answer, verifier = begin(server, app, kind)
    assert answer.status_code == 302, answer.text[:300]
    back = browser.get(answer.headers["Location"], allow_redirects=False, timeout=10)
    assert back.status_code == 302 and back.headers["Location"].startswith(CALLBACK + "?code="), back.text[:300]
    return back.headers["Location"], verifier


def tokens(server, app, pool, client, location, verifier):
    token = app.fetch_token(server.endpoint + "/oauth2/token", authorization_response=location, code_verifier=verifier)
    return verify_token(server, pool["Id"], token["id_token"], "id", client["ClientId"])


def test_facebook_through_the_graph_api(server, idp, fakes):
    fake = fakes["Facebook"]
    details = {"client_id": "1example23456789", "client_secret": "fb-secret", "authorize_scopes": "public_profile, email",
               "api_version": "v17.0"}
    pool, client = social_pool(idp, "Facebook", details, {"email": "email", "name": "name"})
    described = idp.describe_identity_provider(UserPoolId=pool["Id"], ProviderName="Facebook")["IdentityProvider"]
    assert described["ProviderDetails"] == {
        **details, "attributes_url": "https://graph.facebook.com/v17.0/me?fields=", "attributes_url_add_attributes": "true",
        "authorize_url": "https://www.facebook.com/v17.0/dialog/oauth", "token_request_method": "GET",
        "token_url": "https://graph.facebook.com/v17.0/oauth/access_token"}
    assert described["AttributeMapping"] == {"email": "email", "name": "name", "username": "id"}

    fake.user = {"id": "10203040506070809", "email": "fb@example.com", "name": "Frieda Book", "first": "Frieda"}
    app = app_session(server, client, scope="openid email profile")
    location, verifier = sign_in_through(server, app, "Facebook")
    claims = tokens(server, app, pool, client, location, verifier)
    assert claims["cognito:username"] == "Facebook_10203040506070809"
    assert claims["email"] == "fb@example.com" and claims["name"] == "Frieda Book"
    assert claims["identities"][0]["providerType"] == "Facebook" and claims["identities"][0]["userId"] == "10203040506070809"

    authorized = next(q for m, p, q, f, h in fake.seen if p == "/v17.0/dialog/oauth")
    assert authorized["scope"] == "public_profile, email" and authorized["redirect_uri"] == server.endpoint + "/oauth2/idpresponse"
    me = [q for m, p, q, f, h in fake.seen if p == "/v17.0/me"][-1]
    assert me["fields"].split(",") == ["email", "id", "name"]


def test_google_id_token_and_people_api(server, idp, fakes):
    fake = fakes["Google"]
    details = {"client_id": "1example23456789.apps.googleusercontent.com", "client_secret": "google-secret",
               "authorize_scopes": "email profile openid"}
    pool, client = social_pool(idp, "Google", details,
                               {"email": "email", "email_verified": "email_verified", "phone_number": "phoneNumbers"})
    described = idp.describe_identity_provider(UserPoolId=pool["Id"], ProviderName="Google")["IdentityProvider"]
    assert described["ProviderDetails"] == {
        **details, "attributes_url": "https://people.googleapis.com/v1/people/me?personFields=",
        "attributes_url_add_attributes": "true", "authorize_url": "https://accounts.google.com/o/oauth2/v2/auth",
        "oidc_issuer": "https://accounts.google.com", "token_request_method": "POST",
        "token_url": "https://www.googleapis.com/oauth2/v4/token"}
    assert described["AttributeMapping"]["username"] == "sub"

    fake.user = {"sub": "110169484474386276334", "email": "g@example.com", "name": "Gus Gle", "phone": "+15555550100"}
    app = app_session(server, client, scope="openid email profile")
    location, verifier = sign_in_through(server, app, "Google")
    claims = tokens(server, app, pool, client, location, verifier)
    assert claims["cognito:username"] == "Google_110169484474386276334"
    assert claims["email"] == "g@example.com" and claims["email_verified"] is True
    assert claims["phone_number"] == "+15555550100"
    people = [q for m, p, q, f, h in fake.seen if p == "/v1/people/me"][-1]
    assert people["personFields"] == "phoneNumbers"   # what the ID token lacks

    # An ID token issued to another client signs no one in.
    fake.audience = "another-client.apps.googleusercontent.com"
    try:
        browser, answer, verifier = begin(server, app, "Google")
        back = browser.get(answer.headers["Location"], allow_redirects=False, timeout=10)
    finally:
        fake.audience = None
    assert back.status_code == 302 and back.headers["Location"].startswith(CALLBACK + "?error=server_error")


def test_login_with_amazon_profile(server, idp, fakes):
    fake = fakes["LoginWithAmazon"]
    details = {"client_id": "amzn1.application-oa2-client.1example23456789", "client_secret": "amzn-secret",
               "authorize_scopes": "profile postal_code"}
    pool, client = social_pool(idp, "LoginWithAmazon", details, {"email": "email", "name": "name"})
    described = idp.describe_identity_provider(UserPoolId=pool["Id"], ProviderName="LoginWithAmazon")["IdentityProvider"]
    assert described["ProviderDetails"] == {
        **details, "attributes_url": "https://api.amazon.com/user/profile", "attributes_url_add_attributes": "false",
        "authorize_url": "https://www.amazon.com/ap/oa", "token_request_method": "POST",
        "token_url": "https://api.amazon.com/auth/o2/token"}
    assert described["AttributeMapping"]["username"] == "user_id"

    fake.user = {"user_id": "amzn1.account.AEXAMPLE123", "email": "a@example.com", "name": "Ama Zon"}
    app = app_session(server, client, scope="openid email profile")
    location, verifier = sign_in_through(server, app, "LoginWithAmazon")
    claims = tokens(server, app, pool, client, location, verifier)
    assert claims["cognito:username"] == "LoginWithAmazon_amzn1.account.AEXAMPLE123"
    assert claims["email"] == "a@example.com" and claims["name"] == "Ama Zon"
    profile = [h for m, p, q, f, h in fake.seen if p == "/user/profile"][-1]
    assert profile["Authorization"].startswith("Bearer ")


def test_sign_in_with_apple_form_post_and_client_secret(server, idp, fakes):
    fake = fakes["SignInWithApple"]
    details = {"client_id": "com.example.cognito", "team_id": TEAM_ID, "key_id": KEY_ID, "private_key": APPLE_PEM,
               "authorize_scopes": "email name"}
    pool, client = social_pool(idp, "SignInWithApple", details,
                               {"email": "email", "email_verified": "email_verified", "name": "name",
                                "given_name": "firstName", "family_name": "lastName"})
    described = idp.describe_identity_provider(UserPoolId=pool["Id"], ProviderName="SignInWithApple")["IdentityProvider"]
    shown = {k: v for k, v in details.items() if k != "private_key"}   # Cognito never shows the key
    assert described["ProviderDetails"] == {
        **shown, "attributes_url_add_attributes": "false", "authorize_url": "https://appleid.apple.com/auth/authorize",
        "oidc_issuer": "https://appleid.apple.com", "token_request_method": "POST",
        "token_url": "https://appleid.apple.com/auth/token"}

    fake.user = {"sub": "001234.abcdef0123456789.0042", "email": "x7@privaterelay.appleid.com", "first": "Ada",
                 "last": "Apple"}
    app = app_session(server, client, scope="openid email profile")
    browser, page, verifier = begin(server, app, "SignInWithApple")
    assert page.status_code == 200 and "<form" in page.text, page.text[:300]
    authorized = next(q for m, p, q, f, h in fake.seen if p == "/auth/authorize")
    assert authorized["response_mode"] == "form_post" and authorized["scope"] == "email name"
    action = html.unescape(re.search(r'action="([^"]+)"', page.text).group(1))
    fields = {name: html.unescape(value) for name, value in re.findall(r'name="(\w+)" value="([^"]*)"', page.text)}
    assert action == server.endpoint + "/oauth2/idpresponse"

    # Apple's page posts cross-site: no SameSite=Lax cookie comes along. The server only relays
    # the answer to a same-site GET (303), which the browser makes with its cookie.
    posted = requests.post(action, data=fields, allow_redirects=False, timeout=10)
    assert posted.status_code == 303 and "Set-Cookie" not in posted.headers
    relay = urljoin(action, posted.headers["Location"])
    assert urlparse(relay).path == "/oauth2/idpresponse" and parse_qs(urlparse(relay).query)["code"] == [fields["code"]]
    # Another browser following the relay completes nothing (and leaves the flow to its owner).
    elsewhere = requests.get(relay, allow_redirects=False, timeout=10)
    assert elsewhere.status_code == 400 and "another browser" in elsewhere.text
    assert fake.secrets_checked == 0
    back = browser.get(relay, allow_redirects=False, timeout=10)
    assert back.status_code == 302 and back.headers["Location"].startswith(CALLBACK + "?code="), back.text[:300]
    assert fake.secrets_checked == 1

    claims = tokens(server, app, pool, client, back.headers["Location"], verifier)
    assert claims["cognito:username"] == "SignInWithApple_001234.abcdef0123456789.0042"
    assert claims["email"] == "x7@privaterelay.appleid.com" and claims["email_verified"] is True
    assert claims["given_name"] == "Ada" and claims["family_name"] == "Apple" and claims["name"] == "Ada Apple"

    # Describe → update (without the key, which is never shown) keeps the key: a second sign-in works.
    idp.update_identity_provider(UserPoolId=pool["Id"], ProviderName="SignInWithApple",
                                 ProviderDetails={**described["ProviderDetails"], "authorize_scopes": "email name"})
    browser, page, verifier = begin(server, app, "SignInWithApple")
    fields = {name: html.unescape(value) for name, value in re.findall(r'name="(\w+)" value="([^"]*)"', page.text)}
    posted = requests.post(action, data=fields, allow_redirects=False, timeout=10)
    back = browser.get(urljoin(action, posted.headers["Location"]), allow_redirects=False, timeout=10)
    assert back.status_code == 302 and back.headers["Location"].startswith(CALLBACK + "?code="), back.text[:300]


def test_social_providers_are_checked_as_cognito_checks_them(server, idp):
    pool = idp.create_user_pool(PoolName=unique("social"))["UserPool"]
    with cognito_error("InvalidParameterException", "client_id, client_secret and authorize_scopes are all required idp details"):
        idp.create_identity_provider(UserPoolId=pool["Id"], ProviderName="Google", ProviderType="Google",
                                     ProviderDetails={"client_id": "x", "authorize_scopes": "openid"})
    with cognito_error("InvalidParameterException",
                       "client_id, team_id, key_id, private_key and authorize_scopes are all required idp details"):
        idp.create_identity_provider(UserPoolId=pool["Id"], ProviderName="SignInWithApple", ProviderType="SignInWithApple",
                                     ProviderDetails={"client_id": "x", "team_id": TEAM_ID, "key_id": KEY_ID,
                                                      "authorize_scopes": "email"})
    with cognito_error("InvalidParameterException", "Provider MyGoogle cannot be of type Google."):
        idp.create_identity_provider(UserPoolId=pool["Id"], ProviderName="MyGoogle", ProviderType="Google",
                                     ProviderDetails={"client_id": "x", "client_secret": "y", "authorize_scopes": "openid"})
    # Cognito's endpoints win over any given.
    idp.create_identity_provider(UserPoolId=pool["Id"], ProviderName="LoginWithAmazon", ProviderType="LoginWithAmazon",
                                 ProviderDetails={"client_id": "x", "client_secret": "y", "authorize_scopes": "profile",
                                                  "token_url": "https://attacker.example/token"})
    details = idp.describe_identity_provider(UserPoolId=pool["Id"], ProviderName="LoginWithAmazon")["IdentityProvider"]["ProviderDetails"]
    assert details["token_url"] == "https://api.amazon.com/auth/o2/token"
    # Without api_version, Facebook's unversioned Graph API.
    idp.create_identity_provider(UserPoolId=pool["Id"], ProviderName="Facebook", ProviderType="Facebook",
                                 ProviderDetails={"client_id": "x", "client_secret": "y", "authorize_scopes": "email"})
    details = idp.describe_identity_provider(UserPoolId=pool["Id"], ProviderName="Facebook")["IdentityProvider"]["ProviderDetails"]
    assert details["token_url"] == "https://graph.facebook.com/oauth/access_token" and "api_version" not in details
