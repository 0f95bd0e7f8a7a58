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


def test_the_hosted_page_wears_the_branding(server, idp):
    pool, client = oauth_pool(idp)
    idp.create_managed_login_branding(
        UserPoolId=pool["Id"], ClientId=client["ClientId"], Settings=SETTINGS,
        Assets=[{"Category": "FORM_LOGO", "ColorMode": "LIGHT", "Extension": "PNG", "Bytes": PNG}])
    uri, _ = authorize(server, app_session(server, client), secrets.token_urlsafe(48))
    page = requests.get(uri, timeout=10)
    assert page.status_code == 200
    assert "body { background: #f0f4f8ff; }" in page.text
    assert "button { background: #0b5fff; border-color: #0b5fff; }" in page.text and "button { color: #ffffff; }" in page.text
    assert "display: none" not in page.text
    assert f'src="data:image/png;base64,{base64.b64encode(PNG).decode()}"' in page.text
    assert "img-src 'self' data:" in page.headers["Content-Security-Policy"]
    # A UI customization's CSS follows the branding's (it wins where both style the same thing).
    idp.set_ui_customization(UserPoolId=pool["Id"], ClientId=client["ClientId"], CSS="button { color: black; }")
    text = requests.get(uri, timeout=10).text
    assert text.index("button { color: #ffffff; }") < text.index("button { color: black; }")


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
