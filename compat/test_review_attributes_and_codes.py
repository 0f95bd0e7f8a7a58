"""Regression tests of the security review (issue 9, items 1, 2 and 4), through boto3:

1. every way a user writes attributes follows one rule set — the NEW_PASSWORD_REQUIRED answer
   cannot set verified flags, attributes the client may not write, or change an address;
2. a verification code proves exactly the address it was sent to;
4. an administrator's password reset ends the user's sessions.
"""
import pytest

from helpers import (
    ATTEMPT_LIMIT, CODE_EXPIRED, CODE_MISMATCH, PASSWORD, USER_FLOWS, attributes_of, cognito_error, confirmed_user,
    email_for, last_message, messages, new_client, password_auth, sign_in, sign_up, unique, wrong_code,
)

TEMPORARY = "Temp-0rary!"
NEW_PASSWORD = "N3w-Passw0rd!"


def create_invited(idp, pool_id, attributes=()):
    username = unique("invited")
    idp.admin_create_user(UserPoolId=pool_id, Username=username, TemporaryPassword=TEMPORARY, MessageAction="SUPPRESS",
                          UserAttributes=[{"Name": k, "Value": v} for k, v in attributes])
    return username


def start_new_password(idp, client, username):
    response = password_auth(idp, client, username, TEMPORARY)
    assert response["ChallengeName"] == "NEW_PASSWORD_REQUIRED"
    return response["Session"]


def answer_new_password(idp, client, username, session, **attributes):
    responses = {"USERNAME": username, "NEW_PASSWORD": NEW_PASSWORD}
    responses.update({f"userAttributes.{name}": value for name, value in attributes.items()})
    return idp.respond_to_auth_challenge(ClientId=client["ClientId"], ChallengeName="NEW_PASSWORD_REQUIRED",
                                         Session=session, ChallengeResponses=responses)


@pytest.fixture
def alias_pool(idp):
    """Email is a sign-in alias and auto-verified: a verified email is a way in."""
    return idp.create_user_pool(PoolName=unique("alias"), AliasAttributes=["email"],
                                AutoVerifiedAttributes=["email"])["UserPool"]


# --- 1. NEW_PASSWORD_REQUIRED goes through the user-writer rules -----------------------------

def test_new_password_answer_cannot_mark_an_address_verified(server, idp, alias_pool):
    client = new_client(idp, alias_pool["Id"])
    victim = unique("victim")
    victim_email = email_for(victim)
    username = create_invited(idp, alias_pool["Id"])
    session = start_new_password(idp, client, username)
    with cognito_error("InvalidParameterException", contains="email_verified"):
        answer_new_password(idp, client, username, session, email=victim_email, email_verified="true")
    # Not even one of the flags alone.
    with cognito_error("InvalidParameterException", contains="phone_number_verified"):
        answer_new_password(idp, client, username, session, phone_number_verified="True")


def test_a_new_email_in_the_answer_is_unverified_and_sent_a_code(server, idp, alias_pool):
    client = new_client(idp, alias_pool["Id"])
    username = create_invited(idp, alias_pool["Id"])
    new_email = email_for(unique("new"))
    session = start_new_password(idp, client, username)
    tokens = answer_new_password(idp, client, username, session, email=new_email)["AuthenticationResult"]
    attributes = attributes_of(idp.get_user(AccessToken=tokens["AccessToken"]))
    assert attributes["email"] == new_email and attributes["email_verified"] == "false"
    # Not a sign-in alias until proven …
    with cognito_error("UserNotFoundException"):
        password_auth(idp, client, new_email, NEW_PASSWORD)
    # … by the code sent to it.
    code = last_message(server, alias_pool["Id"], destination=new_email)["code"]
    idp.verify_user_attribute(AccessToken=tokens["AccessToken"], AttributeName="email", Code=code)
    assert password_auth(idp, client, new_email, NEW_PASSWORD)["AuthenticationResult"]


def test_the_answer_cannot_change_an_already_provided_email(server, idp, alias_pool):
    client = new_client(idp, alias_pool["Id"])
    username = create_invited(idp, alias_pool["Id"], [("email", email_for(unique())), ("email_verified", "true")])
    session = start_new_password(idp, client, username)
    with cognito_error("NotAuthorizedException", "Cannot modify an already provided email"):
        answer_new_password(idp, client, username, session, email=email_for(unique("other")))


def test_the_answer_honours_the_clients_write_attributes(server, idp, alias_pool):
    client = new_client(idp, alias_pool["Id"], WriteAttributes=["given_name", "email"])
    username = create_invited(idp, alias_pool["Id"])
    session = start_new_password(idp, client, username)
    with cognito_error("NotAuthorizedException", "A client attempted to write unauthorized attribute family_name"):
        answer_new_password(idp, client, username, session, family_name="Mallory")
    # What the client may write is accepted.
    assert answer_new_password(idp, client, username, session, given_name="Ann")["AuthenticationResult"]


def test_sign_up_honours_the_clients_write_attributes(server, idp, pool):
    client = new_client(idp, pool["Id"], WriteAttributes=["email"])
    with cognito_error("NotAuthorizedException", "A client attempted to write unauthorized attribute name"):
        sign_up(idp, client, unique(), attributes=[("name", "Mallory")])


def test_users_cannot_delete_verified_flags_or_unwritable_attributes(server, idp, pool):
    client = new_client(idp, pool["Id"], WriteAttributes=["email", "name"])
    username, _, _ = confirmed_user(server, idp, pool, client)
    tokens = sign_in(idp, client, username)
    with cognito_error("NotAuthorizedException", contains="unauthorized attribute family_name"):
        idp.delete_user_attributes(AccessToken=tokens["AccessToken"], UserAttributeNames=["family_name"])
    unrestricted = new_client(idp, pool["Id"])
    tokens = sign_in(idp, unrestricted, username)
    with cognito_error("InvalidParameterException", contains="email_verified"):
        idp.delete_user_attributes(AccessToken=tokens["AccessToken"], UserAttributeNames=["email_verified"])


# --- 2. A code proves exactly the address it was sent to -------------------------------------

def test_an_old_code_does_not_verify_a_new_address(server, idp):
    # No auto-verification: changing the email sends no new code, so the old one is the
    # attacker's only hope.
    pool = idp.create_user_pool(PoolName=unique("plain"), AliasAttributes=["email"])["UserPool"]
    client = new_client(idp, pool["Id"])
    victim_email = email_for(unique("victim"))
    victim = unique("victim")
    sign_up(idp, client, victim, email=victim_email)
    idp.admin_confirm_sign_up(UserPoolId=pool["Id"], Username=victim)
    idp.admin_update_user_attributes(UserPoolId=pool["Id"], Username=victim,
                                     UserAttributes=[{"Name": "email_verified", "Value": "true"}])

    attacker = unique("attacker")
    sign_up(idp, client, attacker, email=email_for(attacker))
    idp.admin_confirm_sign_up(UserPoolId=pool["Id"], Username=attacker)
    tokens = sign_in(idp, client, attacker)
    idp.get_user_attribute_verification_code(AccessToken=tokens["AccessToken"], AttributeName="email")
    old_code = last_message(server, pool["Id"], destination=email_for(attacker))["code"]
    idp.update_user_attributes(AccessToken=tokens["AccessToken"], UserAttributes=[{"Name": "email", "Value": victim_email}])
    with cognito_error("ExpiredCodeException", CODE_EXPIRED):
        idp.verify_user_attribute(AccessToken=tokens["AccessToken"], AttributeName="email", Code=old_code)
    # The victim keeps the alias; the attacker's copy stays unverified.
    assert password_auth(idp, client, victim_email)["AuthenticationResult"]
    assert attributes_of(idp.get_user(AccessToken=tokens["AccessToken"]))["email_verified"] == "false"


def test_a_code_sent_before_a_change_does_not_verify_the_changed_address(server, idp, pool, app_client):
    username, email, _ = confirmed_user(server, idp, pool, app_client)
    tokens = sign_in(idp, app_client, username)
    idp.get_user_attribute_verification_code(AccessToken=tokens["AccessToken"], AttributeName="email")
    old_code = last_message(server, pool["Id"], destination=email)["code"]
    new_email = email_for(unique("moved"))
    idp.update_user_attributes(AccessToken=tokens["AccessToken"], UserAttributes=[{"Name": "email", "Value": new_email}])
    new_code = last_message(server, pool["Id"], destination=new_email)["code"]
    if new_code != old_code:
        with cognito_error("CodeMismatchException", CODE_MISMATCH):
            idp.verify_user_attribute(AccessToken=tokens["AccessToken"], AttributeName="email", Code=old_code)
    idp.verify_user_attribute(AccessToken=tokens["AccessToken"], AttributeName="email", Code=new_code)
    assert attributes_of(idp.get_user(AccessToken=tokens["AccessToken"]))["email_verified"] == "true"


def test_deleting_the_address_kills_its_pending_code(server, idp, pool, app_client):
    username, email, _ = confirmed_user(server, idp, pool, app_client)
    tokens = sign_in(idp, app_client, username)
    idp.get_user_attribute_verification_code(AccessToken=tokens["AccessToken"], AttributeName="email")
    code = last_message(server, pool["Id"], destination=email)["code"]
    idp.delete_user_attributes(AccessToken=tokens["AccessToken"], UserAttributeNames=["email"])
    idp.update_user_attributes(AccessToken=tokens["AccessToken"], UserAttributes=[{"Name": "email", "Value": email}])
    # The same address again gets a new code; the one sent before the deletion is dead.
    new_code = last_message(server, pool["Id"], destination=email)["code"]
    if new_code != code:
        with cognito_error("CodeMismatchException", CODE_MISMATCH):
            idp.verify_user_attribute(AccessToken=tokens["AccessToken"], AttributeName="email", Code=code)


@pytest.mark.fixed_window(3600)
def test_wrong_guesses_stay_bounded_when_new_codes_are_requested(server, idp, pool, app_client):
    username, email, _ = confirmed_user(server, idp, pool, app_client)
    tokens = sign_in(idp, app_client, username)
    guesses = 0
    for _ in range(3):  # three codes requested within the hour …
        idp.get_user_attribute_verification_code(AccessToken=tokens["AccessToken"], AttributeName="email")
        code = last_message(server, pool["Id"], destination=email)["code"]
        for _ in range(5):
            try:
                idp.verify_user_attribute(AccessToken=tokens["AccessToken"], AttributeName="email", Code=wrong_code(code))
            except idp.exceptions.CodeMismatchException:
                guesses += 1
            except idp.exceptions.LimitExceededException:
                pass
    assert guesses == 5  # … still five wrong guesses in all
    with cognito_error("LimitExceededException", ATTEMPT_LIMIT):
        idp.verify_user_attribute(AccessToken=tokens["AccessToken"], AttributeName="email", Code=code)
