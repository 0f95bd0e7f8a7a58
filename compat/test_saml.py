"""SAML 2.0 identity providers configured through boto3 as for Cognito (metadata by URL or
document, IDPSignout, IDPInit, EncryptedResponses, RequestSigningAlgorithm), signed in with
against a pysaml2 identity provider (compat/saml_idp.py): SP-initiated with a signed
AuthnRequest and an encrypted, signed assertion; single logout; IdP-initiated; and the
responses a service provider must refuse (tampered, unsigned, signed by another key, wrapped,
replayed, for another audience or request, finished in another browser)."""
import base64
import re
import secrets
from urllib.parse import parse_qs, urlencode, urlparse

import pytest
import requests

# pysaml2 names a cipher mode cryptography has moved; nothing here uses it.
pytestmark = pytest.mark.filterwarnings("ignore:CFB has been moved")

from helpers import cognito_error, unique, verify_token
from saml_idp import AES128_GCM, RSA_1_5, TRIPLE_DES, SAMLIdentityProvider, key_and_certificate, pem_of_base64_der
from test_oauth import CALLBACK, app_session, authorize

EMAIL_CLAIM = "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"
NAME_CLAIM = "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name"
LOGOUT_URL = "http://localhost:8000/signed-out"


@pytest.fixture
def saml_idp():
    made = SAMLIdentityProvider()
    yield made
    made.stop()


def saml_pool(idp, saml_idp, server, details, providers=None, name="Corp"):
    pool = idp.create_user_pool(PoolName=unique("saml"))["UserPool"]
    provider = idp.create_identity_provider(
        UserPoolId=pool["Id"], ProviderName=name, ProviderType="SAML", ProviderDetails=details,
        AttributeMapping={"email": EMAIL_CLAIM, "name": NAME_CLAIM}, IdpIdentifiers=["corp.example.com"])["IdentityProvider"]
    client = idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="web", GenerateSecret=True, CallbackURLs=[CALLBACK], LogoutURLs=[LOGOUT_URL],
        AllowedOAuthFlows=["code"], AllowedOAuthScopes=["openid", "email", "profile"],
        AllowedOAuthFlowsUserPoolClient=True, SupportedIdentityProviders=providers or [name])["UserPoolClient"]
    certificate = provider["ProviderDetails"].get("ActiveEncryptionCertificate")
    saml_idp.trust(pool["Id"], server.endpoint, certificate)
    return pool, client, provider


def to_provider(server, app, provider="Corp"):
    """The browser from the app's authorize URL to the IdP: (browser, the IdP's query, verifier)."""
    verifier = secrets.token_urlsafe(48)
    uri, _ = authorize(server, app, verifier, identity_provider=provider)
    browser = requests.Session()
    answer = browser.get(uri, allow_redirects=False, timeout=10)
    while answer.status_code == 302 and answer.headers["Location"].startswith("/"):
        answer = browser.get(server.endpoint + answer.headers["Location"], allow_redirects=False, timeout=10)
    assert answer.status_code == 302, answer.text[:400]
    location = answer.headers["Location"]
    return browser, location, {k: v[0] for k, v in parse_qs(urlparse(location).query).items()}, verifier


def post_response(server, response, relay_state):
    """The IdP's page posting the response: a cross-site POST, so none of the browser's
    SameSite=Lax cookies come with it (a request without the browser's session)."""
    return requests.post(server.endpoint + "/saml2/idpresponse", data={"SAMLResponse": response, "RelayState": relay_state},
                         allow_redirects=False, timeout=10)


def finish_in(server, browser, posted):
    assert posted.status_code == 303, (posted.status_code, posted.text[:500])
    return browser.get(server.endpoint + posted.headers["Location"], allow_redirects=False, timeout=10)


def attributes(email, name="Sam Lee"):
    return {EMAIL_CLAIM: [email], NAME_CLAIM: [name]}


def signing_certificate(idp, pool):
    return pem_of_base64_der(idp.get_signing_certificate(UserPoolId=pool["Id"])["Certificate"])


def test_providers_are_configured_as_for_cognito(server, idp, saml_idp):
    details = {"MetadataURL": saml_idp.url + "/metadata", "IDPSignout": "true", "EncryptedResponses": "true",
               "RequestSigningAlgorithm": "rsa-sha256"}
    pool, client, created = saml_pool(idp, saml_idp, server, details)
    shown = idp.describe_identity_provider(UserPoolId=pool["Id"], ProviderName="Corp")["IdentityProvider"]
    assert shown["ProviderType"] == "SAML" and shown["IdpIdentifiers"] == ["corp.example.com"]
    assert shown["ProviderDetails"]["SSORedirectBindingURI"] == saml_idp.sso
    assert shown["ProviderDetails"]["SLORedirectBindingURI"] == saml_idp.slo
    certificate = shown["ProviderDetails"]["ActiveEncryptionCertificate"]
    assert base64.b64decode(certificate)[:1] == b"\x30"   # DER
    assert set(shown["ProviderDetails"]) == set(details) | {"SSORedirectBindingURI", "SLORedirectBindingURI",
                                                             "ActiveEncryptionCertificate"}
    found = idp.get_identity_provider_by_identifier(UserPoolId=pool["Id"], IdpIdentifier="corp.example.com")
    assert found["IdentityProvider"]["ProviderName"] == "Corp"

    # An update that echoes the description keeps the encryption key; a document works as a URL does.
    idp.update_identity_provider(UserPoolId=pool["Id"], ProviderName="Corp",
                                 ProviderDetails={**shown["ProviderDetails"], "IDPInit": "true"})
    again = idp.describe_identity_provider(UserPoolId=pool["Id"], ProviderName="Corp")["IdentityProvider"]
    assert again["ProviderDetails"]["ActiveEncryptionCertificate"] == certificate
    assert again["ProviderDetails"]["IDPInit"] == "true"
    idp.create_identity_provider(UserPoolId=pool["Id"], ProviderName="FromFile", ProviderType="SAML",
                                 ProviderDetails={"MetadataFile": saml_idp.metadata()})

    def refused(provider_details, contains):
        with cognito_error("InvalidParameterException", contains=contains):
            idp.create_identity_provider(UserPoolId=pool["Id"], ProviderName=unique("Bad")[:30], ProviderType="SAML",
                                         ProviderDetails=provider_details)

    refused({}, "MetadataURL or MetadataFile")
    refused({"MetadataURL": saml_idp.url + "/metadata", "MetadataFile": saml_idp.metadata()}, "not both")
    refused({"MetadataURL": "http://127.0.0.1:9/metadata"}, "Error retrieving metadata from http://127.0.0.1:9/metadata")
    refused({"MetadataFile": "<not xml"}, "not an XML document")
    refused({"MetadataFile": '<!DOCTYPE x [<!ENTITY e "boom">]>' + saml_idp.metadata().split("?>", 1)[-1]},
            "not an XML document")
    refused({"MetadataFile": saml_idp.metadata(), "RequestSigningAlgorithm": "rsa-sha1"}, "rsa-sha256")
    refused({"MetadataFile": saml_idp.metadata(), "IDPSignout": "maybe"}, "true or false")
    _, expired = key_and_certificate("old", days=-1)
    stale = re.sub(r"(<(\w+:)?X509Certificate>)[^<]+(</(\w+:)?X509Certificate>)",
                   lambda m: m.group(1) + "".join(expired.strip().splitlines()[1:-1]) + m.group(3), saml_idp.metadata())
    assert stale != saml_idp.metadata()
    refused({"MetadataFile": stale}, "expired")


def test_sp_initiated_sign_in_with_signed_request_encrypted_assertion_and_single_logout(server, idp, saml_idp):
    details = {"MetadataURL": saml_idp.url + "/metadata", "IDPSignout": "true", "EncryptedResponses": "true",
               "RequestSigningAlgorithm": "rsa-sha256"}
    pool, client, provider = saml_pool(idp, saml_idp, server, details)
    app = app_session(server, client, scope="openid email profile")
    browser, location, query, verifier = to_provider(server, app)
    assert location.startswith(saml_idp.sso + "?")
    request = saml_idp.read_request(query, signing_certificate=signing_certificate(idp, pool))
    sp = f"urn:amazon:cognito:sp:{pool['Id']}"
    assert request.issuer.text == sp and request.assertion_consumer_service_url == server.endpoint + "/saml2/idpresponse"

    encryption = pem_of_base64_der(provider["ProviderDetails"]["ActiveEncryptionCertificate"])
    response = saml_idp.response(sp, server.endpoint + "/saml2/idpresponse", "sam.lee", attributes("sam@corp.example.com"),
                                 in_response_to=request.id, encrypt_for=encryption)
    assert "EncryptedAssertion" in base64.b64decode(response).decode()
    back = finish_in(server, browser, post_response(server, response, query["RelayState"]))
    assert back.status_code == 302 and back.headers["Location"].startswith(CALLBACK + "?code="), back.text[:400]
    token = app.fetch_token(server.endpoint + "/oauth2/token", authorization_response=back.headers["Location"],
                            code_verifier=verifier)
    claims = verify_token(server, pool["Id"], token["id_token"], "id", client["ClientId"])
    assert claims["cognito:username"] == "Corp_sam.lee"
    assert claims["email"] == "sam@corp.example.com" and claims["name"] == "Sam Lee"
    identity = claims["identities"][0]
    assert (identity["providerType"], identity["providerName"], identity["userId"], identity["issuer"]) == \
        ("SAML", "Corp", "sam.lee", saml_idp.entity_id)
    user = idp.admin_get_user(UserPoolId=pool["Id"], Username="Corp_sam.lee")
    assert user["UserStatus"] == "EXTERNAL_PROVIDER"

    # Single sign-on: another app client of the pool gets a code in this browser without a page.
    other = idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="second", CallbackURLs=[CALLBACK], AllowedOAuthFlows=["code"],
        AllowedOAuthScopes=["openid", "email"], AllowedOAuthFlowsUserPoolClient=True,
        SupportedIdentityProviders=["Corp"])["UserPoolClient"]
    second_app = app_session(server, other, scope="openid email")
    second_uri, _ = authorize(server, second_app, secrets.token_urlsafe(48))
    hop = browser.get(second_uri, allow_redirects=False, timeout=10)
    landed = browser.get(server.endpoint + hop.headers["Location"], allow_redirects=False, timeout=10)
    assert landed.status_code == 302 and landed.headers["Location"].startswith(CALLBACK + "?code="), landed.text[:300]

    # The same response again: its request was answered.
    replay = post_response(server, response, query["RelayState"])
    assert replay.status_code == 400 and "expired" in replay.text

    # Single logout: through the IdP (a signed LogoutRequest for the same NameID and session),
    # back at /saml2/logout with its LogoutResponse, then on to the app's sign-out URL.
    out = browser.get(server.endpoint + "/logout?" + urlencode({"client_id": client["ClientId"], "logout_uri": LOGOUT_URL}),
                      allow_redirects=False, timeout=10)
    assert out.status_code == 302 and out.headers["Location"].startswith(saml_idp.slo + "?"), out.headers
    logout_query = {k: v[0] for k, v in parse_qs(urlparse(out.headers["Location"]).query).items()}
    logout = saml_idp.read_request(logout_query, signing_certificate=signing_certificate(idp, pool), logout=True)
    assert logout.name_id.text == "sam.lee" and logout.issuer.text == sp
    assert logout.session_index and logout.session_index[0].text
    answered = requests.post(server.endpoint + "/saml2/logout", allow_redirects=False, timeout=10, data={
        "SAMLResponse": saml_idp.logout_response(logout), "RelayState": logout_query["RelayState"]})
    assert answered.status_code == 302 and answered.headers["Location"] == LOGOUT_URL, answered.text[:300]
    # Used up; and the browser's session is gone, so /logout goes straight to the app.
    again = requests.post(server.endpoint + "/saml2/logout", allow_redirects=False, timeout=10, data={
        "SAMLResponse": saml_idp.logout_response(logout), "RelayState": logout_query["RelayState"]})
    assert again.status_code == 400
    direct = browser.get(server.endpoint + "/logout?" + urlencode({"client_id": client["ClientId"], "logout_uri": LOGOUT_URL}),
                         allow_redirects=False, timeout=10)
    assert direct.status_code == 302 and direct.headers["Location"] == LOGOUT_URL


def test_responses_a_service_provider_must_refuse(server, idp, saml_idp):
    pool, client, _ = saml_pool(idp, saml_idp, server, {"MetadataFile": saml_idp.metadata()})
    app = app_session(server, client, scope="openid email")
    sp = f"urn:amazon:cognito:sp:{pool['Id']}"
    acs = server.endpoint + "/saml2/idpresponse"

    def attempt(make, finish_with=None):
        browser, _, query, _ = to_provider(server, app)
        request = saml_idp.read_request(query)
        posted = post_response(server, make(request.id), query["RelayState"])
        if posted.status_code == 303:
            return (finish_with or browser).get(server.endpoint + posted.headers["Location"], allow_redirects=False, timeout=10)
        return posted

    def refused(answer, reason):
        """Back to the app with one answer whatever failed (none tells about an encrypted
        assertion's plaintext); the reason is in the server's log."""
        assert answer.status_code == 302, (answer.status_code, answer.text[:300])
        location = answer.headers["Location"]
        assert location.startswith(CALLBACK + "?error=invalid_request"), location
        assert parse_qs(urlparse(location).query)["error_description"][0] == \
            "Signing in with Corp failed: its SAML response was refused."
        logged = [line for line in server.log_path.read_text().splitlines() if "saml: Corp: response refused" in line]
        assert logged and reason in logged[-1], (reason, logged[-1:])

    good = lambda request_id: saml_idp.response(sp, acs, "kim", attributes("kim@corp.example.com"), in_response_to=request_id)
    assert attempt(good).headers["Location"].startswith(CALLBACK + "?code=")

    # Tampered after signing: the NameID changed.
    def tampered(request_id):
        text = base64.b64decode(good(request_id)).decode().replace(">kim<", ">admin<")
        return base64.b64encode(text.encode()).decode()
    refused(attempt(tampered), "does not verify")

    # Signed by a key the metadata does not name.
    other = SAMLIdentityProvider()
    try:
        other.entity_id = saml_idp.entity_id
        other.trust(pool["Id"], server.endpoint)
        refused(attempt(lambda rid: other.response(sp, acs, "kim", attributes("k@x.example"), in_response_to=rid)),
                "does not verify")
    finally:
        other.stop()

    # Not signed at all.
    refused(attempt(lambda rid: saml_idp.response(sp, acs, "kim", attributes("k@x.example"), in_response_to=rid,
                                                  sign_assertion=False)), "Neither the SAML response nor its assertion is signed")

    # Wrapped: the signed assertion moved aside, an unsigned one for another user in its place.
    def wrapped(request_id):
        text = base64.b64decode(good(request_id)).decode()
        protocol = re.search(r"<(\w+):Response ", text).group(1)
        assertion = re.search(r"<(\w+):Assertion ", text).group(1)
        start = text.index(f"<{assertion}:Assertion ")
        end = text.index(f"</{assertion}:Assertion>") + len(f"</{assertion}:Assertion>")
        signed = text[start:end]
        forged = re.sub(r"<(\w+):Signature[ >].*</\1:Signature>", "", signed, flags=re.S).replace(">kim<", ">admin<")
        assert forged != signed
        forged = re.sub(r'ID="[^"]+"', 'ID="_forged"', forged, count=1)
        text = (text[:start] + forged + f"<{protocol}:Extensions>" + signed + f"</{protocol}:Extensions>" + text[end:])
        return base64.b64encode(text.encode()).decode()
    refused(attempt(wrapped), "Neither the SAML response nor its assertion is signed")

    # For another service provider (audience), another request.
    refused(attempt(lambda rid: saml_idp.response("urn:amazon:cognito:sp:other", acs, "kim", attributes("k@x.example"),
                                                  in_response_to=rid)), f"another audience, not {sp}")
    refused(attempt(lambda rid: saml_idp.response(sp, acs, "kim", attributes("k@x.example"), in_response_to="_other")),
            "another request")

    # A verified response finishes only in the browser that began the sign-in.
    elsewhere = attempt(good, finish_with=requests.Session())
    assert elsewhere.status_code == 400 and "another browser" in elsewhere.text

    # Encryption required: a plain assertion is refused; so are ciphers and key transports
    # outside AES and RSA-OAEP (Triple DES, RSA PKCS #1 v1.5: a padding oracle's food).
    provider = idp.update_identity_provider(
        UserPoolId=pool["Id"], ProviderName="Corp",
        ProviderDetails={"MetadataFile": saml_idp.metadata(), "EncryptedResponses": "true"})["IdentityProvider"]
    refused(attempt(good), "must encrypt")
    encryption = pem_of_base64_der(provider["ProviderDetails"]["ActiveEncryptionCertificate"])
    saml_idp.service_providers.clear()
    saml_idp.trust(pool["Id"], server.endpoint, provider["ProviderDetails"]["ActiveEncryptionCertificate"])

    def encrypted(**kind):
        return lambda rid: saml_idp.response(sp, acs, "kim", attributes("kim@corp.example.com"), in_response_to=rid,
                                             encrypt_for=encryption, **kind)
    assert attempt(encrypted(cipher=AES128_GCM)).headers["Location"].startswith(CALLBACK + "?code=")
    refused(attempt(encrypted(cipher=TRIPLE_DES)), "cannot be decrypted")
    refused(attempt(encrypted(key_transport=RSA_1_5)), "cannot be decrypted")

    # Garbage and an unknown RelayState get an error page, not a 500.
    assert post_response(server, "bm90IHhtbA==", "nope").status_code == 400
    assert post_response(server, "", "").status_code == 400


def test_idp_initiated_sign_in(server, idp, saml_idp):
    pool, client, _ = saml_pool(idp, saml_idp, server, {"MetadataFile": saml_idp.metadata(), "IDPInit": "true"})
    sp = f"urn:amazon:cognito:sp:{pool['Id']}"
    acs = server.endpoint + "/saml2/idpresponse"
    relay = urlencode({"identity_provider": "Corp", "client_id": client["ClientId"], "redirect_uri": CALLBACK,
                       "response_type": "code", "scope": "openid email"})
    response = saml_idp.response(sp, acs, "lee", attributes("lee@corp.example.com"))
    answer = post_response(server, response, relay)
    assert answer.status_code == 302 and answer.headers["Location"].startswith(CALLBACK + "?code="), answer.text[:300]
    app = app_session(server, client, scope="openid email")
    code = parse_qs(urlparse(answer.headers["Location"]).query)["code"][0]
    token = requests.post(server.endpoint + "/oauth2/token", auth=(client["ClientId"], client["ClientSecret"]), timeout=10,
                          data={"grant_type": "authorization_code", "code": code, "redirect_uri": CALLBACK}).json()
    claims = verify_token(server, pool["Id"], token["id_token"], "id", client["ClientId"])
    assert claims["cognito:username"] == "Corp_lee" and claims["email"] == "lee@corp.example.com"
    del app

    # Taken once.
    again = post_response(server, response, relay)
    assert again.status_code == 302 and "used already" in parse_qs(urlparse(again.headers["Location"]).query)["error_description"][0]
    # By idp_identifier too.
    by_identifier = relay.replace("identity_provider=Corp", "idp_identifier=corp.example.com")
    answer = post_response(server, saml_idp.response(sp, acs, "lee", attributes("lee@corp.example.com")), by_identifier)
    assert answer.headers["Location"].startswith(CALLBACK + "?code=")
    # An unsolicited response must not claim to answer a request.
    answer = post_response(server, saml_idp.response(sp, acs, "lee", attributes("l@x.example"), in_response_to="_x"), relay)
    assert parse_qs(urlparse(answer.headers["Location"]).query)["error_description"][0] == \
        "Signing in with Corp failed: its SAML response was refused."
    assert "must not answer a request (InResponseTo)" in server.log_path.read_text().splitlines()[-1] or \
        any("must not answer a request" in line for line in server.log_path.read_text().splitlines()[-5:])

    # As in Cognito, a client that offers such a provider offers SAML providers only: not the
    # pool's own sign-in; and such a client's provider cannot start accepting IdP-initiated sign-in.
    with cognito_error("InvalidParameterException", contains="can offer only SAML providers, not COGNITO"):
        idp.update_user_pool_client(
            UserPoolId=pool["Id"], ClientId=client["ClientId"], CallbackURLs=[CALLBACK], AllowedOAuthFlows=["code"],
            AllowedOAuthScopes=["openid", "email"], AllowedOAuthFlowsUserPoolClient=True,
            SupportedIdentityProviders=["Corp", "COGNITO"])
    idp.update_identity_provider(UserPoolId=pool["Id"], ProviderName="Corp",
                                 ProviderDetails={"MetadataFile": saml_idp.metadata()})
    idp.update_user_pool_client(
        UserPoolId=pool["Id"], ClientId=client["ClientId"], CallbackURLs=[CALLBACK], AllowedOAuthFlows=["code"],
        AllowedOAuthScopes=["openid", "email"], AllowedOAuthFlowsUserPoolClient=True, SupportedIdentityProviders=["Corp", "COGNITO"])
    with cognito_error("InvalidParameterException", contains="offers COGNITO"):
        idp.update_identity_provider(UserPoolId=pool["Id"], ProviderName="Corp",
                                     ProviderDetails={"MetadataFile": saml_idp.metadata(), "IDPInit": "true"})

    # Without IDPInit the provider takes none.
    answer = post_response(server, saml_idp.response(sp, acs, "lee", attributes("l@x.example")), relay)
    assert "does not accept IdP-initiated" in parse_qs(urlparse(answer.headers["Location"]).query)["error_description"][0]


def test_the_sign_in_page_finds_the_provider_by_email_domain(server, idp, saml_idp):
    pool, client, _ = saml_pool(idp, saml_idp, server, {"MetadataFile": saml_idp.metadata()}, providers=["Corp", "COGNITO"])
    app = app_session(server, client, scope="openid email")
    uri, _ = authorize(server, app, secrets.token_urlsafe(48))
    browser = requests.Session()
    page = browser.get(uri, timeout=10)
    assert page.status_code == 200 and 'action="/login/domain"' in page.text and 'name="email"' in page.text
    assert "Continue with Corp" not in page.text   # every SAML provider has an identifier: no buttons for them
    # What the page offers, for apps that draw their own buttons (no credentials needed).
    options = requests.get(server.endpoint + "/oauth2/identityProviders", params={"client_id": client["ClientId"]}, timeout=10)
    assert options.json() == {"client_id": client["ClientId"], "cognito": True, "providers": [], "email_discovery": True}
    unknown_client = requests.post(server.endpoint + "/oauth2/identityProviders", data={"client_id": "nope"}, timeout=10)
    assert unknown_client.status_code in (400, 401) and unknown_client.json()["error"] == "invalid_client"
    form = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page.text.split('action="/login/domain"')[1]
                           .split("</form>")[0]))
    found = browser.get(server.endpoint + "/login/domain", params={**form, "email": "Pat@Corp.Example.com"},
                        allow_redirects=False, timeout=10)
    assert found.status_code == 302 and "identity_provider=Corp" in found.headers["Location"], found.text[:300]
    to_idp = browser.get(server.endpoint + found.headers["Location"], allow_redirects=False, timeout=10)
    assert to_idp.status_code == 302 and to_idp.headers["Location"].startswith(saml_idp.sso + "?")

    unknown = browser.get(server.endpoint + "/login/domain", params={**form, "email": "pat@elsewhere.example"}, timeout=10)
    assert unknown.status_code == 200 and "No sign-in is set up for elsewhere.example." in unknown.text
    # Text that is no domain is not shown on the page.
    crafted = browser.get(server.endpoint + "/login/domain", timeout=10,
                          params={**form, "email": "a@ACCOUNT SUSPENDED - call +1 555 0100"})
    assert crafted.status_code == 200 and "SUSPENDED" not in crafted.text
    assert "No sign-in is set up for that email address&#39;s domain." in crafted.text or \
        "No sign-in is set up for that email address's domain." in crafted.text

    # Without an identifier on the SAML provider, the page shows its button instead.
    idp.update_identity_provider(UserPoolId=pool["Id"], ProviderName="Corp", IdpIdentifiers=[])
    page = requests.get(uri, timeout=10)
    assert "Continue with Corp" in page.text and 'action="/login/domain"' not in page.text
    options = requests.post(server.endpoint + "/oauth2/identityProviders", data={"client_id": client["ClientId"]}, timeout=10)
    assert options.json()["providers"] == [{"name": "Corp", "type": "SAML"}] and not options.json()["email_discovery"]
