"""Choice-based sign-in and passkeys on the hosted pages, in headless Chromium with its virtual
authenticator (CTAP2, internal transport, resident keys, user verification): the name first, then
the factors the user may use (the password, a code by email, a passkey); a passkey added on
`/passkeys/add` after a sign-in, signed in with after signing out; `/passkeys/add` without a
recent sign-in asks for one; a passkey registered through the API (python-fido2's structures,
passkey_authenticator.py) moved into the browser's authenticator signs in too; a name that is
no user is shown the same pages as a user. Every new page is checked as the tour of
test_hosted_ui_browser.py checks its pages (one primary action, labelled fields, nothing refused
by the Content-Security-Policy) and saved at desktop and phone widths, in the default look and a
dark branding, under compat/output/hosted-ui/passkeys-<look>/.

WebAuthn needs a secure context and an RP ID the page's host belongs to: the browser reaches the
server as http://localhost:<port> and the pools' RelyingPartyId is `localhost`."""
import html
import re
import secrets
import urllib.parse

import pytest
import requests
from authlib.integrations.requests_client import OAuth2Session
from cryptography.hazmat.primitives import serialization
from selenium.webdriver.common.by import By
from selenium.webdriver.common.virtual_authenticator import Credential, VirtualAuthenticatorOptions

from helpers import PASSWORD, admin_user, unique, verify_token
from passkey_authenticator import SoftAuthenticator
from test_hosted_ui_browser import (APP, DYNAMIC_ASSETS, DYNAMIC_BRANDING, Tour, app_server, browser,  # noqa: F401
                                    phone_graphic, wait_for)

FACTORS = ["PASSWORD", "WEB_AUTHN", "EMAIL_OTP"]
SCOPES = "openid email aws.cognito.signin.user.admin"


def local(server):
    """The server as the browser reaches it: localhost is a secure context and a valid RP ID."""
    return server.endpoint.replace("127.0.0.1", "localhost")


def passkey_pool(idp, callback, look="default"):
    """A pool whose first factors are the password, passkeys (RP ID localhost, user verification
    required) and email codes, and an app client that signs in by choice (ALLOW_USER_AUTH) with
    PreventUserExistenceErrors; in the look's branding."""
    pool = idp.create_user_pool(
        PoolName=unique("passkeys"), AutoVerifiedAttributes=["email"],
        Policies={"SignInPolicy": {"AllowedFirstAuthFactors": FACTORS}})["UserPool"]
    idp.set_user_pool_mfa_config(
        UserPoolId=pool["Id"], WebAuthnConfiguration={"RelyingPartyId": "localhost", "UserVerification": "required"})
    client = idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName=APP, CallbackURLs=[callback], LogoutURLs=[callback],
        AllowedOAuthFlows=["code"], AllowedOAuthScopes=SCOPES.split(), AllowedOAuthFlowsUserPoolClient=True,
        SupportedIdentityProviders=["COGNITO"], ExplicitAuthFlows=["ALLOW_USER_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"],
        PreventUserExistenceErrors="ENABLED")["UserPoolClient"]
    if look == "branded-dark":
        # The dark style of the tour, with its illustrations on: a passkey graphic on the passkey pages.
        settings = {**DYNAMIC_BRANDING, "categories": {**DYNAMIC_BRANDING["categories"], "form": {
            **DYNAMIC_BRANDING["categories"]["form"], "displayGraphics": True}}}
        assets = DYNAMIC_ASSETS + [
            {"Category": "PASSKEY_GRAPHIC", "ColorMode": "DARK", "Extension": "SVG", "Bytes": phone_graphic("#2dd4bf")}]
        idp.create_managed_login_branding(UserPoolId=pool["Id"], ClientId=client["ClientId"], Settings=settings,
                                          Assets=assets)
    return pool, client


def new_user(idp, pool):
    name = unique("ada")
    admin_user(idp, pool["Id"], name, PASSWORD, [("email", f"{name}@example.com"), ("email_verified", "true")])
    return name


@pytest.fixture
def authenticator(browser):  # noqa: F811 (the fixture of test_hosted_ui_browser)
    """Chromium's virtual authenticator: a platform authenticator with resident keys that
    verifies its user."""
    browser.add_virtual_authenticator(VirtualAuthenticatorOptions(
        protocol=VirtualAuthenticatorOptions.Protocol.CTAP2, transport=VirtualAuthenticatorOptions.Transport.INTERNAL,
        has_resident_key=True, has_user_verification=True, is_user_verified=True))
    return browser


class App:
    """The app: it sends the browser to /oauth2/authorize with PKCE and exchanges the code."""

    def __init__(self, server, client, callback):
        self.server, self.client, self.callback = server, client, callback

    def authorize(self, browser):
        self.session = OAuth2Session(self.client["ClientId"], scope=SCOPES, redirect_uri=self.callback,
                                     code_challenge_method="S256")
        self.verifier = secrets.token_urlsafe(48)
        uri, _ = self.session.create_authorization_url(local(self.server) + "/oauth2/authorize", code_verifier=self.verifier)
        browser.get(uri)

    def tokens(self, browser):
        """The browser came back with a code: the tokens it stands for."""
        wait_for(browser, lambda b: b.current_url.startswith(self.callback + "?code="))
        return self.session.fetch_token(self.server.endpoint + "/oauth2/token", authorization_response=browser.current_url,
                                        code_verifier=self.verifier)

    def passkeys_add(self, browser):
        browser.get(local(self.server) + "/passkeys/add?" + urllib.parse.urlencode(
            {"client_id": self.client["ClientId"], "redirect_uri": self.callback}))

    def sign_out(self, browser):
        browser.get(local(self.server) + "/logout?" + urllib.parse.urlencode(
            {"client_id": self.client["ClientId"], "logout_uri": self.callback}))
        wait_for(browser, lambda b: b.current_url.startswith(self.callback))


def name_page(tour, username, then="Choose how to sign in"):
    tour.wait("Sign in")
    assert not tour.browser.find_elements(By.NAME, "password")        # the name alone first
    tour.fill("username", username)
    tour.submit()
    tour.wait(then)


def offered(browser):
    return [choice.get_attribute("value") for choice in browser.find_elements(By.CSS_SELECTOR, "input[name=factor]")]


def choose(tour, factor, then):
    tour.browser.find_element(By.CSS_SELECTOR, f"input[name=factor][value={factor}]").click()
    tour.submit()
    tour.wait(then)


def alert(browser):
    return " ".join(a.text for a in browser.find_elements(By.CSS_SELECTOR, "[role=alert]") if a.is_displayed())


@pytest.mark.parametrize("look", ["default", "branded-dark"])
def test_sign_in_add_a_passkey_sign_out_and_sign_in_with_it(server, idp, authenticator, app_server, look):  # noqa: F811
    browser = authenticator
    if look == "branded-dark":
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    pool, client = passkey_pool(idp, app_server, look)
    username = new_user(idp, pool)
    app = App(server, client, app_server)
    tour = Tour(browser, f"passkeys-{look}")

    # The name first, then the factors this user has: no passkey yet.
    app.authorize(browser)
    tour.wait("Sign in")
    assert browser.find_element(By.CSS_SELECTOR, "button.primary").text == "Next"
    assert browser.find_element(By.CLASS_NAME, "app-name").text == APP
    tour.shoot("sign-in-name")
    name_page(tour, username)
    assert offered(browser) == ["EMAIL_OTP", "PASSWORD"]
    assert username in browser.find_element(By.CLASS_NAME, "lead").text
    tour.shoot("choose-factor")
    choose(tour, "PASSWORD", then="Enter your password")
    assert browser.find_element(By.LINK_TEXT, "Forgot your password?")
    tour.shoot("password")
    tour.fill("password", "Not-the-password-1")
    tour.submit()
    tour.wait("Enter your password", alert="alert")
    assert "Incorrect username or password." in alert(browser)
    tour.fill("password", PASSWORD)
    tour.submit()
    access = app.tokens(browser)["access_token"]

    # Straight after the sign-in, /passkeys/add adds a passkey in this browser.
    app.passkeys_add(browser)
    tour.wait("Add a passkey")
    assert username in browser.find_element(By.CLASS_NAME, "lead").text
    assert bool(browser.find_elements(By.CSS_SELECTOR, "img.graphic")) == (look == "branded-dark")
    tour.shoot("add-passkey")
    tour.submit()
    tour.wait("Passkey added")
    tour.shoot("passkey-added")
    [credential] = browser.get_credentials()
    assert credential.rp_id == "localhost" and credential.is_resident_credential
    [listed] = idp.list_web_authn_credentials(AccessToken=access)["Credentials"]
    assert listed["RelyingPartyId"] == "localhost" and listed["AuthenticatorAttachment"] == "platform"
    assert listed["CredentialId"] == credential.id.rstrip("=")
    browser.find_element(By.LINK_TEXT, "Continue").click()
    wait_for(browser, lambda b: b.current_url.startswith(app_server))

    # Signed out, /passkeys/add asks for a sign-in first (no sign-up, no reset: they lead to the app).
    app.sign_out(browser)
    app.passkeys_add(browser)
    tour.wait("Sign in")
    assert browser.find_element(By.CLASS_NAME, "lead").text == "Sign in to add a passkey to your account."
    assert not browser.find_elements(By.LINK_TEXT, "Create an account")
    tour.shoot("add-passkey-sign-in")
    # Signing in there with the passkey leads to the passkey page, not to the app; this device
    # has the account's passkey already, so the browser refuses to make another.
    name_page(tour, username)
    assert offered(browser) == ["WEB_AUTHN", "EMAIL_OTP", "PASSWORD"]
    choose(tour, "WEB_AUTHN", then="Sign in with a passkey")
    tour.submit()
    tour.wait("Add a passkey")
    tour.submit()
    wait_for(browser, lambda b: alert(b))
    assert "already has a passkey" in alert(browser), alert(browser)
    tour.shoot("add-passkey-refused-by-the-browser")
    browser.find_element(By.LINK_TEXT, "Not now").click()
    wait_for(browser, lambda b: b.current_url.startswith(app_server))
    assert len(browser.get_credentials()) == 1

    # An authorization signed in with the passkey.
    app.sign_out(browser)
    app.authorize(browser)
    name_page(tour, username)
    choose(tour, "WEB_AUTHN", then="Sign in with a passkey")
    assert browser.find_element(By.CSS_SELECTOR, "button.primary").text == "Sign in with a passkey"
    tour.shoot("passkey")
    tour.submit()
    tokens = app.tokens(browser)
    claims = verify_token(server, pool["Id"], tokens["id_token"], "id", client["ClientId"])
    assert claims["cognito:username"] == username

    # And with a code by email: eight digits from the outbox.
    app.sign_out(browser)
    app.authorize(browser)
    name_page(tour, username)
    choose(tour, "EMAIL_OTP", then="Check your email")
    code = server.last_code(pool["Id"])
    assert re.fullmatch(r"\d{8}", code)
    tour.shoot("email-code")
    tour.fill("code", "0" * 8 if code != "0" * 8 else "1" * 8)
    tour.submit()
    tour.wait("Check your email", alert="alert")
    tour.fill("code", code)
    tour.submit()
    assert verify_token(server, pool["Id"], app.tokens(browser)["id_token"], "id", client["ClientId"])["email"] \
        == f"{username}@example.com"
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def page_shape(browser, name):
    """What the card shows, the name typed and masked addresses left out: its text (title, lead,
    labels, actions) and its fields."""
    text = browser.find_element(By.TAG_NAME, "main").text.replace(name, "NAME")
    text = re.sub(r"\S+@\S+", "ADDRESS", text)
    fields = [(field.get_attribute("name"), field.get_attribute("type"),
               field.get_attribute("value") if field.get_attribute("type") == "radio" else "")
              for field in browser.find_elements(By.CSS_SELECTOR, "main input:not([type=hidden])")]
    return text, fields


def test_a_name_that_is_no_user_sees_the_pages_a_user_sees(server, idp, authenticator, app_server):  # noqa: F811
    """A user whose passkey was registered through the API (then moved into the browser's
    authenticator) and a name that is no user walk the same pages: the same factors, the same
    passkey page, the same code page and the same refusal of a wrong code."""
    browser = authenticator
    pool, client = passkey_pool(idp, app_server)
    username = new_user(idp, pool)
    ghost = unique("ghost")

    # The API's registration, by a software authenticator at the browser's origin (not backed
    # up: Chromium's virtual authenticator, which takes its key over, says so of its assertions).
    started = idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="USER_AUTH", AuthParameters={
        "USERNAME": username, "PREFERRED_CHALLENGE": "PASSWORD", "PASSWORD": PASSWORD})
    access = started["AuthenticationResult"]["AccessToken"]
    soft = SoftAuthenticator(local(server), backup_eligible=False)
    options = idp.start_web_authn_registration(AccessToken=access)["CredentialCreationOptions"]
    idp.complete_web_authn_registration(AccessToken=access, Credential=soft.create(options))
    [passkey] = soft.passkeys
    browser.add_credential(Credential.create_resident_credential(
        id=passkey.id, rp_id="localhost", user_handle=passkey.user_handle, sign_count=passkey.counter,
        private_key=passkey.key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8,
                                              serialization.NoEncryption())))

    app = App(server, client, app_server)
    tour = Tour(browser, "passkeys-unknown-name")
    shapes = {}
    for name in (username, ghost):
        app.authorize(browser)
        name_page(tour, name)
        shapes.setdefault("choose", []).append(page_shape(browser, name))
        assert offered(browser) == ["WEB_AUTHN", "EMAIL_OTP", "PASSWORD"]
        choose(tour, "WEB_AUTHN", then="Sign in with a passkey")
        shapes.setdefault("passkey", []).append(page_shape(browser, name))
        if name == ghost:
            tour.shoot("passkey-unknown-name")
            tour.submit()                              # the browser holds no passkey the page asks for
            wait_for(browser, lambda b: alert(b))
            assert "No passkey was used" in alert(browser)
            tour.shoot("passkey-not-found")
            tour.click_button("Choose another way")
        else:
            tour.submit()                              # the imported passkey signs in
            assert verify_token(server, pool["Id"], app.tokens(browser)["id_token"], "id",
                                client["ClientId"])["cognito:username"] == username
            app.sign_out(browser)
            app.authorize(browser)
            name_page(tour, name)
        tour.wait("Choose how to sign in")
        choose(tour, "EMAIL_OTP", then="Check your email")
        shapes.setdefault("code", []).append(page_shape(browser, name))
        tour.fill("code", "12345678")
        tour.submit()
        tour.wait("Check your email", alert="alert")
        shapes.setdefault("wrong code", []).append((page_shape(browser, name), alert(browser)))
        if name == ghost:
            tour.shoot("email-code-refused")
    for page, (user_sees, ghost_sees) in shapes.items():
        assert user_sees == ghost_sees, page
    assert [m for m in server.outbox(pool["Id"]) if ghost in m["destination"]] == []    # no code went anywhere


def test_passkeys_add_checks_its_link_and_keeps_its_forms_bound_to_the_browser(server, idp, app_server):  # noqa: F811
    """No browser needed: what /passkeys/add refuses, and its forms' protections (the same as /login's)."""
    pool, client = passkey_pool(idp, app_server)
    base = local(server)
    query = {"client_id": client["ClientId"], "redirect_uri": app_server}
    fresh = requests.Session()
    # A redirect URI the client does not list, an unknown client: an error page, never a redirect.
    for bad in ({**query, "redirect_uri": "https://evil.example/"}, {**query, "client_id": "nope"}):
        page = fresh.get(base + "/passkeys/add", params=bad, allow_redirects=False, timeout=10)
        assert page.status_code == 400 and "This sign-in link isn't valid" in html.unescape(page.text)
        assert "Location" not in page.headers
    # A pool without passkeys: an error page that says so.
    plain = idp.create_user_pool(PoolName=unique("plain"))["UserPool"]
    plain_client = idp.create_user_pool_client(
        UserPoolId=plain["Id"], ClientName="web", CallbackURLs=[app_server], AllowedOAuthFlows=["code"],
        AllowedOAuthScopes=["openid"], AllowedOAuthFlowsUserPoolClient=True,
        SupportedIdentityProviders=["COGNITO"])["UserPoolClient"]
    page = fresh.get(base + "/passkeys/add", params={**query, "client_id": plain_client["ClientId"]}, timeout=10)
    assert page.status_code == 400 and "You can't add a passkey here" in html.unescape(page.text)
    # A proof cookie made up, or another browser's: the sign-in page, nothing else.
    page = fresh.get(base + "/passkeys/add", params=query, cookies={"cognate_signed_in": "e30.AAAA"}, timeout=10)
    assert page.status_code == 200 and "<h1>Sign in</h1>" in page.text
    assert "script-src" not in page.headers["Content-Security-Policy"]
    # Its form, posted without the browser's cookie (another site's page): refused.
    flow = re.search(r'name="flow" value="([^"]+)"', page.text).group(1)
    refused = requests.post(base + "/passkeys/add?" + urllib.parse.urlencode(query), data={"flow": flow, "username": "x"},
                            timeout=10)
    assert refused.status_code == 403 and "This page has expired" in refused.text
    # A pool that signs in by password only keeps its sign-in page (name and password together).
    page = fresh.get(base + "/login", params={**query, "client_id": plain_client["ClientId"], "response_type": "code",
                                              "scope": "openid"}, timeout=10)
    assert 'name="password"' in page.text and ">Next<" not in page.text
    # A passkey page allows the passkey script by its hash, and nothing else.
    user = new_user(idp, pool)
    session = requests.Session()
    page = session.get(base + "/login", params={**query, "response_type": "code", "scope": "openid"}, timeout=10)
    action = base + re.search(r'form method="post" action="([^"]+)"', page.text).group(1).replace("&amp;", "&")
    flow = re.search(r'name="flow" value="([^"]+)"', page.text).group(1)
    chooser = session.post(action, data={"flow": flow, "username": user}, timeout=10)
    assert "Choose how to sign in" in chooser.text
    flow = re.search(r'name="flow" value="([^"]+)"', chooser.text).group(1)
    code_page = session.post(action, data={"flow": flow, "factor": "EMAIL_OTP"}, timeout=10)
    assert "Check your email" in code_page.text and "<script" not in code_page.text
    policy = code_page.headers["Content-Security-Policy"]
    assert "script-src" not in policy and "unsafe-inline" not in policy.replace("style-src 'unsafe-inline'", "")
    # The flow is used up by its answer: the same form again is refused.
    again = session.post(action, data={"flow": flow, "factor": "EMAIL_OTP"}, timeout=10)
    assert again.status_code == 400 and "This page has expired" in again.text
