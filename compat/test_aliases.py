"""Sign-in identifiers (issue 4, protocol doc §7.3): AliasAttributes (verified email/phone and
preferred_username sign in; alias uniqueness, ForceAliasCreation and alias moves), UsernameAttributes
(email as the username, Username = sub) and UsernameConfiguration.CaseSensitive; with
USER_PASSWORD_AUTH, boto3-driven SRP and pycognito."""
import re

import jwt
import pytest

from helpers import (
    PASSWORD, admin_user, attributes_of, cognito_error, email_for, last_message, new_client, password_auth,
    pycognito_user, sign_in, sign_up, srp_auth, srp_for, unique, user_status,
)

PHONE = "+15555550123"
NOT_FOUND = ("UserNotFoundException", "User does not exist.")
EMAIL_ALIAS_EXISTS = ("AliasExistsException", "An account with the given email already exists.")
UUID_PATTERN = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def claims_of(token):
    return jwt.decode(token, options={"verify_signature": False})


def signed_in_as(tokens):
    """The cognito:username of an AuthenticationResult's ID token."""
    return claims_of(tokens["IdToken"])["cognito:username"]


def srp_sign_in(idp, pool_id, client, login, password=PASSWORD):
    return srp_auth(idp, srp_for(idp, pool_id, client, login, password))["AuthenticationResult"]


def confirm(server, idp, client, pool_id, username, email, force=None):
    code = last_message(server, pool_id, username=username, destination=email, purpose="signUp")["code"]
    kwargs = {} if force is None else {"ForceAliasCreation": force}
    return idp.confirm_sign_up(ClientId=client["ClientId"], Username=username, ConfirmationCode=code, **kwargs)


def attributes(idp, pool_id, username):
    return attributes_of(idp.admin_get_user(UserPoolId=pool_id, Username=username))


# --- AliasAttributes --------------------------------------------------------------------------

@pytest.fixture
def alias_pool(idp):
    return idp.create_user_pool(PoolName=unique("alias"), AutoVerifiedAttributes=["email"],
                                AliasAttributes=["email", "phone_number", "preferred_username"])["UserPool"]


@pytest.fixture
def alias_client(idp, alias_pool):
    return new_client(idp, alias_pool["Id"])


def test_alias_settings_are_kept(idp, alias_pool):
    described = idp.describe_user_pool(UserPoolId=alias_pool["Id"])["UserPool"]
    assert sorted(described["AliasAttributes"]) == ["email", "phone_number", "preferred_username"]
    assert "UsernameAttributes" not in described or not described["UsernameAttributes"]


def test_sign_in_with_a_verified_email(server, idp, alias_pool, alias_client):
    username = unique()
    email = email_for(username)
    sign_up(idp, alias_client, username, email=email)
    confirm(server, idp, alias_client, alias_pool["Id"], username, email)

    tokens = sign_in(idp, alias_client, email)
    assert signed_in_as(tokens) == username
    assert claims_of(tokens["AccessToken"])["username"] == username
    assert idp.get_user(AccessToken=tokens["AccessToken"])["Username"] == username
    assert signed_in_as(srp_sign_in(idp, alias_pool["Id"], alias_client, email)) == username

    user = pycognito_user(server, alias_pool["Id"], alias_client, email)
    user.authenticate(PASSWORD)
    assert claims_of(user.id_token)["cognito:username"] == username


def test_unverified_email_does_not_sign_in(server, idp, alias_pool, alias_client):
    username = admin_user(idp, alias_pool["Id"], attributes=[("email", "unverified-alias@example.com")])
    with cognito_error(*NOT_FOUND):
        password_auth(idp, alias_client, "unverified-alias@example.com")
    with cognito_error(*NOT_FOUND):
        srp_sign_in(idp, alias_pool["Id"], alias_client, "unverified-alias@example.com")
    assert signed_in_as(sign_in(idp, alias_client, username)) == username   # the username still does

    # An unconfirmed sign-up's email is not verified either.
    pending = unique()
    sign_up(idp, alias_client, pending)
    with cognito_error(*NOT_FOUND):
        password_auth(idp, alias_client, email_for(pending))


def test_sign_in_with_a_verified_phone(idp, alias_pool, alias_client):
    username = admin_user(idp, alias_pool["Id"], attributes=[("phone_number", PHONE),
                                                             ("phone_number_verified", "true")])
    assert signed_in_as(sign_in(idp, alias_client, PHONE)) == username
    assert signed_in_as(srp_sign_in(idp, alias_pool["Id"], alias_client, PHONE)) == username

    unverified = admin_user(idp, alias_pool["Id"], attributes=[("phone_number", "+15555550999")])
    with cognito_error(*NOT_FOUND):
        password_auth(idp, alias_client, "+15555550999")
    assert signed_in_as(sign_in(idp, alias_client, unverified)) == unverified


def test_sign_in_with_preferred_username(idp, alias_pool, alias_client):
    preferred = unique("pref")
    username = admin_user(idp, alias_pool["Id"], attributes=[("preferred_username", preferred)])
    assert signed_in_as(sign_in(idp, alias_client, preferred)) == username   # no verification needed
    assert signed_in_as(srp_sign_in(idp, alias_pool["Id"], alias_client, preferred)) == username

    # Set later by the user, it signs in at once; the old one no longer does.
    tokens = sign_in(idp, alias_client, username)
    renamed = unique("renamed")
    idp.update_user_attributes(AccessToken=tokens["AccessToken"],
                               UserAttributes=[{"Name": "preferred_username", "Value": renamed}])
    assert signed_in_as(sign_in(idp, alias_client, renamed)) == username
    with cognito_error(*NOT_FOUND):
        password_auth(idp, alias_client, preferred)


def test_duplicate_preferred_username(server, idp, alias_pool, alias_client):
    preferred = unique("taken")
    holder = admin_user(idp, alias_pool["Id"], attributes=[("preferred_username", preferred)])
    other = admin_user(idp, alias_pool["Id"])
    tokens = sign_in(idp, alias_client, other)
    alias_exists = ("AliasExistsException", "An account with the given preferred_username already exists.")
    with cognito_error(*alias_exists):
        idp.update_user_attributes(AccessToken=tokens["AccessToken"],
                                   UserAttributes=[{"Name": "preferred_username", "Value": preferred}])
    with cognito_error(*alias_exists):
        idp.admin_update_user_attributes(UserPoolId=alias_pool["Id"], Username=other,
                                         UserAttributes=[{"Name": "preferred_username", "Value": preferred}])
    with cognito_error(*alias_exists):
        admin_user(idp, alias_pool["Id"], attributes=[("preferred_username", preferred)])
    assert "preferred_username" not in attributes(idp, alias_pool["Id"], other)
    assert signed_in_as(sign_in(idp, alias_client, preferred)) == holder


@pytest.mark.parametrize("username, contains", [
    ("looks@example.com", "Username cannot be of email format, since user pool is configured for email alias."),
    ("+15555550100", "Username cannot be of phone number format"),
])
def test_username_must_not_look_like_an_alias(idp, alias_pool, alias_client, username, contains):
    with cognito_error("InvalidParameterException", contains=contains):
        sign_up(idp, alias_client, username, email="valid@example.com")
    with cognito_error("InvalidParameterException", contains=contains):
        idp.admin_create_user(UserPoolId=alias_pool["Id"], Username=username, MessageAction="SUPPRESS")


def test_confirming_a_taken_email_needs_force_alias_creation(server, idp, alias_pool, alias_client):
    pool_id = alias_pool["Id"]
    shared = email_for(unique("shared"))
    first, second = unique("first"), unique("second")
    sign_up(idp, alias_client, first, email=shared)
    confirm(server, idp, alias_client, pool_id, first, shared)
    sign_up(idp, alias_client, second, email=shared)   # sign-up itself does not check aliases

    with cognito_error(*EMAIL_ALIAS_EXISTS):
        confirm(server, idp, alias_client, pool_id, second, shared)
    with cognito_error(*EMAIL_ALIAS_EXISTS):
        confirm(server, idp, alias_client, pool_id, second, shared, force=False)
    assert user_status(idp, pool_id, second) == "UNCONFIRMED"
    assert signed_in_as(sign_in(idp, alias_client, shared)) == first

    confirm(server, idp, alias_client, pool_id, second, shared, force=True)   # the same code
    assert user_status(idp, pool_id, second) == "CONFIRMED"
    assert attributes(idp, pool_id, second)["email_verified"] == "true"
    moved = attributes(idp, pool_id, first)
    assert (moved["email"], moved["email_verified"]) == (shared, "false")
    assert signed_in_as(sign_in(idp, alias_client, shared)) == second
    assert signed_in_as(srp_sign_in(idp, alias_pool["Id"], alias_client, shared)) == second
    assert signed_in_as(sign_in(idp, alias_client, first)) == first     # by username, still


def test_verifying_a_taken_email_moves_the_alias(server, idp, alias_pool, alias_client):
    pool_id = alias_pool["Id"]
    shared = email_for(unique("shared"))
    holder = admin_user(idp, pool_id, attributes=[("email", shared), ("email_verified", "true")])
    taker = admin_user(idp, pool_id, attributes=[("email", "taker@example.com"), ("email_verified", "true")])
    tokens = sign_in(idp, alias_client, taker)
    idp.update_user_attributes(AccessToken=tokens["AccessToken"], UserAttributes=[{"Name": "email", "Value": shared}])
    assert signed_in_as(sign_in(idp, alias_client, shared)) == holder    # until verified

    code = last_message(server, pool_id, username=taker, destination=shared, purpose="verify:email")["code"]
    idp.verify_user_attribute(AccessToken=tokens["AccessToken"], AttributeName="email", Code=code)
    assert attributes(idp, pool_id, taker)["email_verified"] == "true"
    assert attributes(idp, pool_id, holder)["email_verified"] == "false"
    assert signed_in_as(sign_in(idp, alias_client, shared)) == taker
    with cognito_error(*NOT_FOUND):
        password_auth(idp, alias_client, "taker@example.com")   # the taker's old address is gone


def test_alias_pool_forgot_password_by_alias(server, idp, alias_pool, alias_client):
    username = admin_user(idp, alias_pool["Id"], attributes=[("email", "forgot-alias@example.com"),
                                                             ("email_verified", "true")])
    idp.forgot_password(ClientId=alias_client["ClientId"], Username="forgot-alias@example.com")
    code = last_message(server, alias_pool["Id"], username=username, purpose="forgotPassword")["code"]
    idp.confirm_forgot_password(ClientId=alias_client["ClientId"], Username="forgot-alias@example.com",
                                ConfirmationCode=code, Password="N3w-Passw0rd!")
    assert signed_in_as(sign_in(idp, alias_client, username, "N3w-Passw0rd!")) == username


def test_admin_operations_accept_an_alias(idp, alias_pool, alias_client):
    pool_id = alias_pool["Id"]
    username = admin_user(idp, pool_id, attributes=[("email", "admin-alias@example.com"), ("email_verified", "true")])
    assert idp.admin_get_user(UserPoolId=pool_id, Username="admin-alias@example.com")["Username"] == username
    tokens = sign_in(idp, alias_client, "admin-alias@example.com")
    idp.admin_user_global_sign_out(UserPoolId=pool_id, Username="admin-alias@example.com")
    with cognito_error("NotAuthorizedException", "Access Token has been revoked"):
        idp.get_user(AccessToken=tokens["AccessToken"])


def test_unverified_alias_with_prevent_user_existence_errors(idp, alias_pool):
    client = new_client(idp, alias_pool["Id"], "hiding", PreventUserExistenceErrors="ENABLED")
    admin_user(idp, alias_pool["Id"], attributes=[("email", "hidden-unverified@example.com")])
    with cognito_error("NotAuthorizedException", "Incorrect username or password."):
        password_auth(idp, client, "hidden-unverified@example.com")


# --- UsernameAttributes -----------------------------------------------------------------------

@pytest.fixture
def email_pool(idp):
    return idp.create_user_pool(PoolName=unique("email"), AutoVerifiedAttributes=["email"],
                                UsernameAttributes=["email"])["UserPool"]


@pytest.fixture
def email_client(idp, email_pool):
    return new_client(idp, email_pool["Id"])


def test_email_is_the_username(server, idp, email_pool, email_client):
    pool_id = email_pool["Id"]
    email = email_for(unique("owner"))
    response = idp.sign_up(ClientId=email_client["ClientId"], Username=email, Password=PASSWORD)
    sub = response["UserSub"]
    assert response["CodeDeliveryDetails"]["AttributeName"] == "email"

    user = idp.admin_get_user(UserPoolId=pool_id, Username=email)
    assert user["Username"] == sub
    assert re.fullmatch(UUID_PATTERN, sub)
    assert attributes_of(user)["email"] == email
    assert idp.admin_get_user(UserPoolId=pool_id, Username=sub)["Username"] == sub

    code = last_message(server, pool_id, destination=email, purpose="signUp")["code"]
    idp.confirm_sign_up(ClientId=email_client["ClientId"], Username=email, ConfirmationCode=code)
    tokens = sign_in(idp, email_client, email)
    assert claims_of(tokens["IdToken"])["cognito:username"] == sub
    assert claims_of(tokens["AccessToken"])["username"] == sub
    assert idp.get_user(AccessToken=tokens["AccessToken"])["Username"] == sub
    assert signed_in_as(srp_sign_in(idp, pool_id, email_client, email)) == sub

    cognito = pycognito_user(server, pool_id, email_client, email)
    cognito.authenticate(PASSWORD)
    assert claims_of(cognito.access_token)["username"] == sub


def test_email_username_signs_in_unverified(idp, email_pool, email_client):
    email = email_for(unique("unverified"))
    idp.sign_up(ClientId=email_client["ClientId"], Username=email, Password=PASSWORD)
    idp.admin_confirm_sign_up(UserPoolId=email_pool["Id"], Username=email)
    assert attributes(idp, email_pool["Id"], email).get("email_verified", "false") == "false"
    assert sign_in(idp, email_client, email)["AccessToken"]


def test_duplicate_email_username(idp, email_pool, email_client):
    email = email_for(unique("dup"))
    idp.sign_up(ClientId=email_client["ClientId"], Username=email, Password=PASSWORD)
    exists = ("UsernameExistsException", "An account with the given email already exists.")
    with cognito_error(*exists):
        idp.sign_up(ClientId=email_client["ClientId"], Username=email, Password=PASSWORD)
    with cognito_error(*exists):
        idp.admin_create_user(UserPoolId=email_pool["Id"], Username=email, MessageAction="SUPPRESS")


def test_email_username_changes_with_the_email(server, idp, email_pool, email_client):
    first, second, third = (email_for(unique(n)) for n in ("first", "second", "third"))
    for email in (first, second):
        idp.sign_up(ClientId=email_client["ClientId"], Username=email, Password=PASSWORD)
        idp.admin_confirm_sign_up(UserPoolId=email_pool["Id"], Username=email)
    tokens = sign_in(idp, email_client, first)
    sub = claims_of(tokens["AccessToken"])["username"]
    with cognito_error(*EMAIL_ALIAS_EXISTS):
        idp.update_user_attributes(AccessToken=tokens["AccessToken"],
                                   UserAttributes=[{"Name": "email", "Value": second}])
    idp.update_user_attributes(AccessToken=tokens["AccessToken"], UserAttributes=[{"Name": "email", "Value": third}])
    assert signed_in_as(sign_in(idp, email_client, third)) == sub    # the new email signs in, even unverified
    with cognito_error(*NOT_FOUND):
        password_auth(idp, email_client, first)


def test_username_must_be_an_email(idp, email_pool, email_client):
    with cognito_error("InvalidParameterException", "Username should be an email."):
        idp.sign_up(ClientId=email_client["ClientId"], Username=unique("plain"), Password=PASSWORD)


def test_admin_created_email_user(idp, email_pool, email_client):
    email = email_for(unique("admin"))
    created = idp.admin_create_user(UserPoolId=email_pool["Id"], Username=email, MessageAction="SUPPRESS",
                                    TemporaryPassword="Temp-0rary!")["User"]
    assert created["Username"] == attributes_of({"UserAttributes": created["Attributes"]})["sub"]
    idp.admin_set_user_password(UserPoolId=email_pool["Id"], Username=email, Password=PASSWORD, Permanent=True)
    assert signed_in_as(sign_in(idp, email_client, email)) == created["Username"]


def test_phone_is_the_username(server, idp):
    pool = idp.create_user_pool(PoolName=unique("phone"), AutoVerifiedAttributes=["phone_number"],
                                UsernameAttributes=["phone_number"])["UserPool"]
    client = new_client(idp, pool["Id"])
    with cognito_error("InvalidParameterException", "Username should be a phone number."):
        idp.sign_up(ClientId=client["ClientId"], Username="someone@example.com", Password=PASSWORD)
    response = idp.sign_up(ClientId=client["ClientId"], Username=PHONE, Password=PASSWORD)
    assert response["CodeDeliveryDetails"]["DeliveryMedium"] == "SMS"
    with cognito_error("UsernameExistsException"):
        idp.sign_up(ClientId=client["ClientId"], Username=PHONE, Password=PASSWORD)
    code = last_message(server, pool["Id"], destination=PHONE, purpose="signUp")["code"]
    idp.confirm_sign_up(ClientId=client["ClientId"], Username=PHONE, ConfirmationCode=code)
    assert idp.admin_get_user(UserPoolId=pool["Id"], Username=PHONE)["Username"] == response["UserSub"]
    assert signed_in_as(sign_in(idp, client, PHONE)) == response["UserSub"]
    assert signed_in_as(srp_sign_in(idp, pool["Id"], client, PHONE)) == response["UserSub"]


def test_email_or_phone_is_the_username(idp):
    pool = idp.create_user_pool(PoolName=unique("either"), UsernameAttributes=["email", "phone_number"])["UserPool"]
    client = new_client(idp, pool["Id"])
    with cognito_error("InvalidParameterException"):
        idp.sign_up(ClientId=client["ClientId"], Username=unique("plain"), Password=PASSWORD)
    for username in (email_for(unique("either")), PHONE):
        sub = idp.sign_up(ClientId=client["ClientId"], Username=username, Password=PASSWORD)["UserSub"]
        idp.admin_confirm_sign_up(UserPoolId=pool["Id"], Username=username)
        assert signed_in_as(sign_in(idp, client, username)) == sub


# --- UsernameConfiguration.CaseSensitive --------------------------------------------------------

@pytest.fixture
def insensitive_pool(idp):
    return idp.create_user_pool(PoolName=unique("nocase"), AutoVerifiedAttributes=["email"],
                                AliasAttributes=["email", "preferred_username"],
                                UsernameConfiguration={"CaseSensitive": False})["UserPool"]


def test_case_insensitive_settings_are_kept(idp, insensitive_pool):
    described = idp.describe_user_pool(UserPoolId=insensitive_pool["Id"])["UserPool"]
    assert described["UsernameConfiguration"] == {"CaseSensitive": False}


def test_case_insensitive_sign_in(server, idp, insensitive_pool):
    pool_id = insensitive_pool["Id"]
    client = new_client(idp, pool_id)
    username = unique("Mixed-Case")
    preferred = unique("Pref-Name")
    email = f"{unique('Mail')}@Example.COM"
    sign_up(idp, client, username, email=email, attributes=[("preferred_username", preferred)])
    confirm(server, idp, client, pool_id, username, email)

    for login in (username, username.lower(), username.upper(), preferred.lower(), preferred.upper(),
                  email.lower(), email.upper()):
        tokens = sign_in(idp, client, login)
        assert signed_in_as(tokens).lower() == username.lower(), login
        assert claims_of(tokens["IdToken"])["sub"] == attributes(idp, pool_id, username)["sub"]
    assert signed_in_as(srp_sign_in(idp, pool_id, client, username.upper())).lower() == username.lower()
    assert attributes(idp, pool_id, username.lower())["email"].lower() == email.lower()


def test_case_variant_duplicates_are_refused(idp, insensitive_pool):
    pool_id = insensitive_pool["Id"]
    client = new_client(idp, pool_id)
    username = unique("Taken")
    sign_up(idp, client, username)
    with cognito_error("UsernameExistsException"):
        sign_up(idp, client, username.lower(), email="other@example.com")
    with cognito_error("UsernameExistsException"):
        idp.admin_create_user(UserPoolId=pool_id, Username=username.upper(), MessageAction="SUPPRESS")

    preferred = unique("Pref")
    admin_user(idp, pool_id, attributes=[("preferred_username", preferred)])
    with cognito_error("AliasExistsException"):
        admin_user(idp, pool_id, attributes=[("preferred_username", preferred.upper())])


def test_case_variant_email_is_the_same_alias(server, idp, insensitive_pool):
    pool_id = insensitive_pool["Id"]
    client = new_client(idp, pool_id)
    holder = admin_user(idp, pool_id, attributes=[("email", "Case.Alias@Example.com"), ("email_verified", "true")])
    second = unique()
    sign_up(idp, client, second, email="CASE.ALIAS@example.com")
    with cognito_error(*EMAIL_ALIAS_EXISTS):
        confirm(server, idp, client, pool_id, second, "CASE.ALIAS@example.com")
    assert signed_in_as(sign_in(idp, client, "case.alias@example.com")) == holder


def test_case_sensitive_by_default(idp, pool, app_client):
    described = idp.describe_user_pool(UserPoolId=pool["Id"])["UserPool"]
    assert described.get("UsernameConfiguration", {"CaseSensitive": True}) == {"CaseSensitive": True}
    base = unique("Alice")
    upper, lower = base, base.lower()
    admin_user(idp, pool["Id"], upper, password=PASSWORD)
    admin_user(idp, pool["Id"], lower, password="0ther-Passw0rd!")   # a different user
    assert signed_in_as(sign_in(idp, app_client, upper)) == upper
    assert signed_in_as(sign_in(idp, app_client, lower, "0ther-Passw0rd!")) == lower
    with cognito_error(*NOT_FOUND):
        password_auth(idp, app_client, base.upper())
    subs = {attributes(idp, pool["Id"], name)["sub"] for name in (upper, lower)}
    assert len(subs) == 2
