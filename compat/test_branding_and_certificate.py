"""Managed login branding stored per app client and applied to the hosted pages, and
GetSigningCertificate (issue 14) — through boto3, the pages fetched as a browser would, the
certificate checked with the `cryptography` package against the pool's JWKS."""
import base64
import secrets

import requests
from cryptography import x509
from cryptography.hazmat.primitives.asymmetric import padding

from helpers import cognito_error, jwks, unique
from test_oauth import PNG, app_session, authorize, oauth_pool

SETTINGS = {"components": {
    "pageBackground": {"lightMode": {"color": "F0F4F8FF"}},
    "primaryButton": {"lightMode": {"defaults": {"backgroundColor": "#0B5FFF", "textColor": "ffffff"}}},
    "pageText": {"lightMode": {"bodyColor": "red; } body { display: none"}}}}     # not a colour: ignored


def test_branding_lifecycle_and_its_errors(server, idp):
    pool, client = oauth_pool(idp)
    created = idp.create_managed_login_branding(
        UserPoolId=pool["Id"], ClientId=client["ClientId"], Settings=SETTINGS,
        Assets=[{"Category": "FORM_LOGO", "ColorMode": "LIGHT", "Extension": "PNG", "Bytes": PNG}])["ManagedLoginBranding"]
    branding_id = created["ManagedLoginBrandingId"]
    assert created["UserPoolId"] == pool["Id"] and created["UseCognitoProvidedValues"] is False
    assert created["Settings"] == SETTINGS and created["Assets"][0]["Bytes"] == PNG
    with cognito_error("ManagedLoginBrandingExistsException"):
        idp.create_managed_login_branding(UserPoolId=pool["Id"], ClientId=client["ClientId"], UseCognitoProvidedValues=True)
    by_client = idp.describe_managed_login_branding_by_client(UserPoolId=pool["Id"], ClientId=client["ClientId"])
    assert by_client["ManagedLoginBranding"]["ManagedLoginBrandingId"] == branding_id
    described = idp.describe_managed_login_branding(UserPoolId=pool["Id"], ManagedLoginBrandingId=branding_id)
    assert described["ManagedLoginBranding"]["Settings"] == SETTINGS

    with cognito_error("InvalidParameterException", contains="UseCognitoProvidedValues"):
        idp.update_managed_login_branding(UserPoolId=pool["Id"], ManagedLoginBrandingId=branding_id,
                                          UseCognitoProvidedValues=True, Settings=SETTINGS)
    with cognito_error("InvalidParameterException", contains="once"):
        idp.update_managed_login_branding(UserPoolId=pool["Id"], ManagedLoginBrandingId=branding_id, Assets=[
            {"Category": "FORM_LOGO", "ColorMode": "LIGHT", "Extension": "PNG", "Bytes": PNG}] * 2)
    with cognito_error("InvalidParameterException", contains="JSON object"):
        idp.update_managed_login_branding(UserPoolId=pool["Id"], ManagedLoginBrandingId=branding_id, Settings=[1, 2])
    defaults = idp.update_managed_login_branding(
        UserPoolId=pool["Id"], ManagedLoginBrandingId=branding_id, UseCognitoProvidedValues=True)["ManagedLoginBranding"]
    assert defaults["UseCognitoProvidedValues"] is True and "Settings" not in defaults and defaults["Assets"] == []
    assert defaults["LastModifiedDate"] >= created["LastModifiedDate"]

    idp.delete_managed_login_branding(UserPoolId=pool["Id"], ManagedLoginBrandingId=branding_id)
    with cognito_error("ResourceNotFoundException"):
        idp.describe_managed_login_branding(UserPoolId=pool["Id"], ManagedLoginBrandingId=branding_id)
    with cognito_error("ResourceNotFoundException"):
        idp.describe_managed_login_branding_by_client(UserPoolId=pool["Id"], ClientId=client["ClientId"])
    with cognito_error("ResourceNotFoundException"):
        idp.create_managed_login_branding(UserPoolId=pool["Id"], ClientId="noclient" + unique().replace("-", ""), UseCognitoProvidedValues=True)
    other_pool, _ = oauth_pool(idp)
    again = idp.create_managed_login_branding(UserPoolId=pool["Id"], ClientId=client["ClientId"], Settings=SETTINGS)
    with cognito_error("ResourceNotFoundException"):          # a branding answers only under its own pool
        idp.describe_managed_login_branding(
            UserPoolId=other_pool["Id"], ManagedLoginBrandingId=again["ManagedLoginBranding"]["ManagedLoginBrandingId"])
    idp.delete_user_pool_client(UserPoolId=pool["Id"], ClientId=client["ClientId"])    # goes with its client
    with cognito_error("ResourceNotFoundException"):
        idp.describe_managed_login_branding(
            UserPoolId=pool["Id"], ManagedLoginBrandingId=again["ManagedLoginBranding"]["ManagedLoginBrandingId"])


def test_settings_nested_too_deep_are_refused_and_store_nothing(server, idp):
    """Settings deeper than JSON coders go (the request itself is read up to 512 levels) were
    refused with a 500 when the branding was stored; 64 levels are the bound."""
    pool, client = oauth_pool(idp)

    def nested(levels):
        value = {"leaf": True}
        for _ in range(levels - 1):
            value = {"a": value}
        return value

    for levels in (65, 200, 500):
        with cognito_error("InvalidParameterException", contains="64 levels"):
            idp.create_managed_login_branding(UserPoolId=pool["Id"], ClientId=client["ClientId"], Settings=nested(levels))
    with cognito_error("ResourceNotFoundException"):
        idp.describe_managed_login_branding_by_client(UserPoolId=pool["Id"], ClientId=client["ClientId"])
    created = idp.create_managed_login_branding(
        UserPoolId=pool["Id"], ClientId=client["ClientId"], Settings=nested(64))["ManagedLoginBranding"]
    assert created["Settings"] == nested(64)
    with cognito_error("InvalidParameterException", contains="64 levels"):
        idp.update_managed_login_branding(UserPoolId=pool["Id"], ManagedLoginBrandingId=created["ManagedLoginBrandingId"],
                                          Settings={"list": [[[nested(62)]]]})
    described = idp.describe_managed_login_branding(UserPoolId=pool["Id"], ManagedLoginBrandingId=created["ManagedLoginBrandingId"])
    assert described["ManagedLoginBranding"]["Settings"] == nested(64)


def test_the_hosted_page_wears_the_branding(server, idp):
    pool, client = oauth_pool(idp)
    idp.create_managed_login_branding(
        UserPoolId=pool["Id"], ClientId=client["ClientId"], Settings=SETTINGS,
        Assets=[{"Category": "FORM_LOGO", "ColorMode": "LIGHT", "Extension": "PNG", "Bytes": PNG}])
    uri, _ = authorize(server, app_session(server, client), secrets.token_urlsafe(48))
    page = requests.get(uri, timeout=10)
    assert page.status_code == 200
    assert ":root { --page-bg: #f0f4f8ff; --primary-bg: #0b5fff; --primary-text: #ffffff; }" in page.text
    assert "red;" not in page.text and "color-scheme: light;" in page.text
    assert f'src="data:image/png;base64,{base64.b64encode(PNG).decode()}"' in page.text
    assert "img-src 'self' data:" in page.headers["Content-Security-Policy"]
    # A UI customization's CSS follows the branding's (it wins where both style the same thing).
    idp.set_ui_customization(UserPoolId=pool["Id"], ClientId=client["ClientId"], CSS="button { color: black; }")
    text = requests.get(uri, timeout=10).text
    assert text.index("--primary-text: #ffffff;") < text.index("button { color: black; }")


def test_dark_mode_radii_spacing_and_placement_are_rendered(server, idp):
    """colorSchemeMode DARK and DYNAMIC (dark colours under prefers-color-scheme), the radii,
    spacing density, form location, logo placement, header and favicon; values that are not
    what the setting takes are ignored."""
    pool, client = oauth_pool(idp)
    settings = {
        "categories": {"global": {"colorSchemeMode": "DYNAMIC", "spacingDensity": "SPACIOUS", "pageHeader": {"enabled": True}},
                       "form": {"location": {"horizontal": "END", "vertical": "START"}}},
        "componentClasses": {"buttons": {"borderRadius": 20}, "input": {"borderRadius": "4; } body { x"}},
        "components": {"form": {"borderRadius": 16.5, "darkMode": {"backgroundColor": "101820ff"},
                                "logo": {"formInclusion": "OUT", "location": "END", "position": "BOTTOM"}},
                       "primaryButton": {"darkMode": {"defaults": {"backgroundColor": "2dd4bf"}}},
                       "pageHeader": {"logo": {"location": "CENTER"}}}}
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'
    branding = idp.create_managed_login_branding(
        UserPoolId=pool["Id"], ClientId=client["ClientId"], Settings=settings, Assets=[
            {"Category": "FORM_LOGO", "ColorMode": "LIGHT", "Extension": "PNG", "Bytes": PNG},
            {"Category": "FORM_LOGO", "ColorMode": "DARK", "Extension": "SVG", "Bytes": svg},
            {"Category": "PAGE_HEADER_LOGO", "ColorMode": "DYNAMIC", "Extension": "PNG", "Bytes": PNG},
            {"Category": "FAVICON_ICO", "ColorMode": "LIGHT", "Extension": "ICO", "Bytes": b"\0\0\1\0"}])["ManagedLoginBranding"]
    uri, _ = authorize(server, app_session(server, client), secrets.token_urlsafe(48))
    text = requests.get(uri, timeout=10).text
    assert "color-scheme: light dark;" in text and '<meta name="color-scheme" content="light dark">' in text
    dark = text[text.index("@media (prefers-color-scheme: dark) {"):]
    assert "--form-bg: #101820ff; --primary-bg: #2dd4bf;" in dark
    assert ":root { --button-radius: 20px; --form-radius: 16px; --space: 1.375rem; }" in text and "body { x" not in text
    assert 'class="page h-end v-start"' in text
    png, dark_svg = base64.b64encode(PNG).decode(), base64.b64encode(svg).decode()
    assert (f'<picture><source media="(prefers-color-scheme: dark)" srcset="data:image/svg+xml;base64,{dark_svg}">'
            f'<img src="data:image/png;base64,{png}"') in text
    assert text.index("</main>") < text.index('<div class="logo-row end bottom">')          # outside, below the form
    assert f'<header class="bar center"><img src="data:image/png;base64,{png}"' in text
    assert '<link rel="icon" href="data:image/x-icon;base64,AAABAA==">' in text

    settings["categories"]["global"]["colorSchemeMode"] = "DARK"
    idp.update_managed_login_branding(UserPoolId=pool["Id"], ManagedLoginBrandingId=branding["ManagedLoginBrandingId"],
                                      Settings=settings)
    text = requests.get(uri, timeout=10).text
    assert "color-scheme: dark;" in text and "prefers-color-scheme" not in text
    assert f'<img src="data:image/svg+xml;base64,{dark_svg}"' in text and f"base64,{png}\" alt=\"web logo\" class" not in text
    idp.update_managed_login_branding(UserPoolId=pool["Id"], ManagedLoginBrandingId=branding["ManagedLoginBrandingId"],
                                      UseCognitoProvidedValues=True)
    text = requests.get(uri, timeout=10).text
    assert "color-scheme: light;" in text and "data:image" not in text and "<header" not in text


def test_the_signing_certificate_carries_the_pools_token_key(server, idp):
    pool, _ = oauth_pool(idp)
    answer = idp.get_signing_certificate(UserPoolId=pool["Id"])["Certificate"]
    certificate = x509.load_der_x509_certificate(base64.b64decode(answer))
    assert certificate.subject.get_attributes_for_oid(x509.NameOID.COMMON_NAME)[0].value == pool["Id"]
    assert certificate.issuer == certificate.subject
    public = certificate.public_key()
    certificate.public_key().verify(certificate.signature, certificate.tbs_certificate_bytes,
                                    padding.PKCS1v15(), certificate.signature_hash_algorithm)
    keys = jwks(server, pool["Id"])["keys"]
    numbers = public.public_numbers()
    assert any(int.from_bytes(base64.urlsafe_b64decode(k["n"] + "=="), "big") == numbers.n for k in keys)
    assert idp.get_signing_certificate(UserPoolId=pool["Id"])["Certificate"] == answer       # stable
    with cognito_error("ResourceNotFoundException"):
        idp.get_signing_certificate(UserPoolId="us-east-1_nothere")
