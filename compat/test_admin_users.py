"""Administrator user management through boto3 (protocol doc §2.3, §3.3 NEW_PASSWORD_REQUIRED,
§7.5): AdminCreateUser and its invitation, NEW_PASSWORD_REQUIRED, AdminSetUserPassword,
AdminResetUserPassword, AdminDisableUser/AdminEnableUser, AdminUserGlobalSignOut and the
attribute operations.

Not covered here: expiry of temporary passwords (PasswordPolicy.TemporaryPasswordValidityDays),
which cannot be observed without waiting days; the Swift tests cover it with a clock."""
import json
import re

import pytest

from helpers import (
    PASSWORD, USER_FLOWS, admin_user, attributes_of, cognito_error, messages, password_auth, refresh, sign_in,
    srp_for, unique, user_status, verify_token,
)

TEMPORARY = "Temp-0rary!"
NEW_PASSWORD = "Brand-new-0ne!"
INCORRECT = "Incorrect username or password."
SYMBOLS = set("^$*.[]{}()?\"!@#%&/\\,><':;|_~`=+- ")
ADMIN_FLOWS = USER_FLOWS + ["ALLOW_ADMIN_USER_PASSWORD_AUTH"]


@pytest.fixture
def client(idp, pool):
    return idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="app",
                                       ExplicitAuthFlows=ADMIN_FLOWS)["UserPoolClient"]


@pytest.fixture
def invite_pool(idp):
    """A pool with a required given_name and its own invitation templates."""
    return idp.create_user_pool(
        PoolName=unique("invite"), AutoVerifiedAttributes=["email"],
        Schema=[{"Name": "given_name", "AttributeDataType": "String", "Required": True, "Mutable": True}],
        AdminCreateUserConfig={"InviteMessageTemplate": {
            "EmailSubject": "Welcome aboard",
            "EmailMessage": "Hello {username}, your temporary password is {####} (again: {####}).",
            "SMSMessage": "User {username} password {####}",
        }})["UserPool"]


@pytest.fixture
def invite_client(idp, invite_pool):
    return idp.create_user_pool_client(UserPoolId=invite_pool["Id"], ClientName="app",
                                       ExplicitAuthFlows=ADMIN_FLOWS)["UserPoolClient"]


def meets_default_policy(password):
    return (len(password) >= 8 and re.search("[A-Z]", password) and re.search("[a-z]", password)
            and re.search("[0-9]", password) and any(c in SYMBOLS for c in password))


def create(idp, pool_id, username, attributes=(), **kwargs):
    return idp.admin_create_user(UserPoolId=pool_id, Username=username,
                                 UserAttributes=[{"Name": k, "Value": v} for k, v in attributes], **kwargs)["User"]


def new_password_challenge(idp, client, username, password=TEMPORARY):
    result = password_auth(idp, client, username, password)
    assert result["ChallengeName"] == "NEW_PASSWORD_REQUIRED", result
    assert "AuthenticationResult" not in result
    return result


def answer_new_password(idp, client, session, username, password=NEW_PASSWORD, **attributes):
    responses = {"USERNAME": username, "NEW_PASSWORD": password,
                 **{f"userAttributes.{k}": v for k, v in attributes.items()}}
    return idp.respond_to_auth_challenge(ClientId=client["ClientId"], ChallengeName="NEW_PASSWORD_REQUIRED",
                                         Session=session, ChallengeResponses=responses)


# --- AdminCreateUser ------------------------------------------------------------------------

def test_create_user_with_generated_password(server, idp, invite_pool, invite_client):
    username = unique("invited")
    email = f"{username}@example.com"
    user = create(idp, invite_pool["Id"], username, [("email", email), ("given_name", "Ann")],
                  DesiredDeliveryMediums=["EMAIL"])
    assert user["Username"] == username
    assert user["UserStatus"] == "FORCE_CHANGE_PASSWORD"
    assert user["Enabled"] is True
    attrs = {a["Name"]: a["Value"] for a in user["Attributes"]}
    assert attrs["email"] == email and attrs["given_name"] == "Ann" and attrs["sub"]

    [invitation] = messages(server, invite_pool["Id"], username=username)
    assert invitation["purpose"] == "invitation"
    assert invitation["medium"] == "EMAIL"
    assert invitation["destination"] == email
    assert invitation["subject"] == "Welcome aboard"
    temporary = invitation["code"]
    assert meets_default_policy(temporary), temporary
    # Every placeholder is substituted, {####} by the temporary password.
    assert invitation["body"] == (f"Hello {username}, your temporary password is {temporary} "
                                  f"(again: {temporary}).")

    challenge = new_password_challenge(idp, invite_client, username, temporary)
    assert challenge["ChallengeParameters"]["USER_ID_FOR_SRP"] == username
    with cognito_error("NotAuthorizedException", INCORRECT):
        password_auth(idp, invite_client, username, "Not-the-temp0rary!")


def test_default_invitation_message(server, idp, pool):
    username = unique("invited")
    create(idp, pool["Id"], username, [("email", f"{username}@example.com")], DesiredDeliveryMediums=["EMAIL"])
    [invitation] = messages(server, pool["Id"], username=username)
    assert invitation["purpose"] == "invitation"
    assert username in invitation["body"]
    assert invitation["code"] in invitation["body"]
    assert "{####}" not in invitation["body"] and "{username}" not in invitation["body"]


def test_generated_password_follows_the_pool_policy(server, idp):
    pool = idp.create_user_pool(PoolName=unique("policy"), Policies={"PasswordPolicy": {
        "MinimumLength": 20, "RequireUppercase": True, "RequireLowercase": True, "RequireNumbers": True,
        "RequireSymbols": True}})["UserPool"]
    for _ in range(5):
        username = unique("invited")
        create(idp, pool["Id"], username, [("email", f"{username}@example.com")], DesiredDeliveryMediums=["EMAIL"])
        [invitation] = messages(server, pool["Id"], username=username)
        assert len(invitation["code"]) >= 20 and meets_default_policy(invitation["code"]), invitation["code"]


def test_create_user_with_given_temporary_password(server, idp, invite_pool, invite_client):
    username = unique("invited")
    create(idp, invite_pool["Id"], username, [("email", f"{username}@example.com"), ("given_name", "Bo")],
           TemporaryPassword=TEMPORARY, DesiredDeliveryMediums=["EMAIL"])
    [invitation] = messages(server, invite_pool["Id"], username=username)
    assert invitation["code"] == TEMPORARY
    assert TEMPORARY in invitation["body"]
    new_password_challenge(idp, invite_client, username)


def test_temporary_password_must_meet_the_policy(idp, pool):
    with cognito_error("InvalidPasswordException", contains="Password did not conform with policy"):
        create(idp, pool["Id"], unique(), TemporaryPassword="alllowercase1!", MessageAction="SUPPRESS")


def test_duplicate_user(idp, pool):
    username = unique()
    create(idp, pool["Id"], username, MessageAction="SUPPRESS")
    with cognito_error("UsernameExistsException"):
        create(idp, pool["Id"], username, MessageAction="SUPPRESS")


def test_suppress_sends_nothing(server, idp, invite_pool, invite_client):
    username = unique("quiet")
    create(idp, invite_pool["Id"], username, [("email", f"{username}@example.com"), ("given_name", "Q")],
           TemporaryPassword=TEMPORARY, MessageAction="SUPPRESS", DesiredDeliveryMediums=["EMAIL"])
    assert messages(server, invite_pool["Id"], username=username) == []
    assert user_status(idp, invite_pool["Id"], username) == "FORCE_CHANGE_PASSWORD"
    new_password_challenge(idp, invite_client, username)


def test_resend_issues_a_new_temporary_password(server, idp, invite_pool, invite_client):
    pool_id = invite_pool["Id"]
    username = unique("invited")
    create(idp, pool_id, username, [("email", f"{username}@example.com"), ("given_name", "R")],
           DesiredDeliveryMediums=["EMAIL"])
    [first] = messages(server, pool_id, username=username)

    resent = idp.admin_create_user(UserPoolId=pool_id, Username=username, MessageAction="RESEND",
                                   DesiredDeliveryMediums=["EMAIL"])["User"]
    assert resent["Username"] == username and resent["UserStatus"] == "FORCE_CHANGE_PASSWORD"
    first_again, second = messages(server, pool_id, username=username)
    assert first_again == first
    assert second["purpose"] == "invitation"
    assert second["code"] != first["code"]
    assert second["body"].startswith(f"Hello {username}, your temporary password is {second['code']}")

    with cognito_error("NotAuthorizedException", INCORRECT):
        password_auth(idp, invite_client, username, first["code"])
    new_password_challenge(idp, invite_client, username, second["code"])


def test_resend_needs_an_invited_user(idp, pool):
    with cognito_error("UserNotFoundException"):
        idp.admin_create_user(UserPoolId=pool["Id"], Username=unique("nobody"), MessageAction="RESEND")
    confirmed = admin_user(idp, pool["Id"], attributes=[("email", "c@example.com")])
    with cognito_error("UnsupportedUserStateException"):
        idp.admin_create_user(UserPoolId=pool["Id"], Username=confirmed, MessageAction="RESEND",
                              DesiredDeliveryMediums=["EMAIL"])


def test_desired_delivery_mediums(server, idp, invite_pool):
    pool_id = invite_pool["Id"]
    attributes = lambda name: [("email", f"{name}@example.com"), ("phone_number", "+15555550123"),  # noqa: E731
                               ("given_name", "D")]

    sms_only = unique("sms")
    create(idp, pool_id, sms_only, attributes(sms_only), DesiredDeliveryMediums=["SMS"])
    [sms] = messages(server, pool_id, username=sms_only)
    assert (sms["medium"], sms["destination"]) == ("SMS", "+15555550123")
    assert sms["body"] == f"User {sms_only} password {sms['code']}"

    both = unique("both")
    create(idp, pool_id, both, attributes(both), DesiredDeliveryMediums=["SMS", "EMAIL"])
    sent = messages(server, pool_id, username=both)
    assert sorted(m["medium"] for m in sent) == ["EMAIL", "SMS"]
    assert len({m["code"] for m in sent}) == 1  # one temporary password, sent twice

    with cognito_error("InvalidParameterException"):
        create(idp, pool_id, unique("nomail"), [("given_name", "N")], DesiredDeliveryMediums=["EMAIL"])


# --- NEW_PASSWORD_REQUIRED ------------------------------------------------------------------

def test_new_password_required_with_a_required_attribute(server, idp, invite_pool, invite_client):
    pool_id, client_id = invite_pool["Id"], invite_client["ClientId"]
    username = unique("newpw")
    email = f"{username}@example.com"
    create(idp, pool_id, username, [("email", email), ("email_verified", "true")], TemporaryPassword=TEMPORARY,
           MessageAction="SUPPRESS")

    challenge = new_password_challenge(idp, invite_client, username)
    parameters = challenge["ChallengeParameters"]
    assert parameters["USER_ID_FOR_SRP"] == username
    assert json.loads(parameters["requiredAttributes"]) == ["userAttributes.given_name"]
    current = json.loads(parameters["userAttributes"])
    assert current["email"] == email
    assert "given_name" not in current
    session = challenge["Session"]

    with cognito_error("InvalidParameterException", "Invalid attributes given, given_name is missing"):
        answer_new_password(idp, invite_client, session, username)
    with cognito_error("InvalidPasswordException", contains="Password did not conform with policy"):
        answer_new_password(idp, invite_client, session, username, "weakpassword", given_name="Gina")
    # Neither failure used the session up.
    result = answer_new_password(idp, invite_client, session, username, given_name="Gina", family_name="Gee")
    tokens = result["AuthenticationResult"]
    assert "ChallengeName" not in result
    claims = verify_token(server, pool_id, tokens["IdToken"], "id", client_id)
    assert claims["cognito:username"] == username
    assert claims["given_name"] == "Gina" and claims["family_name"] == "Gee"
    assert tokens["RefreshToken"]

    user = idp.admin_get_user(UserPoolId=pool_id, Username=username)
    assert user["UserStatus"] == "CONFIRMED"
    assert attributes_of(user)["given_name"] == "Gina"

    with cognito_error("NotAuthorizedException"):  # the session is single-use
        answer_new_password(idp, invite_client, session, username, "An0ther-password!", given_name="X")
    with cognito_error("NotAuthorizedException", INCORRECT):
        password_auth(idp, invite_client, username, TEMPORARY)
    assert sign_in(idp, invite_client, username, NEW_PASSWORD)["AccessToken"]


def test_new_password_required_through_admin_calls(server, idp, pool, client):
    pool_id, client_id = pool["Id"], client["ClientId"]
    username = unique("newpw")
    create(idp, pool_id, username, [("email", f"{username}@example.com")], TemporaryPassword=TEMPORARY,
           MessageAction="SUPPRESS")
    for flow in ("ADMIN_USER_PASSWORD_AUTH", "ADMIN_NO_SRP_AUTH"):
        challenge = idp.admin_initiate_auth(UserPoolId=pool_id, ClientId=client_id, AuthFlow=flow,
                                            AuthParameters={"USERNAME": username, "PASSWORD": TEMPORARY})
        assert challenge["ChallengeName"] == "NEW_PASSWORD_REQUIRED"
    assert json.loads(challenge["ChallengeParameters"]["requiredAttributes"]) == []
    assert json.loads(challenge["ChallengeParameters"]["userAttributes"])["email"] == f"{username}@example.com"

    with cognito_error("InvalidPasswordException"):
        idp.admin_respond_to_auth_challenge(UserPoolId=pool_id, ClientId=client_id,
                                            ChallengeName="NEW_PASSWORD_REQUIRED", Session=challenge["Session"],
                                            ChallengeResponses={"USERNAME": username, "NEW_PASSWORD": "short"})
    result = idp.admin_respond_to_auth_challenge(
        UserPoolId=pool_id, ClientId=client_id, ChallengeName="NEW_PASSWORD_REQUIRED", Session=challenge["Session"],
        ChallengeResponses={"USERNAME": username, "NEW_PASSWORD": NEW_PASSWORD})
    assert verify_token(server, pool_id, result["AuthenticationResult"]["AccessToken"], "access",
                        client_id)["username"] == username
    assert user_status(idp, pool_id, username) == "CONFIRMED"
    assert idp.admin_initiate_auth(UserPoolId=pool_id, ClientId=client_id, AuthFlow="ADMIN_USER_PASSWORD_AUTH",
                                   AuthParameters={"USERNAME": username, "PASSWORD": NEW_PASSWORD}
                                   )["AuthenticationResult"]["IdToken"]


def test_new_password_required_attribute_through_admin_calls(server, idp, invite_pool, invite_client):
    pool_id, client_id = invite_pool["Id"], invite_client["ClientId"]
    username = unique("newpw")
    create(idp, pool_id, username, TemporaryPassword=TEMPORARY, MessageAction="SUPPRESS")
    challenge = idp.admin_initiate_auth(UserPoolId=pool_id, ClientId=client_id, AuthFlow="ADMIN_USER_PASSWORD_AUTH",
                                        AuthParameters={"USERNAME": username, "PASSWORD": TEMPORARY})
    assert json.loads(challenge["ChallengeParameters"]["requiredAttributes"]) == ["userAttributes.given_name"]

    def answer(**responses):
        return idp.admin_respond_to_auth_challenge(
            UserPoolId=pool_id, ClientId=client_id, ChallengeName="NEW_PASSWORD_REQUIRED", Session=challenge["Session"],
            ChallengeResponses={"USERNAME": username, "NEW_PASSWORD": NEW_PASSWORD, **responses})

    with cognito_error("InvalidParameterException", "Invalid attributes given, given_name is missing"):
        answer()
    tokens = answer(**{"userAttributes.given_name": "Adele"})["AuthenticationResult"]
    assert verify_token(server, pool_id, tokens["IdToken"], "id", client_id)["given_name"] == "Adele"


def test_new_password_required_without_required_attributes(server, idp, pool, client):
    username = unique("newpw")
    create(idp, pool["Id"], username, [("email", f"{username}@example.com")], TemporaryPassword=TEMPORARY,
           MessageAction="SUPPRESS")
    challenge = new_password_challenge(idp, client, username)
    assert json.loads(challenge["ChallengeParameters"]["requiredAttributes"]) == []
    result = answer_new_password(idp, client, challenge["Session"], username)
    claims = verify_token(server, pool["Id"], result["AuthenticationResult"]["AccessToken"], "access",
                          client["ClientId"])
    assert claims["username"] == username
    assert user_status(idp, pool["Id"], username) == "CONFIRMED"


def test_new_password_session_is_bound_to_client_and_user(idp, pool, client):
    username = unique("newpw")
    create(idp, pool["Id"], username, TemporaryPassword=TEMPORARY, MessageAction="SUPPRESS")
    other = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="other",
                                        ExplicitAuthFlows=USER_FLOWS)["UserPoolClient"]
    with cognito_error("NotAuthorizedException"):
        answer_new_password(idp, other, new_password_challenge(idp, client, username)["Session"], username)
    someone_else = admin_user(idp, pool["Id"])
    with cognito_error("NotAuthorizedException"):
        answer_new_password(idp, client, new_password_challenge(idp, client, username)["Session"], someone_else)
    with cognito_error("NotAuthorizedException"):
        answer_new_password(idp, client, "not-a-session-" * 3, username)
    assert user_status(idp, pool["Id"], username) == "FORCE_CHANGE_PASSWORD"


# --- AdminSetUserPassword -------------------------------------------------------------------

def test_set_password_permanent_and_temporary(idp, pool, client):
    pool_id = pool["Id"]
    username = unique()
    create(idp, pool_id, username, TemporaryPassword=TEMPORARY, MessageAction="SUPPRESS")

    idp.admin_set_user_password(UserPoolId=pool_id, Username=username, Password="Perm-anent1!", Permanent=True)
    assert user_status(idp, pool_id, username) == "CONFIRMED"
    assert sign_in(idp, client, username, "Perm-anent1!")["AccessToken"]
    with cognito_error("NotAuthorizedException", INCORRECT):
        password_auth(idp, client, username, TEMPORARY)

    idp.admin_set_user_password(UserPoolId=pool_id, Username=username, Password="Tempo-rary2!", Permanent=False)
    assert user_status(idp, pool_id, username) == "FORCE_CHANGE_PASSWORD"
    new_password_challenge(idp, client, username, "Tempo-rary2!")
    with cognito_error("NotAuthorizedException", INCORRECT):
        password_auth(idp, client, username, "Perm-anent1!")

    with cognito_error("InvalidPasswordException"):
        idp.admin_set_user_password(UserPoolId=pool_id, Username=username, Password="nouppercase1!", Permanent=True)
    with cognito_error("UserNotFoundException"):
        idp.admin_set_user_password(UserPoolId=pool_id, Username=unique("nobody"), Password=PASSWORD, Permanent=True)


def test_permanent_password_confirms_an_unconfirmed_user(idp, pool, client):
    username = unique()
    idp.sign_up(ClientId=client["ClientId"], Username=username, Password=PASSWORD,
                UserAttributes=[{"Name": "email", "Value": f"{username}@example.com"}])
    assert user_status(idp, pool["Id"], username) == "UNCONFIRMED"
    idp.admin_set_user_password(UserPoolId=pool["Id"], Username=username, Password="Perm-anent1!", Permanent=True)
    assert user_status(idp, pool["Id"], username) == "CONFIRMED"
    assert sign_in(idp, client, username, "Perm-anent1!")["IdToken"]


# --- AdminResetUserPassword -----------------------------------------------------------------

def test_reset_password(server, idp, pool, client):
    pool_id, client_id = pool["Id"], client["ClientId"]
    email = f"{unique('reset')}@example.com"
    username = admin_user(idp, pool_id, attributes=[("email", email), ("email_verified", "true")])

    idp.admin_reset_user_password(UserPoolId=pool_id, Username=username)
    assert user_status(idp, pool_id, username) == "RESET_REQUIRED"
    [code] = messages(server, pool_id, username=username, purpose="forgotPassword")
    assert code["destination"] == email and code["medium"] == "EMAIL"
    assert re.fullmatch(r"\d{6}", code["code"])

    reset = ("PasswordResetRequiredException", "Password reset required for the user")
    with cognito_error(*reset):
        password_auth(idp, client, username)
    with cognito_error(*reset):
        idp.admin_initiate_auth(UserPoolId=pool_id, ClientId=client_id, AuthFlow="ADMIN_USER_PASSWORD_AUTH",
                                AuthParameters={"USERNAME": username, "PASSWORD": PASSWORD})
    with cognito_error(*reset):
        srp_for(idp, pool_id, client, username).authenticate_user()
    # The password is still checked first: a wrong one says nothing about the reset.
    with cognito_error("NotAuthorizedException", INCORRECT):
        password_auth(idp, client, username, "Wr0ng-password!")
    # ConfirmForgotPassword is the user's way out; an administrator's is a permanent password.
    idp.admin_set_user_password(UserPoolId=pool_id, Username=username, Password="After-reset1!", Permanent=True)
    assert user_status(idp, pool_id, username) == "CONFIRMED"
    assert sign_in(idp, client, username, "After-reset1!")["AccessToken"]


def test_reset_password_without_verified_contact_sends_nothing(server, idp, pool, client):
    username = admin_user(idp, pool["Id"], attributes=[("email", f"{unique('unverified')}@example.com")])
    idp.admin_reset_user_password(UserPoolId=pool["Id"], Username=username)
    assert user_status(idp, pool["Id"], username) == "RESET_REQUIRED"
    assert messages(server, pool["Id"], username=username) == []
    with cognito_error("PasswordResetRequiredException"):
        password_auth(idp, client, username)
    with cognito_error("UserNotFoundException"):
        idp.admin_reset_user_password(UserPoolId=pool["Id"], Username=unique("nobody"))


# --- AdminDisableUser / AdminEnableUser -----------------------------------------------------

def test_disable_and_enable(idp, pool, client):
    pool_id, client_id = pool["Id"], client["ClientId"]
    username = admin_user(idp, pool_id)
    tokens = sign_in(idp, client, username)

    idp.admin_disable_user(UserPoolId=pool_id, Username=username)
    user = idp.admin_get_user(UserPoolId=pool_id, Username=username)
    assert user["Enabled"] is False
    assert user["UserStatus"] == "CONFIRMED"  # Enabled is orthogonal to the status

    disabled = ("NotAuthorizedException", "User is disabled.")
    with cognito_error(*disabled):
        password_auth(idp, client, username)
    with cognito_error(*disabled):
        idp.admin_initiate_auth(UserPoolId=pool_id, ClientId=client_id, AuthFlow="ADMIN_USER_PASSWORD_AUTH",
                                AuthParameters={"USERNAME": username, "PASSWORD": PASSWORD})
    with cognito_error(*disabled):
        srp_for(idp, pool_id, client, username).authenticate_user()
    with cognito_error("NotAuthorizedException"):
        idp.get_user(AccessToken=tokens["AccessToken"])
    with cognito_error("NotAuthorizedException"):
        refresh(idp, client, tokens["RefreshToken"])

    idp.admin_enable_user(UserPoolId=pool_id, Username=username)
    assert idp.admin_get_user(UserPoolId=pool_id, Username=username)["Enabled"] is True
    fresh = sign_in(idp, client, username)
    assert idp.get_user(AccessToken=fresh["AccessToken"])["Username"] == username

    for call in (idp.admin_disable_user, idp.admin_enable_user):
        with cognito_error("UserNotFoundException"):
            call(UserPoolId=pool_id, Username=unique("nobody"))


def test_disable_revokes_access_tokens_for_good(idp, pool, client):
    username = admin_user(idp, pool["Id"])
    tokens = sign_in(idp, client, username)
    idp.admin_disable_user(UserPoolId=pool["Id"], Username=username)
    idp.admin_enable_user(UserPoolId=pool["Id"], Username=username)
    with cognito_error("NotAuthorizedException"):
        idp.get_user(AccessToken=tokens["AccessToken"])


# --- AdminUserGlobalSignOut -----------------------------------------------------------------

def test_global_sign_out(idp, pool, client):
    pool_id = pool["Id"]
    username = admin_user(idp, pool_id)
    bystander = admin_user(idp, pool_id)
    sessions = [sign_in(idp, client, username) for _ in range(2)]
    sessions.append(srp_for(idp, pool_id, client, username).authenticate_user()["AuthenticationResult"])
    other = sign_in(idp, client, bystander)

    idp.admin_user_global_sign_out(UserPoolId=pool_id, Username=username)
    for tokens in sessions:
        with cognito_error("NotAuthorizedException", "Access Token has been revoked"):
            idp.get_user(AccessToken=tokens["AccessToken"])
        with cognito_error("NotAuthorizedException", "Refresh Token has been revoked"):
            refresh(idp, client, tokens["RefreshToken"])

    # The user can sign in again, and other users are untouched.
    again = sign_in(idp, client, username)
    assert idp.get_user(AccessToken=again["AccessToken"])["Username"] == username
    assert refresh(idp, client, again["RefreshToken"])["AccessToken"]
    assert idp.get_user(AccessToken=other["AccessToken"])["Username"] == bystander
    assert refresh(idp, client, other["RefreshToken"])["AccessToken"]

    with cognito_error("UserNotFoundException"):
        idp.admin_user_global_sign_out(UserPoolId=pool_id, Username=unique("nobody"))


# --- attributes -----------------------------------------------------------------------------

@pytest.fixture
def schema_pool(idp):
    return idp.create_user_pool(
        PoolName=unique("attrs"), AutoVerifiedAttributes=["email"],
        Schema=[{"Name": "given_name", "AttributeDataType": "String", "Required": True, "Mutable": True},
                {"Name": "tier", "AttributeDataType": "String", "Mutable": True}])["UserPool"]


def test_update_attributes(server, idp, schema_pool):
    pool_id = schema_pool["Id"]
    client = idp.create_user_pool_client(UserPoolId=pool_id, ClientName="app",
                                         ExplicitAuthFlows=USER_FLOWS)["UserPoolClient"]
    username = admin_user(idp, pool_id, attributes=[("given_name", "Old"), ("email", "old@example.com"),
                                                     ("email_verified", "true")])
    sub = attributes_of(idp.admin_get_user(UserPoolId=pool_id, Username=username))["sub"]

    idp.admin_update_user_attributes(UserPoolId=pool_id, Username=username, UserAttributes=[
        {"Name": "given_name", "Value": "New"}, {"Name": "family_name", "Value": "Fam"},
        {"Name": "custom:tier", "Value": "gold"}])
    attrs = attributes_of(idp.admin_get_user(UserPoolId=pool_id, Username=username))
    assert attrs == {"sub": sub, "given_name": "New", "family_name": "Fam", "custom:tier": "gold",
                     "email": "old@example.com", "email_verified": "true"}
    claims = verify_token(server, pool_id, sign_in(idp, client, username)["IdToken"], "id", client["ClientId"])
    assert (claims["given_name"], claims["family_name"], claims["custom:tier"]) == ("New", "Fam", "gold")

    # A new email is unverified unless the same call verifies it.
    idp.admin_update_user_attributes(UserPoolId=pool_id, Username=username,
                                     UserAttributes=[{"Name": "email", "Value": "new@example.com"}])
    attrs = attributes_of(idp.admin_get_user(UserPoolId=pool_id, Username=username))
    assert (attrs["email"], attrs["email_verified"]) == ("new@example.com", "false")
    idp.admin_update_user_attributes(UserPoolId=pool_id, Username=username, UserAttributes=[
        {"Name": "email", "Value": "newer@example.com"}, {"Name": "email_verified", "Value": "true"}])
    attrs = attributes_of(idp.admin_get_user(UserPoolId=pool_id, Username=username))
    assert (attrs["email"], attrs["email_verified"]) == ("newer@example.com", "true")

    for bad in ({"Name": "custom:nope", "Value": "x"}, {"Name": "sub", "Value": "x"}):
        with cognito_error("InvalidParameterException"):
            idp.admin_update_user_attributes(UserPoolId=pool_id, Username=username, UserAttributes=[bad])
    with cognito_error("UserNotFoundException"):
        idp.admin_update_user_attributes(UserPoolId=pool_id, Username=unique("nobody"),
                                         UserAttributes=[{"Name": "given_name", "Value": "x"}])


def test_delete_attributes(idp, schema_pool):
    pool_id = schema_pool["Id"]
    username = admin_user(idp, pool_id, attributes=[("given_name", "Keep"), ("family_name", "Drop"),
                                                     ("custom:tier", "gold"), ("email", "d@example.com")])
    idp.admin_delete_user_attributes(UserPoolId=pool_id, Username=username,
                                     UserAttributeNames=["family_name", "custom:tier"])
    attrs = attributes_of(idp.admin_get_user(UserPoolId=pool_id, Username=username))
    assert set(attrs) == {"sub", "given_name", "email"}

    with cognito_error("InvalidParameterException", contains="given_name"):
        idp.admin_delete_user_attributes(UserPoolId=pool_id, Username=username, UserAttributeNames=["given_name"])
    assert attributes_of(idp.admin_get_user(UserPoolId=pool_id, Username=username))["given_name"] == "Keep"
    with cognito_error("UserNotFoundException"):
        idp.admin_delete_user_attributes(UserPoolId=pool_id, Username=unique("nobody"),
                                         UserAttributeNames=["family_name"])
