"""The user journey and pool/client administration through boto3, against the real server."""
import re
import uuid

import pytest

from helpers import (
    PASSWORD, USER_FLOWS, attributes_of, cognito_error, confirm_from_outbox, confirmed_user, email_for, issuer,
    password_auth, refresh, secret_hash, sign_in, sign_up, unique, verify_token,
)


def test_full_journey(server, idp, pool, app_client):
    client_id = app_client["ClientId"]
    username = unique("jane")
    email = email_for(username)

    signed_up = sign_up(idp, app_client, username, email=email)
    assert signed_up["UserConfirmed"] is False
    assert str(uuid.UUID(signed_up["UserSub"])) == signed_up["UserSub"]
    assert signed_up["CodeDeliveryDetails"] == {
        "Destination": f"{username[0]}***@e***", "DeliveryMedium": "EMAIL", "AttributeName": "email"}

    [message] = [m for m in server.outbox(pool["Id"]) if m["destination"] == email]
    assert re.fullmatch(r"\d{6}", message["code"])
    assert message["code"] in message["body"]
    assert message["medium"] == "EMAIL"
    assert idp.admin_get_user(UserPoolId=pool["Id"], Username=username)["UserStatus"] == "UNCONFIRMED"

    with cognito_error("UserNotConfirmedException", "User is not confirmed."):
        password_auth(idp, app_client, username)

    idp.confirm_sign_up(ClientId=client_id, Username=username, ConfirmationCode=message["code"])
    admin_view = idp.admin_get_user(UserPoolId=pool["Id"], Username=username)
    assert admin_view["UserStatus"] == "CONFIRMED"
    assert attributes_of(admin_view)["email_verified"] == "true"

    result = password_auth(idp, app_client, username)
    assert "ChallengeName" not in result
    tokens = result["AuthenticationResult"]
    assert tokens["TokenType"] == "Bearer"
    assert tokens["ExpiresIn"] == 3600
    assert tokens["RefreshToken"]

    id_claims = verify_token(server, pool["Id"], tokens["IdToken"], "id", client_id)
    access_claims = verify_token(server, pool["Id"], tokens["AccessToken"], "access", client_id)
    for claims in (id_claims, access_claims):
        assert claims["sub"] == signed_up["UserSub"]
        assert claims["iss"] == issuer(server, pool["Id"])
        assert claims["exp"] - claims["iat"] == 3600
        assert claims["auth_time"] <= claims["iat"]
    assert id_claims["cognito:username"] == username
    assert id_claims["email"] == email
    assert id_claims["email_verified"] is True
    assert access_claims["username"] == username
    assert access_claims["scope"] == "aws.cognito.signin.user.admin"
    assert id_claims["origin_jti"] == access_claims["origin_jti"]
    assert id_claims["event_id"] == access_claims["event_id"]
    assert len({id_claims["jti"], access_claims["jti"], id_claims["origin_jti"]}) == 3

    refreshed = refresh(idp, app_client, tokens["RefreshToken"])
    assert "RefreshToken" not in refreshed
    assert refreshed["ExpiresIn"] == 3600
    new_id = verify_token(server, pool["Id"], refreshed["IdToken"], "id", client_id)
    new_access = verify_token(server, pool["Id"], refreshed["AccessToken"], "access", client_id)
    for old, new in ((id_claims, new_id), (access_claims, new_access)):
        assert new["origin_jti"] == old["origin_jti"]
        assert new["auth_time"] == old["auth_time"]
        assert new["jti"] != old["jti"]
        assert new["sub"] == old["sub"]

    me = idp.get_user(AccessToken=refreshed["AccessToken"])
    assert me["Username"] == username
    assert attributes_of(me) == {"sub": signed_up["UserSub"], "email": email, "email_verified": "true"}

    idp.delete_user(AccessToken=tokens["AccessToken"])
    # Cognito answers either way for tokens of a deleted user (observed: UserNotFoundException
    # "User does not exist." from apps holding old tokens).
    gone = ("NotAuthorizedException", "UserNotFoundException")
    with cognito_error(gone):
        refresh(idp, app_client, tokens["RefreshToken"])
    with cognito_error(gone):
        idp.get_user(AccessToken=refreshed["AccessToken"])
    with cognito_error("UserNotFoundException", "User does not exist."):
        idp.admin_get_user(UserPoolId=pool["Id"], Username=username)


def test_sign_in_errors(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    with cognito_error("NotAuthorizedException", "Incorrect username or password."):
        password_auth(idp, app_client, username, "Wr0ng-password!")
    with cognito_error("UserNotFoundException", "User does not exist."):
        password_auth(idp, app_client, unique("nobody"))

    hiding = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="hiding", ExplicitAuthFlows=USER_FLOWS,
                                         PreventUserExistenceErrors="ENABLED")["UserPoolClient"]
    with cognito_error("NotAuthorizedException", "Incorrect username or password."):
        password_auth(idp, hiding, unique("nobody"))
    # Sign-up is not covered by PreventUserExistenceErrors.
    with cognito_error("UsernameExistsException", "User already exists"):
        sign_up(idp, hiding, username)

    srp_only = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="srp",
                                           ExplicitAuthFlows=["ALLOW_USER_SRP_AUTH"])["UserPoolClient"]
    with cognito_error("InvalidParameterException"):
        password_auth(idp, srp_only, username)
    with cognito_error("InvalidParameterException"):
        refresh(idp, srp_only, "x" * 40)

    with cognito_error("NotAuthorizedException"):
        refresh(idp, app_client, "not-a-refresh-token")
    with cognito_error("ResourceNotFoundException"):
        idp.initiate_auth(ClientId="nosuchclient0000000000000", AuthFlow="USER_PASSWORD_AUTH",
                          AuthParameters={"USERNAME": username, "PASSWORD": PASSWORD})


def test_password_is_checked_before_confirmation_status(idp, app_client):
    username = unique()
    sign_up(idp, app_client, username)
    with cognito_error("NotAuthorizedException", "Incorrect username or password."):
        password_auth(idp, app_client, username, "Wr0ng-password!")
    with cognito_error("UserNotConfirmedException"):
        password_auth(idp, app_client, username)


def test_old_tokens_do_not_reach_a_new_user_of_the_same_name(server, idp, pool, app_client):
    username, _, old_sub = confirmed_user(server, idp, pool, app_client)
    old = sign_in(idp, app_client, username)
    idp.admin_delete_user(UserPoolId=pool["Id"], Username=username)
    _, _, new_sub = confirmed_user(server, idp, pool, app_client, username=username)
    assert new_sub != old_sub
    gone = ("NotAuthorizedException", "UserNotFoundException")
    with cognito_error(gone):
        idp.get_user(AccessToken=old["AccessToken"])
    with cognito_error(gone):
        refresh(idp, app_client, old["RefreshToken"])
    assert attributes_of(idp.get_user(AccessToken=sign_in(idp, app_client, username)["AccessToken"]))["sub"] == new_sub


def test_refresh_token_is_bound_to_its_client(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    tokens = sign_in(idp, app_client, username)
    other = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="other",
                                        ExplicitAuthFlows=USER_FLOWS)["UserPoolClient"]
    with cognito_error("NotAuthorizedException"):
        refresh(idp, other, tokens["RefreshToken"])


# --- clients with a secret --------------------------------------------------------------------

@pytest.fixture
def secret_client(idp, pool):
    client = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="confidential", GenerateSecret=True,
                                         ExplicitAuthFlows=USER_FLOWS)["UserPoolClient"]
    assert len(client["ClientSecret"]) >= 24
    return client


def test_secret_hash_is_required_and_checked(server, idp, pool, secret_client):
    client_id, secret = secret_client["ClientId"], secret_client["ClientSecret"]
    missing = f"Client {client_id} is configured with secret but SECRET_HASH was not received"
    wrong = f"Unable to verify secret hash for client {client_id}"
    username = unique()
    email = email_for(username)
    bad_hash = secret_hash(username, client_id, "not-the-secret")

    with cognito_error("NotAuthorizedException", missing):
        sign_up(idp, secret_client, username, email=email)
    with cognito_error("NotAuthorizedException", wrong):
        idp.sign_up(ClientId=client_id, Username=username, Password=PASSWORD, SecretHash=bad_hash,
                    UserAttributes=[{"Name": "email", "Value": email}])
    sub = sign_up(idp, secret_client, username, email=email, secret=secret)["UserSub"]

    code = server.last_code(pool["Id"], email)
    with cognito_error("NotAuthorizedException", missing):
        idp.confirm_sign_up(ClientId=client_id, Username=username, ConfirmationCode=code)
    with cognito_error("NotAuthorizedException", wrong):
        idp.confirm_sign_up(ClientId=client_id, Username=username, ConfirmationCode=code, SecretHash=bad_hash)
    with cognito_error("NotAuthorizedException", missing):
        idp.resend_confirmation_code(ClientId=client_id, Username=username)
    confirm_from_outbox(server, idp, pool["Id"], secret_client, username, email, secret=secret)

    with cognito_error("NotAuthorizedException", missing):
        password_auth(idp, secret_client, username)
    with cognito_error("NotAuthorizedException", wrong):
        password_auth(idp, secret_client, username, secret="not-the-secret")
    tokens = sign_in(idp, secret_client, username, secret=secret)
    assert verify_token(server, pool["Id"], tokens["IdToken"], "id", client_id)["sub"] == sub

    with cognito_error("NotAuthorizedException", missing):
        refresh(idp, secret_client, tokens["RefreshToken"])
    with cognito_error("NotAuthorizedException", wrong):
        refresh(idp, secret_client, tokens["RefreshToken"], username, secret="not-the-secret")
    refreshed = refresh(idp, secret_client, tokens["RefreshToken"], username, secret=secret)
    assert verify_token(server, pool["Id"], refreshed["AccessToken"], "access", client_id)["sub"] == sub


def test_admin_auth_with_secret(server, idp, pool, secret_client):
    client_id, secret = secret_client["ClientId"], secret_client["ClientSecret"]
    username, _, _ = confirmed_user(server, idp, pool, secret_client, secret=secret)
    idp.update_user_pool_client(UserPoolId=pool["Id"], ClientId=client_id, ClientName="confidential",
                                ExplicitAuthFlows=USER_FLOWS + ["ALLOW_ADMIN_USER_PASSWORD_AUTH"])
    params = {"USERNAME": username, "PASSWORD": PASSWORD}
    with cognito_error("NotAuthorizedException",
                       f"Client {client_id} is configured with secret but SECRET_HASH was not received"):
        idp.admin_initiate_auth(UserPoolId=pool["Id"], ClientId=client_id, AuthFlow="ADMIN_USER_PASSWORD_AUTH",
                                AuthParameters=params)
    result = idp.admin_initiate_auth(
        UserPoolId=pool["Id"], ClientId=client_id, AuthFlow="ADMIN_USER_PASSWORD_AUTH",
        AuthParameters={**params, "SECRET_HASH": secret_hash(username, client_id, secret)})
    assert result["AuthenticationResult"]["RefreshToken"]


def test_update_client_keeps_its_secret(idp, pool, secret_client):
    updated = idp.update_user_pool_client(UserPoolId=pool["Id"], ClientId=secret_client["ClientId"],
                                          ClientName="renamed")["UserPoolClient"]
    assert updated["ClientSecret"] == secret_client["ClientSecret"]
    with cognito_error("NotAuthorizedException", contains="SECRET_HASH was not received"):
        sign_up(idp, secret_client, unique())


def test_client_secret_is_described_not_listed(idp, pool, secret_client):
    described = idp.describe_user_pool_client(UserPoolId=pool["Id"], ClientId=secret_client["ClientId"])
    assert described["UserPoolClient"]["ClientSecret"] == secret_client["ClientSecret"]
    listed = idp.list_user_pool_clients(UserPoolId=pool["Id"], MaxResults=60)["UserPoolClients"]
    assert {"ClientId": secret_client["ClientId"], "UserPoolId": pool["Id"], "ClientName": "confidential"} in listed


# --- token validity ---------------------------------------------------------------------------

@pytest.mark.parametrize("settings, access_seconds, id_seconds", [
    ({"AccessTokenValidity": 5, "IdTokenValidity": 10,
      "TokenValidityUnits": {"AccessToken": "minutes", "IdToken": "minutes"}}, 300, 600),
    ({"AccessTokenValidity": 2, "IdTokenValidity": 1}, 7200, 3600),  # units default to hours
    ({"AccessTokenValidity": 1, "IdTokenValidity": 900,
      "TokenValidityUnits": {"AccessToken": "days", "IdToken": "seconds"}}, 86400, 900),
])
def test_token_validity_is_reflected_in_exp(server, idp, pool, settings, access_seconds, id_seconds):
    client = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="validity", ExplicitAuthFlows=USER_FLOWS,
                                         **settings)["UserPoolClient"]
    assert client["AccessTokenValidity"] == settings["AccessTokenValidity"]
    assert client["IdTokenValidity"] == settings["IdTokenValidity"]
    username, _, _ = confirmed_user(server, idp, pool, client)
    tokens = sign_in(idp, client, username)
    assert tokens["ExpiresIn"] == access_seconds
    access = verify_token(server, pool["Id"], tokens["AccessToken"], "access", client["ClientId"])
    id_claims = verify_token(server, pool["Id"], tokens["IdToken"], "id", client["ClientId"])
    assert access["exp"] - access["iat"] == access_seconds
    assert id_claims["exp"] - id_claims["iat"] == id_seconds

    refreshed = refresh(idp, client, tokens["RefreshToken"])
    assert refreshed["ExpiresIn"] == access_seconds


UNIT_SECONDS = {"seconds": 1, "minutes": 60, "hours": 3600, "days": 86400}


def test_client_validity_defaults(idp, pool, app_client):
    client = idp.describe_user_pool_client(UserPoolId=pool["Id"], ClientId=app_client["ClientId"])["UserPoolClient"]
    units = {"AccessToken": "hours", "IdToken": "hours", "RefreshToken": "days", **client.get("TokenValidityUnits", {})}
    assert client["AccessTokenValidity"] * UNIT_SECONDS[units["AccessToken"]] == 3600
    assert client["IdTokenValidity"] * UNIT_SECONDS[units["IdToken"]] == 3600
    assert client["RefreshTokenValidity"] * UNIT_SECONDS[units["RefreshToken"]] == 30 * 86400
    assert client["PreventUserExistenceErrors"] == "LEGACY"
    assert client["EnableTokenRevocation"] is True
    assert set(client["ExplicitAuthFlows"]) == set(USER_FLOWS)


# --- pool settings ------------------------------------------------------------------------------

def test_email_as_username(server, idp):
    pool = idp.create_user_pool(PoolName=unique("emailpool"), UsernameAttributes=["email"],
                                AutoVerifiedAttributes=["email"])["UserPool"]
    assert pool["UsernameAttributes"] == ["email"]
    client = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="app",
                                         ExplicitAuthFlows=USER_FLOWS)["UserPoolClient"]
    email = email_for(unique("mail"))

    sub = idp.sign_up(ClientId=client["ClientId"], Username=email, Password=PASSWORD)["UserSub"]
    user = idp.admin_get_user(UserPoolId=pool["Id"], Username=email)
    assert user["Username"] == sub
    assert attributes_of(user)["email"] == email

    with cognito_error("UsernameExistsException", "An account with the given email already exists."):
        idp.sign_up(ClientId=client["ClientId"], Username=email, Password=PASSWORD)
    with cognito_error("InvalidParameterException"):
        idp.sign_up(ClientId=client["ClientId"], Username=unique("plain"), Password=PASSWORD)

    idp.confirm_sign_up(ClientId=client["ClientId"], Username=email,
                        ConfirmationCode=server.last_code(pool["Id"], email))
    tokens = sign_in(idp, client, email)
    claims = verify_token(server, pool["Id"], tokens["IdToken"], "id", client["ClientId"])
    assert claims["cognito:username"] == sub
    assert claims["email"] == email
    access = verify_token(server, pool["Id"], tokens["AccessToken"], "access", client["ClientId"])
    assert access["username"] == sub
    assert idp.get_user(AccessToken=tokens["AccessToken"])["Username"] == sub
    # Refresh with a secret-less client, then the admin view by internal username.
    refresh(idp, client, tokens["RefreshToken"])
    assert idp.admin_get_user(UserPoolId=pool["Id"], Username=sub)["Username"] == sub


def test_email_as_username_with_secret_refresh_uses_internal_username(server, idp):
    pool = idp.create_user_pool(PoolName=unique("emailpool"), UsernameAttributes=["email"],
                                AutoVerifiedAttributes=["email"])["UserPool"]
    client = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="app", GenerateSecret=True,
                                         ExplicitAuthFlows=USER_FLOWS)["UserPoolClient"]
    secret = client["ClientSecret"]
    email = email_for(unique("mail"))
    sub = sign_up(idp, client, email, email=False, secret=secret)["UserSub"]
    confirm_from_outbox(server, idp, pool["Id"], client, email, email, secret=secret)
    tokens = sign_in(idp, client, email, secret=secret)
    refreshed = refresh(idp, client, tokens["RefreshToken"], sub, secret=secret)
    assert verify_token(server, pool["Id"], refreshed["IdToken"], "id", client["ClientId"])["sub"] == sub


@pytest.fixture
def schema_pool(idp):
    return idp.create_user_pool(
        PoolName=unique("schema"), AutoVerifiedAttributes=["email"],
        Schema=[
            {"Name": "name", "AttributeDataType": "String", "Required": True, "Mutable": True},
            {"Name": "tier", "AttributeDataType": "String", "Mutable": True,
             "StringAttributeConstraints": {"MinLength": "1", "MaxLength": "10"}},
            {"Name": "level", "AttributeDataType": "Number", "Mutable": True,
             "NumberAttributeConstraints": {"MinValue": "0", "MaxValue": "100"}},
        ])["UserPool"]


def test_required_and_custom_attributes(server, idp, schema_pool):
    pool = schema_pool
    schema = {a["Name"]: a for a in idp.describe_user_pool(UserPoolId=pool["Id"])["UserPool"]["SchemaAttributes"]}
    assert schema["name"]["Required"] is True
    assert schema["custom:tier"]["AttributeDataType"] == "String"
    assert schema["custom:level"]["AttributeDataType"] == "Number"
    assert {"sub", "email", "email_verified"} <= set(schema)

    client = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="app",
                                         ExplicitAuthFlows=USER_FLOWS)["UserPoolClient"]
    username = unique()
    with cognito_error("InvalidParameterException", contains="name"):
        sign_up(idp, client, username)
    with cognito_error("InvalidParameterException"):
        sign_up(idp, client, username, attributes=[("name", "Jane"), ("custom:undeclared", "x")])
    with cognito_error("InvalidParameterException"):
        sign_up(idp, client, username, attributes=[("name", "Jane"), ("custom:tier", "far-too-long-value")])
    with cognito_error("InvalidParameterException"):
        sign_up(idp, client, username, attributes=[("name", "Jane"), ("custom:level", "101")])

    sign_up(idp, client, username, attributes=[("name", "Jane"), ("custom:tier", "gold"), ("custom:level", "42")])
    attrs = attributes_of(idp.admin_get_user(UserPoolId=pool["Id"], Username=username))
    assert attrs["name"] == "Jane"
    assert attrs["custom:tier"] == "gold"
    assert attrs["custom:level"] == "42"

    confirm_from_outbox(server, idp, pool["Id"], client, username, email_for(username))
    tokens = sign_in(idp, client, username)
    claims = verify_token(server, pool["Id"], tokens["IdToken"], "id", client["ClientId"])
    assert claims["name"] == "Jane"
    assert claims["custom:tier"] == "gold"
    assert claims["custom:level"] == "42"     # custom attribute claims are always strings


def test_users_cannot_set_verified_flags(idp, pool, app_client):
    with cognito_error("InvalidParameterException"):
        sign_up(idp, app_client, unique(), attributes=[("email_verified", "true")])


PASSWORD_CASES = [
    ("Sh0rt!a", "Password did not conform with policy: Password not long enough"),
    ("passw0rd!long", "Password did not conform with policy: Password must have uppercase characters"),
    ("PASSW0RD!LONG", "Password did not conform with policy: Password must have lowercase characters"),
    ("Password!long", "Password did not conform with policy: Password must have numeric characters"),
    ("Passw0rdLong1", "Password did not conform with policy: Password must have symbol characters"),
]


@pytest.mark.parametrize("password, message", PASSWORD_CASES)
def test_password_policy(idp, password, message):
    pool = idp.create_user_pool(PoolName=unique("policy"), Policies={"PasswordPolicy": {
        "MinimumLength": 10, "RequireUppercase": True, "RequireLowercase": True, "RequireNumbers": True,
        "RequireSymbols": True}})["UserPool"]
    client = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="app")["UserPoolClient"]
    with cognito_error("InvalidPasswordException", message):
        sign_up(idp, client, unique(), password=password)


def test_relaxed_password_policy_accepts_simple_passwords(server, idp):
    pool = idp.create_user_pool(PoolName=unique("relaxed"), AutoVerifiedAttributes=["email"], Policies={
        "PasswordPolicy": {"MinimumLength": 6, "RequireUppercase": False, "RequireLowercase": False,
                           "RequireNumbers": False, "RequireSymbols": False}})["UserPool"]
    client = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="app",
                                         ExplicitAuthFlows=USER_FLOWS)["UserPoolClient"]
    username, _, _ = confirmed_user(server, idp, pool, client, password="simple")
    assert sign_in(idp, client, username, "simple")["AccessToken"]


def test_default_password_policy(idp, pool, app_client):
    policy = idp.describe_user_pool(UserPoolId=pool["Id"])["UserPool"]["Policies"]["PasswordPolicy"]
    assert policy["MinimumLength"] == 8
    assert policy["RequireUppercase"] and policy["RequireLowercase"]
    assert policy["RequireNumbers"] and policy["RequireSymbols"]
    with cognito_error("InvalidPasswordException", contains="Password did not conform with policy"):
        sign_up(idp, app_client, unique(), password="Ab1!")


def test_username_already_exists(idp, pool, app_client):
    username = unique()
    sign_up(idp, app_client, username)
    with cognito_error("UsernameExistsException", "User already exists"):
        sign_up(idp, app_client, username, email=email_for(unique()))


def test_case_insensitive_usernames(server, idp):
    pool = idp.create_user_pool(PoolName=unique("ci"), AutoVerifiedAttributes=["email"],
                                UsernameConfiguration={"CaseSensitive": False})["UserPool"]
    assert pool["UsernameConfiguration"] == {"CaseSensitive": False}
    client = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="app",
                                         ExplicitAuthFlows=USER_FLOWS)["UserPoolClient"]
    username = "Mixed" + unique("Case")
    sign_up(idp, client, username)
    with cognito_error("UsernameExistsException", "User already exists"):
        sign_up(idp, client, username.upper())
    idp.admin_confirm_sign_up(UserPoolId=pool["Id"], Username=username.lower())
    tokens = sign_in(idp, client, username.swapcase())
    claims = verify_token(server, pool["Id"], tokens["IdToken"], "id", client["ClientId"])
    assert claims["cognito:username"] == username       # the name keeps the case it was created with
    assert idp.admin_get_user(UserPoolId=pool["Id"], Username=username.upper())["Username"] == username


def test_usernames_are_case_sensitive_by_default(idp, pool, app_client):
    username = "Mixed" + unique("Case")
    sign_up(idp, app_client, username)
    sign_up(idp, app_client, username.lower())
    with cognito_error("UserNotFoundException"):
        idp.admin_get_user(UserPoolId=pool["Id"], Username=username.upper())


def test_phone_number_as_username(server, idp):
    pool = idp.create_user_pool(PoolName=unique("phone"), UsernameAttributes=["phone_number"],
                                AutoVerifiedAttributes=["phone_number"])["UserPool"]
    client = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="app",
                                         ExplicitAuthFlows=USER_FLOWS)["UserPoolClient"]
    phone = "+1555" + str(uuid.uuid4().int)[:7]
    signed_up = idp.sign_up(ClientId=client["ClientId"], Username=phone, Password=PASSWORD)
    assert signed_up["CodeDeliveryDetails"] == {
        "Destination": "+" + "*" * (len(phone) - 5) + phone[-4:], "DeliveryMedium": "SMS",
        "AttributeName": "phone_number"}
    [message] = server.outbox(pool["Id"])
    assert (message["medium"], message["destination"]) == ("SMS", phone)
    idp.confirm_sign_up(ClientId=client["ClientId"], Username=phone, ConfirmationCode=message["code"])
    claims = verify_token(server, pool["Id"], sign_in(idp, client, phone)["IdToken"], "id", client["ClientId"])
    assert claims["phone_number"] == phone
    assert claims["phone_number_verified"] is True
    assert claims["cognito:username"] == signed_up["UserSub"]


def test_verification_message_templates(server, idp):
    pool = idp.create_user_pool(
        PoolName=unique("templates"), AutoVerifiedAttributes=["email"],
        VerificationMessageTemplate={"EmailMessage": "Welcome! Code {####}.", "EmailSubject": "Your code",
                                     "DefaultEmailOption": "CONFIRM_WITH_CODE"})["UserPool"]
    client = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="app")["UserPoolClient"]
    username = unique()
    sign_up(idp, client, username)
    [message] = server.outbox(pool["Id"])
    assert message["subject"] == "Your code"
    assert message["body"] == f"Welcome! Code {message['code']}."
    with cognito_error("InvalidParameterException", contains="emailVerificationMessage"):
        idp.create_user_pool(PoolName=unique("templates"), EmailVerificationMessage="no placeholder here")


def test_without_auto_verification_no_code_is_sent(server, idp):
    pool = idp.create_user_pool(PoolName=unique("noverify"))["UserPool"]
    client = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="app")["UserPoolClient"]
    username = unique()
    signed_up = sign_up(idp, client, username)
    assert "CodeDeliveryDetails" not in signed_up
    assert server.outbox(pool["Id"]) == []
    with cognito_error("InvalidParameterException", "Cannot resend codes. Auto verification not turned on."):
        idp.resend_confirmation_code(ClientId=client["ClientId"], Username=username)
    idp.admin_confirm_sign_up(UserPoolId=pool["Id"], Username=username)


def test_update_pool_keeps_immutable_settings(server, idp):
    pool = idp.create_user_pool(
        PoolName=unique("immutable"), UsernameAttributes=["email"], AutoVerifiedAttributes=["email"],
        Schema=[{"Name": "tier", "AttributeDataType": "String", "Mutable": True}])["UserPool"]
    idp.update_user_pool(UserPoolId=pool["Id"], AutoVerifiedAttributes=["email"])
    described = idp.describe_user_pool(UserPoolId=pool["Id"])["UserPool"]
    assert described["UsernameAttributes"] == ["email"]
    assert "custom:tier" in {a["Name"] for a in described["SchemaAttributes"]}

    client = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="app",
                                         ExplicitAuthFlows=USER_FLOWS)["UserPoolClient"]
    email = email_for(unique())
    idp.sign_up(ClientId=client["ClientId"], Username=email, Password=PASSWORD,
                UserAttributes=[{"Name": "custom:tier", "Value": "gold"}])
    idp.confirm_sign_up(ClientId=client["ClientId"], Username=email,
                        ConfirmationCode=server.last_code(pool["Id"], email))
    claims = verify_token(server, pool["Id"], sign_in(idp, client, email)["IdToken"], "id", client["ClientId"])
    assert claims["custom:tier"] == "gold"


def test_update_pool_name_and_user_count(idp, pool, app_client):
    assert idp.describe_user_pool(UserPoolId=pool["Id"])["UserPool"]["EstimatedNumberOfUsers"] == 0
    for _ in range(2):
        sign_up(idp, app_client, unique())
    idp.update_user_pool(UserPoolId=pool["Id"], PoolName="renamed-pool", AutoVerifiedAttributes=["email"])
    described = idp.describe_user_pool(UserPoolId=pool["Id"])["UserPool"]
    assert described["Name"] == "renamed-pool"
    assert described["EstimatedNumberOfUsers"] == 2


# --- admin user operations ----------------------------------------------------------------------

def test_admin_user_operations(server, idp, pool, app_client):
    username = unique()
    sub = sign_up(idp, app_client, username)["UserSub"]
    user = idp.admin_get_user(UserPoolId=pool["Id"], Username=username)
    assert user["Username"] == username
    assert user["Enabled"] is True
    assert user["UserStatus"] == "UNCONFIRMED"
    assert attributes_of(user)["sub"] == sub
    assert user["UserCreateDate"] <= user["UserLastModifiedDate"]

    idp.admin_confirm_sign_up(UserPoolId=pool["Id"], Username=username)
    confirmed = idp.admin_get_user(UserPoolId=pool["Id"], Username=username)
    assert confirmed["UserStatus"] == "CONFIRMED"
    # AdminConfirmSignUp confirms the account, it does not verify the email address.
    assert attributes_of(confirmed).get("email_verified", "false") == "false"
    with cognito_error("NotAuthorizedException", "User cannot be confirmed. Current status is CONFIRMED"):
        idp.admin_confirm_sign_up(UserPoolId=pool["Id"], Username=username)
    # The sign-up code died with the admin confirmation.
    with cognito_error("NotAuthorizedException", "User cannot be confirmed. Current status is CONFIRMED"):
        confirm_from_outbox(server, idp, pool["Id"], app_client, username, email_for(username))
    assert sign_in(idp, app_client, username)["AccessToken"]

    idp.admin_delete_user(UserPoolId=pool["Id"], Username=username)
    for call in (idp.admin_get_user, idp.admin_delete_user, idp.admin_confirm_sign_up):
        with cognito_error("UserNotFoundException", "User does not exist."):
            call(UserPoolId=pool["Id"], Username=username)
    with cognito_error("UserNotFoundException"):
        password_auth(idp, app_client, username)
    with cognito_error("ResourceNotFoundException"):
        idp.admin_get_user(UserPoolId="us-east-1_NoSuchPool", Username=username)


def test_admin_initiate_auth(server, idp, pool, app_client):
    username, _, sub = confirmed_user(server, idp, pool, app_client)
    with cognito_error("InvalidParameterException"):
        idp.admin_initiate_auth(UserPoolId=pool["Id"], ClientId=app_client["ClientId"],
                                AuthFlow="ADMIN_USER_PASSWORD_AUTH",
                                AuthParameters={"USERNAME": username, "PASSWORD": PASSWORD})
    admin_client = idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="admin",
        ExplicitAuthFlows=["ALLOW_ADMIN_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"])["UserPoolClient"]
    result = idp.admin_initiate_auth(UserPoolId=pool["Id"], ClientId=admin_client["ClientId"],
                                     AuthFlow="ADMIN_USER_PASSWORD_AUTH",
                                     AuthParameters={"USERNAME": username, "PASSWORD": PASSWORD})
    claims = verify_token(server, pool["Id"], result["AuthenticationResult"]["AccessToken"], "access",
                          admin_client["ClientId"])
    assert claims["sub"] == sub
    with cognito_error("NotAuthorizedException", "Incorrect username or password."):
        idp.admin_initiate_auth(UserPoolId=pool["Id"], ClientId=admin_client["ClientId"],
                                AuthFlow="ADMIN_USER_PASSWORD_AUTH",
                                AuthParameters={"USERNAME": username, "PASSWORD": "Wr0ng-password!"})
    with cognito_error("InvalidParameterException"):
        idp.initiate_auth(ClientId=admin_client["ClientId"], AuthFlow="ADMIN_USER_PASSWORD_AUTH",
                          AuthParameters={"USERNAME": username, "PASSWORD": PASSWORD})


# --- pools and clients --------------------------------------------------------------------------

def test_describe_and_update_pool(idp):
    name = unique("pool")
    created = idp.create_user_pool(
        PoolName=name, AutoVerifiedAttributes=["email"], DeletionProtection="ACTIVE",
        Policies={"PasswordPolicy": {"MinimumLength": 12, "RequireSymbols": False}})["UserPool"]
    assert re.fullmatch(r"us-east-1_[0-9A-Za-z]+", created["Id"])
    assert created["Arn"].endswith(f":userpool/{created['Id']}")
    described = idp.describe_user_pool(UserPoolId=created["Id"])["UserPool"]
    assert described["Name"] == name
    assert described["AutoVerifiedAttributes"] == ["email"]
    assert described["DeletionProtection"] == "ACTIVE"
    assert described["Policies"]["PasswordPolicy"]["MinimumLength"] == 12

    # UpdateUserPool replaces every mutable setting: omitted ones return to their defaults.
    idp.update_user_pool(UserPoolId=created["Id"], AutoVerifiedAttributes=["email"])
    updated = idp.describe_user_pool(UserPoolId=created["Id"])["UserPool"]
    assert updated["Name"] == name
    assert updated["Policies"]["PasswordPolicy"]["MinimumLength"] == 8
    assert updated["Policies"]["PasswordPolicy"]["RequireSymbols"] is True
    assert updated.get("DeletionProtection", "INACTIVE") == "INACTIVE"
    assert updated["LastModifiedDate"] >= described["LastModifiedDate"]

    with cognito_error("ResourceNotFoundException"):
        idp.describe_user_pool(UserPoolId="us-east-1_NoSuchPool")
    with cognito_error("ResourceNotFoundException"):
        idp.update_user_pool(UserPoolId="us-east-1_NoSuchPool")


def test_deletion_protection(idp):
    pool_id = idp.create_user_pool(PoolName=unique("protected"), DeletionProtection="ACTIVE")["UserPool"]["Id"]
    with cognito_error("InvalidParameterException"):
        idp.delete_user_pool(UserPoolId=pool_id)
    assert idp.describe_user_pool(UserPoolId=pool_id)["UserPool"]["Id"] == pool_id

    idp.update_user_pool(UserPoolId=pool_id, DeletionProtection="INACTIVE")
    idp.delete_user_pool(UserPoolId=pool_id)
    with cognito_error("ResourceNotFoundException"):
        idp.describe_user_pool(UserPoolId=pool_id)
    with cognito_error("ResourceNotFoundException"):
        idp.delete_user_pool(UserPoolId=pool_id)


def test_deleting_a_pool_removes_its_clients_and_users(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    idp.delete_user_pool(UserPoolId=pool["Id"])
    with cognito_error("ResourceNotFoundException"):
        password_auth(idp, app_client, username)
    with cognito_error("ResourceNotFoundException"):
        idp.list_user_pool_clients(UserPoolId=pool["Id"], MaxResults=10)


def collect_pages(call, key, **kwargs):
    """All pages of a list call; checks that repeating a NextToken gives the same page."""
    items, token, pages = [], None, 0
    while True:
        page = call(**kwargs, **({"NextToken": token} if token else {}))
        if token:
            assert call(**kwargs, NextToken=token)[key] == page[key], "NextToken is not stable"
        items += page[key]
        pages += 1
        token = page.get("NextToken")
        if not token:
            return items, pages
        assert page[key], "a non-final page must not be empty"


def test_list_user_pools_pagination(idp):
    created = {idp.create_user_pool(PoolName=unique("listed"))["UserPool"]["Id"] for _ in range(5)}
    pools, pages = collect_pages(idp.list_user_pools, "UserPools", MaxResults=2)
    ids = [p["Id"] for p in pools]
    assert len(ids) == len(set(ids)), "a pool was listed twice"
    assert created <= set(ids)
    assert pages == -(-len(ids) // 2)
    first = idp.list_user_pools(MaxResults=2)
    assert len(first["UserPools"]) == 2
    sample = first["UserPools"][0]
    assert {"Id", "Name", "CreationDate", "LastModifiedDate"} <= set(sample)
    everything = idp.list_user_pools(MaxResults=60)
    if len(ids) <= 60:
        assert "NextToken" not in everything

    with cognito_error("InvalidParameterException"):
        idp.list_user_pools(MaxResults=61)
    with cognito_error("InvalidParameterException"):
        idp.list_user_pools(MaxResults=2, NextToken="garbage-token")


def test_list_user_pool_clients_pagination(idp, pool):
    created = {idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName=f"c{i}")["UserPoolClient"]["ClientId"]
               for i in range(5)}
    clients, pages = collect_pages(idp.list_user_pool_clients, "UserPoolClients", UserPoolId=pool["Id"],
                                   MaxResults=2)
    assert len(clients) == 5
    assert {c["ClientId"] for c in clients} == created
    assert pages == 3
    assert all(c["UserPoolId"] == pool["Id"] for c in clients)


def test_describe_update_delete_client(server, idp, pool, app_client):
    client_id = app_client["ClientId"]
    assert re.fullmatch(r"[a-z0-9]{26}", client_id)
    described = idp.describe_user_pool_client(UserPoolId=pool["Id"], ClientId=client_id)["UserPoolClient"]
    assert described["ClientName"] == "app"
    assert "ClientSecret" not in described
    username, _, _ = confirmed_user(server, idp, pool, app_client)

    updated = idp.update_user_pool_client(
        UserPoolId=pool["Id"], ClientId=client_id, ClientName="renamed",
        ExplicitAuthFlows=USER_FLOWS, AccessTokenValidity=10, TokenValidityUnits={"AccessToken": "minutes"},
    )["UserPoolClient"]
    assert updated["ClientName"] == "renamed"
    assert updated["AccessTokenValidity"] == 10
    assert sign_in(idp, app_client, username)["ExpiresIn"] == 600

    # Full replacement: without ExplicitAuthFlows the client falls back to the defaults,
    # which do not include USER_PASSWORD_AUTH.
    idp.update_user_pool_client(UserPoolId=pool["Id"], ClientId=client_id, ClientName="renamed")
    flows = idp.describe_user_pool_client(UserPoolId=pool["Id"], ClientId=client_id)["UserPoolClient"].get(
        "ExplicitAuthFlows", [])
    assert "ALLOW_USER_PASSWORD_AUTH" not in flows
    with cognito_error("InvalidParameterException"):
        password_auth(idp, app_client, username)

    idp.delete_user_pool_client(UserPoolId=pool["Id"], ClientId=client_id)
    with cognito_error("ResourceNotFoundException"):
        idp.describe_user_pool_client(UserPoolId=pool["Id"], ClientId=client_id)
    with cognito_error("ResourceNotFoundException"):
        idp.delete_user_pool_client(UserPoolId=pool["Id"], ClientId=client_id)
    with cognito_error("ResourceNotFoundException"):
        sign_up(idp, app_client, unique())


def test_client_of_another_pool_is_not_found(idp, pool, app_client):
    other = idp.create_user_pool(PoolName=unique("other"))["UserPool"]
    with cognito_error("ResourceNotFoundException"):
        idp.describe_user_pool_client(UserPoolId=other["Id"], ClientId=app_client["ClientId"])
