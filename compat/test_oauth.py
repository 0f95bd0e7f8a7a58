"""OAuth 2.0 / OpenID Connect (issue 13, first part): domains and resource servers through boto3,
the hosted sign-in reached from /oauth2/authorize, and the token, userInfo, revocation and logout
endpoints driven by authlib as the app's OAuth client (code + PKCE, refresh, revoke, client
credentials), with the failures an attacker tries: foreign redirect URIs, wrong verifiers,
replayed codes, forged form posts."""
import re
import secrets
from urllib.parse import parse_qs, urlparse

import pyotp
import pytest
import requests
from authlib.integrations.requests_client import OAuth2Session
from authlib.oauth2.rfc7636 import create_s256_code_challenge

from helpers import (PASSWORD, cognito_error, confirmed_user, issuer, jwks, sign_in, unique, verify_token)
from test_mfa import next_code

CALLBACK = "http://localhost:8000/callback"
SIGNED_OUT = "http://localhost:8000/signed-out"


def oauth_pool(idp, **client_options):
    """A pool with a domain, a resource server `api` (read, write) and a web app client with a secret."""
    pool = idp.create_user_pool(PoolName=unique("oauth"), AutoVerifiedAttributes=["email"])["UserPool"]
    idp.create_user_pool_domain(UserPoolId=pool["Id"], Domain=unique("auth").lower())
    idp.create_resource_server(UserPoolId=pool["Id"], Identifier="api", Name="API", Scopes=[
        {"ScopeName": "read", "ScopeDescription": "read"}, {"ScopeName": "write", "ScopeDescription": "write"}])
    options = dict(
        GenerateSecret=True, CallbackURLs=[CALLBACK], LogoutURLs=[SIGNED_OUT], AllowedOAuthFlows=["code"],
        AllowedOAuthScopes=["openid", "email", "profile", "api/read"], AllowedOAuthFlowsUserPoolClient=True,
        SupportedIdentityProviders=["COGNITO"],
        ExplicitAuthFlows=["ALLOW_USER_SRP_AUTH", "ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"])
    options.update(client_options)
    client = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="web", **options)["UserPoolClient"]
    return pool, client


def app_session(server, client, scope="openid email api/read"):
    return OAuth2Session(client["ClientId"], client.get("ClientSecret"), scope=scope, redirect_uri=CALLBACK,
                         code_challenge_method="S256")


def flow_of(page):
    found = re.search(r'name="flow" value="([^"]+)"', page.text)
    assert found, page.text
    return found.group(1)


def hosted_sign_in(server, browser, authorize_url, username, password=PASSWORD):
    """Opens the authorization URL like a browser and signs in on the hosted page; returns the
    answer to the form (a redirect to the app when the sign-in is done)."""
    first = browser.get(authorize_url, timeout=10, allow_redirects=False)
    assert first.status_code == 302 and "/login?" in first.headers["Location"], (first.status_code, first.headers, first.text)
    page = browser.get(authorize_url, timeout=10)
    assert page.status_code == 200 and page.url.startswith(server.endpoint + "/login?"), (page.status_code, page.text)
    assert 'autocomplete="current-password"' in page.text
    return browser.post(server.endpoint + "/login", data={"flow": flow_of(page), "username": username, "password": password},
                        allow_redirects=False, timeout=10)


def authorize(server, session, verifier, **extra):
    uri, state = session.create_authorization_url(server.endpoint + "/oauth2/authorize", code_verifier=verifier, **extra)
    return uri, state


def test_code_flow_with_pkce_refresh_userinfo_and_revocation(server, idp):
    pool, client = oauth_pool(idp)
    username, email, sub = confirmed_user(server, idp, pool, client, secret=client["ClientSecret"])
    app = app_session(server, client)
    verifier = secrets.token_urlsafe(48)
    uri, state = authorize(server, app, verifier, nonce="n-0S6_WzA2Mj")
    answer = hosted_sign_in(server, requests.Session(), uri, username)
    assert answer.status_code == 302, answer.text
    location = answer.headers["Location"]
    assert location.startswith(CALLBACK + "?code=") and parse_qs(urlparse(location).query)["state"] == [state]

    token = app.fetch_token(server.endpoint + "/oauth2/token", authorization_response=location, code_verifier=verifier)
    assert token["token_type"] == "Bearer" and token["expires_in"] == 3600 and token["refresh_token"]
    claims = verify_token(server, pool["Id"], token["id_token"], "id", client["ClientId"])
    assert claims["sub"] == sub and claims["email"] == email and claims["nonce"] == "n-0S6_WzA2Mj"
    access = verify_token(server, pool["Id"], token["access_token"], "access", client["ClientId"])
    assert access["scope"] == "openid email api/read" and access["username"] == username

    info = app.get(server.endpoint + "/oauth2/userInfo").json()
    assert info["sub"] == sub and info["email"] == email and info["email_verified"] == "true" and info["username"] == username
    # The API's self-service operations need aws.cognito.signin.user.admin, which was not granted.
    with cognito_error("NotAuthorizedException", "Access Token does not have required scopes"):
        idp.get_user(AccessToken=token["access_token"])

    renewed = app.refresh_token(server.endpoint + "/oauth2/token")
    assert verify_token(server, pool["Id"], renewed["access_token"], "access", client["ClientId"])["scope"] == \
        "openid email api/read"
    assert app.revoke_token(server.endpoint + "/oauth2/revoke", token=token["refresh_token"],
                            token_type_hint="refresh_token").status_code == 200
    gone = requests.post(server.endpoint + "/oauth2/token", auth=(client["ClientId"], client["ClientSecret"]),
                         data={"grant_type": "refresh_token", "refresh_token": token["refresh_token"]}, timeout=10)
    assert gone.status_code == 400 and gone.json()["error"] == "invalid_grant"


def test_userinfo_releases_only_what_the_client_may_read(server, idp):
    """GetUser's and the ID token's rule: the client's ReadAttributes bound what userInfo
    releases, whatever the token's scopes."""
    pool, client = oauth_pool(idp, ReadAttributes=["email", "email_verified"])
    username, email, sub = confirmed_user(server, idp, pool, client, secret=client["ClientSecret"])
    idp.admin_update_user_attributes(UserPoolId=pool["Id"], Username=username,
                                     UserAttributes=[{"Name": "name", "Value": "Hidden Name"}])
    app = app_session(server, client, scope="openid email profile")
    verifier = secrets.token_urlsafe(48)
    uri, _ = authorize(server, app, verifier)
    answer = hosted_sign_in(server, requests.Session(), uri, username)
    app.fetch_token(server.endpoint + "/oauth2/token", authorization_response=answer.headers["Location"],
                    code_verifier=verifier)
    info = app.get(server.endpoint + "/oauth2/userInfo").json()
    assert info == {"sub": sub, "username": username, "email": email, "email_verified": "true"}, info

def test_codes_are_bound_to_their_verifier_client_and_single_use(server, idp):
    pool, client = oauth_pool(idp)
    username, _, _ = confirmed_user(server, idp, pool, client, secret=client["ClientSecret"])
    app = app_session(server, client)
    token_url = server.endpoint + "/oauth2/token"

    def fresh_code():
        verifier = secrets.token_urlsafe(48)
        uri, _ = authorize(server, app, verifier)
        location = hosted_sign_in(server, requests.Session(), uri, username).headers["Location"]
        return parse_qs(urlparse(location).query)["code"][0], verifier

    def exchange(code, verifier, auth=(client["ClientId"], client["ClientSecret"]), redirect_uri=CALLBACK):
        return requests.post(token_url, auth=auth, timeout=10, data={
            "grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri, "code_verifier": verifier})

    code, verifier = fresh_code()
    wrong = exchange(code, secrets.token_urlsafe(48))
    assert wrong.status_code == 400 and wrong.json()["error"] == "invalid_grant"
    assert exchange(code, verifier).json()["error"] == "invalid_grant"          # a failed exchange used it up

    code, verifier = fresh_code()
    assert exchange(code, verifier, redirect_uri=CALLBACK + "/other").json()["error"] == "invalid_grant"
    code, verifier = fresh_code()
    bad_secret = exchange(code, verifier, auth=(client["ClientId"], "not-the-secret"))
    assert bad_secret.status_code == 401 and bad_secret.json()["error"] == "invalid_client"
    ok = exchange(code, verifier)
    assert ok.status_code == 200 and "id_token" in ok.json() and ok.headers["Cache-Control"] == "no-store"
    replay = exchange(code, verifier)
    assert replay.status_code == 400 and replay.json()["error"] == "invalid_grant"
    # A code presented by another client of the pool is used up: it leaked.
    other = idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="other", GenerateSecret=True, CallbackURLs=[CALLBACK], AllowedOAuthFlows=["code"],
        AllowedOAuthScopes=["openid"], AllowedOAuthFlowsUserPoolClient=True,
        SupportedIdentityProviders=["COGNITO"])["UserPoolClient"]
    code, verifier = fresh_code()
    stolen = exchange(code, verifier, auth=(other["ClientId"], other["ClientSecret"]))
    assert stolen.status_code == 400 and stolen.json()["error"] == "invalid_grant"
    assert exchange(code, verifier).json()["error"] == "invalid_grant"
    unsupported = requests.post(token_url, auth=(client["ClientId"], client["ClientSecret"]), timeout=10,
                                data={"grant_type": "password", "username": username, "password": PASSWORD})
    assert unsupported.json()["error"] == "unsupported_grant_type"

    # A PKCE downgrade (RFC 9700 §4.8.2): the challenge stripped from the authorization request,
    # the verifier still sent to the token endpoint, is refused.
    plain = requests.get(server.endpoint + "/login", timeout=10, params={
        "client_id": client["ClientId"], "redirect_uri": CALLBACK, "response_type": "code", "scope": "openid"})
    browser = requests.Session()
    page = browser.get(plain.url, timeout=10)
    answer = browser.post(server.endpoint + "/login", allow_redirects=False, timeout=10,
                          data={"flow": flow_of(page), "username": username, "password": PASSWORD})
    code = parse_qs(urlparse(answer.headers["Location"]).query)["code"][0]
    downgraded = exchange(code, secrets.token_urlsafe(48))
    assert downgraded.status_code == 400 and downgraded.json()["error"] == "invalid_grant"
    assert "code_verifier is not expected" in downgraded.json()["error_description"]


def test_foreign_redirects_get_an_error_page_and_other_errors_go_back_to_the_app(server, idp):
    pool, client = oauth_pool(idp)
    base = server.endpoint + "/oauth2/authorize"
    common = {"client_id": client["ClientId"], "response_type": "code", "state": "xyz"}
    for params in ({**common, "redirect_uri": "https://evil.example/callback"},
                   {**common, "redirect_uri": CALLBACK + "/../evil"},
                   {**common, "client_id": "nope", "redirect_uri": CALLBACK}):
        page = requests.get(base, params=params, allow_redirects=False, timeout=10)
        assert page.status_code == 400 and "Location" not in page.headers, params
        assert page.headers["Content-Type"].startswith("text/html") and "role=\"alert\"" in page.text
    refused = requests.get(base, params={**common, "redirect_uri": CALLBACK, "scope": "openid api/write"},
                           allow_redirects=False, timeout=10)
    assert refused.status_code == 302
    query = parse_qs(urlparse(refused.headers["Location"]).query)
    assert query["error"] == ["invalid_scope"] and query["state"] == ["xyz"]
    plain = requests.get(base, params={**common, "redirect_uri": CALLBACK, "code_challenge": "a" * 43,
                                       "code_challenge_method": "plain"}, allow_redirects=False, timeout=10)
    assert parse_qs(urlparse(plain.headers["Location"]).query)["error"] == ["invalid_request"]
    implicit = requests.get(base, params={**common, "redirect_uri": CALLBACK, "response_type": "token"},
                            allow_redirects=False, timeout=10)
    assert parse_qs(urlparse(implicit.headers["Location"]).query)["error"] == ["unauthorized_client"]


def test_the_hosted_page_shows_errors_resists_forged_posts_and_asks_for_mfa(server, idp):
    pool, client = oauth_pool(idp)
    idp.set_user_pool_mfa_config(UserPoolId=pool["Id"], SoftwareTokenMfaConfiguration={"Enabled": True},
                                 MfaConfiguration="OPTIONAL")
    username, _, _ = confirmed_user(server, idp, pool, client, secret=client["ClientSecret"])
    app = app_session(server, client)
    verifier = secrets.token_urlsafe(48)
    uri, _ = authorize(server, app, verifier)

    browser = requests.Session()
    wrong = hosted_sign_in(server, browser, uri, username, password="Wrong-passw0rd")
    assert wrong.status_code == 200 and "Incorrect username or password." in wrong.text
    assert f'value="{username}"' in wrong.text                    # the name stays filled in
    # A post from another site carries no flow cookie: refused.
    forged = requests.post(server.endpoint + "/login", data={"flow": flow_of(wrong), "username": username,
                                                             "password": PASSWORD}, allow_redirects=False, timeout=10)
    assert forged.status_code == 403
    # A flow is used once.
    browser.post(server.endpoint + "/login", data={"flow": flow_of(wrong), "username": username, "password": "x"}, timeout=10)
    stale = browser.post(server.endpoint + "/login", data={"flow": flow_of(wrong), "username": username,
                                                           "password": PASSWORD}, allow_redirects=False, timeout=10)
    assert stale.status_code in (400, 403)

    # With an authenticator app, the hosted sign-in asks for its code.
    access = sign_in(idp, client, username, secret=client["ClientSecret"])["AccessToken"]
    totp = idp.associate_software_token(AccessToken=access)["SecretCode"]
    idp.verify_software_token(AccessToken=access, UserCode=pyotp.TOTP(totp).now())
    idp.set_user_mfa_preference(AccessToken=access, SoftwareTokenMfaSettings={"Enabled": True, "PreferredMfa": True})
    browser = requests.Session()
    code_page = hosted_sign_in(server, browser, uri, username)
    assert code_page.status_code == 200 and 'autocomplete="one-time-code"' in code_page.text
    bad = browser.post(server.endpoint + "/login", data={"flow": flow_of(code_page), "code": "000000"},
                       allow_redirects=False, timeout=10)
    assert bad.status_code == 200 and "Invalid code received for user" in bad.text
    done = browser.post(server.endpoint + "/login", data={"flow": flow_of(bad), "code": next_code(totp)},
                        allow_redirects=False, timeout=10)
    assert done.status_code == 302 and done.headers["Location"].startswith(CALLBACK + "?code="), done.text
    token = app.fetch_token(server.endpoint + "/oauth2/token", authorization_response=done.headers["Location"],
                            code_verifier=verifier)
    assert "access_token" in token


def test_the_hosted_page_refuses_a_name_with_the_nul_character(server, idp):
    """A name no account can have (U+0000) gets a clear 400 page, not a server error."""
    pool, client = oauth_pool(idp)
    uri, _ = authorize(server, app_session(server, client), secrets.token_urlsafe(48))
    refused = hosted_sign_in(server, requests.Session(), uri, "a\x00b")
    assert refused.status_code == 400, (refused.status_code, refused.text)
    assert "NUL character" in refused.text


def test_client_credentials_for_custom_scopes(server, idp):
    pool, _ = oauth_pool(idp)
    machine = idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="machine", GenerateSecret=True, AllowedOAuthFlows=["client_credentials"],
        AllowedOAuthScopes=["api/read"], AllowedOAuthFlowsUserPoolClient=True)["UserPoolClient"]
    session = OAuth2Session(machine["ClientId"], machine["ClientSecret"], scope="api/read")
    token = session.fetch_token(server.endpoint + "/oauth2/token", grant_type="client_credentials")
    assert set(token) >= {"access_token", "expires_in", "token_type"} and "refresh_token" not in token
    key = {k["kid"]: k for k in jwks(server, pool["Id"])["keys"]}
    import jwt
    header = jwt.get_unverified_header(token["access_token"])
    claims = jwt.decode(token["access_token"], jwt.PyJWK(key[header["kid"]]), algorithms=["RS256"],
                        issuer=issuer(server, pool["Id"]), options={"verify_aud": False})
    assert claims["sub"] == machine["ClientId"] and claims["client_id"] == machine["ClientId"]
    assert claims["scope"] == "api/read" and claims["token_use"] == "access"

    def grant(**data):
        return requests.post(server.endpoint + "/oauth2/token", timeout=10,
                             data={"grant_type": "client_credentials", **data})
    assert grant(client_id=machine["ClientId"], client_secret="wrong").status_code == 401
    assert grant(client_id=machine["ClientId"], client_secret=machine["ClientSecret"],
                 scope="api/write").json()["error"] == "invalid_scope"
    assert grant(client_id=machine["ClientId"], client_secret=machine["ClientSecret"],
                 scope="openid").json()["error"] == "invalid_scope"
    public = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="public", AllowedOAuthFlows=["code"],
                                         AllowedOAuthScopes=["api/read"], AllowedOAuthFlowsUserPoolClient=True,
                                         CallbackURLs=[CALLBACK])["UserPoolClient"]
    assert grant(client_id=public["ClientId"]).json()["error"] == "unauthorized_client"


def test_domains_and_resource_servers(server, idp):
    pool = idp.create_user_pool(PoolName=unique("oauth"))["UserPool"]
    other = idp.create_user_pool(PoolName=unique("oauth"))["UserPool"]
    domain = unique("login").lower()
    created = idp.create_user_pool_domain(UserPoolId=pool["Id"], Domain=domain)
    assert "CloudFrontDomain" not in created                   # a prefix domain, as in Cognito
    described = idp.describe_user_pool_domain(Domain=domain)["DomainDescription"]
    assert described["UserPoolId"] == pool["Id"] and described["Domain"] == domain and described["Status"] == "ACTIVE"
    # Cognito's members: the account, the host serving the domain (Cognate's own), a timestamp version.
    assert re.fullmatch(r"[0-9]{12}", described["AWSAccountId"])
    assert described["CloudFrontDistribution"] == "127.0.0.1"
    assert re.fullmatch(r"20[0-9]{12}", described["Version"])
    updated = idp.update_user_pool_domain(UserPoolId=pool["Id"], Domain=domain, ManagedLoginVersion=2,
                                          CustomDomainConfig={"CertificateArn": "arn:aws:acm:us-east-1:000000000000:certificate/x"})
    assert updated["CloudFrontDomain"] == "127.0.0.1"
    assert idp.describe_user_pool(UserPoolId=pool["Id"])["UserPool"]["Domain"] == domain
    with cognito_error("InvalidParameterException", "Domain already associated with another user pool."):
        idp.create_user_pool_domain(UserPoolId=other["Id"], Domain=domain)
    with cognito_error("InvalidParameterException"):
        idp.create_user_pool_domain(UserPoolId=pool["Id"], Domain="Not A Domain")
    assert idp.describe_user_pool_domain(Domain=unique("none").lower())["DomainDescription"] == {}
    with cognito_error("InvalidParameterException"):
        idp.delete_user_pool_domain(UserPoolId=other["Id"], Domain=domain)
    idp.delete_user_pool_domain(UserPoolId=pool["Id"], Domain=domain)
    assert idp.describe_user_pool_domain(Domain=domain)["DomainDescription"] == {}

    scopes = [{"ScopeName": "read", "ScopeDescription": "Read"}]
    created = idp.create_resource_server(UserPoolId=pool["Id"], Identifier="https://api.example", Name="API",
                                         Scopes=scopes)["ResourceServer"]
    assert created == {"UserPoolId": pool["Id"], "Identifier": "https://api.example", "Name": "API", "Scopes": scopes}
    with cognito_error("InvalidParameterException"):
        idp.create_resource_server(UserPoolId=pool["Id"], Identifier="https://api.example", Name="again")
    updated = idp.update_resource_server(UserPoolId=pool["Id"], Identifier="https://api.example", Name="API v2",
                                         Scopes=scopes + [{"ScopeName": "write", "ScopeDescription": "Write"}])
    assert len(updated["ResourceServer"]["Scopes"]) == 2
    idp.create_resource_server(UserPoolId=pool["Id"], Identifier="billing", Name="Billing")
    listed = idp.list_resource_servers(UserPoolId=pool["Id"], MaxResults=1)
    assert len(listed["ResourceServers"]) == 1 and "NextToken" in listed
    rest = idp.list_resource_servers(UserPoolId=pool["Id"], MaxResults=1, NextToken=listed["NextToken"])
    assert {listed["ResourceServers"][0]["Identifier"], rest["ResourceServers"][0]["Identifier"]} == \
        {"billing", "https://api.example"}
    idp.delete_resource_server(UserPoolId=pool["Id"], Identifier="billing")
    with cognito_error("ResourceNotFoundException"):
        idp.describe_resource_server(UserPoolId=pool["Id"], Identifier="billing")


def test_logout_goes_only_to_registered_addresses_and_discovery_lists_the_endpoints(server, idp):
    pool, client = oauth_pool(idp)
    out = requests.get(server.endpoint + "/logout", params={"client_id": client["ClientId"], "logout_uri": SIGNED_OUT},
                       allow_redirects=False, timeout=10)
    assert out.status_code == 302 and out.headers["Location"] == SIGNED_OUT
    evil = requests.get(server.endpoint + "/logout", params={"client_id": client["ClientId"],
                                                             "logout_uri": "https://evil.example"},
                        allow_redirects=False, timeout=10)
    assert evil.status_code == 400 and "Location" not in evil.headers
    document = requests.get(issuer(server, pool["Id"]) + "/.well-known/openid-configuration", timeout=10).json()
    assert document["authorization_endpoint"] == server.endpoint + "/oauth2/authorize"
    assert document["token_endpoint"] == server.endpoint + "/oauth2/token"
    assert document["userinfo_endpoint"] == server.endpoint + "/oauth2/userInfo"
    assert document["code_challenge_methods_supported"] == ["S256"]
    unauthorized = requests.get(server.endpoint + "/oauth2/userInfo", headers={"Authorization": "Bearer nope"}, timeout=10)
    assert unauthorized.status_code == 401 and unauthorized.json()["error"] == "invalid_token"


def test_hosted_sign_up_confirms_with_the_emailed_code_then_signs_in(server, idp):
    pool = idp.create_user_pool(
        PoolName=unique("oauth"), AutoVerifiedAttributes=["email"],
        Schema=[{"Name": "email", "AttributeDataType": "String", "Required": True, "Mutable": True}])["UserPool"]
    client = idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="spa", CallbackURLs=[CALLBACK], AllowedOAuthFlows=["code"],
        AllowedOAuthScopes=["openid", "email"], AllowedOAuthFlowsUserPoolClient=True,
        SupportedIdentityProviders=["COGNITO"])["UserPoolClient"]
    app = app_session(server, client, scope="openid email")
    verifier = secrets.token_urlsafe(48)
    uri, state = authorize(server, app, verifier)
    browser = requests.Session()
    sign_in_page = browser.get(uri, timeout=10)
    link = re.search(r'href="(/signup\?[^"]+)"', sign_in_page.text).group(1).replace("&amp;", "&")
    sign_up_page = browser.get(server.endpoint + link, timeout=10)
    assert 'name="attribute.email"' in sign_up_page.text and 'autocomplete="new-password"' in sign_up_page.text
    username, email = unique("hosted"), f"{unique('hosted')}@example.com"
    weak = browser.post(server.endpoint + "/login", timeout=10, data={
        "flow": flow_of(sign_up_page), "username": username, "attribute.email": email, "password": "short"})
    assert "Password did not conform with policy" in weak.text
    code_page = browser.post(server.endpoint + "/login", timeout=10, data={
        "flow": flow_of(weak), "username": username, "attribute.email": email, "password": PASSWORD})
    assert "Confirm your account" in code_page.text and "@e***" in code_page.text
    code = server.outbox(pool["Id"])[-1]["code"]
    confirmed = browser.post(server.endpoint + "/login", timeout=10, data={"flow": flow_of(code_page), "code": code})
    assert "Your account is confirmed. Sign in." in confirmed.text and f'value="{username}"' in confirmed.text
    done = browser.post(server.endpoint + "/login", allow_redirects=False, timeout=10, data={
        "flow": flow_of(confirmed), "username": username, "password": PASSWORD})
    assert done.status_code == 302
    token = app.fetch_token(server.endpoint + "/oauth2/token", authorization_response=done.headers["Location"],
                            code_verifier=verifier)
    assert verify_token(server, pool["Id"], token["id_token"], "id", client["ClientId"])["email"] == email


def test_hosted_password_reset_then_sign_in(server, idp):
    pool, client = oauth_pool(idp)
    username, email, _ = confirmed_user(server, idp, pool, client, secret=client["ClientSecret"])
    app = app_session(server, client)
    verifier = secrets.token_urlsafe(48)
    uri, _ = authorize(server, app, verifier)
    browser = requests.Session()
    sign_in_page = browser.get(uri, timeout=10)
    link = re.search(r'href="(/forgotPassword\?[^"]+)"', sign_in_page.text).group(1).replace("&amp;", "&")
    forgot = browser.get(server.endpoint + link, timeout=10)
    assert "Reset your password" in forgot.text
    reset_page = browser.post(server.endpoint + "/login", timeout=10, data={"flow": flow_of(forgot), "username": username})
    assert "Choose a new password" in reset_page.text and "@e***" in reset_page.text
    code = server.outbox(pool["Id"])[-1]["code"]
    wrong = browser.post(server.endpoint + "/login", timeout=10, data={
        "flow": flow_of(reset_page), "code": f"{(int(code) + 1) % 10**6:06d}", "new_password": "N3w-passw0rd"})
    assert "Invalid verification code provided" in wrong.text
    changed = browser.post(server.endpoint + "/login", timeout=10, data={
        "flow": flow_of(wrong), "code": code, "new_password": "N3w-passw0rd"})
    assert "Your password was changed. Sign in." in changed.text
    done = browser.post(server.endpoint + "/login", allow_redirects=False, timeout=10, data={
        "flow": flow_of(changed), "username": username, "password": "N3w-passw0rd"})
    assert done.status_code == 302 and done.headers["Location"].startswith(CALLBACK + "?code=")


PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000" "1f15c4890000000d49444154789c6360f8cf00000301010018dd8db00000000049454e44ae426082")


def test_ui_customization_styles_the_hosted_pages(server, idp):
    pool, client = oauth_pool(idp)
    pool_wide = idp.set_ui_customization(UserPoolId=pool["Id"], CSS=".banner-customizable { background: teal; }",
                                         ImageFile=PNG)["UICustomization"]
    assert pool_wide["ClientId"] == "ALL" and pool_wide["ImageUrl"].startswith(server.endpoint + "/ui/")
    logo = requests.get(pool_wide["ImageUrl"], timeout=10)
    assert logo.status_code == 200 and logo.headers["Content-Type"] == "image/png" and logo.content == PNG
    own = idp.set_ui_customization(UserPoolId=pool["Id"], ClientId=client["ClientId"],
                                   CSS="label { color: navy; } </style><script>alert(1)</script>")["UICustomization"]
    assert idp.get_ui_customization(UserPoolId=pool["Id"], ClientId=client["ClientId"])["UICustomization"]["CSS"] == own["CSS"]
    assert idp.get_ui_customization(UserPoolId=pool["Id"])["UICustomization"]["CSS"].startswith(".banner")
    with cognito_error("InvalidParameterException", contains="PNG or JPEG"):
        idp.set_ui_customization(UserPoolId=pool["Id"], ImageFile=b"GIF89a....")
    with cognito_error("ResourceNotFoundException"):
        idp.set_ui_customization(UserPoolId=pool["Id"], ClientId="nope", CSS="x{}")

    uri, _ = authorize(server, app_session(server, client), secrets.token_urlsafe(48))
    page = requests.get(uri, timeout=10)
    assert "label { color: navy; }" in page.text and "<script>" not in page.text      # the client's own CSS, contained
    assert "img-src 'self'" in page.headers["Content-Security-Policy"]


def svg_modules(svg):
    """The dark modules of the QR code the page draws (its path: one `M<x> <y>h1v1h-1z` per module)."""
    return {(int(y) - 4, int(x) - 4) for x, y in re.findall(r"M(\d+) (\d+)h1v1h-1z", svg)}


def test_required_mfa_sets_the_app_up_on_the_hosted_page_with_a_qr_code(server, idp):
    import qrcode
    from urllib.parse import quote

    pool, client = oauth_pool(idp)
    idp.set_user_pool_mfa_config(UserPoolId=pool["Id"], SoftwareTokenMfaConfiguration={"Enabled": True},
                                 MfaConfiguration="ON")
    username, _, _ = confirmed_user(server, idp, pool, client, secret=client["ClientSecret"])
    app = app_session(server, client)
    verifier = secrets.token_urlsafe(48)
    uri, _ = authorize(server, app, verifier)
    browser = requests.Session()
    setup = hosted_sign_in(server, browser, uri, username)
    assert setup.status_code == 200 and "Set up your authenticator app" in setup.text
    shown = re.search(r'<code class="secret">(.*?)</code>', setup.text).group(1)
    secret = re.sub(r"</?span>", "", shown)                           # in groups of four
    assert re.fullmatch(r"[A-Z2-7]+", secret) and shown.startswith(f"<span>{secret[:4]}</span>")
    svg = re.search(r"<svg.*?</svg>", setup.text, re.S).group(0)
    version, mask = (int(v) for v in re.search(r'data-version="(\d+)" data-mask="(\d+)"', svg).groups())

    # The drawn code is exactly what the reference encoder makes of the key URI (same version and mask).
    key_uri = f"otpauth://totp/{quote(pool['Name'], safe='')}:{quote(username, safe='')}?secret={secret}&issuer=" \
              f"{quote(pool['Name'], safe='')}"
    reference = qrcode.QRCode(version=version, error_correction=qrcode.constants.ERROR_CORRECT_M, border=0,
                              mask_pattern=mask)
    reference.add_data(key_uri, optimize=0)
    reference.make(fit=False)
    expected = {(r, c) for r, row in enumerate(reference.get_matrix()) for c, dark in enumerate(row) if dark}
    assert svg_modules(svg) == expected

    wrong = browser.post(server.endpoint + "/login", data={"flow": flow_of(setup), "code": "000000"},
                         allow_redirects=False, timeout=10)
    assert wrong.status_code == 200 and "Code mismatch" in wrong.text
    done = browser.post(server.endpoint + "/login", data={"flow": flow_of(wrong), "code": pyotp.TOTP(secret).now()},
                        allow_redirects=False, timeout=10)
    assert done.status_code == 302 and done.headers["Location"].startswith(CALLBACK + "?code="), done.text
    assert idp.admin_get_user(UserPoolId=pool["Id"], Username=username)["UserMFASettingList"] == ["SOFTWARE_TOKEN_MFA"]


def test_terms_are_kept_per_client_and_shown_on_the_sign_up_page(server, idp):
    pool, client = oauth_pool(idp)
    terms = idp.create_terms(UserPoolId=pool["Id"], ClientId=client["ClientId"], TermsName="terms-of-use",
                             TermsSource="LINK", Enforcement="NONE",
                             Links={"cognito:english": "https://example.com/terms"})["Terms"]
    idp.create_terms(UserPoolId=pool["Id"], ClientId=client["ClientId"], TermsName="privacy-policy", TermsSource="LINK",
                     Enforcement="NONE", Links={"cognito:default": "https://example.com/privacy"})
    with cognito_error("TermsExistsException"):
        idp.create_terms(UserPoolId=pool["Id"], ClientId=client["ClientId"], TermsName="terms-of-use",
                         TermsSource="LINK", Enforcement="NONE", Links={"cognito:english": "https://example.com/t2"})
    with cognito_error("InvalidParameterException", contains="http(s) URLs"):
        idp.create_terms(UserPoolId=pool["Id"], ClientId=client["ClientId"], TermsName="terms-of-use",
                         TermsSource="LINK", Enforcement="NONE", Links={"cognito:english": "javascript:alert(1)"})
    assert idp.describe_terms(TermsId=terms["TermsId"], UserPoolId=pool["Id"])["Terms"]["Links"] == {
        "cognito:english": "https://example.com/terms"}
    updated = idp.update_terms(TermsId=terms["TermsId"], UserPoolId=pool["Id"],
                               Links={"cognito:english": "https://example.com/terms-v2"})["Terms"]
    assert updated["Links"]["cognito:english"].endswith("terms-v2")
    assert len(idp.list_terms(UserPoolId=pool["Id"])["Terms"]) == 2
    by_client = idp.describe_terms_by_client(UserPoolId=pool["Id"], ClientId=client["ClientId"], TermsName="terms-of-use")
    assert by_client["Terms"]["TermsId"] == terms["TermsId"] and by_client["Terms"]["Links"] == updated["Links"]
    other = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="other")["UserPoolClient"]
    with cognito_error("ResourceNotFoundException"):
        idp.describe_terms_by_client(UserPoolId=pool["Id"], ClientId=other["ClientId"], TermsName="terms-of-use")

    uri, _ = authorize(server, app_session(server, client), secrets.token_urlsafe(48))
    browser = requests.Session()
    sign_in_page = browser.get(uri, timeout=10)
    link = re.search(r'href="(/signup\?[^"]+)"', sign_in_page.text).group(1).replace("&amp;", "&")
    sign_up = browser.get(server.endpoint + link, timeout=10).text
    assert 'href="https://example.com/terms-v2"' in sign_up and 'href="https://example.com/privacy"' in sign_up
    idp.delete_terms(TermsId=terms["TermsId"], UserPoolId=pool["Id"])
    with cognito_error("ResourceNotFoundException"):
        idp.describe_terms(TermsId=terms["TermsId"], UserPoolId=pool["Id"])
