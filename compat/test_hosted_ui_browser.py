"""The hosted pages in a real browser (issue 13): headless Chromium, driven by selenium, walks
sign-up → the emailed code from the outbox → sign-in → the redirect to the app with a code,
which the app (authlib) exchanges for tokens; and a federated sign-in through a second Cognate
acting as the upstream OpenID Connect provider. A screenshot of each page is saved under
compat/output/hosted-ui/. Chromium and chromedriver come from Debian (.ci/run installs them)."""
import http.server
import pathlib
import secrets
import shutil
import threading

import pytest
from authlib.integrations.requests_client import OAuth2Session
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from helpers import PASSWORD, confirmed_user, unique, verify_token
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
    """Waits (15 s at most) until `condition(browser)` holds: a click's navigation may still run."""
    WebDriverWait(browser, 15, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)).until(condition)


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
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=800,900"):
        options.add_argument(argument)
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
