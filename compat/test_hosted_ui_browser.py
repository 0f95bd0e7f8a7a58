"""The hosted pages in a real browser: headless Chromium, driven by selenium, walks sign-up →
the emailed code from the outbox → sign-in → the redirect to the app with a code, which the app
(authlib) exchanges for tokens; a federated sign-in through a second Cognate acting as the
upstream OpenID Connect provider; and a tour of every page — default, with a light branding and
with a browser-adaptive (DYNAMIC) one seen in dark mode — at desktop and phone widths, checking
what each page offers (one primary button, the password policy, values kept, resend and back
links). Screenshots are saved under compat/output/hosted-ui/ (the tour's in one folder per look).
Chromium and chromedriver come from Debian (.ci/run installs them)."""
import http.server
import math
import pathlib
import re
import secrets
import shutil
import threading

import pyotp
import pytest
import requests
from authlib.integrations.requests_client import OAuth2Session
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from helpers import PASSWORD, admin_user, confirmed_user, new_client, sign_in, unique, verify_token
from test_federation import upstream, upstream_pool  # noqa: F401 (the upstream provider fixture)

OUTPUT = pathlib.Path(__file__).resolve().parent / "output" / "hosted-ui"


class App(http.server.BaseHTTPRequestHandler):
    """The app's callback: a page saying the browser came back."""

    def do_GET(self):
        body = b"<!doctype html><title>App</title><h1>Back in the app</h1>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def wait_for(browser, condition):
    """Waits (15 s at most) until `condition(browser)` holds: a click's navigation may still run, and
    an element found on the page being left may be gone when it is read (Chromium then answers
    "Node with given id does not belong to the document", a bare WebDriverException)."""
    WebDriverWait(browser, 15, ignored_exceptions=(
        NoSuchElementException, StaleElementReferenceException, WebDriverException)).until(condition)


def heading(text):
    return lambda browser: browser.find_element(By.TAG_NAME, "h1").text == text


@pytest.fixture
def app_server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), App)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/callback"
    httpd.shutdown()


@pytest.fixture
def browser():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    assert chromium and driver_path, "chromium and chromedriver are needed (apt-get install chromium chromium-driver)"
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=800,900",
                     "--hide-scrollbars", "--font-render-hinting=none"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def test_sign_up_confirm_and_sign_in_in_chromium(server, idp, browser, app_server):
    OUTPUT.mkdir(parents=True, exist_ok=True)
    pool = idp.create_user_pool(
        PoolName=unique("browser"), AutoVerifiedAttributes=["email"],
        Schema=[{"Name": "email", "AttributeDataType": "String", "Required": True, "Mutable": True}])["UserPool"]
    client = idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="web", GenerateSecret=True, CallbackURLs=[app_server],
        AllowedOAuthFlows=["code"], AllowedOAuthScopes=["openid", "email", "profile"],
        AllowedOAuthFlowsUserPoolClient=True, SupportedIdentityProviders=["COGNITO"])["UserPoolClient"]
    app = OAuth2Session(client["ClientId"], client["ClientSecret"], scope="openid email profile", redirect_uri=app_server,
                        code_challenge_method="S256")
    verifier = secrets.token_urlsafe(48)
    uri, state = app.create_authorization_url(server.endpoint + "/oauth2/authorize", code_verifier=verifier)
    shot = iter(range(1, 100))

    def screenshot(name):
        browser.save_screenshot(str(OUTPUT / f"{next(shot):02d}-{name}.png"))

    def fill(name, value):
        field = browser.find_element(By.NAME, name)
        field.clear()
        field.send_keys(value)

    browser.get(uri)
    assert browser.find_element(By.TAG_NAME, "h1").text == "Sign in"
    assert browser.find_element(By.CSS_SELECTOR, "label[for=username]").text == "Username"   # no aliases in this pool
    screenshot("sign-in")
    browser.find_element(By.LINK_TEXT, "Create an account").click()
    wait_for(browser, heading("Create an account"))
    username, email = unique("chromium"), f"{unique('chromium')}@example.com"
    fill("username", username)
    fill("attribute.email", email)
    fill("password", PASSWORD)
    screenshot("sign-up")
    browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait_for(browser, heading("Confirm your account"))
    screenshot("confirm")
    fill("code", server.outbox(pool["Id"])[-1]["code"])
    browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "[role=status]"))
    assert "Your account is confirmed" in browser.find_element(By.CSS_SELECTOR, "[role=status]").text
    assert browser.find_element(By.NAME, "username").get_attribute("value") == username
    fill("password", PASSWORD)
    screenshot("sign-in-after-confirmation")
    browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait_for(browser, lambda b: b.current_url.startswith(app_server + "?code="))
    assert browser.find_element(By.TAG_NAME, "h1").text == "Back in the app"
    screenshot("back-in-the-app")

    token = app.fetch_token(server.endpoint + "/oauth2/token", authorization_response=browser.current_url,
                            code_verifier=verifier)
    claims = verify_token(server, pool["Id"], token["id_token"], "id", client["ClientId"])
    assert claims["email"] == email and claims["cognito:username"] == username
    assert len(list(OUTPUT.glob("*.png"))) >= 5


def test_federated_sign_in_through_the_upstream_provider_in_chromium(server, idp, browser, app_server, upstream):
    OUTPUT.mkdir(parents=True, exist_ok=True)
    up_idp, up_pool, up_client = upstream_pool(server, upstream)
    up_name, up_email, _ = confirmed_user(upstream, up_idp, up_pool, up_client, secret=up_client["ClientSecret"])
    pool = idp.create_user_pool(PoolName=unique("browser-federated"))["UserPool"]
    idp.create_identity_provider(
        UserPoolId=pool["Id"], ProviderName="Upstream", ProviderType="OIDC", AttributeMapping={"email": "email"},
        ProviderDetails={"client_id": up_client["ClientId"], "client_secret": up_client["ClientSecret"],
                         "authorize_scopes": "openid email", "oidc_issuer": f"{upstream.endpoint}/{up_pool['Id']}"})
    client = idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="web", CallbackURLs=[app_server], AllowedOAuthFlows=["code"],
        AllowedOAuthScopes=["openid", "email"], AllowedOAuthFlowsUserPoolClient=True,
        SupportedIdentityProviders=["COGNITO", "Upstream"])["UserPoolClient"]
    app = OAuth2Session(client["ClientId"], scope="openid email", redirect_uri=app_server, code_challenge_method="S256")
    verifier = secrets.token_urlsafe(48)
    uri, _ = app.create_authorization_url(server.endpoint + "/oauth2/authorize", code_verifier=verifier,
                                          identity_provider="Upstream")
    browser.get(uri)
    wait_for(browser, lambda b: b.current_url.startswith(upstream.endpoint + "/login?"))   # the provider's own page
    browser.save_screenshot(str(OUTPUT / "10-federated-provider-sign-in.png"))
    browser.find_element(By.NAME, "username").send_keys(up_name)
    browser.find_element(By.NAME, "password").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait_for(browser, lambda b: b.current_url.startswith(app_server + "?code="))
    browser.save_screenshot(str(OUTPUT / "11-federated-back-in-the-app.png"))
    token = app.fetch_token(server.endpoint + "/oauth2/token", authorization_response=browser.current_url,
                            code_verifier=verifier)
    claims = verify_token(server, pool["Id"], token["id_token"], "id", client["ClientId"])
    assert claims["email"] == up_email and claims["identities"][0]["providerName"] == "Upstream"


# --- every page, default and branded, at desktop and phone widths --------------------------

APP = "Acme Notes"
STRONG = "Correct-horse-7"          # meets the tour pool's policy
TEMPORARY = "Temp-0rary-pass"
WIDTHS = {"desktop": (1280, 860), "phone": (390, 844)}


def logo_svg(mark, text):
    """A wordmark: a rounded square with an A, and the brand's name."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="104" height="40" viewBox="0 0 104 40">'
            f'<rect x="1" y="4" width="32" height="32" rx="9" fill="{mark}"/>'
            f'<path d="M10 29 17 11l7 18M12.5 23h9" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round" '
            f'stroke-linejoin="round"/><text x="42" y="29" font-family="Helvetica, Arial, sans-serif" font-size="22" '
            f'font-weight="700" fill="{text}">acme</text></svg>').encode()


def phone_graphic(color):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">'
            f'<circle cx="32" cy="32" r="31" fill="{color}" opacity=".12"/><rect x="22" y="12" width="20" height="38" rx="4" '
            f'fill="none" stroke="{color}" stroke-width="3"/><path d="M27 31l4 4 7-8" stroke="{color}" stroke-width="3" '
            f'fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>').encode()


def background_svg():
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000" viewBox="0 0 1600 1000">'
            '<defs><radialGradient id="a" cx="80%" cy="20%" r="60%"><stop offset="0" stop-color="#0e7490" stop-opacity=".55"/>'
            '<stop offset="1" stop-color="#0b1220" stop-opacity="0"/></radialGradient>'
            '<radialGradient id="b" cx="95%" cy="95%" r="50%"><stop offset="0" stop-color="#6d28d9" stop-opacity=".45"/>'
            '<stop offset="1" stop-color="#0b1220" stop-opacity="0"/></radialGradient></defs>'
            '<rect width="1600" height="1000" fill="#0b1220"/><rect width="1600" height="1000" fill="url(#a)"/>'
            '<rect width="1600" height="1000" fill="url(#b)"/></svg>').encode()


# A light style: purple, pill buttons, roomy spacing, a header with the logo and the logo in the
# form, an illustration on the authenticator pages.
LIGHT_BRANDING = {
    "categories": {
        "global": {"colorSchemeMode": "LIGHT", "spacingDensity": "SPACIOUS", "pageHeader": {"enabled": True}},
        "form": {"displayGraphics": True, "location": {"horizontal": "CENTER", "vertical": "CENTER"}}},
    "componentClasses": {
        "buttons": {"borderRadius": 40},
        "input": {"borderRadius": 10, "lightMode": {"defaults": {"backgroundColor": "fcfbffff", "borderColor": "b7a9e6ff"}}},
        "link": {"lightMode": {"defaults": {"textColor": "6d28d9ff"}, "hover": {"textColor": "4c1d95ff"}}},
        "focusState": {"lightMode": {"borderColor": "7c3aedff"}},
        "divider": {"lightMode": {"borderColor": "ede9feff"}}},
    "components": {
        "pageBackground": {"lightMode": {"color": "f5f3ffff"}},
        "form": {"borderRadius": 20, "lightMode": {"backgroundColor": "ffffffff", "borderColor": "ddd6feff"},
                 "logo": {"enabled": True, "formInclusion": "IN", "location": "CENTER", "position": "TOP"}},
        "pageText": {"lightMode": {"headingColor": "1e1033ff", "bodyColor": "4a4462ff", "descriptionColor": "6b6485ff"}},
        "primaryButton": {"lightMode": {"defaults": {"backgroundColor": "6d28d9ff", "textColor": "ffffffff"},
                                        "hover": {"backgroundColor": "5b21b6ff", "textColor": "ffffffff"}}},
        "pageHeader": {"lightMode": {"background": {"color": "ffffffff"}, "borderColor": "ede9feff"},
                       "logo": {"enabled": True, "location": "START"}}}}
LIGHT_ASSETS = [
    {"Category": "FORM_LOGO", "ColorMode": "LIGHT", "Extension": "SVG", "Bytes": logo_svg("#6d28d9", "#1e1033")},
    {"Category": "PAGE_HEADER_LOGO", "ColorMode": "LIGHT", "Extension": "SVG", "Bytes": logo_svg("#6d28d9", "#1e1033")},
    {"Category": "AUTH_APP_GRAPHIC", "ColorMode": "LIGHT", "Extension": "SVG", "Bytes": phone_graphic("#6d28d9")},
]

# A browser-adaptive style: the form at the start of a dark page with a background image, the
# logo above the form, compact spacing, teal buttons; light colours for a light preference.
DYNAMIC_BRANDING = {
    "categories": {
        "global": {"colorSchemeMode": "DYNAMIC", "spacingDensity": "COMPACT"},
        "form": {"location": {"horizontal": "START", "vertical": "CENTER"}}},
    "componentClasses": {
        "buttons": {"borderRadius": 6}, "input": {"borderRadius": 6,
                                                 "darkMode": {"defaults": {"backgroundColor": "0b1220ff", "borderColor": "334155ff"}}},
        "link": {"darkMode": {"defaults": {"textColor": "5eead4ff"}}, "lightMode": {"defaults": {"textColor": "0f766eff"}}}},
    "components": {
        "pageBackground": {"image": {"enabled": True}, "lightMode": {"color": "ecfeffff"}, "darkMode": {"color": "0b1220ff"}},
        "form": {"borderRadius": 14, "darkMode": {"backgroundColor": "111a2bee", "borderColor": "1e293bff"},
                 "logo": {"enabled": True, "formInclusion": "OUT", "location": "START", "position": "TOP"}},
        "pageText": {"darkMode": {"headingColor": "f1f5f9ff", "bodyColor": "cbd5e1ff", "descriptionColor": "94a3b8ff"}},
        "primaryButton": {"darkMode": {"defaults": {"backgroundColor": "2dd4bfff", "textColor": "042f2eff"}},
                          "lightMode": {"defaults": {"backgroundColor": "0f766eff", "textColor": "ffffffff"}}}}}
DYNAMIC_ASSETS = [
    {"Category": "FORM_LOGO", "ColorMode": "LIGHT", "Extension": "SVG", "Bytes": logo_svg("#0f766e", "#042f2e")},
    {"Category": "FORM_LOGO", "ColorMode": "DARK", "Extension": "SVG", "Bytes": logo_svg("#14b8a6", "#f1f5f9")},
    {"Category": "PAGE_BACKGROUND", "ColorMode": "DARK", "Extension": "SVG", "Bytes": background_svg()},
]

LOOKS = {"default": None, "branded-light": (LIGHT_BRANDING, LIGHT_ASSETS), "branded-dark": (DYNAMIC_BRANDING, DYNAMIC_ASSETS)}


def tour_clients(idp, pool_id, callback):
    """One app client named "Acme Notes" per look, each with its managed login branding."""
    clients = {}
    for look, branding in LOOKS.items():
        client = idp.create_user_pool_client(
            UserPoolId=pool_id, ClientName=APP, CallbackURLs=[callback], AllowedOAuthFlows=["code"],
            AllowedOAuthScopes=["openid", "email"], AllowedOAuthFlowsUserPoolClient=True,
            SupportedIdentityProviders=["COGNITO"])["UserPoolClient"]
        if branding:
            idp.create_managed_login_branding(UserPoolId=pool_id, ClientId=client["ClientId"], Settings=branding[0],
                                              Assets=branding[1])
        clients[look] = client
    return clients


def authorize_url(server, client, callback):
    return OAuth2Session(client["ClientId"], scope="openid email", redirect_uri=callback, code_challenge_method="S256") \
        .create_authorization_url(server.endpoint + "/oauth2/authorize", code_verifier=secrets.token_urlsafe(48))[0]


class Tour:
    """A browser walking the pages of one look, checking each page and taking its screenshots."""

    def __init__(self, browser, look):
        self.browser, self.look, self.count = browser, look, 0
        self.folder = OUTPUT / look
        self.folder.mkdir(parents=True, exist_ok=True)
        for old in self.folder.glob("*.png"):
            old.unlink()

    def fill(self, name, value):
        field = self.browser.find_element(By.NAME, name)
        field.clear()
        field.send_keys(value)

    def submit(self):
        self.browser.find_element(By.CSS_SELECTOR, "button.primary").click()

    def click_link(self, text):
        self.browser.find_element(By.LINK_TEXT, text).click()

    def click_button(self, text):
        self.browser.find_element(By.XPATH, f"//button[normalize-space()='{text}']").click()

    def sign_in(self, username, password, then):
        """Signs in on the sign-in page and waits for the page titled `then`."""
        self.wait("Sign in")
        self.fill("username", username)
        self.fill("password", password)
        self.submit()
        self.wait(then)

    def wait(self, title, alert=None):
        wait_for(self.browser, heading(title))
        if alert:
            wait_for(self.browser, lambda b: b.find_elements(By.CSS_SELECTOR, f"[role={alert}]"))

    def check(self, primaries):
        """What every page keeps: one primary action (every other action is a link, or a button
        that looks like one), every field labelled, nothing refused by the Content-Security-Policy."""
        browser = self.browser
        assert len(browser.find_elements(By.CSS_SELECTOR, ".primary")) == primaries, browser.page_source
        for button in browser.find_elements(By.TAG_NAME, "button"):
            assert {"primary", "link-button"} & set(button.get_attribute("class").split()), button.text
        for field in browser.find_elements(By.CSS_SELECTOR, "input:not([type=hidden]):not([type=radio])"):
            assert browser.find_elements(By.CSS_SELECTOR, f"label[for='{field.get_attribute('id')}']"), field.get_attribute("name")
        refused = [entry["message"] for entry in browser.get_log("browser") if "Content Security Policy" in entry["message"]]
        assert not refused, refused

    def shoot(self, name, primaries=1):
        """Checks the page, then saves it at each width, whole (as tall as its content), after
        checking that it does not scroll sideways."""
        self.check(primaries)
        self.count += 1
        for width_name, (width, height) in WIDTHS.items():
            metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600}
            self.browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
            layout = self.browser.execute_cdp_cmd("Page.getLayoutMetrics", {})
            content = layout["cssContentSize"]
            assert content["width"] <= width + 1, f"{name} scrolls sideways at {width} px"
            if content["height"] > height:
                self.browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                             {**metrics, "height": math.ceil(content["height"])})
            self.browser.save_screenshot(str(self.folder / f"{self.count:02d}-{name}-{width_name}.png"))
        self.browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_every_page_default_and_branded_at_desktop_and_phone_widths(server, idp, browser, app_server):
    """Walks every hosted page in each look, with the behaviours each page owes its user."""
    policy = {"PasswordPolicy": {"MinimumLength": 10, "RequireUppercase": True, "RequireLowercase": True,
                                 "RequireNumbers": True, "RequireSymbols": False}}
    schema = [{"Name": "email", "AttributeDataType": "String", "Required": True, "Mutable": True},
              {"Name": "given_name", "AttributeDataType": "String", "Required": True, "Mutable": True}]
    pool = idp.create_user_pool(PoolName=unique("acme"), AutoVerifiedAttributes=["email"], Policies=policy,
                                Schema=schema)["UserPool"]
    idp.set_user_pool_mfa_config(UserPoolId=pool["Id"], MfaConfiguration="OPTIONAL",
                                 SoftwareTokenMfaConfiguration={"Enabled": True},
                                 SmsMfaConfiguration={"SmsAuthenticationMessage": "Your code: {####}"})
    clients = tour_clients(idp, pool["Id"], app_server)
    setup = new_client(idp, pool["Id"])

    def user(*attributes, password=STRONG):
        name = unique("acme")
        return admin_user(idp, pool["Id"], name, password, [("email", f"{name}@example.com"), ("email_verified", "true"),
                                                            ("given_name", "Ada"), *attributes])

    with_app = user()
    access = sign_in(idp, setup, with_app, STRONG)["AccessToken"]
    key = idp.associate_software_token(AccessToken=access)["SecretCode"]
    idp.verify_software_token(AccessToken=access, UserCode=pyotp.TOTP(key).now())
    idp.set_user_mfa_preference(AccessToken=access, SoftwareTokenMfaSettings={"Enabled": True, "PreferredMfa": True})
    choosing = user(("phone_number", "+15550001234"), ("phone_number_verified", "true"))
    access = sign_in(idp, setup, choosing, STRONG)["AccessToken"]
    key = idp.associate_software_token(AccessToken=access)["SecretCode"]
    idp.verify_software_token(AccessToken=access, UserCode=pyotp.TOTP(key).now())
    idp.set_user_mfa_preference(AccessToken=access, SoftwareTokenMfaSettings={"Enabled": True},
                                SMSMfaSettings={"Enabled": True})
    invited = unique("acme")
    idp.admin_create_user(UserPoolId=pool["Id"], Username=invited, TemporaryPassword=TEMPORARY, MessageAction="SUPPRESS",
                          UserAttributes=[{"Name": "email", "Value": f"{invited}@example.com"}])

    # Where MFA is required, a user without a factor sets up an authenticator app at sign-in.
    strict = idp.create_user_pool(PoolName=unique("acme-mfa"), Policies=policy)["UserPool"]
    idp.set_user_pool_mfa_config(UserPoolId=strict["Id"], MfaConfiguration="ON",
                                 SoftwareTokenMfaConfiguration={"Enabled": True})
    strict_clients = tour_clients(idp, strict["Id"], app_server)
    newcomer = admin_user(idp, strict["Id"], unique("acme"), STRONG)

    for look, client in clients.items():
        if look == "branded-dark":
            browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        tour = Tour(browser, look)
        plain = user()                  # a user of this look's reset (codes are sent a few times an hour)
        browser.get(authorize_url(server, client, app_server))
        tour.wait("Sign in")
        assert browser.find_element(By.CSS_SELECTOR, "label[for=username]").text == "Username"
        assert browser.find_element(By.CLASS_NAME, "app-name").text == APP
        assert browser.title == f"Sign in · {APP}"
        if look != "default":
            assert browser.find_elements(By.CSS_SELECTOR, "img.logo-customizable[src^='data:image/svg+xml;base64,']")
        tour.shoot("sign-in")

        tour.click_link("Create an account")
        tour.wait("Create an account")
        rules = browser.find_element(By.ID, "password-rules")
        assert [li.text for li in rules.find_elements(By.TAG_NAME, "li")] == [
            "At least 10 characters", "A lowercase letter", "An uppercase letter", "A number"]
        assert browser.find_element(By.ID, "password").get_attribute("aria-describedby") == "password-rules"
        tour.shoot("sign-up")

        # A refused sign-up keeps what was typed, but not the password.
        newcomer_name, email = unique("new"), f"{unique('new')}@example.com"
        tour.fill("username", newcomer_name)
        tour.fill("attribute.email", email)
        tour.fill("attribute.given_name", "Grace")
        tour.fill("password", "too-short")
        tour.submit()
        tour.wait("Create an account", alert="alert")
        assert "Password did not conform with policy" in browser.find_element(By.CSS_SELECTOR, "[role=alert]").text
        assert browser.find_element(By.NAME, "username").get_attribute("value") == newcomer_name
        assert browser.find_element(By.NAME, "attribute.email").get_attribute("value") == email
        assert browser.find_element(By.NAME, "attribute.given_name").get_attribute("value") == "Grace"
        assert browser.find_element(By.NAME, "password").get_attribute("value") == ""
        tour.shoot("sign-up-refused")

        tour.fill("password", STRONG)
        tour.submit()
        tour.wait("Confirm your account")
        assert browser.find_elements(By.XPATH, "//button[normalize-space()='Send a new code']")
        assert browser.find_element(By.LINK_TEXT, "Back to sign in")
        tour.shoot("confirm-code")

        tour.click_link("Back to sign in")
        tour.wait("Sign in")
        tour.click_link("Forgot your password?")
        tour.wait("Reset your password")
        assert browser.find_element(By.CSS_SELECTOR, "label[for=username]").text == "Username"
        tour.shoot("forgot-password")

        # The reset code page sends a new code and leads back to the sign-in.
        tour.fill("username", plain)
        tour.submit()
        tour.wait("Choose a new password")
        sent = len(server.outbox(pool["Id"]))
        assert browser.find_element(By.LINK_TEXT, "Back to sign in")
        assert [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#new_password-rules li")][0] == "At least 10 characters"
        tour.click_button("Send a new code")
        tour.wait("Choose a new password", alert="status")
        assert "We sent a new code to" in browser.find_element(By.CSS_SELECTOR, "[role=status]").text
        assert len(server.outbox(pool["Id"])) == sent + 1
        tour.shoot("reset-code")

        tour.click_link("Back to sign in")
        tour.sign_in(with_app, STRONG, then="Verify it's you")
        assert browser.find_element(By.CSS_SELECTOR, "label[for=code]").text == "Code from the app"
        if look == "branded-light":
            assert browser.find_elements(By.CSS_SELECTOR, "img.graphic")
        tour.shoot("mfa-code")

        tour.click_link("Back to sign in")
        tour.sign_in(choosing, STRONG, then="Verify it's you")
        choices = browser.find_elements(By.CSS_SELECTOR, "input[type=radio][name=factor]")
        assert [c.get_attribute("value") for c in choices] == ["SOFTWARE_TOKEN_MFA", "SMS_MFA"]
        tour.shoot("select-factor")

        tour.click_link("Back to sign in")
        tour.sign_in(invited, TEMPORARY, then="Choose a new password")
        assert browser.find_element(By.NAME, "attribute.given_name")            # a required attribute it lacks
        tour.shoot("new-password")

        browser.get(authorize_url(server, strict_clients[look], app_server))
        tour.sign_in(newcomer, STRONG, then="Set up your authenticator app")
        assert re.fullmatch(r"[A-Z2-7]+", browser.find_element(By.CSS_SELECTOR, "code.secret").text)
        tour.shoot("totp-setup")

        # A form sent from a browser that lost its cookie: an error page in the app's look that
        # leads back to its sign-in page.
        browser.get(authorize_url(server, client, app_server))
        tour.wait("Sign in")
        browser.delete_cookie("cognate_browser")
        tour.fill("username", plain)
        tour.fill("password", STRONG)
        tour.submit()
        tour.wait("This page has expired", alert="alert")
        assert browser.find_element(By.CLASS_NAME, "app-name").text == APP
        tour.shoot("error")
        tour.click_link("Back to sign in")
        tour.wait("Sign in")

        if look == "default":
            browser.get(server.endpoint + "/oauth2/authorize?response_type=code&client_id=" + client["ClientId"]
                        + "&redirect_uri=https%3A%2F%2Fevil.example%2F")
            tour.wait("This sign-in link isn't valid", alert="alert")
            assert "redirect_mismatch" in browser.find_element(By.CLASS_NAME, "details").text
            assert not browser.find_elements(By.LINK_TEXT, "Back to sign in")
            tour.shoot("error-invalid-link", primaries=0)
        if look == "branded-dark":
            # The same style with a light preference: its light colours, its light logo.
            browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
            browser.get(authorize_url(server, client, app_server))
            tour.wait("Sign in")
            tour.shoot("sign-in-light-preference")
            browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    assert len(list(OUTPUT.glob("*/*.png"))) >= 3 * 11 * 2


def test_the_sign_in_field_is_named_as_the_pool_names_its_users(server, idp):
    """"Username", "Email", "Phone number" or "Username or email", as the pool lets users sign
    in; in a pool where the email is the username, sign-up asks for it once."""
    callback = "http://localhost:8000/callback"
    cases = [({}, "Username"), ({"UsernameAttributes": ["email"]}, "Email"),
             ({"UsernameAttributes": ["phone_number"]}, "Phone number"),
             ({"AliasAttributes": ["email"]}, "Username or email"),
             ({"AliasAttributes": ["email", "phone_number"]}, "Username, email or phone number")]
    for options, label in cases:
        pool = idp.create_user_pool(PoolName=unique("names"), AutoVerifiedAttributes=["email"], Schema=[
            {"Name": "email", "AttributeDataType": "String", "Required": True, "Mutable": True}], **options)["UserPool"]
        client = tour_clients(idp, pool["Id"], callback)["default"]
        browser = requests.Session()
        page = browser.get(authorize_url(server, client, callback), timeout=10)
        assert f'<label class="label-customizable" for="username">{label}</label>' in page.text, (options, page.text)
        if options.get("UsernameAttributes") == ["email"]:
            assert 'type="email"' in page.text
            sign_up = browser.get(server.endpoint + re.search(r'href="(/signup\?[^"]+)"', page.text).group(1)
                                  .replace("&amp;", "&"), timeout=10)
            assert 'for="username">Email</label>' in sign_up.text and 'name="attribute.email"' not in sign_up.text
            address = f"{unique('mail')}@example.com"
            flow = re.search(r'name="flow" value="([^"]+)"', sign_up.text).group(1)
            confirm = browser.post(server.endpoint + "/login", timeout=10,
                                   data={"flow": flow, "username": address, "password": PASSWORD})
            assert "Confirm your account" in confirm.text, confirm.text
            assert server.outbox(pool["Id"])[-1]["destination"] == address


def test_saml_sign_in_through_the_providers_page_in_chromium(server, idp, browser, app_server):
    """A SAML provider's page posts the response cross-site (the provider is localhost, Cognate
    127.0.0.1): Cognate verifies it, and the browser's own same-site GET finishes the sign-in."""
    from saml_idp import SAMLIdentityProvider

    OUTPUT.mkdir(parents=True, exist_ok=True)
    saml = SAMLIdentityProvider()
    try:
        pool = idp.create_user_pool(PoolName=unique("browser-saml"))["UserPool"]
        idp.create_identity_provider(
            UserPoolId=pool["Id"], ProviderName="Corp", ProviderType="SAML",
            ProviderDetails={"MetadataURL": saml.url + "/metadata", "RequestSigningAlgorithm": "rsa-sha256"},
            AttributeMapping={"email": "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"})
        saml.trust(pool["Id"], server.endpoint)
        client = idp.create_user_pool_client(
            UserPoolId=pool["Id"], ClientName="web", CallbackURLs=[app_server], AllowedOAuthFlows=["code"],
            AllowedOAuthScopes=["openid", "email"], AllowedOAuthFlowsUserPoolClient=True,
            SupportedIdentityProviders=["COGNITO", "Corp"])["UserPoolClient"]
        app = OAuth2Session(client["ClientId"], scope="openid email", redirect_uri=app_server, code_challenge_method="S256")
        verifier = secrets.token_urlsafe(48)
        uri, _ = app.create_authorization_url(server.endpoint + "/oauth2/authorize", code_verifier=verifier)
        browser.get(uri)
        wait_for(browser, lambda b: "Continue with Corp" in b.page_source)   # the provider's button on the sign-in page
        browser.find_element(By.PARTIAL_LINK_TEXT, "Continue with Corp").click()
        wait_for(browser, heading("Corp sign-in"))
        browser.save_screenshot(str(OUTPUT / "12-saml-provider-sign-in.png"))
        browser.find_element(By.NAME, "username").send_keys("sam")
        browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait_for(browser, lambda b: b.current_url.startswith(app_server + "?code="))
        token = app.fetch_token(server.endpoint + "/oauth2/token", authorization_response=browser.current_url,
                                code_verifier=verifier)
        claims = verify_token(server, pool["Id"], token["id_token"], "id", client["ClientId"])
        assert claims["cognito:username"] == "Corp_sam" and claims["email"] == "sam@corp.example.com"
    finally:
        saml.stop()
