"""Token verification as third-party verifiers do it: JWKS, discovery, PyJWT; tampering and
key persistence across restarts."""
import base64
import json
import signal

import string

import jwt
import pytest
import requests
from cryptography.hazmat.primitives.asymmetric import rsa

from helpers import USER_FLOWS, cognito_error, confirmed_user, issuer, jwks, refresh, sign_in, verify_token

INVALID_ACCESS_TOKEN = "Invalid Access Token"


@pytest.fixture
def signed_in(server, idp, pool, app_client):
    """(username, sub, AuthenticationResult) of a fresh confirmed user."""
    username, _, sub = confirmed_user(server, idp, pool, app_client)
    return username, sub, sign_in(idp, app_client, username)


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def with_claims(token, **changes):
    """The token with its payload changed and the original signature kept."""
    header, payload, signature = token.split(".")
    claims = {**json.loads(unb64url(payload)), **changes}
    return ".".join([header, b64url(json.dumps(claims).encode()), signature])


def test_jwks_shape(server, pool):
    response = requests.get(f"{issuer(server, pool['Id'])}/.well-known/jwks.json", timeout=10)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("application/json")
    keys = response.json()["keys"]
    assert keys
    for key in keys:
        assert key["kty"] == "RSA"
        assert key["alg"] == "RS256"
        assert key["use"] == "sig"
        assert key["e"] == "AQAB"
        assert key["kid"]
        assert len(unb64url(key["n"])) >= 256      # at least 2048-bit keys
    assert len({k["kid"] for k in keys}) == len(keys)


def test_discovery_document(server, pool):
    base = issuer(server, pool["Id"])
    response = requests.get(f"{base}/.well-known/openid-configuration", timeout=10)
    assert response.status_code == 200
    document = response.json()
    assert document["issuer"] == base
    assert document["jwks_uri"] == f"{base}/.well-known/jwks.json"
    assert "RS256" in document["id_token_signing_alg_values_supported"]
    assert requests.get(document["jwks_uri"], timeout=10).json() == jwks(server, pool["Id"])


def test_well_known_of_unknown_pool_is_404(server):
    for document in ("jwks.json", "openid-configuration"):
        response = requests.get(f"{server.endpoint}/us-east-1_NoSuchPool/.well-known/{document}", timeout=10)
        assert response.status_code == 404


def test_tokens_verify_with_pyjwk_client(server, pool, app_client, signed_in):
    username, sub, tokens = signed_in
    client = jwt.PyJWKClient(f"{issuer(server, pool['Id'])}/.well-known/jwks.json")
    id_key = client.get_signing_key_from_jwt(tokens["IdToken"])
    id_claims = jwt.decode(tokens["IdToken"], id_key.key, algorithms=["RS256"], audience=app_client["ClientId"],
                           issuer=issuer(server, pool["Id"]))
    assert (id_claims["token_use"], id_claims["sub"], id_claims["cognito:username"]) == ("id", sub, username)
    access_key = client.get_signing_key_from_jwt(tokens["AccessToken"])
    access_claims = jwt.decode(tokens["AccessToken"], access_key.key, algorithms=["RS256"],
                               issuer=issuer(server, pool["Id"]), options={"verify_aud": False})
    assert (access_claims["token_use"], access_claims["client_id"]) == ("access", app_client["ClientId"])
    assert access_claims["username"] == username
    for claims in (id_claims, access_claims):
        assert {"jti", "origin_jti", "event_id", "auth_time", "iat", "exp"} <= set(claims)


def test_token_headers(signed_in):
    _, _, tokens = signed_in
    for token in (tokens["IdToken"], tokens["AccessToken"]):
        header = jwt.get_unverified_header(token)
        assert header["alg"] == "RS256"
        assert header["kid"]


def test_tokens_do_not_verify_for_other_pools_or_clients(server, idp, pool, app_client, signed_in):
    _, _, tokens = signed_in
    other = idp.create_user_pool(PoolName="other")["UserPool"]
    # Each pool signs with its own keys: no key of the other pool's JWKS verifies the token,
    # even for a verifier that checks nothing but the signature.
    other_keys = jwks(server, other["Id"])["keys"]
    assert jwt.get_unverified_header(tokens["IdToken"])["kid"] not in {k["kid"] for k in other_keys}
    for key in other_keys:
        with pytest.raises(jwt.InvalidSignatureError):
            jwt.decode(tokens["IdToken"], jwt.PyJWK(key).key, algorithms=["RS256"],
                       options={"verify_aud": False, "verify_iss": False})
    with pytest.raises(jwt.InvalidAudienceError):
        verify_token(server, pool["Id"], tokens["IdToken"], "id", "someotherclient")


def test_tampered_tokens_are_refused(idp, signed_in):
    _, _, tokens = signed_in
    access = tokens["AccessToken"]
    assert idp.get_user(AccessToken=access)["Username"]
    header, payload, signature = access.split(".")
    flipped = signature[:10] + ("A" if signature[10] != "A" else "B") + signature[11:]

    stranger_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    claims = jwt.decode(access, options={"verify_signature": False})
    forged = jwt.encode(claims, stranger_key, algorithm="RS256", headers={"kid": jwt.get_unverified_header(access)["kid"]})
    unsigned = ".".join([b64url(b'{"alg":"none","typ":"JWT"}'), payload, ""])
    # The same signature bytes written otherwise: the last character's unused low bits set.
    alphabet = string.ascii_uppercase + string.ascii_lowercase + string.digits + "-_"
    stray_bits = ".".join([header, payload, signature[:-1] + alphabet[alphabet.index(signature[-1]) ^ 1]])

    for bad in (
        with_claims(access, username="someone-else"),
        with_claims(access, exp=claims["exp"] + 86400),
        ".".join([header, payload, flipped]),
        forged,
        unsigned,
        "not-a-jwt",
        access + "x",
        access + "=",
        access + "==",
        stray_bits,
    ):
        with cognito_error("NotAuthorizedException", INVALID_ACCESS_TOKEN):
            idp.get_user(AccessToken=bad)
    with cognito_error("NotAuthorizedException", INVALID_ACCESS_TOKEN):
        idp.delete_user(AccessToken=with_claims(access, sub="00000000-0000-4000-8000-000000000000"))
    assert idp.get_user(AccessToken=access)["Username"]


def test_id_token_is_not_an_access_token(idp, signed_in):
    _, _, tokens = signed_in
    with cognito_error("NotAuthorizedException"):
        idp.get_user(AccessToken=tokens["IdToken"])
    with cognito_error("NotAuthorizedException"):
        idp.delete_user(AccessToken=tokens["IdToken"])


def test_access_token_is_not_a_refresh_token(idp, app_client, signed_in):
    _, _, tokens = signed_in
    with cognito_error("NotAuthorizedException"):
        refresh(idp, app_client, tokens["AccessToken"])


@pytest.mark.parametrize("settings", [
    {"AccessTokenValidity": 1, "TokenValidityUnits": {"AccessToken": "seconds"}},
    {"AccessTokenValidity": 2, "TokenValidityUnits": {"AccessToken": "days"}},
    {"IdTokenValidity": 4, "TokenValidityUnits": {"IdToken": "minutes"}},
])
def test_token_validity_out_of_range(idp, pool, settings):
    with cognito_error("InvalidParameterException"):
        idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="bad", ExplicitAuthFlows=USER_FLOWS, **settings)


def test_signing_keys_survive_restart(server, idp, pool, app_client, signed_in):
    username, sub, tokens = signed_in
    kids_before = {k["kid"] for k in jwks(server, pool["Id"])["keys"]}
    server.restart()
    assert {k["kid"] for k in jwks(server, pool["Id"])["keys"]} >= kids_before
    assert verify_token(server, pool["Id"], tokens["IdToken"], "id", app_client["ClientId"])["sub"] == sub
    assert verify_token(server, pool["Id"], tokens["AccessToken"], "access", app_client["ClientId"])["sub"] == sub
    assert idp.get_user(AccessToken=tokens["AccessToken"])["Username"] == username
    refreshed = refresh(idp, app_client, tokens["RefreshToken"])
    assert verify_token(server, pool["Id"], refreshed["AccessToken"], "access", app_client["ClientId"])["sub"] == sub
    fresh = sign_in(idp, app_client, username)
    assert verify_token(server, pool["Id"], fresh["IdToken"], "id", app_client["ClientId"])["sub"] == sub


def test_state_survives_a_crash(server, idp, pool, app_client, signed_in):
    """Everything acknowledged before a SIGKILL is still there: user, keys, refresh token."""
    username, sub, tokens = signed_in
    server.stop(signal.SIGKILL)
    server.start()
    assert idp.admin_get_user(UserPoolId=pool["Id"], Username=username)["UserStatus"] == "CONFIRMED"
    assert idp.get_user(AccessToken=tokens["AccessToken"])["Username"] == username
    refreshed = refresh(idp, app_client, tokens["RefreshToken"])
    assert verify_token(server, pool["Id"], refreshed["IdToken"], "id", app_client["ClientId"])["sub"] == sub
