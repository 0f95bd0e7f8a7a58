"""Federation (issue 13): a second Cognate serves as the upstream OpenID Connect provider. Identity
provider operations through boto3, a federated sign-in through the hosted endpoints (the
provider's own sign-in page, its code exchanged server to server, an EXTERNAL_PROVIDER user with
`identities`), and identity linking (AdminLinkProviderForUser / AdminDisableProviderForUser)."""
import json
import re
import secrets
import tempfile
from urllib.parse import parse_qs, urlparse

import pytest
import requests

from conftest import CognateServer
from helpers import (PASSWORD, QuietHandler, cognito_error, confirmed_user, local_http_server, password_auth, secret_hash,
                     unique, verify_token)
from test_oauth import CALLBACK, app_session, authorize, flow_of


@pytest.fixture(scope="module")
def upstream():
    """The upstream provider: another Cognate server, with a pool whose client sends users back
    to the main server's /oauth2/idpresponse."""
    with tempfile.TemporaryDirectory(prefix="cognate-upstream-") as workdir:
        provider = CognateServer(workdir).start()
        yield provider
        provider.stop()


def upstream_pool(server, upstream):
    idp = upstream.client()
    pool = idp.create_user_pool(PoolName=unique("upstream"), AutoVerifiedAttributes=["email"])["UserPool"]
    client = idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="federation", GenerateSecret=True,
        CallbackURLs=[server.endpoint + "/oauth2/idpresponse"], AllowedOAuthFlows=["code"],
        AllowedOAuthScopes=["openid", "email", "profile"], AllowedOAuthFlowsUserPoolClient=True,
        SupportedIdentityProviders=["COGNITO"])["UserPoolClient"]
    return idp, pool, client


def upstream_user(upstream, idp, pool, client):
    username, email, sub = confirmed_user(upstream, idp, pool, client, secret=client["ClientSecret"])
    return username, email, sub


def federated_pool(idp, upstream, upstream_pool_id, upstream_client, scopes=("openid", "email", "profile")):
    pool = idp.create_user_pool(PoolName=unique("federated"), AutoVerifiedAttributes=["email"])["UserPool"]
    idp.create_identity_provider(
        UserPoolId=pool["Id"], ProviderName="Upstream", ProviderType="OIDC", IdpIdentifiers=["upstream.example"],
        ProviderDetails={"client_id": upstream_client["ClientId"], "client_secret": upstream_client["ClientSecret"],
                         "authorize_scopes": "openid email profile", "attributes_request_method": "GET",
                         "oidc_issuer": f"{upstream.endpoint}/{upstream_pool_id}"},
        AttributeMapping={"email": "email", "email_verified": "email_verified"})
    client = idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="web", GenerateSecret=True, CallbackURLs=[CALLBACK],
        AllowedOAuthFlows=["code"], AllowedOAuthScopes=list(scopes),
        AllowedOAuthFlowsUserPoolClient=True, SupportedIdentityProviders=["COGNITO", "Upstream"],
        ExplicitAuthFlows=["ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"])["UserPoolClient"]
    return pool, client


def federated_sign_in(server, upstream, app, username, password=PASSWORD):
    """The browser's trip: the app's authorize URL with identity_provider → the provider's sign-in
    page → back to /oauth2/idpresponse → back to the app. Returns (the app's redirect, verifier)."""
    verifier = secrets.token_urlsafe(48)
    uri, _ = authorize(server, app, verifier, identity_provider="Upstream")
    browser = requests.Session()
    page = browser.get(uri, timeout=10)
    assert page.status_code == 200 and page.url.startswith(upstream.endpoint + "/login?"), (page.url, page.text[:300])
    answered = browser.post(upstream.endpoint + "/login", allow_redirects=False, timeout=10,
                            data={"flow": flow_of(page), "username": username, "password": password})
    assert answered.status_code == 302 and answered.headers["Location"].startswith(server.endpoint + "/oauth2/idpresponse?")
    back = browser.get(answered.headers["Location"], allow_redirects=False, timeout=10)
    assert back.status_code == 302, back.text
    return back.headers["Location"], verifier


def test_a_federated_sign_in_creates_an_external_user_with_its_identity(server, idp, upstream):
    up_idp, up_pool, up_client = upstream_pool(server, upstream)
    up_name, up_email, up_sub = upstream_user(upstream, up_idp, up_pool, up_client)
    pool, client = federated_pool(idp, upstream, up_pool["Id"], up_client)
    app = app_session(server, client, scope="openid email profile")

    location, verifier = federated_sign_in(server, upstream, app, up_name)
    assert location.startswith(CALLBACK + "?code=")
    token = app.fetch_token(server.endpoint + "/oauth2/token", authorization_response=location, code_verifier=verifier)
    claims = verify_token(server, pool["Id"], token["id_token"], "id", client["ClientId"])
    assert claims["cognito:username"] == f"Upstream_{up_sub}" and claims["email"] == up_email
    assert claims["identities"][0]["providerName"] == "Upstream" and claims["identities"][0]["userId"] == up_sub
    user = idp.admin_get_user(UserPoolId=pool["Id"], Username=f"Upstream_{up_sub}")
    assert user["UserStatus"] == "EXTERNAL_PROVIDER"
    assert [a["Value"] for a in user["UserAttributes"] if a["Name"] == "sub"] == [claims["sub"]]

    # The next sign-in is the same user.
    location, verifier = federated_sign_in(server, upstream, app, up_name)
    again = app.fetch_token(server.endpoint + "/oauth2/token", authorization_response=location, code_verifier=verifier)
    assert verify_token(server, pool["Id"], again["id_token"], "id", client["ClientId"])["sub"] == claims["sub"]

    # A provider user who already signed in cannot be merged into another user.
    native = idp.admin_create_user(UserPoolId=pool["Id"], Username=unique("native"), MessageAction="SUPPRESS")
    with cognito_error("InvalidParameterException", contains="Merging is not currently supported"):
        idp.admin_link_provider_for_user(
            UserPoolId=pool["Id"], DestinationUser={"ProviderName": "Cognito", "ProviderAttributeValue": native["User"]["Username"]},
            SourceUser={"ProviderName": "Upstream", "ProviderAttributeName": "Cognito_Subject", "ProviderAttributeValue": up_sub})


def test_a_federated_user_cannot_be_given_a_password(server, idp, upstream):
    """The identity provider vouches for a federated user. A password set with one of their
    access tokens (ChangePassword asks for no previous one when there is none) or through
    recovery would let its holder sign in without the provider, for good: both are refused."""
    up_idp, up_pool, up_client = upstream_pool(server, upstream)
    up_name, up_email, up_sub = upstream_user(upstream, up_idp, up_pool, up_client)
    pool, client = federated_pool(idp, upstream, up_pool["Id"], up_client,
                                  scopes=("openid", "email", "profile", "aws.cognito.signin.user.admin"))
    app = app_session(server, client, scope="openid email profile aws.cognito.signin.user.admin")
    location, verifier = federated_sign_in(server, upstream, app, up_name)
    token = app.fetch_token(server.endpoint + "/oauth2/token", authorization_response=location, code_verifier=verifier)
    name = f"Upstream_{up_sub}"

    with cognito_error("NotAuthorizedException", "A user of an external identity provider cannot have a password."):
        idp.change_password(AccessToken=token["access_token"], ProposedPassword="Attacker-Pw1!")
    with cognito_error("NotAuthorizedException", "User password cannot be reset in the current state."):
        idp.forgot_password(ClientId=client["ClientId"], Username=name,
                            SecretHash=secret_hash(name, client["ClientId"], client["ClientSecret"]))
    assert not [m for m in server.outbox(pool["Id"]) if m.get("destination") == up_email]
    with cognito_error("NotAuthorizedException"):
        password_auth(idp, client, name, "Attacker-Pw1!", secret=client["ClientSecret"])
    assert idp.admin_get_user(UserPoolId=pool["Id"], Username=name)["UserStatus"] == "EXTERNAL_PROVIDER"


def test_a_linked_provider_user_signs_in_as_the_existing_user(server, idp, upstream):
    up_idp, up_pool, up_client = upstream_pool(server, upstream)
    up_name, _, up_sub = upstream_user(upstream, up_idp, up_pool, up_client)
    pool, client = federated_pool(idp, upstream, up_pool["Id"], up_client)
    native, _, native_sub = confirmed_user(server, idp, pool, client, secret=client["ClientSecret"])
    idp.admin_link_provider_for_user(
        UserPoolId=pool["Id"], DestinationUser={"ProviderName": "Cognito", "ProviderAttributeValue": native},
        SourceUser={"ProviderName": "Upstream", "ProviderAttributeName": "Cognito_Subject", "ProviderAttributeValue": up_sub})
    identities = {a["Name"]: a["Value"] for a in idp.admin_get_user(UserPoolId=pool["Id"], Username=native)["UserAttributes"]}
    assert '"providerName":"Upstream"' in identities["identities"]

    app = app_session(server, client, scope="openid email profile")
    location, verifier = federated_sign_in(server, upstream, app, up_name)
    token = app.fetch_token(server.endpoint + "/oauth2/token", authorization_response=location, code_verifier=verifier)
    claims = verify_token(server, pool["Id"], token["id_token"], "id", client["ClientId"])
    assert claims["sub"] == native_sub and claims["cognito:username"] == native

    # Unlinked, the provider's user is a federated user of its own again.
    idp.admin_disable_provider_for_user(UserPoolId=pool["Id"], User={
        "ProviderName": "Upstream", "ProviderAttributeName": "Cognito_Subject", "ProviderAttributeValue": up_sub})
    location, verifier = federated_sign_in(server, upstream, app, up_name)
    token = app.fetch_token(server.endpoint + "/oauth2/token", authorization_response=location, code_verifier=verifier)
    assert verify_token(server, pool["Id"], token["id_token"], "id", client["ClientId"])["sub"] != native_sub


def test_identity_provider_operations_and_refusals(server, idp, upstream):
    up_idp, up_pool, up_client = upstream_pool(server, upstream)
    pool, client = federated_pool(idp, upstream, up_pool["Id"], up_client)
    described = idp.describe_identity_provider(UserPoolId=pool["Id"], ProviderName="Upstream")["IdentityProvider"]
    assert described["ProviderType"] == "OIDC" and described["AttributeMapping"]["email"] == "email"
    assert idp.get_identity_provider_by_identifier(UserPoolId=pool["Id"], IdpIdentifier="upstream.example")[
        "IdentityProvider"]["ProviderName"] == "Upstream"
    assert [p["ProviderName"] for p in idp.list_identity_providers(UserPoolId=pool["Id"])["Providers"]] == ["Upstream"]
    with cognito_error("DuplicateProviderException"):
        idp.create_identity_provider(UserPoolId=pool["Id"], ProviderName="Upstream", ProviderType="OIDC",
                                     ProviderDetails=described["ProviderDetails"])
    with cognito_error("InvalidParameterException", contains="authorize_scopes"):
        idp.create_identity_provider(UserPoolId=pool["Id"], ProviderName="Other", ProviderType="OIDC",
                                     ProviderDetails={"client_id": "x", "oidc_issuer": "https://issuer.example"})
    updated = idp.update_identity_provider(UserPoolId=pool["Id"], ProviderName="Upstream",
                                           AttributeMapping={"email": "email", "name": "name"})["IdentityProvider"]
    assert updated["AttributeMapping"] == {"email": "email", "name": "name"}

    # A provider the client does not offer goes back to the app as an error; so does a refusal upstream.
    app = app_session(server, client, scope="openid email")
    refused = requests.get(server.endpoint + "/oauth2/authorize", allow_redirects=False, timeout=10, params={
        "client_id": client["ClientId"], "redirect_uri": CALLBACK, "response_type": "code", "identity_provider": "Nope",
        "state": "s1"})
    assert parse_qs(urlparse(refused.headers["Location"]).query)["error"] == ["unauthorized_client"]
    uri, _ = authorize(server, app, secrets.token_urlsafe(48), identity_provider="Upstream")
    browser = requests.Session()
    to_provider = browser.get(server.endpoint + "/login?" + urlparse(uri).query, allow_redirects=False, timeout=10)
    flow = parse_qs(urlparse(to_provider.headers["Location"]).query)["state"][0]
    denied = browser.get(server.endpoint + "/oauth2/idpresponse", params={"error": "access_denied", "state": flow},
                         allow_redirects=False, timeout=10)
    assert parse_qs(urlparse(denied.headers["Location"]).query)["error"] == ["access_denied"]
    replay = browser.get(server.endpoint + "/oauth2/idpresponse", params={"code": "x", "state": flow},
                         allow_redirects=False, timeout=10)
    assert replay.status_code == 400 and "Location" not in replay.headers

    idp.delete_identity_provider(UserPoolId=pool["Id"], ProviderName="Upstream")
    with cognito_error("ResourceNotFoundException"):
        idp.describe_identity_provider(UserPoolId=pool["Id"], ProviderName="Upstream")


class DiscoveryProvider:
    """An OpenID provider that serves only its discovery document (with `cache_control`, when
    set) and counts how often it was fetched."""

    def __init__(self, cache_control=None):
        self.fetches = 0
        provider = self

        class Handler(QuietHandler):
            def do_GET(self):
                provider.fetches += 1
                base = provider.url
                body = json.dumps({"issuer": base, "authorization_endpoint": base + "/authorize",
                                   "token_endpoint": base + "/token", "userinfo_endpoint": base + "/userinfo"}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                if cache_control:
                    self.send_header("Cache-Control", cache_control)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd, self.url = local_http_server(Handler)

    def stop(self):
        self.httpd.shutdown()


@pytest.mark.parametrize("cache_control", [None, "no-store", "public, max-age=5"])
def test_discovery_documents_are_fetched_once_per_provider(server, idp, cache_control):
    """Anonymous /login?identity_provider= requests made the server fetch the provider's
    discovery document every time. Now once per provider, kept as Cache-Control says but at
    least a minute (no-store, max-age=5) and 15 minutes without it; fetched again once the
    provider is updated, or deleted and created again."""
    provider = DiscoveryProvider(cache_control)
    try:
        pool = idp.create_user_pool(PoolName=unique("discovery"))["UserPool"]
        details = {"client_id": "upstream", "client_secret": "s", "authorize_scopes": "openid",
                   "oidc_issuer": provider.url}
        idp.create_identity_provider(UserPoolId=pool["Id"], ProviderName="Cached", ProviderType="OIDC",
                                     ProviderDetails=details)
        client = idp.create_user_pool_client(
            UserPoolId=pool["Id"], ClientName="web", CallbackURLs=[CALLBACK], AllowedOAuthFlows=["code"],
            AllowedOAuthScopes=["openid"], AllowedOAuthFlowsUserPoolClient=True,
            SupportedIdentityProviders=["Cached"])["UserPoolClient"]

        def login():
            answer = requests.get(server.endpoint + "/login", allow_redirects=False, timeout=10, params={
                "client_id": client["ClientId"], "redirect_uri": CALLBACK, "response_type": "code",
                "identity_provider": "Cached"})
            assert answer.status_code == 302 and answer.headers["Location"].startswith(provider.url + "/authorize?"), \
                (answer.status_code, answer.headers, answer.text[:300])

        for _ in range(25):
            login()
        assert provider.fetches == 1
        idp.update_identity_provider(UserPoolId=pool["Id"], ProviderName="Cached", AttributeMapping={"email": "email"})
        for _ in range(5):
            login()
        assert provider.fetches == 2
        idp.delete_identity_provider(UserPoolId=pool["Id"], ProviderName="Cached")
        idp.create_identity_provider(UserPoolId=pool["Id"], ProviderName="Cached", ProviderType="OIDC",
                                     ProviderDetails=details)
        login()
        assert provider.fetches == 3
    finally:
        provider.stop()


def test_attribute_mapping_takes_only_attributes_a_provider_may_set(server, idp):
    """Keys are pool attributes (standard or custom) other than sub and identities; username is
    Cognito's too. A mapping to identities, sub, cognito:… or a developer-only attribute would
    let a provider's claims rewrite what only the pool writes. Cognito's error names the keys."""
    pool = idp.create_user_pool(PoolName=unique("mapping"), Schema=[
        {"Name": "clinic", "AttributeDataType": "String"},
        {"Name": "secret", "AttributeDataType": "String", "DeveloperOnlyAttribute": True}])["UserPool"]
    details = {"client_id": "upstream", "client_secret": "s", "authorize_scopes": "openid",
               "oidc_issuer": "https://issuer.example"}
    for key in ["identities", "sub", "cognito:groups", "cognito:username", "dev:custom:secret", "custom:zen_groups",
                "favourite_colour"]:
        with cognito_error("InvalidParameterException", f"AttributeMapping contains invalid mapping: [{key}]"):
            idp.create_identity_provider(UserPoolId=pool["Id"], ProviderName="Mapped", ProviderType="OIDC",
                                         ProviderDetails=details, AttributeMapping={"email": "email", key: "claim"})
    with cognito_error("InvalidParameterException", "AttributeMapping contains invalid mapping: [identities, sub]"):
        idp.create_identity_provider(UserPoolId=pool["Id"], ProviderName="Mapped", ProviderType="OIDC",
                                     ProviderDetails=details, AttributeMapping={"sub": "sub", "identities": "x"})
    with cognito_error("ResourceNotFoundException"):
        idp.describe_identity_provider(UserPoolId=pool["Id"], ProviderName="Mapped")

    good = {"username": "sub", "email": "email", "email_verified": "email_verified", "custom:clinic": "clinic",
            "name": "name"}
    created = idp.create_identity_provider(UserPoolId=pool["Id"], ProviderName="Mapped", ProviderType="OIDC",
                                           ProviderDetails=details, AttributeMapping=good)["IdentityProvider"]
    assert created["AttributeMapping"] == good
    with cognito_error("InvalidParameterException", "AttributeMapping contains invalid mapping: [identities]"):
        idp.update_identity_provider(UserPoolId=pool["Id"], ProviderName="Mapped",
                                     AttributeMapping={"email": "email", "identities": "identities"})
    assert idp.describe_identity_provider(UserPoolId=pool["Id"], ProviderName="Mapped")[
        "IdentityProvider"]["AttributeMapping"] == good


def test_the_sign_in_page_offers_the_clients_providers_and_idp_identifier_picks_one(server, idp, upstream):
    """The hosted sign-in page lists the client's identity providers as "Continue with …"
    buttons leading to the provider; `idp_identifier` (one of a provider's IdpIdentifiers, in
    any case) goes to that provider without the page; an identifier no provider has is the
    app's error."""
    import html
    up_idp, up_pool, up_client = upstream_pool(server, upstream)
    pool, client = federated_pool(idp, upstream, up_pool["Id"], up_client)
    app = app_session(server, client, scope="openid email profile")
    uri, _ = authorize(server, app, secrets.token_urlsafe(48))
    browser = requests.Session()
    page = browser.get(uri, timeout=10)
    assert page.url.startswith(server.endpoint + "/login?") and "Continue with Upstream" in page.text
    link = re.search(r'class="idp-button[^"]*"[^>]*href="([^"]+)"', page.text).group(1)
    followed = browser.get(server.endpoint + html.unescape(link), allow_redirects=False, timeout=10)
    assert followed.status_code == 302 and followed.headers["Location"].startswith(f"{upstream.endpoint}/oauth2/authorize?")

    uri, _ = authorize(server, app, secrets.token_urlsafe(48), idp_identifier="UPSTREAM.example")
    landed = requests.get(uri, timeout=10)
    assert landed.url.startswith(upstream.endpoint + "/login?"), landed.url

    uri, _ = authorize(server, app, secrets.token_urlsafe(48), idp_identifier="elsewhere.example")
    refused = requests.get(uri, allow_redirects=False, timeout=10)
    assert refused.status_code == 302
    query = parse_qs(urlparse(refused.headers["Location"]).query)
    assert refused.headers["Location"].startswith(CALLBACK) and query["error"] == ["invalid_request"]

    # A client without providers shows no buttons.
    plain = idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="plain", GenerateSecret=True, CallbackURLs=[CALLBACK], AllowedOAuthFlows=["code"],
        AllowedOAuthScopes=["openid"], AllowedOAuthFlowsUserPoolClient=True, SupportedIdentityProviders=["COGNITO"])["UserPoolClient"]
    uri, _ = authorize(server, app_session(server, plain, scope="openid"), secrets.token_urlsafe(48))
    assert "Continue with" not in requests.get(uri, timeout=10).text
