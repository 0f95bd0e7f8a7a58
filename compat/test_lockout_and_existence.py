"""Brute-force lockout and PreventUserExistenceErrors (protocol doc §3.5, docs/security.md
"Brute force"), through boto3 and pycognito.

Lockout: after five wrong passwords (either flow) the user is locked out for one second,
doubling with each further failure; while locked out every attempt fails with
NotAuthorizedException "Password attempts exceeded". The tests wait out the short lockouts."""
import re
import time
import uuid

import pytest

from helpers import (
    PASSWORD, USER_FLOWS, admin_user, cognito_error, email_for, messages, password_auth, run_concurrently, sign_in,
    sign_up, srp_for, srp_respond, srp_start, unique,
)

WRONG = "Wr0ng-password!"
INCORRECT = ("NotAuthorizedException", "Incorrect username or password.")
LOCKED = ("NotAuthorizedException", "Password attempts exceeded")
NOT_FOUND = ("UserNotFoundException", "User does not exist.")
FLOWS = USER_FLOWS + ["ALLOW_ADMIN_USER_PASSWORD_AUTH"]
VERIFIER_PARAMETERS = {"SALT", "SRP_B", "SECRET_BLOCK", "USERNAME", "USER_ID_FOR_SRP"}


@pytest.fixture
def client(idp, pool):
    return idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="app",
                                       ExplicitAuthFlows=FLOWS)["UserPoolClient"]


def admin_password_auth(idp, pool, client, username, password=PASSWORD):
    return idp.admin_initiate_auth(UserPoolId=pool["Id"], ClientId=client["ClientId"],
                                   AuthFlow="ADMIN_USER_PASSWORD_AUTH",
                                   AuthParameters={"USERNAME": username, "PASSWORD": password})


def srp_sign_in(idp, pool, client, username, password=PASSWORD):
    return srp_for(idp, pool["Id"], client, username, password).authenticate_user()["AuthenticationResult"]


def fail_with_password(idp, client, username, times):
    for _ in range(times):
        with cognito_error(*INCORRECT):
            password_auth(idp, client, username, WRONG)


def fail_with_srp(idp, pool, client, username, times):
    for _ in range(times):
        with cognito_error(*INCORRECT):
            srp_sign_in(idp, pool, client, username, WRONG)


def wait_until(moment):
    time.sleep(max(0.0, moment - time.monotonic()))


# --- lockout --------------------------------------------------------------------------------

def test_lockout_with_password_auth(idp, pool, client):
    victim, bystander = admin_user(idp, pool["Id"]), admin_user(idp, pool["Id"])
    fail_with_password(idp, client, victim, 5)
    locked_at = time.monotonic()

    with cognito_error(*LOCKED):
        password_auth(idp, client, victim)  # the right password, during the lockout
    assert sign_in(idp, client, bystander)["AccessToken"]  # the lockout is per user
    with cognito_error(*LOCKED):
        admin_password_auth(idp, pool, client, victim)

    wait_until(locked_at + 1.2)
    assert sign_in(idp, client, victim)["AccessToken"]


def test_wrong_password_during_lockout(idp, pool, client):
    victim = admin_user(idp, pool["Id"])
    fail_with_password(idp, client, victim, 5)
    with cognito_error(*LOCKED):
        password_auth(idp, client, victim, WRONG)
    with cognito_error(*LOCKED):
        srp_sign_in(idp, pool, client, victim, WRONG)


def test_lockout_with_srp(idp, pool, client):
    victim, bystander = admin_user(idp, pool["Id"]), admin_user(idp, pool["Id"])
    fail_with_srp(idp, pool, client, victim, 5)
    locked_at = time.monotonic()

    with cognito_error(*LOCKED):
        srp_sign_in(idp, pool, client, victim)
    with cognito_error(*LOCKED):
        password_auth(idp, client, victim)
    assert srp_sign_in(idp, pool, client, bystander)["AccessToken"]

    wait_until(locked_at + 1.2)
    assert srp_sign_in(idp, pool, client, victim)["AccessToken"]


def test_failures_of_all_flows_add_up(idp, pool, client):
    victim = admin_user(idp, pool["Id"])
    fail_with_password(idp, client, victim, 2)
    fail_with_srp(idp, pool, client, victim, 2)
    with cognito_error(*INCORRECT):
        admin_password_auth(idp, pool, client, victim, WRONG)
    locked_at = time.monotonic()
    with cognito_error(*LOCKED):
        admin_password_auth(idp, pool, client, victim)
    wait_until(locked_at + 1.2)
    assert admin_password_auth(idp, pool, client, victim)["AuthenticationResult"]["AccessToken"]


def test_success_resets_the_count(idp, pool, client):
    user = admin_user(idp, pool["Id"])
    for _ in range(3):
        fail_with_password(idp, client, user, 4)
        assert sign_in(idp, client, user)["AccessToken"]
    fail_with_srp(idp, pool, client, user, 4)
    assert srp_sign_in(idp, pool, client, user)["AccessToken"]


def test_lockout_doubles_with_further_failures(idp, pool, client):
    victim = admin_user(idp, pool["Id"])
    fail_with_password(idp, client, victim, 5)
    wait_until(time.monotonic() + 1.2)  # the 1 s lockout is over ...
    fail_with_password(idp, client, victim, 1)  # ... and the sixth failure is a plain failure
    sixth_at = time.monotonic()
    with cognito_error(*LOCKED):
        password_auth(idp, client, victim)
    wait_until(sixth_at + 1.25)  # past one second, not yet two
    with cognito_error(*LOCKED):
        password_auth(idp, client, victim)
    wait_until(sixth_at + 2.3)
    assert sign_in(idp, client, victim)["AccessToken"]


def test_right_and_wrong_passwords_at_once(server, idp, pool, client):
    """A right password settles without the user's lock, a wrong one under it: sent at once, each
    gets the answer it would get alone (four failures lock nobody out), and the state after them
    is one the attempts could have left in some order: a success then clears the count."""
    victim = admin_user(idp, pool["Id"])

    def attempt(idp, index):
        if index % 2 == 0:
            assert password_auth(idp, client, victim)["AuthenticationResult"]["AccessToken"]
        else:
            password_auth(idp, client, victim, WRONG)

    results = run_concurrently(server, 8, attempt)
    assert results[0::2] == [(200, None)] * 4
    assert results[1::2] == [(400, "NotAuthorizedException")] * 4
    assert sign_in(idp, client, victim)["AccessToken"]  # clears whatever count was left
    fail_with_password(idp, client, victim, 4)
    assert sign_in(idp, client, victim)["AccessToken"]  # four failures since: no lockout
    fail_with_password(idp, client, victim, 5)
    with cognito_error(*LOCKED):
        password_auth(idp, client, victim)


# --- PreventUserExistenceErrors -------------------------------------------------------------

@pytest.fixture
def hiding(idp, pool):
    return idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="hiding", ExplicitAuthFlows=FLOWS,
                                       PreventUserExistenceErrors="ENABLED")["UserPoolClient"]


@pytest.fixture
def legacy(idp, pool):
    return idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="legacy", ExplicitAuthFlows=FLOWS,
                                       PreventUserExistenceErrors="LEGACY")["UserPoolClient"]


def test_setting_is_described(idp, pool, client, hiding, legacy):
    def setting(c):
        return idp.describe_user_pool_client(UserPoolId=pool["Id"], ClientId=c["ClientId"])["UserPoolClient"].get(
            "PreventUserExistenceErrors")
    assert (setting(hiding), setting(legacy)) == ("ENABLED", "LEGACY")
    assert setting(client) in (None, "LEGACY")  # the API default is LEGACY


def test_password_auth_for_unknown_users(idp, pool, client, hiding, legacy):
    nobody = unique("nobody")
    with cognito_error(*INCORRECT):
        password_auth(idp, hiding, nobody)
    with cognito_error(*INCORRECT):
        admin_password_auth(idp, pool, hiding, nobody)
    with cognito_error(*NOT_FOUND):
        password_auth(idp, legacy, nobody)
    with cognito_error(*NOT_FOUND):
        admin_password_auth(idp, pool, legacy, nobody)
    with cognito_error("UserNotFoundException"):
        password_auth(idp, client, nobody)  # default: LEGACY
    # A real user's wrong password looks the same as an unknown user through `hiding`.
    with cognito_error(*INCORRECT):
        password_auth(idp, hiding, admin_user(idp, pool["Id"]), WRONG)


def test_srp_decoy_for_unknown_users(idp, pool, hiding):
    real = admin_user(idp, pool["Id"])
    _, real_challenge = srp_start(idp, srp_for(idp, pool["Id"], hiding, real))
    nobody = unique("nobody")

    exchanges = [srp_for(idp, pool["Id"], hiding, nobody) for _ in range(2)]
    decoys = [srp_start(idp, srp) for srp in exchanges]
    for _, decoy in decoys:
        assert decoy["ChallengeName"] == "PASSWORD_VERIFIER"
        assert set(decoy) - {"ResponseMetadata"} == set(real_challenge) - {"ResponseMetadata"}
        parameters = decoy["ChallengeParameters"]
        assert set(parameters) == set(real_challenge["ChallengeParameters"]) == VERIFIER_PARAMETERS
        assert parameters["USERNAME"] == parameters["USER_ID_FOR_SRP"] == nobody
        assert re.fullmatch(r"[0-9a-f]+", parameters["SALT"]) and re.fullmatch(r"[0-9a-f]+", parameters["SRP_B"])
        assert 0 < int(parameters["SRP_B"], 16) < exchanges[0].big_n
    first, second = (d["ChallengeParameters"] for _, d in decoys)
    # Stable per name (a real user's salt is), fresh B and block each time.
    assert first["SALT"] == second["SALT"]
    assert first["SRP_B"] != second["SRP_B"] and first["SECRET_BLOCK"] != second["SECRET_BLOCK"]
    _, other = srp_start(idp, srp_for(idp, pool["Id"], hiding, unique("nobody")))
    assert other["ChallengeParameters"]["SALT"] != first["SALT"]

    # The decoy fails at the verifier, like a wrong password.
    for srp, (params, decoy) in zip(exchanges, decoys):
        with cognito_error(*INCORRECT):
            srp_respond(idp, srp, srp.process_challenge(decoy["ChallengeParameters"], params))


def test_srp_decoy_salt_is_the_same_for_every_client(idp, pool, hiding):
    """A real user's salt is the same whichever client asks; so must a decoy's be."""
    other = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="hiding-too", ExplicitAuthFlows=FLOWS,
                                        PreventUserExistenceErrors="ENABLED")["UserPoolClient"]
    nobody = unique("nobody")
    salts = {srp_start(idp, srp_for(idp, pool["Id"], c, nobody))[1]["ChallengeParameters"]["SALT"]
             for c in (hiding, other)}
    assert len(salts) == 1


def test_srp_decoy_with_admin_initiate_auth(idp, pool, hiding, legacy):
    nobody = unique("nobody")
    srp = srp_for(idp, pool["Id"], hiding, nobody)
    params, decoy = srp_start(idp, srp, admin=True)
    assert set(decoy["ChallengeParameters"]) == VERIFIER_PARAMETERS
    with cognito_error(*INCORRECT):
        srp_respond(idp, srp, srp.process_challenge(decoy["ChallengeParameters"], params), admin=True)
    with cognito_error(*NOT_FOUND):
        srp_start(idp, srp_for(idp, pool["Id"], legacy, nobody), admin=True)


def test_srp_for_unknown_users_with_legacy(idp, pool, client, legacy):
    for c in (legacy, client):
        with cognito_error(*NOT_FOUND):
            srp_start(idp, srp_for(idp, pool["Id"], c, unique("nobody")))


def test_srp_decoy_with_a_client_secret(idp, pool):
    confidential = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="confidential", GenerateSecret=True,
                                               ExplicitAuthFlows=FLOWS,
                                               PreventUserExistenceErrors="ENABLED")["UserPoolClient"]
    nobody = unique("nobody")
    with cognito_error(*INCORRECT):
        srp_for(idp, pool["Id"], confidential, nobody).authenticate_user()
    # The secret hash is checked before anything about the user.
    with cognito_error("NotAuthorizedException", f"Unable to verify secret hash for client {confidential['ClientId']}"):
        srp_for(idp, pool["Id"], confidential, nobody, secret="not-the-secret-of-this-client").authenticate_user()


def test_srp_decoy_in_an_email_as_username_pool(idp):
    pool = idp.create_user_pool(PoolName=unique("emailpool"), UsernameAttributes=["email"])["UserPool"]
    hiding = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="hiding", ExplicitAuthFlows=FLOWS,
                                         PreventUserExistenceErrors="ENABLED")["UserPoolClient"]
    real = email_for(unique("real"))
    admin_user(idp, pool["Id"], real)
    _, real_challenge = srp_start(idp, srp_for(idp, pool["Id"], hiding, real))
    assert uuid.UUID(real_challenge["ChallengeParameters"]["USER_ID_FOR_SRP"])

    _, decoy = srp_start(idp, srp_for(idp, pool["Id"], hiding, email_for(unique("nobody"))))
    parameters = decoy["ChallengeParameters"]
    assert parameters["USERNAME"] == parameters["USER_ID_FOR_SRP"]
    assert uuid.UUID(parameters["USER_ID_FOR_SRP"])  # shaped like a real internal username


def test_confirm_sign_up_for_unknown_users(idp, hiding, legacy):
    nobody = unique("nobody")
    with cognito_error("CodeMismatchException", "Invalid verification code provided, please try again."):
        idp.confirm_sign_up(ClientId=hiding["ClientId"], Username=nobody, ConfirmationCode="123456")
    with cognito_error(*NOT_FOUND):
        idp.confirm_sign_up(ClientId=legacy["ClientId"], Username=nobody, ConfirmationCode="123456")


def test_confirm_sign_up_wrong_code_looks_the_same_for_real_users(idp, hiding):
    username = unique()
    sign_up(idp, hiding, username)
    with cognito_error("CodeMismatchException", "Invalid verification code provided, please try again."):
        idp.confirm_sign_up(ClientId=hiding["ClientId"], Username=username, ConfirmationCode="000000")


def test_resend_confirmation_code_for_unknown_users(server, idp, pool, hiding, legacy):
    before = len(server.outbox(pool["Id"]))
    nobody_email = email_for(unique("nobody"))
    details = idp.resend_confirmation_code(ClientId=hiding["ClientId"], Username=nobody_email)["CodeDeliveryDetails"]
    assert details["DeliveryMedium"] == "EMAIL" and details["AttributeName"] == "email"
    assert re.fullmatch(r".\*\*\*@.\*\*\*", details["Destination"]), details
    # A real unconfirmed user gets the same shape of answer.
    real = unique()
    sign_up(idp, hiding, real)
    real_details = idp.resend_confirmation_code(ClientId=hiding["ClientId"], Username=real)["CodeDeliveryDetails"]
    assert set(real_details) == set(details)
    # Nothing was sent for the unknown user.
    assert len(server.outbox(pool["Id"])) == before + 2  # the real user's sign-up and resent codes
    assert messages(server, pool["Id"], destination=nobody_email) == []

    with cognito_error(*NOT_FOUND):
        idp.resend_confirmation_code(ClientId=legacy["ClientId"], Username=nobody_email)


def test_unconfirmed_user_is_revealed_only_by_the_right_password(idp, pool, hiding):
    username = unique()
    sign_up(idp, hiding, username)
    with cognito_error(*INCORRECT):
        password_auth(idp, hiding, username, WRONG)
    with cognito_error(*INCORRECT):
        srp_sign_in(idp, pool, hiding, username, WRONG)
    with cognito_error("UserNotConfirmedException"):
        password_auth(idp, hiding, username)
    with cognito_error("UserNotConfirmedException"):
        srp_sign_in(idp, pool, hiding, username)
