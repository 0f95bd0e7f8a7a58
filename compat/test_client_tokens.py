"""GetClientToken: an app client's access token for itself (machine to machine) through the
API, as boto3 asks for it — unsigned, its client secret the only credential, also in production
mode — verified with PyJWT against the pool's JWKS."""
import tempfile

import boto3
import jwt
import pytest
from botocore import UNSIGNED
from botocore.config import Config

from conftest import REGION, CognateServer
from helpers import cognito_error, issuer, jwks, unique

AKID, SECRET = "AKIDCLIENTTOKENS", "client-tokens-admin-secret"


@pytest.fixture(scope="module")
def production():
    with tempfile.TemporaryDirectory(prefix="cognate-client-tokens-") as workdir:
        s = CognateServer(workdir, extra_args=[
            "--mode", "production", "--admin-credentials", f"{AKID}:{SECRET}", "--email-delivery", "outbox"]).start()
        yield s
        s.stop()
        assert not s.faults(), "\n".join(s.faults()[:20])


def machine_client(admin, pool_id, **overrides):
    options = dict(GenerateSecret=True, AllowedOAuthFlows=["client_credentials"], AllowedOAuthScopes=["api/read", "api/write"],
                   AllowedOAuthFlowsUserPoolClient=True)
    options.update(overrides)
    return admin.create_user_pool_client(UserPoolId=pool_id, ClientName=unique("machine"), **options)["UserPoolClient"]


def test_a_machine_client_gets_an_access_token_for_its_scopes(production):
    admin = production.client(access_key=AKID, secret_key=SECRET)
    pool = admin.create_user_pool(PoolName=unique("m2m"))["UserPool"]
    admin.create_resource_server(UserPoolId=pool["Id"], Identifier="api", Name="API", Scopes=[
        {"ScopeName": "read", "ScopeDescription": "read"}, {"ScopeName": "write", "ScopeDescription": "write"}])
    machine = machine_client(admin, pool["Id"])
    anonymous = boto3.client("cognito-idp", endpoint_url=production.endpoint, region_name=REGION,
                             config=Config(signature_version=UNSIGNED, retries={"max_attempts": 1}))

    result = anonymous.get_client_token(ClientId=machine["ClientId"], Secret=machine["ClientSecret"])["ClientAuthenticationResult"]
    assert result["TokenType"] == "Bearer" and result["ExpiresIn"] == 3600
    keys = {k["kid"]: k for k in jwks(production, pool["Id"])["keys"]}
    token = result["AccessToken"]
    claims = jwt.decode(token, jwt.PyJWK(keys[jwt.get_unverified_header(token)["kid"]]), algorithms=["RS256"],
                        issuer=issuer(production, pool["Id"]), options={"verify_aud": False})
    assert claims["client_id"] == machine["ClientId"] and claims["sub"] == machine["ClientId"]
    assert claims["token_use"] == "access" and set(claims["scope"].split()) == {"api/read", "api/write"}

    narrowed = anonymous.get_client_token(ClientId=machine["ClientId"], Secret=machine["ClientSecret"], Scopes=["api/read"])
    token = narrowed["ClientAuthenticationResult"]["AccessToken"]
    assert jwt.decode(token, options={"verify_signature": False})["scope"] == "api/read"

    with cognito_error("NotAuthorizedException"):
        anonymous.get_client_token(ClientId=machine["ClientId"], Secret="notTheSecret" + "x" * 20)
    with cognito_error("InvalidParameterException", contains="api/delete"):
        anonymous.get_client_token(ClientId=machine["ClientId"], Secret=machine["ClientSecret"], Scopes=["api/delete"])
    with cognito_error("InvalidParameterException"):
        anonymous.get_client_token(ClientId=machine["ClientId"], Secret=machine["ClientSecret"], Scopes=["openid"])

    # A client for users (the code flow) gets no token for itself, nor does an unknown one.
    users = machine_client(admin, pool["Id"], AllowedOAuthFlows=["code"], AllowedOAuthScopes=["openid"],
                           CallbackURLs=["https://app.example/callback"])
    with cognito_error("NotAuthorizedException", contains="client_credentials"):
        anonymous.get_client_token(ClientId=users["ClientId"], Secret=users["ClientSecret"])
    with cognito_error("NotAuthorizedException"):
        anonymous.get_client_token(ClientId="1" * 26, Secret="x" * 30)
