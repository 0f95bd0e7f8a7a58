"""Sign-out that really signs out (issue 4, protocol doc §2.2, §2.8): GlobalSignOut and
AdminUserGlobalSignOut revoke every refresh token and every access token of the user, and every
operation that takes an access token refuses them; RevokeToken revokes one session; revocation
holds across restarts. Through boto3 and pycognito."""
import pytest
from botocore.exceptions import ClientError

from helpers import (
    ACCESS_TOKEN_REVOKED, PASSWORD, REFRESH_TOKEN_REVOKED, USER_FLOWS, admin_user, cognito_error, confirmed_user,
    new_client, pycognito_user, refresh, sign_in, srp_for,
)


def revoke(idp, client, token, secret=None):
    kwargs = {"ClientSecret": secret} if secret else {}
    return idp.revoke_token(Token=token, ClientId=client["ClientId"], **kwargs)


def assert_works(idp, client, tokens, secret_username=None):
    assert idp.get_user(AccessToken=tokens["AccessToken"])["Username"]
    assert refresh(idp, client, tokens["RefreshToken"], secret_username, client.get("ClientSecret"))["AccessToken"]


def assert_access_revoked(idp, access_token):
    with cognito_error("NotAuthorizedException", ACCESS_TOKEN_REVOKED):
        idp.get_user(AccessToken=access_token)


def assert_refresh_revoked(idp, client, refresh_token, username=None):
    with cognito_error("NotAuthorizedException", REFRESH_TOKEN_REVOKED):
        refresh(idp, client, refresh_token, username, client.get("ClientSecret"))


def sessions_of(idp, pool_id, client, username):
    """Three sessions of the user: two password sign-ins and one SRP sign-in, plus an access token
    minted by refreshing the first (kept with the first's refresh token)."""
    first = sign_in(idp, client, username)
    second = sign_in(idp, client, username)
    third = srp_for(idp, pool_id, client, username).authenticate_user()["AuthenticationResult"]
    refreshed = {**refresh(idp, client, first["RefreshToken"]), "RefreshToken": first["RefreshToken"]}
    return [first, second, third, refreshed]


# Every operation that takes an access token, called with plausible arguments.
TOKEN_OPERATIONS = {
    "GetUser": lambda idp, token: idp.get_user(AccessToken=token),
    "ChangePassword": lambda idp, token: idp.change_password(AccessToken=token, PreviousPassword=PASSWORD,
                                                              ProposedPassword="N3w-Passw0rd!"),
    "UpdateUserAttributes": lambda idp, token: idp.update_user_attributes(
        AccessToken=token, UserAttributes=[{"Name": "given_name", "Value": "Revoked"}]),
    "DeleteUserAttributes": lambda idp, token: idp.delete_user_attributes(AccessToken=token,
                                                                          UserAttributeNames=["given_name"]),
    "GetUserAttributeVerificationCode": lambda idp, token: idp.get_user_attribute_verification_code(
        AccessToken=token, AttributeName="email"),
    "VerifyUserAttribute": lambda idp, token: idp.verify_user_attribute(AccessToken=token, AttributeName="email",
                                                                        Code="123456"),
    "DeleteUser": lambda idp, token: idp.delete_user(AccessToken=token),
    "GlobalSignOut": lambda idp, token: idp.global_sign_out(AccessToken=token),
}


# --- GlobalSignOut ----------------------------------------------------------------------------

def test_global_sign_out_revokes_every_session(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    bystander, _, _ = confirmed_user(server, idp, pool, app_client)
    sessions = sessions_of(idp, pool["Id"], app_client, username)
    other = sign_in(idp, app_client, bystander)

    response = idp.global_sign_out(AccessToken=sessions[1]["AccessToken"])
    assert set(response) == {"ResponseMetadata"}
    for tokens in sessions:
        assert_access_revoked(idp, tokens["AccessToken"])
        assert_refresh_revoked(idp, app_client, tokens["RefreshToken"])
    assert_works(idp, app_client, other)

    # Signing in again gives working tokens.
    fresh = sign_in(idp, app_client, username)
    assert_works(idp, app_client, fresh)


@pytest.mark.parametrize("operation", list(TOKEN_OPERATIONS))
def test_revoked_access_token_is_refused_by(server, idp, pool, app_client, operation):
    username, _, _ = confirmed_user(server, idp, pool, app_client, attributes=[("given_name", "Kept")])
    tokens = sign_in(idp, app_client, username)
    TOKEN_OPERATIONS["GetUser"](idp, tokens["AccessToken"])
    idp.global_sign_out(AccessToken=tokens["AccessToken"])
    with cognito_error("NotAuthorizedException", ACCESS_TOKEN_REVOKED):
        TOKEN_OPERATIONS[operation](idp, tokens["AccessToken"])
    # Nothing happened: the user, the password and the attributes are as they were.
    fresh = sign_in(idp, app_client, username, PASSWORD)
    user = idp.get_user(AccessToken=fresh["AccessToken"])
    assert {a["Name"]: a["Value"] for a in user["UserAttributes"]}["given_name"] == "Kept"


def test_admin_user_global_sign_out(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    sessions = sessions_of(idp, pool["Id"], app_client, username)
    idp.admin_user_global_sign_out(UserPoolId=pool["Id"], Username=username)
    for tokens in sessions:
        for operation in ("GetUser", "UpdateUserAttributes", "ChangePassword", "GlobalSignOut"):
            with cognito_error("NotAuthorizedException", ACCESS_TOKEN_REVOKED):
                TOKEN_OPERATIONS[operation](idp, tokens["AccessToken"])
        assert_refresh_revoked(idp, app_client, tokens["RefreshToken"])
    assert_works(idp, app_client, sign_in(idp, app_client, username))


def test_global_sign_out_across_clients(server, idp, pool, app_client):
    other_client = new_client(idp, pool["Id"], "other")
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    here = sign_in(idp, app_client, username)
    there = sign_in(idp, other_client, username)
    idp.global_sign_out(AccessToken=here["AccessToken"])
    assert_access_revoked(idp, there["AccessToken"])
    assert_refresh_revoked(idp, other_client, there["RefreshToken"])


def test_global_sign_out_holds_across_restart(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    signed_out = sign_in(idp, app_client, username)
    idp.global_sign_out(AccessToken=signed_out["AccessToken"])
    later = sign_in(idp, app_client, username)
    admin_signed_out, = [sign_in(idp, app_client, admin_user(idp, pool["Id"]))]
    admin_name = idp.get_user(AccessToken=admin_signed_out["AccessToken"])["Username"]
    idp.admin_user_global_sign_out(UserPoolId=pool["Id"], Username=admin_name)

    server.restart()
    for tokens in (signed_out, admin_signed_out):
        assert_access_revoked(idp, tokens["AccessToken"])
        assert_refresh_revoked(idp, app_client, tokens["RefreshToken"])
    assert_works(idp, app_client, later)   # issued after the sign-out


def test_pycognito_logout(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    user = pycognito_user(server, pool["Id"], app_client, username)
    user.authenticate(PASSWORD)
    access, refresh_token = user.access_token, user.refresh_token
    assert user.get_user().username == username
    user.logout()
    assert user.access_token is None and user.refresh_token is None
    assert_access_revoked(idp, access)
    assert_refresh_revoked(idp, app_client, refresh_token)

    # pycognito's own calls see the revocation too.
    stale = pycognito_user(server, pool["Id"], app_client, username)
    stale.access_token, stale.refresh_token = access, refresh_token
    with pytest.raises(ClientError) as info:
        stale.get_user()
    assert info.value.response["Error"]["Code"] == "NotAuthorizedException"
    with pytest.raises(ClientError) as info:
        stale.renew_access_token()
    assert info.value.response["Error"]["Code"] == "NotAuthorizedException"


# --- RevokeToken ------------------------------------------------------------------------------

def test_revoke_token_revokes_one_session(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    first, second, third, refreshed = sessions_of(idp, pool["Id"], app_client, username)

    response = revoke(idp, app_client, first["RefreshToken"])
    assert set(response) == {"ResponseMetadata"}
    assert_refresh_revoked(idp, app_client, first["RefreshToken"])
    assert_access_revoked(idp, first["AccessToken"])
    assert_access_revoked(idp, refreshed["AccessToken"])      # minted from the revoked refresh token
    for tokens in (second, third):
        assert_works(idp, app_client, tokens)

    # Revoking it again, or a token that never existed, is not an error.
    revoke(idp, app_client, first["RefreshToken"])
    revoke(idp, app_client, "not-a-refresh-token-" + "x" * 40)


def test_revoke_token_holds_across_restart(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    revoked, kept = sign_in(idp, app_client, username), sign_in(idp, app_client, username)
    revoke(idp, app_client, revoked["RefreshToken"])
    server.restart()
    assert_refresh_revoked(idp, app_client, revoked["RefreshToken"])
    assert_access_revoked(idp, revoked["AccessToken"])
    assert_works(idp, app_client, kept)


def test_revoke_token_refuses_access_tokens(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    tokens = sign_in(idp, app_client, username)
    for token in (tokens["AccessToken"], tokens["IdToken"]):
        with cognito_error("UnsupportedTokenTypeException"):
            revoke(idp, app_client, token)
    assert_works(idp, app_client, tokens)


def test_revoke_token_with_a_client_secret(server, idp, pool):
    client = new_client(idp, pool["Id"], "secret", GenerateSecret=True)
    secret = client["ClientSecret"]
    username, _, _ = confirmed_user(server, idp, pool, client, secret=secret)
    tokens = sign_in(idp, client, username, secret=secret)

    with cognito_error("UnauthorizedException"):
        revoke(idp, client, tokens["RefreshToken"], secret="wrong" + secret[5:])
    with cognito_error("UnauthorizedException"):
        revoke(idp, client, tokens["RefreshToken"])           # no secret at all
    assert_works(idp, client, tokens, username)

    revoke(idp, client, tokens["RefreshToken"], secret)
    assert_refresh_revoked(idp, client, tokens["RefreshToken"], username)
    assert_access_revoked(idp, tokens["AccessToken"])


def test_revoke_token_with_revocation_disabled(server, idp, pool):
    client = new_client(idp, pool["Id"], "no-revocation", EnableTokenRevocation=False)
    assert idp.describe_user_pool_client(UserPoolId=pool["Id"], ClientId=client["ClientId"])[
        "UserPoolClient"]["EnableTokenRevocation"] is False
    username, _, _ = confirmed_user(server, idp, pool, client)
    tokens = sign_in(idp, client, username)
    with cognito_error("UnsupportedOperationException"):
        revoke(idp, client, tokens["RefreshToken"])
    assert_works(idp, client, tokens)


def test_revoke_token_of_another_client_revokes_nothing(server, idp, pool, app_client):
    other_client = new_client(idp, pool["Id"], "other", USER_FLOWS)
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    tokens = sign_in(idp, app_client, username)
    # RFC 7009 §2.1: a token issued to another client is not revoked. Whether Cognito answers
    # 200 (as for any invalid token) or a 400 is not documented; either is accepted.
    try:
        revoke(idp, other_client, tokens["RefreshToken"])
    except ClientError as error:
        assert error.response["ResponseMetadata"]["HTTPStatusCode"] == 400, error.response
    assert_works(idp, app_client, tokens)
