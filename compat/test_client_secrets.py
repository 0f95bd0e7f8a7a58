"""Client secret rotation (issue 14): AddUserPoolClientSecret, ListUserPoolClientSecrets,
DeleteUserPoolClientSecret — during a rotation both secrets work for SECRET_HASH, the token
endpoint and RevokeToken; after it only the remaining one."""
import requests

from helpers import cognito_error, confirmed_user, new_client, secret_hash, sign_in, unique

FLOWS = ["ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"]


def test_two_secrets_during_a_rotation_then_one(server, idp):
    pool = idp.create_user_pool(PoolName=unique("secrets"), AutoVerifiedAttributes=["email"])["UserPool"]
    client = new_client(idp, pool["Id"], GenerateSecret=True)
    first = client["ClientSecret"]
    username, _, _ = confirmed_user(server, idp, pool, client, secret=first)
    listed = idp.list_user_pool_client_secrets(UserPoolId=pool["Id"], ClientId=client["ClientId"])["ClientSecrets"]
    assert len(listed) == 1 and "ClientSecretValue" not in listed[0]

    added = idp.add_user_pool_client_secret(UserPoolId=pool["Id"], ClientId=client["ClientId"])["ClientSecretDescriptor"]
    second = added["ClientSecretValue"]
    assert second != first and len(second) == 64
    for secret in (first, second):
        assert sign_in(idp, client, username, secret=secret)["AccessToken"]
    with cognito_error("LimitExceededException"):
        idp.add_user_pool_client_secret(UserPoolId=pool["Id"], ClientId=client["ClientId"])
    assert len(idp.list_user_pool_client_secrets(UserPoolId=pool["Id"], ClientId=client["ClientId"])["ClientSecrets"]) == 2

    # The first secret retired: only the second works, and it is now the client's secret.
    idp.delete_user_pool_client_secret(UserPoolId=pool["Id"], ClientId=client["ClientId"],
                                       ClientSecretId=listed[0]["ClientSecretId"])
    with cognito_error("NotAuthorizedException", contains="Unable to verify secret hash"):
        sign_in(idp, client, username, secret=first)
    tokens = sign_in(idp, client, username, secret=second)
    described = idp.describe_user_pool_client(UserPoolId=pool["Id"], ClientId=client["ClientId"])["UserPoolClient"]
    assert described["ClientSecret"] == second
    with cognito_error("InvalidParameterException", contains="only secret"):
        idp.delete_user_pool_client_secret(UserPoolId=pool["Id"], ClientId=client["ClientId"],
                                           ClientSecretId=added["ClientSecretId"])
    with cognito_error("ResourceNotFoundException"):
        idp.delete_user_pool_client_secret(UserPoolId=pool["Id"], ClientId=client["ClientId"], ClientSecretId="nope")
    idp.revoke_token(Token=tokens["RefreshToken"], ClientId=client["ClientId"], ClientSecret=second)


def test_a_chosen_secret_and_clients_without_secrets(server, idp):
    pool = idp.create_user_pool(PoolName=unique("secrets"))["UserPool"]
    client = new_client(idp, pool["Id"], GenerateSecret=True)
    chosen = "chosensecret" + "x" * 30
    added = idp.add_user_pool_client_secret(UserPoolId=pool["Id"], ClientId=client["ClientId"], ClientSecret=chosen)
    assert added["ClientSecretDescriptor"]["ClientSecretValue"] == chosen
    public = new_client(idp, pool["Id"])
    with cognito_error("InvalidParameterException", contains="no secret"):
        idp.add_user_pool_client_secret(UserPoolId=pool["Id"], ClientId=public["ClientId"])
