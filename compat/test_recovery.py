"""Password recovery and change (issue 4, protocol doc §2.2, §2.8, §10): ForgotPassword to the
verified channel AccountRecoverySetting picks, ConfirmForgotPassword's code rules (wrong,
superseded, used, attempt limit, restart), password policy and history, ChangePassword, and the
Cognate pool tag that revokes tokens on a password change. Through boto3 and pycognito.

Forgot-password codes expire after one hour; waiting that out is left to the Swift tests."""
import time

import pytest
from botocore.exceptions import ClientError

from helpers import (
    ACCESS_TOKEN_REVOKED, ATTEMPT_LIMIT, CODE_EXPIRED, CODE_MISMATCH, PASSWORD, REFRESH_TOKEN_REVOKED, admin_user,
    attributes_of, cognito_error, confirmed_user, email_for, last_message, masked_email, masked_phone, messages,
    new_client, password_auth, pycognito_user, refresh, secret_hash, sign_in, sign_up, srp_for, unique,
    user_status, wrong_code,
)

NEW_PASSWORD = "N3w-Passw0rd!"
OTHER_PASSWORD = "0ther-Passw0rd!"
INCORRECT = ("NotAuthorizedException", "Incorrect username or password.")
LOCKED = ("NotAuthorizedException", "Password attempts exceeded")
NO_CONTACT = "Cannot reset password for the user as there is no registered/verified email or phone_number"
REVOKE_TAG = "cognate:RevokeTokensOnPasswordChange"
PHONE = "+15555551212"


def forgot(idp, client, username, secret=None):
    kwargs = {"SecretHash": secret_hash(username, client["ClientId"], secret)} if secret else {}
    return idp.forgot_password(ClientId=client["ClientId"], Username=username, **kwargs)["CodeDeliveryDetails"]


def confirm_forgot(idp, client, username, code, password=NEW_PASSWORD, secret=None):
    kwargs = {"SecretHash": secret_hash(username, client["ClientId"], secret)} if secret else {}
    return idp.confirm_forgot_password(ClientId=client["ClientId"], Username=username, ConfirmationCode=code,
                                       Password=password, **kwargs)


def reset_code(server, pool_id, username):
    return last_message(server, pool_id, username=username, purpose="forgotPassword")["code"]


def change_password(idp, tokens, previous, proposed):
    return idp.change_password(AccessToken=tokens["AccessToken"], PreviousPassword=previous,
                               ProposedPassword=proposed)


def assert_password(idp, client, username, good, bad=None, secret=None):
    """`good` signs the user in; `bad` (if given) is refused as a wrong password."""
    assert sign_in(idp, client, username, good, secret)["AccessToken"]
    if bad is not None:
        with cognito_error(*INCORRECT):
            password_auth(idp, client, username, bad, secret)


def assert_session_works(idp, client, tokens):
    assert idp.get_user(AccessToken=tokens["AccessToken"])["Username"]
    assert refresh(idp, client, tokens["RefreshToken"])["AccessToken"]


def assert_session_revoked(idp, client, tokens):
    with cognito_error("NotAuthorizedException", ACCESS_TOKEN_REVOKED):
        idp.get_user(AccessToken=tokens["AccessToken"])
    with cognito_error("NotAuthorizedException", REFRESH_TOKEN_REVOKED):
        refresh(idp, client, tokens["RefreshToken"])


# --- ForgotPassword: where the code goes ----------------------------------------------------

def test_forgot_password_round_trip(server, idp, pool, app_client):
    username, email, _ = confirmed_user(server, idp, pool, app_client)
    details = forgot(idp, app_client, username)
    assert details == {"Destination": masked_email(email), "DeliveryMedium": "EMAIL", "AttributeName": "email"}
    message = last_message(server, pool["Id"], username=username, purpose="forgotPassword")
    assert message["destination"] == email and message["medium"] == "EMAIL"
    assert len(message["code"]) == 6 and message["code"].isdigit()
    assert message["code"] in message["body"]

    assert confirm_forgot(idp, app_client, username, message["code"])["ResponseMetadata"]["HTTPStatusCode"] == 200
    assert_password(idp, app_client, username, NEW_PASSWORD, bad=PASSWORD)
    assert user_status(idp, pool["Id"], username) == "CONFIRMED"


def test_default_recovery_prefers_a_verified_phone(server, idp, pool, app_client):
    both = admin_user(idp, pool["Id"], attributes=[("email", "both@example.com"), ("email_verified", "true"),
                                                   ("phone_number", PHONE), ("phone_number_verified", "true")])
    assert forgot(idp, app_client, both) == {"Destination": masked_phone(PHONE), "DeliveryMedium": "SMS",
                                              "AttributeName": "phone_number"}
    message = last_message(server, pool["Id"], username=both, purpose="forgotPassword")
    assert (message["destination"], message["medium"]) == (PHONE, "SMS")

    # An unverified phone is not a recovery channel: the verified email is.
    email_only = admin_user(idp, pool["Id"], attributes=[("email", "eo@example.com"), ("email_verified", "true"),
                                                         ("phone_number", "+15555550000")])
    assert forgot(idp, app_client, email_only)["DeliveryMedium"] == "EMAIL"
    assert last_message(server, pool["Id"], username=email_only)["destination"] == "eo@example.com"
    confirm_forgot(idp, app_client, both, message["code"])
    assert_password(idp, app_client, both, NEW_PASSWORD)


def test_account_recovery_setting_priority(server, idp):
    pool = idp.create_user_pool(PoolName=unique("recovery"), AccountRecoverySetting={"RecoveryMechanisms": [
        {"Priority": 1, "Name": "verified_email"}, {"Priority": 2, "Name": "verified_phone_number"}]})["UserPool"]
    assert idp.describe_user_pool(UserPoolId=pool["Id"])["UserPool"]["AccountRecoverySetting"] == {
        "RecoveryMechanisms": [{"Priority": 1, "Name": "verified_email"},
                               {"Priority": 2, "Name": "verified_phone_number"}]}
    client = new_client(idp, pool["Id"])
    both = admin_user(idp, pool["Id"], attributes=[("email", "both@example.com"), ("email_verified", "true"),
                                                   ("phone_number", PHONE), ("phone_number_verified", "true")])
    assert forgot(idp, client, both) == {"Destination": "b***@e***", "DeliveryMedium": "EMAIL",
                                          "AttributeName": "email"}
    # The second mechanism when the user lacks a verified address for the first.
    phone_only = admin_user(idp, pool["Id"], attributes=[("email", "po@example.com"),
                                                         ("phone_number", PHONE), ("phone_number_verified", "true")])
    assert forgot(idp, client, phone_only)["DeliveryMedium"] == "SMS"
    assert last_message(server, pool["Id"], username=phone_only)["destination"] == PHONE


def test_recovery_by_email_only_ignores_a_verified_phone(idp):
    pool = idp.create_user_pool(PoolName=unique("recovery"), AccountRecoverySetting={"RecoveryMechanisms": [
        {"Priority": 1, "Name": "verified_email"}]})["UserPool"]
    client = new_client(idp, pool["Id"])
    phone_only = admin_user(idp, pool["Id"], attributes=[("phone_number", PHONE), ("phone_number_verified", "true")])
    with cognito_error("InvalidParameterException", NO_CONTACT):
        forgot(idp, client, phone_only)


def test_no_verified_contact(server, idp, pool, app_client):
    nothing = admin_user(idp, pool["Id"])
    unverified = admin_user(idp, pool["Id"], attributes=[("email", "unverified@example.com"),
                                                         ("phone_number", PHONE)])
    for username in (nothing, unverified):
        with cognito_error("InvalidParameterException", NO_CONTACT):
            forgot(idp, app_client, username)
        assert not messages(server, pool["Id"], username=username, purpose="forgotPassword")


def test_unconfirmed_user_has_no_verified_contact(server, idp, pool, app_client):
    username = unique()
    sign_up(idp, app_client, username)     # the email is not verified until ConfirmSignUp
    with cognito_error("InvalidParameterException", NO_CONTACT):
        forgot(idp, app_client, username)
    assert not messages(server, pool["Id"], username=username, purpose="forgotPassword")


def test_force_change_password_user_cannot_use_forgot_password(server, idp, pool, app_client):
    # AWS Knowledge Center "cognito-forgot-password": a FORCE_CHANGE_PASSWORD user can't use ForgotPassword
    # and doesn't receive a code (Cognito answers "User password cannot be reset in the current state.").
    username = unique()
    idp.admin_create_user(UserPoolId=pool["Id"], Username=username, MessageAction="SUPPRESS",
                          TemporaryPassword="Temp-0rary!",
                          UserAttributes=[{"Name": "email", "Value": email_for(username)},
                                          {"Name": "email_verified", "Value": "true"}])
    with cognito_error("NotAuthorizedException"):
        forgot(idp, app_client, username)
    assert not messages(server, pool["Id"], username=username, purpose="forgotPassword")


def test_admin_only_recovery_sends_nothing(server, idp):
    pool = idp.create_user_pool(PoolName=unique("admin-only"), AccountRecoverySetting={"RecoveryMechanisms": [
        {"Priority": 1, "Name": "admin_only"}]})["UserPool"]
    client = new_client(idp, pool["Id"])
    username = admin_user(idp, pool["Id"], attributes=[("email", "ao@example.com"), ("email_verified", "true")])
    with pytest.raises(ClientError) as info:
        forgot(idp, client, username)
    assert info.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400
    assert not messages(server, pool["Id"], username=username)


def test_unknown_user(server, idp, pool, app_client):
    with cognito_error("UserNotFoundException", "Username/client id combination not found."):
        forgot(idp, app_client, unique("nobody"))
    with cognito_error("UserNotFoundException", "User does not exist."):
        confirm_forgot(idp, app_client, unique("nobody"), "123456")

    hiding = new_client(idp, pool["Id"], "hiding", PreventUserExistenceErrors="ENABLED")
    nobody = unique("nobody")
    details = forgot(idp, hiding, nobody)
    assert set(details) == {"Destination", "DeliveryMedium", "AttributeName"}
    assert details["DeliveryMedium"] in ("EMAIL", "SMS")
    assert not messages(server, pool["Id"], username=nobody)
    with cognito_error("CodeMismatchException", CODE_MISMATCH):
        confirm_forgot(idp, hiding, nobody, "123456")


def test_disabled_user_cannot_recover(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    idp.admin_disable_user(UserPoolId=pool["Id"], Username=username)
    with cognito_error("NotAuthorizedException"):
        forgot(idp, app_client, username)
    assert not messages(server, pool["Id"], username=username, purpose="forgotPassword")


@pytest.mark.fixed_window(3600)
def test_forgot_password_request_limit(server, idp, pool, app_client):
    username, email, _ = confirmed_user(server, idp, pool, app_client)
    bystander, _, _ = confirmed_user(server, idp, pool, app_client)
    for _ in range(5):
        forgot(idp, app_client, username)
    with cognito_error("LimitExceededException", ATTEMPT_LIMIT):
        forgot(idp, app_client, username)
    assert len(messages(server, pool["Id"], username=username, purpose="forgotPassword")) == 5
    forgot(idp, app_client, bystander)  # the limit is per user
    confirm_forgot(idp, app_client, username, reset_code(server, pool["Id"], username))  # the last code is good
    assert_password(idp, app_client, username, NEW_PASSWORD)


def test_client_with_secret(server, idp, pool):
    client = new_client(idp, pool["Id"], "secret", GenerateSecret=True)
    secret = client["ClientSecret"]
    username, _, _ = confirmed_user(server, idp, pool, client, secret=secret)
    with cognito_error("NotAuthorizedException", contains="SECRET_HASH was not received"):
        forgot(idp, client, username)
    forgot(idp, client, username, secret)
    code = reset_code(server, pool["Id"], username)
    with cognito_error("NotAuthorizedException", f"Unable to verify secret hash for client {client['ClientId']}"):
        confirm_forgot(idp, client, username, code, secret="not-the-secret")
    confirm_forgot(idp, client, username, code, secret=secret)
    assert_password(idp, client, username, NEW_PASSWORD, secret=secret)


# --- ConfirmForgotPassword: code rules --------------------------------------------------------

def test_wrong_code_then_right_code(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    forgot(idp, app_client, username)
    code = reset_code(server, pool["Id"], username)
    with cognito_error("CodeMismatchException", CODE_MISMATCH):
        confirm_forgot(idp, app_client, username, wrong_code(code))
    assert_password(idp, app_client, username, PASSWORD)  # nothing changed
    confirm_forgot(idp, app_client, username, code)
    assert_password(idp, app_client, username, NEW_PASSWORD, bad=PASSWORD)


def test_five_wrong_codes_then_the_limit(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    forgot(idp, app_client, username)
    code = reset_code(server, pool["Id"], username)
    for _ in range(5):
        with cognito_error("CodeMismatchException", CODE_MISMATCH):
            confirm_forgot(idp, app_client, username, wrong_code(code))
    with cognito_error("LimitExceededException", ATTEMPT_LIMIT):
        confirm_forgot(idp, app_client, username, code)
    assert_password(idp, app_client, username, PASSWORD, bad=NEW_PASSWORD)

    # A new code within the hour does not renew the guesses: it is dead too.
    forgot(idp, app_client, username)
    with cognito_error("LimitExceededException", ATTEMPT_LIMIT):
        confirm_forgot(idp, app_client, username, reset_code(server, pool["Id"], username))
    assert_password(idp, app_client, username, PASSWORD, bad=NEW_PASSWORD)


def test_superseded_code_is_expired(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    forgot(idp, app_client, username)
    old = reset_code(server, pool["Id"], username)
    forgot(idp, app_client, username)
    new = reset_code(server, pool["Id"], username)
    if new != old:   # one chance in a million that the random codes coincide
        with cognito_error("ExpiredCodeException", CODE_EXPIRED):
            confirm_forgot(idp, app_client, username, old)
        assert_password(idp, app_client, username, PASSWORD)
    confirm_forgot(idp, app_client, username, new)
    assert_password(idp, app_client, username, NEW_PASSWORD)


def test_used_code_is_expired(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    forgot(idp, app_client, username)
    code = reset_code(server, pool["Id"], username)
    confirm_forgot(idp, app_client, username, code)
    with cognito_error("ExpiredCodeException", CODE_EXPIRED):
        confirm_forgot(idp, app_client, username, code, OTHER_PASSWORD)
    assert_password(idp, app_client, username, NEW_PASSWORD, bad=OTHER_PASSWORD)


def test_code_survives_restart(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    forgot(idp, app_client, username)
    code = reset_code(server, pool["Id"], username)
    server.restart()
    confirm_forgot(idp, app_client, username, code)
    assert_password(idp, app_client, username, NEW_PASSWORD, bad=PASSWORD)
    with cognito_error("ExpiredCodeException", CODE_EXPIRED):   # still single-use
        confirm_forgot(idp, app_client, username, code, OTHER_PASSWORD)


def test_password_policy_keeps_the_code(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    forgot(idp, app_client, username)
    code = reset_code(server, pool["Id"], username)
    for weak, rule in (("alllower-case1!", "uppercase"), ("ALLUPPER-CASE1!", "lowercase"),
                       ("No-Numbers-Here!", "numeric"), ("NoSymbols123", "symbol"), ("Sh0rt!x", "long enough")):
        with cognito_error("InvalidPasswordException", contains=rule):
            confirm_forgot(idp, app_client, username, code, weak)
    assert_password(idp, app_client, username, PASSWORD)
    confirm_forgot(idp, app_client, username, code)
    assert_password(idp, app_client, username, NEW_PASSWORD)


def test_reset_required_user_becomes_confirmed(server, idp, pool, app_client):
    username = admin_user(idp, pool["Id"], attributes=[("email", "reset@example.com"), ("email_verified", "true")])
    idp.admin_reset_user_password(UserPoolId=pool["Id"], Username=username)
    assert user_status(idp, pool["Id"], username) == "RESET_REQUIRED"
    with cognito_error("PasswordResetRequiredException"):
        password_auth(idp, app_client, username)
    # The code AdminResetUserPassword sent is a forgot-password code.
    message = last_message(server, pool["Id"], username=username, purpose="forgotPassword")
    assert message["destination"] == "reset@example.com"
    confirm_forgot(idp, app_client, username, message["code"])
    assert user_status(idp, pool["Id"], username) == "CONFIRMED"
    assert_password(idp, app_client, username, NEW_PASSWORD)


def test_reset_clears_the_lockout(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    for _ in range(5):
        with cognito_error(*INCORRECT):
            password_auth(idp, app_client, username, "Wr0ng-password!")
    with cognito_error(*LOCKED):
        password_auth(idp, app_client, username)
    forgot(idp, app_client, username)
    confirm_forgot(idp, app_client, username, reset_code(server, pool["Id"], username))
    assert sign_in(idp, app_client, username, NEW_PASSWORD)["AccessToken"]   # no waiting


# --- password history -------------------------------------------------------------------------

@pytest.fixture
def history_pool(idp):
    return idp.create_user_pool(PoolName=unique("history"), AutoVerifiedAttributes=["email"], Policies={
        "PasswordPolicy": {"MinimumLength": 8, "PasswordHistorySize": 2}})["UserPool"]


def test_history_size_is_kept(idp, history_pool):
    policy = idp.describe_user_pool(UserPoolId=history_pool["Id"])["UserPool"]["Policies"]["PasswordPolicy"]
    assert policy["PasswordHistorySize"] == 2


def test_reset_refuses_recent_passwords(server, idp, history_pool):
    client = new_client(idp, history_pool["Id"])
    username, _, _ = confirmed_user(server, idp, history_pool, client)
    forgot(idp, client, username)
    code = reset_code(server, history_pool["Id"], username)
    with cognito_error("PasswordHistoryPolicyViolationException"):
        confirm_forgot(idp, client, username, code, PASSWORD)          # the current one
    confirm_forgot(idp, client, username, code, NEW_PASSWORD)
    forgot(idp, client, username)
    code = reset_code(server, history_pool["Id"], username)
    for recent in (NEW_PASSWORD, PASSWORD):
        with cognito_error("PasswordHistoryPolicyViolationException"):
            confirm_forgot(idp, client, username, code, recent)
    confirm_forgot(idp, client, username, code, OTHER_PASSWORD)
    assert_password(idp, client, username, OTHER_PASSWORD, bad=NEW_PASSWORD)


def test_change_refuses_recent_passwords(server, idp, history_pool):
    client = new_client(idp, history_pool["Id"])
    username, _, _ = confirmed_user(server, idp, history_pool, client)
    tokens = sign_in(idp, client, username)
    with cognito_error("PasswordHistoryPolicyViolationException"):
        change_password(idp, tokens, PASSWORD, PASSWORD)
    change_password(idp, tokens, PASSWORD, NEW_PASSWORD)
    with cognito_error("PasswordHistoryPolicyViolationException"):
        change_password(idp, tokens, NEW_PASSWORD, PASSWORD)
    assert_password(idp, client, username, NEW_PASSWORD)


def test_admin_set_password_refuses_recent_passwords(idp, history_pool):
    username = admin_user(idp, history_pool["Id"])
    with cognito_error("PasswordHistoryPolicyViolationException"):
        idp.admin_set_user_password(UserPoolId=history_pool["Id"], Username=username, Password=PASSWORD,
                                    Permanent=True)
    idp.admin_set_user_password(UserPoolId=history_pool["Id"], Username=username, Password=NEW_PASSWORD,
                                Permanent=True)


def test_without_history_the_same_password_is_allowed(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    forgot(idp, app_client, username)
    confirm_forgot(idp, app_client, username, reset_code(server, pool["Id"], username), PASSWORD)
    tokens = sign_in(idp, app_client, username)
    change_password(idp, tokens, PASSWORD, PASSWORD)
    assert_password(idp, app_client, username, PASSWORD)


# --- ChangePassword ---------------------------------------------------------------------------

def test_change_password(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    tokens = sign_in(idp, app_client, username)
    response = change_password(idp, tokens, PASSWORD, NEW_PASSWORD)
    assert response["ResponseMetadata"]["HTTPStatusCode"] == 200
    assert set(response) == {"ResponseMetadata"}
    assert_password(idp, app_client, username, NEW_PASSWORD, bad=PASSWORD)
    # SRP uses the new verifier too.
    assert srp_for(idp, pool["Id"], app_client, username, NEW_PASSWORD).authenticate_user()["AuthenticationResult"]


def test_change_password_with_a_wrong_previous_password(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    tokens = sign_in(idp, app_client, username)
    with cognito_error(*INCORRECT):
        change_password(idp, tokens, "Wr0ng-password!", NEW_PASSWORD)
    assert_password(idp, app_client, username, PASSWORD, bad=NEW_PASSWORD)


def test_wrong_previous_passwords_count_towards_the_lockout(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    tokens = sign_in(idp, app_client, username)
    for _ in range(5):
        with cognito_error(*INCORRECT):
            change_password(idp, tokens, "Wr0ng-password!", NEW_PASSWORD)
    locked_at = time.monotonic()
    with cognito_error(*LOCKED):
        password_auth(idp, app_client, username)
    time.sleep(max(0.0, locked_at + 1.2 - time.monotonic()))
    assert sign_in(idp, app_client, username)["AccessToken"]


def test_change_password_policy(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    tokens = sign_in(idp, app_client, username)
    with cognito_error("InvalidPasswordException", contains="Password did not conform with policy"):
        change_password(idp, tokens, PASSWORD, "weakpassword")
    assert_password(idp, app_client, username, PASSWORD)


@pytest.mark.fixed_window(3600)
def test_change_password_limit(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    tokens = sign_in(idp, app_client, username)
    passwords = [PASSWORD] + [f"Chang3d-{n}!" for n in range(6)]
    for previous, proposed in zip(passwords[:5], passwords[1:6]):
        change_password(idp, tokens, previous, proposed)
    with cognito_error("LimitExceededException", ATTEMPT_LIMIT):
        change_password(idp, tokens, passwords[5], passwords[6])
    assert_password(idp, app_client, username, passwords[5])


def test_change_password_needs_a_valid_access_token(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    tokens = sign_in(idp, app_client, username)
    with cognito_error("NotAuthorizedException"):
        change_password(idp, {"AccessToken": tokens["IdToken"]}, PASSWORD, NEW_PASSWORD)
    with cognito_error("NotAuthorizedException"):
        change_password(idp, {"AccessToken": "not-a-token"}, PASSWORD, NEW_PASSWORD)
    assert_password(idp, app_client, username, PASSWORD)


# --- tokens after a password change -----------------------------------------------------------

def reset_via_forgot(server, idp, pool, client, username, tokens):
    forgot(idp, client, username)
    confirm_forgot(idp, client, username, reset_code(server, pool["Id"], username))


def reset_via_change(server, idp, pool, client, username, tokens):
    change_password(idp, tokens, PASSWORD, NEW_PASSWORD)


def reset_via_admin(server, idp, pool, client, username, tokens):
    idp.admin_set_user_password(UserPoolId=pool["Id"], Username=username, Password=NEW_PASSWORD, Permanent=True)


CHANGES = [reset_via_forgot, reset_via_change, reset_via_admin]
USER_CHANGES = [reset_via_forgot, reset_via_change]


@pytest.mark.parametrize("change", USER_CHANGES, ids=["ConfirmForgotPassword", "ChangePassword"])
def test_tokens_survive_a_password_change_by_the_user_by_default(server, idp, pool, app_client, change):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    sessions = [sign_in(idp, app_client, username) for _ in range(2)]
    change(server, idp, pool, app_client, username, sessions[0])
    for tokens in sessions:
        assert_session_works(idp, app_client, tokens)
    assert_password(idp, app_client, username, NEW_PASSWORD)


@pytest.mark.parametrize("permanent", [True, False], ids=["permanent", "temporary"])
def test_admin_set_user_password_ends_every_session(server, idp, pool, app_client, permanent):
    # An administrator sets a password because the old one may be known to someone else:
    # whoever signed in with it is signed out (docs/security.md).
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    sessions = [sign_in(idp, app_client, username) for _ in range(2)]
    idp.admin_set_user_password(UserPoolId=pool["Id"], Username=username, Password=NEW_PASSWORD, Permanent=permanent)
    for tokens in sessions:
        assert_session_revoked(idp, app_client, tokens)


def test_admin_reset_user_password_ends_every_session_and_refresh(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    tokens = sign_in(idp, app_client, username)
    idp.admin_reset_user_password(UserPoolId=pool["Id"], Username=username)
    assert_session_revoked(idp, app_client, tokens)
    with cognito_error("PasswordResetRequiredException"):
        sign_in(idp, app_client, username)
    # The emailed reset code completes the reset; signing in works again.
    confirm_forgot(idp, app_client, username, reset_code(server, pool["Id"], username))
    sign_in(idp, app_client, username, NEW_PASSWORD)


@pytest.fixture
def revoking_pool(idp):
    return idp.create_user_pool(PoolName=unique("revoking"), AutoVerifiedAttributes=["email"],
                                UserPoolTags={REVOKE_TAG: "true"})["UserPool"]


@pytest.mark.parametrize("change", CHANGES, ids=["ConfirmForgotPassword", "ChangePassword", "AdminSetUserPassword"])
def test_revoke_tokens_on_password_change_tag(server, idp, revoking_pool, change):
    pool = revoking_pool
    assert idp.describe_user_pool(UserPoolId=pool["Id"])["UserPool"]["UserPoolTags"] == {REVOKE_TAG: "true"}
    client = new_client(idp, pool["Id"])
    username, _, _ = confirmed_user(server, idp, pool, client)
    bystander, _, _ = confirmed_user(server, idp, pool, client)
    sessions = [sign_in(idp, client, username),
                srp_for(idp, pool["Id"], client, username).authenticate_user()["AuthenticationResult"]]
    # An access token minted by a refresh before the change goes too.
    sessions.append({**refresh(idp, client, sessions[0]["RefreshToken"]), "RefreshToken": sessions[0]["RefreshToken"]})
    other = sign_in(idp, client, bystander)

    change(server, idp, pool, client, username, sessions[0])
    for tokens in sessions:
        assert_session_revoked(idp, client, tokens)
    assert_session_works(idp, client, other)
    fresh = sign_in(idp, client, username, NEW_PASSWORD)
    assert_session_works(idp, client, fresh)


def test_revocation_tag_through_update_user_pool(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    idp.update_user_pool(UserPoolId=pool["Id"], AutoVerifiedAttributes=["email"], UserPoolTags={REVOKE_TAG: "true"})
    tokens = sign_in(idp, app_client, username)
    reset_via_admin(server, idp, pool, app_client, username, tokens)
    assert_session_revoked(idp, app_client, tokens)

    idp.update_user_pool(UserPoolId=pool["Id"], AutoVerifiedAttributes=["email"], UserPoolTags={REVOKE_TAG: "false"})
    tokens = sign_in(idp, app_client, username, NEW_PASSWORD)
    change_password(idp, tokens, NEW_PASSWORD, OTHER_PASSWORD)
    assert_session_works(idp, app_client, tokens)


def test_failed_change_revokes_nothing(server, idp, revoking_pool):
    client = new_client(idp, revoking_pool["Id"])
    username, _, _ = confirmed_user(server, idp, revoking_pool, client)
    tokens = sign_in(idp, client, username)
    with cognito_error(*INCORRECT):
        change_password(idp, tokens, "Wr0ng-password!", NEW_PASSWORD)
    with cognito_error("InvalidPasswordException"):
        change_password(idp, tokens, PASSWORD, "weakpassword")
    assert_session_works(idp, client, tokens)


# --- pycognito --------------------------------------------------------------------------------

def test_pycognito_forgot_password(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    user = pycognito_user(server, pool["Id"], app_client, username)
    user.initiate_forgot_password()
    code = reset_code(server, pool["Id"], username)
    with pytest.raises(ClientError) as info:
        user.confirm_forgot_password(wrong_code(code), NEW_PASSWORD)
    assert info.value.response["Error"]["Code"] == "CodeMismatchException"
    user.confirm_forgot_password(code, NEW_PASSWORD)
    assert user.password == NEW_PASSWORD
    user.authenticate(NEW_PASSWORD)
    assert user.access_token and user.id_token and user.refresh_token
    assert user.get_user().username == username


def test_pycognito_forgot_password_with_secret(server, idp, pool):
    client = new_client(idp, pool["Id"], "secret", GenerateSecret=True)
    username, _, _ = confirmed_user(server, idp, pool, client, secret=client["ClientSecret"])
    user = pycognito_user(server, pool["Id"], client, username)
    user.initiate_forgot_password()
    user.confirm_forgot_password(reset_code(server, pool["Id"], username), NEW_PASSWORD)
    user.authenticate(NEW_PASSWORD)
    assert user.access_token


def test_pycognito_change_password(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    user = pycognito_user(server, pool["Id"], app_client, username)
    user.authenticate(PASSWORD)
    with pytest.raises(ClientError) as info:
        user.change_password("Wr0ng-password!", NEW_PASSWORD)
    assert info.value.response["Error"]["Code"] == "NotAuthorizedException"
    user.change_password(PASSWORD, NEW_PASSWORD)
    assert user.password == NEW_PASSWORD
    assert_password(idp, app_client, username, NEW_PASSWORD, bad=PASSWORD)
    assert attributes_of(idp.get_user(AccessToken=user.access_token))["email"]


# --- resumable codes --------------------------------------------------------------------------

def test_sign_up_code_resumes_in_a_new_app_after_a_server_restart(server, idp, pool, app_client):
    """The app that signed up is gone and the server restarted: a fresh pycognito object confirms
    with the code already sent; a resent code supersedes it and is single-use."""
    username = unique()
    registering = pycognito_user(server, pool["Id"], app_client, username)
    registering.set_base_attributes(email=email_for(username))
    registering.register(username, PASSWORD)
    first = last_message(server, pool["Id"], username=username, purpose="signUp")["code"]
    server.restart()

    resumed = pycognito_user(server, pool["Id"], app_client, username)
    resumed.resend_confirmation_code(username)
    second = last_message(server, pool["Id"], username=username, purpose="signUp")["code"]
    if first != second:
        with pytest.raises(ClientError) as info:
            resumed.confirm_sign_up(first, username)
        assert info.value.response["Error"]["Code"] == "ExpiredCodeException"
    server.restart()
    resumed.confirm_sign_up(second, username)
    assert user_status(idp, pool["Id"], username) == "CONFIRMED"
    with pytest.raises(ClientError) as info:
        resumed.confirm_sign_up(second, username)
    assert info.value.response["Error"]["Code"] == "NotAuthorizedException"   # already confirmed
    resumed.authenticate(PASSWORD)
    assert resumed.access_token
