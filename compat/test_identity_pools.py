"""Identity pools (the `cognito-identity` API) on Cognate's endpoint, through boto3 and the AWS CLI:
pools, roles and tags; guest and signed-in identities; OpenID tokens verified against the
published JWKS with PyJWT; AWS credentials from moto_server as the STS, used against moto's S3;
developer identities and merging; OIDC, Google-, Facebook- and Amazon-style logins against a
local fake provider; bad input and a race on one login."""
import base64
import concurrent.futures
import http.server
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.parse

import boto3
import jwt
import pytest
import requests
from botocore.config import Config
from botocore.exceptions import ClientError
from cryptography.hazmat.primitives.asymmetric import rsa

from conftest import REGION, CognateServer, free_port
from helpers import PASSWORD, QuietHandler, confirmed_user, local_http_server, sign_in, unique

IDENTITY_TARGET = "AWSCognitoIdentityService."
ROLE_GUEST = "arn:aws:iam::123456789012:role/guest"
ROLE_USER = "arn:aws:iam::123456789012:role/user"
ROLE_ADMIN = "arn:aws:iam::123456789012:role/admin"
ROLE_GMAIL = "arn:aws:iam::123456789012:role/gmail"


# --- a fake login provider: OIDC issuer (discovery + JWKS), Facebook Graph and Login with Amazon --

class FakeProvider:
    def __init__(self):
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.kid = "fake-1"
        numbers = self.key.public_key().public_numbers()

        def b64(number):
            raw = number.to_bytes((number.bit_length() + 7) // 8, "big")
            return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

        self.jwk = {"kty": "RSA", "kid": self.kid, "alg": "RS256", "use": "sig", "n": b64(numbers.n), "e": b64(numbers.e)}
        self.access_tokens = {}   # token -> (facebook app id or amazon client id, user id)
        provider = self

        class Handler(QuietHandler):
            def do_GET(self):
                url = urllib.parse.urlparse(self.path)
                query = dict(urllib.parse.parse_qsl(url.query))
                if url.path == "/.well-known/openid-configuration":
                    return self.answer(200, {"issuer": provider.url, "jwks_uri": provider.url + "/jwks.json"})
                if url.path == "/jwks.json":
                    return self.answer(200, {"keys": [provider.jwk]})
                known = provider.access_tokens.get(query.get("access_token"))
                if known is None:
                    return self.answer(400, {"error": "invalid token"})
                if url.path == "/app":
                    return self.answer(200, {"id": known[0]})
                if url.path == "/me":
                    return self.answer(200, {"id": known[1], "name": "Fay"})
                if url.path == "/auth/o2/tokeninfo":
                    return self.answer(200, {"aud": known[0], "user_id": known[1]})
                return self.answer(404, {})

            def answer(self, status, body):
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd, self.url = local_http_server(Handler)

    def id_token(self, sub, aud="app", issuer=None, expires_in=600, key=None, **claims):
        now = int(time.time())
        payload = {"iss": issuer or self.url, "sub": sub, "aud": aud, "iat": now, "exp": now + expires_in, **claims}
        return jwt.encode(payload, key or self.key, algorithm="RS256", headers={"kid": self.kid})


# --- fixtures ---------------------------------------------------------------------------------

def start_moto():
    port = free_port()
    log = tempfile.TemporaryFile()
    process = subprocess.Popen(["moto_server", "-p", str(port)], stdout=log, stderr=subprocess.STDOUT)
    endpoint = f"http://127.0.0.1:{port}"
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process, endpoint
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("moto_server did not start")


@pytest.fixture(scope="module")
def fake():
    provider = FakeProvider()
    yield provider
    provider.httpd.shutdown()


@pytest.fixture(scope="module")
def moto():
    if shutil.which("moto_server") is None:
        pytest.skip("moto_server is not installed")
    process, endpoint = start_moto()
    yield endpoint
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture(scope="module")
def server(fake, moto):
    urls = ",".join(f"{name}={fake.url}" for name in
                    ("oidc.example.test", "accounts.google.com", "appleid.apple.com", "graph.facebook.com", "www.amazon.com"))
    with tempfile.TemporaryDirectory(prefix="cognate-compat-") as workdir:
        s = CognateServer(workdir, extra_args=["--sts-endpoint", moto, "--identity-provider-urls", urls]).start()
        yield s
        alive = s.process.poll() is None
        s.stop()
        assert alive, f"cognate died during the module:\n{s.log_path.read_text()[-4000:]}"
        assert not s.faults(), "cognate logged server faults:\n" + "\n".join(s.faults()[:20])


@pytest.fixture(scope="module")
def cid(server):
    return server.client("cognito-identity")


@pytest.fixture(scope="module")
def idp(server):
    return server.client()


def moto_client(service, endpoint, credentials=None):
    keys = ({"aws_access_key_id": credentials["AccessKeyId"], "aws_secret_access_key": credentials["SecretKey"],
             "aws_session_token": credentials["SessionToken"]} if credentials
            else {"aws_access_key_id": "testing", "aws_secret_access_key": "testing"})
    return boto3.client(service, endpoint_url=endpoint, region_name=REGION,
                        config=Config(retries={"max_attempts": 1}), **keys)


def error_of(call, *args, **kwargs):
    with pytest.raises(ClientError) as raised:
        call(*args, **kwargs)
    return raised.value.response["Error"]["Code"], raised.value.response["Error"]["Message"]


def user_pool_login(idp, user_pool_id):
    return f"cognito-idp.{REGION}.amazonaws.com/{user_pool_id}"


@pytest.fixture
def user_pool(server, idp):
    pool = idp.create_user_pool(PoolName=unique("ip"), AutoVerifiedAttributes=["email"])["UserPool"]
    client = idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="app",
        ExplicitAuthFlows=["ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"])["UserPoolClient"]
    return pool["Id"], client["ClientId"]


def signed_in(server, idp, user_pool, username=None):
    pool_id, client_id = user_pool
    username, _, _ = confirmed_user(server, idp, {"Id": pool_id}, {"ClientId": client_id},
                                    username=username or unique("ip"))
    return username, sign_in(idp, {"ClientId": client_id}, username)


def identity_pool(cid, user_pool=None, **settings):
    args = {"IdentityPoolName": unique("ids"), "AllowUnauthenticatedIdentities": True, **settings}
    if user_pool:
        args["CognitoIdentityProviders"] = [{"ProviderName": user_pool_login(None, user_pool[0]), "ClientId": user_pool[1]}]
    pool = cid.create_identity_pool(**args)
    cid.set_identity_pool_roles(IdentityPoolId=pool["IdentityPoolId"],
                                Roles={"unauthenticated": ROLE_GUEST, "authenticated": ROLE_USER})
    return pool


def openid_claims(server, token, pool_id):
    discovery = requests.get(f"{server.endpoint}/cognito-identity/.well-known/openid-configuration", timeout=10).json()
    assert discovery["issuer"] == f"{server.endpoint}/cognito-identity"
    keys = requests.get(discovery["jwks_uri"], timeout=10).json()["keys"]
    header = jwt.get_unverified_header(token)
    assert header["alg"] == "RS256"
    key = jwt.PyJWK(next(k for k in keys if k["kid"] == header["kid"]))
    return jwt.decode(token, key, algorithms=["RS256"], audience=pool_id, issuer=discovery["issuer"],
                      options={"require": ["exp", "iat", "iss", "sub", "aud"]})


def assumed_role(moto, credentials):
    return moto_client("sts", moto, credentials).get_caller_identity()["Arn"]


# --- pools ------------------------------------------------------------------------------------

def test_identity_pool_settings_roles_and_tags(cid):
    created = cid.create_identity_pool(
        IdentityPoolName="shop guests", AllowUnauthenticatedIdentities=True, AllowClassicFlow=True,
        SupportedLoginProviders={"accounts.google.com": "app.apps.googleusercontent.com"},
        OpenIdConnectProviderARNs=["arn:aws:iam::000000000000:oidc-provider/oidc.example.test"],
        SamlProviderARNs=["arn:aws:iam::000000000000:saml-provider/corp"],
        DeveloperProviderName="login.shop", IdentityPoolTags={"team": "web"})
    pool_id = created["IdentityPoolId"]
    assert pool_id.startswith(REGION + ":")
    described = cid.describe_identity_pool(IdentityPoolId=pool_id)
    assert {k: v for k, v in described.items() if k != "ResponseMetadata"} == \
        {k: v for k, v in created.items() if k != "ResponseMetadata"}
    assert described["SamlProviderARNs"] == ["arn:aws:iam::000000000000:saml-provider/corp"]
    assert described["AllowClassicFlow"] is True

    updated = cid.update_identity_pool(IdentityPoolId=pool_id, IdentityPoolName="shop", AllowUnauthenticatedIdentities=False,
                                       DeveloperProviderName="login.shop")
    assert updated["AllowUnauthenticatedIdentities"] is False and updated["IdentityPoolName"] == "shop"
    assert cid.describe_identity_pool(IdentityPoolId=pool_id)["SupportedLoginProviders"] == {}
    code, _ = error_of(cid.update_identity_pool, IdentityPoolId=pool_id, IdentityPoolName="shop",
                       AllowUnauthenticatedIdentities=False, DeveloperProviderName="other.shop")
    assert code == "InvalidParameterException"

    arn = f"arn:aws:cognito-identity:{REGION}:000000000000:identitypool/{pool_id}"
    cid.tag_resource(ResourceArn=arn, Tags={"env": "test"})
    assert cid.list_tags_for_resource(ResourceArn=arn)["Tags"] == {"team": "web", "env": "test"}
    cid.untag_resource(ResourceArn=arn, TagKeys=["team"])
    assert cid.list_tags_for_resource(ResourceArn=arn)["Tags"] == {"env": "test"}

    mappings = {"accounts.google.com": {"Type": "Rules", "AmbiguousRoleResolution": "Deny", "RulesConfiguration": {
        "Rules": [{"Claim": "hd", "MatchType": "Equals", "Value": "example.com", "RoleARN": ROLE_ADMIN}]}}}
    cid.set_identity_pool_roles(IdentityPoolId=pool_id, Roles={"authenticated": ROLE_USER}, RoleMappings=mappings)
    roles = cid.get_identity_pool_roles(IdentityPoolId=pool_id)
    assert roles["Roles"] == {"authenticated": ROLE_USER} and roles["RoleMappings"] == mappings
    code, _ = error_of(cid.set_identity_pool_roles, IdentityPoolId=pool_id, Roles={},
                       RoleMappings={"accounts.google.com": {"Type": "Token"}})
    assert code == "InvalidParameterException"

    tags = cid.set_principal_tag_attribute_map(IdentityPoolId=pool_id, IdentityProviderName="accounts.google.com",
                                               PrincipalTags={"domain": "hd"})
    assert tags["PrincipalTags"] == {"domain": "hd"}
    assert cid.get_principal_tag_attribute_map(
        IdentityPoolId=pool_id, IdentityProviderName="accounts.google.com")["PrincipalTags"] == {"domain": "hd"}

    others = [cid.create_identity_pool(IdentityPoolName=unique("p"), AllowUnauthenticatedIdentities=True)["IdentityPoolId"]
              for _ in range(3)]
    seen, token = [], None
    while True:
        page = cid.list_identity_pools(MaxResults=2, **({"NextToken": token} if token else {}))
        assert len(page["IdentityPools"]) <= 2
        seen += [p["IdentityPoolId"] for p in page["IdentityPools"]]
        token = page.get("NextToken")
        if not token:
            break
    assert set(others + [pool_id]) <= set(seen) and len(seen) == len(set(seen))

    cid.delete_identity_pool(IdentityPoolId=pool_id)
    code, message = error_of(cid.describe_identity_pool, IdentityPoolId=pool_id)
    assert (code, message) == ("ResourceNotFoundException", f"IdentityPool '{pool_id}' not found.")


# --- guests and signed-in users ---------------------------------------------------------------

def test_guest_identity_and_its_openid_token(server, cid):
    pool = identity_pool(cid)
    identity = cid.get_id(IdentityPoolId=pool["IdentityPoolId"], AccountId="000000000000")["IdentityId"]
    assert identity.startswith(REGION + ":")
    token = cid.get_open_id_token(IdentityId=identity)
    assert token["IdentityId"] == identity
    claims = openid_claims(server, token["Token"], pool["IdentityPoolId"])
    assert claims["sub"] == identity and claims["amr"] == ["unauthenticated"]
    assert claims["exp"] - claims["iat"] == 900
    assert claims["https://cognito-identity.amazonaws.com/identity-pool-arn"].endswith("identitypool/" + pool["IdentityPoolId"])
    described = cid.describe_identity(IdentityId=identity)
    assert described["IdentityId"] == identity and described.get("Logins", []) == []

    closed = cid.create_identity_pool(IdentityPoolName=unique("closed"), AllowUnauthenticatedIdentities=False)
    assert error_of(cid.get_id, IdentityPoolId=closed["IdentityPoolId"]) == (
        "NotAuthorizedException", "Unauthenticated access is not supported for this identity pool.")


def test_signed_in_user_pool_login_guest_turned_signed_in_and_revocation(server, cid, idp, user_pool, moto):
    pool = identity_pool(cid, user_pool)
    pool_id = pool["IdentityPoolId"]
    provider = user_pool_login(idp, user_pool[0])
    username, tokens = signed_in(server, idp, user_pool)
    logins = {provider: tokens["IdToken"]}

    guest = cid.get_id(IdentityPoolId=pool_id)["IdentityId"]
    guest_credentials = cid.get_credentials_for_identity(IdentityId=guest)
    assert guest_credentials["IdentityId"] == guest
    assert ":assumed-role/guest/" in assumed_role(moto, guest_credentials["Credentials"])

    # The guest signs in: the same identity, now the user's (as Amplify does it).
    signed = cid.get_credentials_for_identity(IdentityId=guest, Logins=logins)
    assert signed["IdentityId"] == guest
    assert ":assumed-role/user/" in assumed_role(moto, signed["Credentials"])
    assert cid.describe_identity(IdentityId=guest)["Logins"] == [provider]
    assert cid.get_id(IdentityPoolId=pool_id, Logins=logins)["IdentityId"] == guest

    token = cid.get_open_id_token(IdentityId=guest, Logins=logins)["Token"]
    claims = openid_claims(server, token, pool_id)
    sub = jwt.decode(tokens["IdToken"], options={"verify_signature": False})["sub"]
    assert claims["amr"] == ["authenticated", provider, f"{provider}:CognitoSignIn:{sub}"]

    # An identity with a login is reached only with it.
    assert error_of(cid.get_open_id_token, IdentityId=guest) == (
        "NotAuthorizedException",
        "Logins don't match. Please include at least one valid login for this identity or identity pool.")
    # Another guest signing in as the same user is merged into the user's identity.
    other_guest = cid.get_id(IdentityPoolId=pool_id)["IdentityId"]
    assert cid.get_open_id_token(IdentityId=other_guest, Logins=logins)["IdentityId"] == guest
    assert error_of(cid.describe_identity, IdentityId=other_guest)[0] == "ResourceNotFoundException"

    # A token of another app client of the user pool is not this identity pool's.
    other_client = idp.create_user_pool_client(UserPoolId=user_pool[0], ClientName="other",
                                               ExplicitAuthFlows=["ALLOW_USER_PASSWORD_AUTH"])["UserPoolClient"]["ClientId"]
    other_tokens = sign_in(idp, {"ClientId": other_client}, username)
    code, message = error_of(cid.get_id, IdentityPoolId=pool_id, Logins={provider: other_tokens["IdToken"]})
    assert code == "NotAuthorizedException" and "audience" in message
    # A login the pool does not list, and a forged token.
    code, message = error_of(cid.get_id, IdentityPoolId=pool_id,
                             Logins={f"cognito-idp.{REGION}.amazonaws.com/{REGION}_nope": tokens["IdToken"]})
    assert (code, message) == ("NotAuthorizedException", "Token is not from a supported provider of this identity pool.")
    head, body, signature = tokens["IdToken"].split(".")
    forged = head + "." + body + "." + ("A" if signature[0] != "A" else "B") + signature[1:]
    assert error_of(cid.get_id, IdentityPoolId=pool_id, Logins={provider: forged})[0] == "NotAuthorizedException"

    # Signed out: the sign-in's tokens get nothing any more.
    idp.global_sign_out(AccessToken=tokens["AccessToken"])
    code, message = error_of(cid.get_credentials_for_identity, IdentityId=guest, Logins=logins)
    assert code == "NotAuthorizedException" and "revoked" in message


def test_role_mappings_by_token_and_rules(server, cid, idp, user_pool, moto):
    pool = identity_pool(cid, user_pool)
    pool_id = pool["IdentityPoolId"]
    provider = user_pool_login(idp, user_pool[0])
    key = f"{provider}:{user_pool[1]}"
    idp.create_group(UserPoolId=user_pool[0], GroupName="admins", RoleArn=ROLE_ADMIN, Precedence=1)
    admin, admin_tokens = signed_in(server, idp, user_pool)
    idp.admin_add_user_to_group(UserPoolId=user_pool[0], Username=admin, GroupName="admins")
    admin_tokens = sign_in(idp, {"ClientId": user_pool[1]}, admin)
    plain, plain_tokens = signed_in(server, idp, user_pool)

    cid.set_identity_pool_roles(IdentityPoolId=pool_id, Roles={"authenticated": ROLE_USER, "unauthenticated": ROLE_GUEST},
                                RoleMappings={key: {"Type": "Token", "AmbiguousRoleResolution": "AuthenticatedRole"}})
    for tokens, role in ((admin_tokens, "admin"), (plain_tokens, "user")):
        identity = cid.get_id(IdentityPoolId=pool_id, Logins={provider: tokens["IdToken"]})["IdentityId"]
        credentials = cid.get_credentials_for_identity(IdentityId=identity, Logins={provider: tokens["IdToken"]})
        assert f":assumed-role/{role}/" in assumed_role(moto, credentials["Credentials"])

    rules = {"Type": "Rules", "AmbiguousRoleResolution": "Deny", "RulesConfiguration": {"Rules": [
        {"Claim": "cognito:username", "MatchType": "Equals", "Value": admin, "RoleARN": ROLE_GMAIL}]}}
    cid.set_identity_pool_roles(IdentityPoolId=pool_id, Roles={"authenticated": ROLE_USER}, RoleMappings={key: rules})
    identity = cid.get_id(IdentityPoolId=pool_id, Logins={provider: admin_tokens["IdToken"]})["IdentityId"]
    credentials = cid.get_credentials_for_identity(IdentityId=identity, Logins={provider: admin_tokens["IdToken"]})
    assert ":assumed-role/gmail/" in assumed_role(moto, credentials["Credentials"])
    identity = cid.get_id(IdentityPoolId=pool_id, Logins={provider: plain_tokens["IdToken"]})["IdentityId"]
    assert error_of(cid.get_credentials_for_identity, IdentityId=identity,
                    Logins={provider: plain_tokens["IdToken"]})[0] == "NotAuthorizedException"

    cid.set_identity_pool_roles(IdentityPoolId=pool_id, Roles={})
    assert error_of(cid.get_credentials_for_identity, IdentityId=identity, Logins={provider: plain_tokens["IdToken"]}) == (
        "InvalidIdentityPoolConfigurationException",
        "Invalid identity pool configuration. Check assigned IAM roles for this pool.")


def test_credentials_work_against_moto_s3(server, cid, idp, user_pool, moto):
    moto_client("iam", moto).create_role(RoleName=unique("s3"), AssumeRolePolicyDocument="{}")
    s3 = moto_client("s3", moto)
    bucket = unique("bucket").lower().replace("_", "-")
    s3.create_bucket(Bucket=bucket)
    pool = identity_pool(cid, user_pool)
    provider = user_pool_login(idp, user_pool[0])
    _, tokens = signed_in(server, idp, user_pool)
    guest = cid.get_id(IdentityPoolId=pool["IdentityPoolId"])["IdentityId"]
    user = cid.get_id(IdentityPoolId=pool["IdentityPoolId"], Logins={provider: tokens["IdToken"]})["IdentityId"]
    for identity, logins in ((guest, {}), (user, {provider: tokens["IdToken"]})):
        credentials = cid.get_credentials_for_identity(IdentityId=identity, Logins=logins)["Credentials"]
        assert credentials["AccessKeyId"] and credentials["SecretKey"] and credentials["SessionToken"]
        assert credentials["Expiration"].timestamp() > time.time()
        as_identity = moto_client("s3", moto, credentials)
        as_identity.put_object(Bucket=bucket, Key=f"{identity}/hello.txt", Body=b"hello from " + identity.encode())
        body = as_identity.get_object(Bucket=bucket, Key=f"{identity}/hello.txt")["Body"].read()
        assert body == b"hello from " + identity.encode()


def test_without_an_sts_credentials_say_what_to_configure(cid):
    with tempfile.TemporaryDirectory(prefix="cognate-compat-") as workdir:
        plain = CognateServer(workdir).start()
        try:
            client = plain.client("cognito-identity")
            pool = identity_pool(client)
            identity = client.get_id(IdentityPoolId=pool["IdentityPoolId"])["IdentityId"]
            code, message = error_of(client.get_credentials_for_identity, IdentityId=identity)
            assert code == "ExternalServiceException" and "--sts-endpoint" in message
            assert client.get_open_id_token(IdentityId=identity)["Token"]   # the basic flow still works
        finally:
            plain.stop()


# --- developer identities ---------------------------------------------------------------------

def test_developer_identities_lookup_merge_and_unlink(server, cid, moto):
    pool = identity_pool(cid, DeveloperProviderName="login.shop")
    pool_id = pool["IdentityPoolId"]
    first = cid.get_open_id_token_for_developer_identity(IdentityPoolId=pool_id, Logins={"login.shop": "ann"},
                                                         TokenDuration=3600, PrincipalTags={"plan": "gold"})
    claims = openid_claims(server, first["Token"], pool_id)
    assert claims["exp"] - claims["iat"] == 3600
    assert claims["amr"] == ["authenticated", "login.shop", f"login.shop:{pool_id}:ann"]
    assert claims["https://aws.amazon.com/tags"]["principal_tags"] == {"plan": ["gold"]}
    ann = first["IdentityId"]
    again = cid.get_open_id_token_for_developer_identity(IdentityPoolId=pool_id, Logins={"login.shop": "ann"})
    assert again["IdentityId"] == ann

    # The app hands the token back under cognito-identity.amazonaws.com for credentials.
    credentials = cid.get_credentials_for_identity(IdentityId=ann, Logins={"cognito-identity.amazonaws.com": first["Token"]})
    assert ":assumed-role/user/" in assumed_role(moto, credentials["Credentials"])

    bob = cid.get_open_id_token_for_developer_identity(IdentityPoolId=pool_id, Logins={"login.shop": "bob"})["IdentityId"]
    assert bob != ann
    assert cid.lookup_developer_identity(IdentityPoolId=pool_id, DeveloperUserIdentifier="bob")["IdentityId"] == bob
    code, _ = error_of(cid.get_open_id_token_for_developer_identity, IdentityPoolId=pool_id, IdentityId=ann,
                       Logins={"login.shop": "bob"})
    assert code == "DeveloperUserAlreadyRegisteredException"

    merged = cid.merge_developer_identities(SourceUserIdentifier="bob", DestinationUserIdentifier="ann",
                                            DeveloperProviderName="login.shop", IdentityPoolId=pool_id)
    assert merged["IdentityId"] == ann
    looked_up = cid.lookup_developer_identity(IdentityPoolId=pool_id, IdentityId=ann, MaxResults=10)
    assert sorted(looked_up["DeveloperUserIdentifierList"]) == ["ann", "bob"]
    assert cid.lookup_developer_identity(IdentityPoolId=pool_id, DeveloperUserIdentifier="bob")["IdentityId"] == ann
    assert error_of(cid.describe_identity, IdentityId=bob)[0] == "ResourceNotFoundException"
    assert error_of(cid.merge_developer_identities, SourceUserIdentifier="nobody", DestinationUserIdentifier="ann",
                    DeveloperProviderName="login.shop", IdentityPoolId=pool_id)[0] == "ResourceNotFoundException"

    cid.unlink_developer_identity(IdentityId=ann, IdentityPoolId=pool_id, DeveloperProviderName="login.shop",
                                  DeveloperUserIdentifier="bob")
    assert cid.lookup_developer_identity(IdentityPoolId=pool_id, IdentityId=ann)["DeveloperUserIdentifierList"] == ["ann"]
    fresh = cid.get_open_id_token_for_developer_identity(IdentityPoolId=pool_id, Logins={"login.shop": "bob"})
    assert fresh["IdentityId"] not in (ann, bob)
    # An app cannot name the developer provider itself.
    assert error_of(cid.get_id, IdentityPoolId=pool_id, Logins={"login.shop": "ann"})[0] == "NotAuthorizedException"


# --- OIDC and social providers ----------------------------------------------------------------

def test_oidc_and_social_logins_of_one_person_share_one_identity(server, cid, idp, user_pool, fake):
    pool = identity_pool(
        cid, user_pool,
        OpenIdConnectProviderARNs=["arn:aws:iam::000000000000:oidc-provider/oidc.example.test"],
        SupportedLoginProviders={"accounts.google.com": "google-app", "graph.facebook.com": "fb-app",
                                 "www.amazon.com": "amzn-app", "appleid.apple.com": "apple-app"})
    pool_id = pool["IdentityPoolId"]
    oidc = fake.id_token("oidc-user-1")
    identity = cid.get_id(IdentityPoolId=pool_id, Logins={"oidc.example.test": oidc})["IdentityId"]
    assert cid.get_id(IdentityPoolId=pool_id, Logins={"oidc.example.test": fake.id_token("oidc-user-1")})["IdentityId"] == identity

    google = fake.id_token("g-1", aud="google-app")
    fake.access_tokens["fb-token"] = ("fb-app", "fb-1")
    fake.access_tokens["amzn-token"] = ("amzn-app", "amzn1.account.1")
    provider = user_pool_login(idp, user_pool[0])
    _, tokens = signed_in(server, idp, user_pool)
    every = {"oidc.example.test": oidc, "accounts.google.com": google, "graph.facebook.com": "fb-token",
             "www.amazon.com": "amzn-token", "appleid.apple.com": fake.id_token("a-1", aud="apple-app"),
             provider: tokens["IdToken"]}
    token = cid.get_open_id_token(IdentityId=identity, Logins=every)
    assert token["IdentityId"] == identity
    amr = openid_claims(server, token["Token"], pool_id)["amr"]
    assert "graph.facebook.com:fb-app:fb-1" in amr and "accounts.google.com:google-app:g-1" in amr
    assert sorted(cid.describe_identity(IdentityId=identity)["Logins"]) == sorted(every)
    for name, value in every.items():
        assert cid.get_id(IdentityPoolId=pool_id, Logins={name: value})["IdentityId"] == identity

    # Two identities named in one call merge into the older; one provider, two users: a conflict.
    other = cid.get_id(IdentityPoolId=pool_id, Logins={"oidc.example.test": fake.id_token("oidc-user-2")})["IdentityId"]
    assert error_of(cid.get_id, IdentityPoolId=pool_id,
                    Logins={"oidc.example.test": fake.id_token("oidc-user-2"), "accounts.google.com": google})[0] \
        == "ResourceConflictException"
    fake.access_tokens["fb-2"] = ("fb-app", "fb-2")
    fresh = cid.get_id(IdentityPoolId=pool_id, Logins={"graph.facebook.com": "fb-2"})["IdentityId"]
    merged = cid.get_id(IdentityPoolId=pool_id,
                        Logins={"oidc.example.test": fake.id_token("oidc-user-2"), "graph.facebook.com": "fb-2"})
    assert merged["IdentityId"] == other
    assert error_of(cid.describe_identity, IdentityId=fresh)[0] == "ResourceNotFoundException"

    # Wrong audience, wrong issuer, wrong key, expired, unknown app token.
    stranger = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    for bad in ({"accounts.google.com": fake.id_token("g-1", aud="someone-else")},
                {"oidc.example.test": fake.id_token("x", issuer="https://evil.example")},
                {"oidc.example.test": fake.id_token("x", key=stranger)},
                {"oidc.example.test": fake.id_token("x", expires_in=-60)},
                {"graph.facebook.com": "unknown-token"}):
        code, message = error_of(cid.get_id, IdentityPoolId=pool_id, Logins=bad)
        assert code == "NotAuthorizedException" and message.startswith("Invalid login token."), (bad, message)
    fake.access_tokens["fb-other-app"] = ("other-app", "fb-9")
    assert error_of(cid.get_id, IdentityPoolId=pool_id, Logins={"graph.facebook.com": "fb-other-app"})[0] \
        == "NotAuthorizedException"

    # Unlinking: with a login of the identity, other providers go; the last one disables it.
    cid.unlink_identity(IdentityId=identity, Logins={"graph.facebook.com": "fb-token"},
                        LoginsToRemove=["accounts.google.com", "www.amazon.com"])
    assert "accounts.google.com" not in cid.describe_identity(IdentityId=identity)["Logins"]
    assert cid.get_id(IdentityPoolId=pool_id, Logins={"accounts.google.com": google})["IdentityId"] != identity
    assert error_of(cid.unlink_identity, IdentityId=identity, Logins={"graph.facebook.com": "fb-2"},
                    LoginsToRemove=["graph.facebook.com"])[0] == "NotAuthorizedException"


# --- administration of identities -------------------------------------------------------------

def test_list_describe_and_delete_identities(cid):
    pool = identity_pool(cid)
    pool_id = pool["IdentityPoolId"]
    ids = {cid.get_id(IdentityPoolId=pool_id)["IdentityId"] for _ in range(5)}
    seen, token = [], None
    while True:
        page = cid.list_identities(IdentityPoolId=pool_id, MaxResults=2, **({"NextToken": token} if token else {}))
        seen += [i["IdentityId"] for i in page["Identities"]]
        token = page.get("NextToken")
        if not token:
            break
    assert sorted(seen) == sorted(ids)
    doomed = sorted(ids)[:2]
    assert cid.delete_identities(IdentityIdsToDelete=doomed)["UnprocessedIdentityIds"] == []
    left = cid.list_identities(IdentityPoolId=pool_id, MaxResults=60, HideDisabled=True)["Identities"]
    assert sorted(i["IdentityId"] for i in left) == sorted(ids - set(doomed))
    assert error_of(cid.list_identities, IdentityPoolId=f"{REGION}:00000000-0000-4000-8000-000000000000",
                    MaxResults=10)[0] == "ResourceNotFoundException"


# --- bad input and races ----------------------------------------------------------------------

def raw(server, operation, body=None, data=None):
    headers = {"Content-Type": "application/x-amz-json-1.1", "X-Amz-Target": IDENTITY_TARGET + operation}
    return requests.post(server.endpoint + "/", data=data if data is not None else json.dumps(body), headers=headers,
                         timeout=30)


def test_bad_input_is_refused_as_cognito_refuses_it(server, cid):
    pool = identity_pool(cid)
    pool_id = pool["IdentityPoolId"]
    answer = raw(server, "GetId", data=b'{"IdentityPoolId": ')
    assert answer.status_code == 400 and answer.json()["__type"] == "SerializationException"
    answer = raw(server, "GetId", {"IdentityPoolId": f"{REGION}:11111111-1111-4111-8111-111111111111"})
    assert answer.json() == {"__type": "ResourceNotFoundException",
                             "message": f"IdentityPool '{REGION}:11111111-1111-4111-8111-111111111111' not found."}
    answer = raw(server, "GetId", {"IdentityPoolId": "not a pool id"})
    assert answer.json()["__type"] == "InvalidParameterException"
    too_many = {f"provider{i}.example": "token" for i in range(11)}
    answer = raw(server, "GetId", {"IdentityPoolId": pool_id, "Logins": too_many})
    assert answer.json()["__type"] == "InvalidParameterException" and "length less than or equal to 10" in answer.json()["message"]
    answer = raw(server, "GetId", {"IdentityPoolId": pool_id, "Logins": {"accounts.google.com": "x" * 50_001}})
    assert answer.json()["__type"] == "InvalidParameterException"
    answer = raw(server, "GetId", {"IdentityPoolId": pool_id, "Logins": {"accounts.google.com": "not.a.jwt"}})
    assert answer.json()["__type"] == "NotAuthorizedException"
    answer = raw(server, "GetId", {"IdentityPoolId": pool_id, "Logins": {"graph.facebook.com": ["a list"]}})
    assert answer.json()["__type"] == "SerializationException"
    answer = raw(server, "NoSuchOperation", {})
    assert answer.json()["__type"] == "UnknownOperationException"
    # The user-pool API's TagResource and the identity API's are told apart by their target.
    answer = raw(server, "TagResource", {"ResourceArn": "arn:aws:cognito-idp:us-east-1:000000000000:userpool/x", "Tags": {}})
    assert answer.json()["__type"] == "ResourceNotFoundException"


def test_two_first_sign_ins_of_one_person_at_once_make_one_identity(server, fake):
    clients = [server.client("cognito-identity") for _ in range(8)]
    pool = identity_pool(clients[0], OpenIdConnectProviderARNs=["arn:aws:iam::000000000000:oidc-provider/oidc.example.test"])
    token = fake.id_token(unique("racer"))
    barrier = threading.Barrier(len(clients))

    def one(client):
        barrier.wait()
        return client.get_id(IdentityPoolId=pool["IdentityPoolId"], Logins={"oidc.example.test": token})["IdentityId"]

    with concurrent.futures.ThreadPoolExecutor(len(clients)) as executor:
        ids = list(executor.map(one, clients))
    assert len(set(ids)) == 1, ids
    listed = clients[0].list_identities(IdentityPoolId=pool["IdentityPoolId"], MaxResults=60)["Identities"]
    assert [i["IdentityId"] for i in listed] == [ids[0]]


# --- the AWS CLI ------------------------------------------------------------------------------

@pytest.mark.skipif(shutil.which("aws") is None, reason="the AWS CLI is not installed")
def test_aws_cli_cognito_identity(server, tmp_path):
    env = {**os.environ, "AWS_ACCESS_KEY_ID": "dev", "AWS_SECRET_ACCESS_KEY": "dev", "AWS_DEFAULT_REGION": REGION,
           "AWS_CONFIG_FILE": str(tmp_path / "config"), "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "credentials"),
           "AWS_MAX_ATTEMPTS": "1", "AWS_PAGER": ""}
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL"):
        env.pop(name, None)

    def aws(*args, ok=True):
        done = subprocess.run(["aws", "cognito-identity", *args, "--endpoint-url", server.endpoint, "--output", "json"],
                              env=env, capture_output=True, text=True, timeout=120)
        assert (done.returncode == 0) == ok, done.stderr
        return (json.loads(done.stdout) if done.stdout.strip() else {}) if ok else done.stderr

    pool = aws("create-identity-pool", "--identity-pool-name", "cli pool", "--allow-unauthenticated-identities",
               "--developer-provider-name", "login.cli")
    pool_id = pool["IdentityPoolId"]
    aws("set-identity-pool-roles", "--identity-pool-id", pool_id, "--roles", f"unauthenticated={ROLE_GUEST}")
    assert aws("get-identity-pool-roles", "--identity-pool-id", pool_id)["Roles"] == {"unauthenticated": ROLE_GUEST}
    assert pool_id in [p["IdentityPoolId"] for p in aws("list-identity-pools", "--max-results", "60")["IdentityPools"]]
    identity = aws("get-id", "--identity-pool-id", pool_id)["IdentityId"]
    assert aws("get-open-id-token", "--identity-id", identity)["IdentityId"] == identity
    developer = aws("get-open-id-token-for-developer-identity", "--identity-pool-id", pool_id,
                    "--logins", "login.cli=carol")
    assert aws("lookup-developer-identity", "--identity-pool-id", pool_id, "--developer-user-identifier",
               "carol")["IdentityId"] == developer["IdentityId"]
    assert aws("describe-identity", "--identity-id", identity)["IdentityId"] == identity
    assert "(ResourceNotFoundException)" in aws("describe-identity-pool", "--identity-pool-id",
                                                 f"{REGION}:22222222-2222-4222-8222-222222222222", ok=False)
    aws("delete-identity-pool", "--identity-pool-id", pool_id)
