"""GetTokensFromRefreshToken and refresh token rotation (issue 14): with the client's
RefreshTokenRotation enabled each use returns a new refresh token and retires the presented one
after the grace period; without it the refresh token stays."""

import requests

from helpers import REFRESH_TOKEN_REVOKED, cognito_error, confirmed_user, new_client, refresh, sign_in, unique, verify_token


def rotation_pool(idp, grace=None, secret=False):
    pool = idp.create_user_pool(PoolName=unique("rotation"), AutoVerifiedAttributes=["email"])["UserPool"]
    rotation = {"Feature": "ENABLED"}
    if grace is not None:
        rotation["RetryGracePeriodSeconds"] = grace
    client = new_client(idp, pool["Id"], RefreshTokenRotation=rotation, GenerateSecret=secret)
    return pool, client


def renew(idp, client, token, **extra):
    secret = {"ClientSecret": client["ClientSecret"]} if client.get("ClientSecret") else {}
    return idp.get_tokens_from_refresh_token(RefreshToken=token, ClientId=client["ClientId"], **secret, **extra)[
        "AuthenticationResult"]


def test_each_use_rotates_and_the_old_token_stops_working(server, idp):
    pool, client = rotation_pool(idp, grace=0)
    assert idp.describe_user_pool_client(UserPoolId=pool["Id"], ClientId=client["ClientId"])["UserPoolClient"][
        "RefreshTokenRotation"]["Feature"] == "ENABLED"
    username, _, sub = confirmed_user(server, idp, pool, client)
    first = sign_in(idp, client, username)["RefreshToken"]
    result = renew(idp, client, first)
    second = result["RefreshToken"]
    assert second != first and verify_token(server, pool["Id"], result["IdToken"], "id", client["ClientId"])["sub"] == sub
    with cognito_error("NotAuthorizedException", "Invalid Refresh Token"):
        renew(idp, client, first)
    # Cognito's rule: a rotating client refreshes with GetTokensFromRefreshToken only.
    with cognito_error("InvalidParameterException", contains="use GetTokensFromRefreshToken"):
        refresh(idp, client, second)
    third = renew(idp, client, second)["RefreshToken"]
    assert third not in (first, second)
    idp.revoke_token(Token=third, ClientId=client["ClientId"])
    with cognito_error("NotAuthorizedException", REFRESH_TOKEN_REVOKED):
        renew(idp, client, third)


def test_a_retry_within_the_grace_period_gets_a_new_token(server, idp):
    pool, client = rotation_pool(idp, grace=60, secret=True)
    username, _, _ = confirmed_user(server, idp, pool, client, secret=client["ClientSecret"])
    first = sign_in(idp, client, username, secret=client["ClientSecret"])["RefreshToken"]
    lost = renew(idp, client, first)["RefreshToken"]           # the answer the client never received
    retried = renew(idp, client, first)["RefreshToken"]        # the retry with the old token, within the grace period
    assert retried not in (first, lost)
    with cognito_error("NotAuthorizedException", "Invalid Refresh Token"):
        renew(idp, client, lost)                               # replaced by the retry's token
    assert renew(idp, client, retried)["AccessToken"]
    with cognito_error("NotAuthorizedException", contains="Unable to verify secret"):
        idp.get_tokens_from_refresh_token(RefreshToken=retried, ClientId=client["ClientId"], ClientSecret="wrongsecretof24charsxxxxx")


def test_without_rotation_the_refresh_token_stays(server, idp):
    pool = idp.create_user_pool(PoolName=unique("rotation"), AutoVerifiedAttributes=["email"])["UserPool"]
    client = new_client(idp, pool["Id"])
    username, _, _ = confirmed_user(server, idp, pool, client)
    token = sign_in(idp, client, username)["RefreshToken"]
    result = renew(idp, client, token)
    assert "RefreshToken" not in result and result["AccessToken"]
    assert renew(idp, client, token)["AccessToken"]
    with cognito_error("NotAuthorizedException", "Invalid Refresh Token"):
        renew(idp, client, "not-a-token")


def test_the_token_endpoint_rotates_too(server, idp):
    """A stolen refresh token cannot be used quietly through /oauth2/token beside the user's:
    the endpoint rotates for a rotating client as GetTokensFromRefreshToken does."""
    pool, client = rotation_pool(idp, grace=0)
    username, _, _ = confirmed_user(server, idp, pool, client)
    first = sign_in(idp, client, username)["RefreshToken"]
    answer = requests.post(f"{server.endpoint}/oauth2/token", timeout=10, data={
        "grant_type": "refresh_token", "client_id": client["ClientId"], "refresh_token": first})
    assert answer.status_code == 200, answer.text
    second = answer.json()["refresh_token"]
    assert second != first
    again = requests.post(f"{server.endpoint}/oauth2/token", timeout=10, data={
        "grant_type": "refresh_token", "client_id": client["ClientId"], "refresh_token": first})
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"
    assert renew(idp, client, second)["RefreshToken"]
