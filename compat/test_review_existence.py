"""Regression tests of the security review (issue 9, item 5): with PreventUserExistenceErrors
ENABLED, a name that is no user is indistinguishable from a real user in every answer —
unknown names are locked out and rate limited exactly like real users, and code guesses are
counted the same way; the state of users who exist is told as Cognito tells it (a confirmed
user, a used code), or hidden too when the pool opts in (cognate:HideExistingUsers). (Equal *work* on
both paths is by construction — see docs/security.md; `bench/existence_timing.py` measures it.)
"""
import time

import pytest

from helpers import (
    ATTEMPT_LIMIT, CODE_MISMATCH, PASSWORD, USER_FLOWS, admin_user, cognito_error, confirmed_user, email_for,
    password_auth, sign_up, srp_for, unique,
)

WRONG = "Wr0ng-password!"
INCORRECT = ("NotAuthorizedException", "Incorrect username or password.")
LOCKED = ("NotAuthorizedException", "Password attempts exceeded")
FLOWS = USER_FLOWS + ["ALLOW_ADMIN_USER_PASSWORD_AUTH"]


@pytest.fixture
def hiding(idp, pool):
    return idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="hiding", ExplicitAuthFlows=FLOWS,
                                       PreventUserExistenceErrors="ENABLED")["UserPoolClient"]


def answers(call):
    """The error code and message `call` fails with, or "ok"."""
    try:
        call()
        return "ok"
    except Exception as error:  # botocore ClientError
        return (error.response["Error"]["Code"], error.response["Error"]["Message"])


def test_lockout_answers_are_the_same_for_unknown_names(idp, pool, hiding):
    real = admin_user(idp, pool["Id"])
    nobody = unique("nobody")
    sequences = []
    for name in (real, nobody):
        sequences.append([answers(lambda: password_auth(idp, hiding, name, WRONG)) for _ in range(6)])
    assert sequences[0] == sequences[1]
    assert sequences[0][:5] == [INCORRECT] * 5 and sequences[0][5] == LOCKED


def test_srp_failures_count_towards_the_same_lockout_for_unknown_names(idp, pool, hiding):
    nobody = unique("nobody")
    for _ in range(5):
        with cognito_error(*INCORRECT):
            srp_for(idp, pool["Id"], hiding, nobody, WRONG).authenticate_user()
    with cognito_error(*LOCKED):
        password_auth(idp, hiding, nobody, WRONG)  # the two flows share the count, as for real users
    time.sleep(1.1)
    with cognito_error(*INCORRECT):
        srp_for(idp, pool["Id"], hiding, nobody, WRONG).authenticate_user()


def test_confirming_a_confirmed_user_answers_as_cognito_does(server, idp, pool, hiding):
    """Cognito hides users who do not exist, not the state of users who do: a confirmed user
    gets NotAuthorizedException, an unknown name a wrong code's answer."""
    username, _, _ = confirmed_user(server, idp, pool, hiding)
    assert answers(lambda: idp.confirm_sign_up(ClientId=hiding["ClientId"], Username=username, ConfirmationCode="123456")) \
        == ("NotAuthorizedException", "User cannot be confirmed. Current status is CONFIRMED")
    assert answers(lambda: idp.confirm_sign_up(ClientId=hiding["ClientId"], Username=unique("nobody"),
                                               ConfirmationCode="123456")) == ("CodeMismatchException", CODE_MISMATCH)


def test_a_used_reset_code_answers_expired_as_in_cognito(server, idp, pool, hiding):
    username, email, _ = confirmed_user(server, idp, pool, hiding)
    idp.forgot_password(ClientId=hiding["ClientId"], Username=username)
    code = server.last_code(pool["Id"], email)
    idp.confirm_forgot_password(ClientId=hiding["ClientId"], Username=username, ConfirmationCode=code,
                                Password="N3w-Passw0rd!")
    assert answers(lambda: idp.confirm_forgot_password(ClientId=hiding["ClientId"], Username=username,
                                                       ConfirmationCode=code, Password="N3w-Passw0rd!2")) \
        == ("ExpiredCodeException", "Invalid code provided, please request a code again.")


@pytest.mark.fixed_window(3600)
def test_hiding_existing_users_too_is_a_pool_s_explicit_choice(server, idp):
    """The stricter answer (Cognate's own, off by default): with the pool tag
    cognate:HideExistingUsers=true, a confirmed user and a used code look like a wrong code, so
    nothing tells a confirmed user from an unknown name."""
    pool = idp.create_user_pool(PoolName=unique("hiding"), AutoVerifiedAttributes=["email"],
                                UserPoolTags={"cognate:HideExistingUsers": "true"})["UserPool"]
    client = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="hiding", ExplicitAuthFlows=FLOWS,
                                         PreventUserExistenceErrors="ENABLED")["UserPoolClient"]
    username, email, _ = confirmed_user(server, idp, pool, client)
    nobody = unique("nobody")
    for name in (username, nobody):
        results = [answers(lambda: idp.confirm_sign_up(ClientId=client["ClientId"], Username=name,
                                                       ConfirmationCode="123456")) for _ in range(6)]
        assert results == [("CodeMismatchException", CODE_MISMATCH)] * 5 + [("LimitExceededException", ATTEMPT_LIMIT)]
    other, other_email, _ = confirmed_user(server, idp, pool, client)
    idp.forgot_password(ClientId=client["ClientId"], Username=other)
    code = server.last_code(pool["Id"], other_email)
    idp.confirm_forgot_password(ClientId=client["ClientId"], Username=other, ConfirmationCode=code, Password="N3w-Passw0rd!")
    assert answers(lambda: idp.confirm_forgot_password(ClientId=client["ClientId"], Username=other, ConfirmationCode=code,
                                                       Password="N3w-Passw0rd!2")) == ("CodeMismatchException", CODE_MISMATCH)


def test_wrong_codes_of_an_unconfirmed_user_look_like_an_unknown_name(idp, hiding):
    username = unique()
    sign_up(idp, hiding, username)
    nobody = unique("nobody")
    sequences = [[answers(lambda: idp.confirm_sign_up(ClientId=hiding["ClientId"], Username=name,
                                                      ConfirmationCode="000000")) for _ in range(6)]
                 for name in (username, nobody)]
    assert sequences[0] == sequences[1]


def test_resending_to_a_confirmed_user_answers_like_a_delivery(server, idp, pool, hiding):
    username, email, _ = confirmed_user(server, idp, pool, hiding)
    before = len(server.outbox(pool["Id"]))
    details = idp.resend_confirmation_code(ClientId=hiding["ClientId"], Username=username)["CodeDeliveryDetails"]
    assert set(details) == {"Destination", "DeliveryMedium", "AttributeName"}
    assert len(server.outbox(pool["Id"])) == before  # nothing was sent


@pytest.mark.fixed_window(3600)
def test_hourly_code_limits_hold_for_unknown_names(idp, pool, hiding):
    real = unique()
    sign_up(idp, hiding, real)
    nobody = unique("nobody")
    for name in (real, nobody):
        results = [answers(lambda: idp.resend_confirmation_code(ClientId=hiding["ClientId"], Username=name))
                   for _ in range(6)]
        assert results == ["ok"] * 5 + [("LimitExceededException", ATTEMPT_LIMIT)], name
    for name in (admin_user(idp, pool["Id"], attributes=[("email", email_for(unique())), ("email_verified", "true")]),
                 unique("nobody")):
        results = [answers(lambda: idp.forgot_password(ClientId=hiding["ClientId"], Username=name)) for _ in range(6)]
        assert results == ["ok"] * 5 + [("LimitExceededException", ATTEMPT_LIMIT)], name


def test_forgot_password_for_users_who_get_no_code_answers_like_a_delivery(server, idp, pool, hiding):
    without_contact = admin_user(idp, pool["Id"])
    disabled = admin_user(idp, pool["Id"], attributes=[("email", email_for(unique())), ("email_verified", "true")])
    idp.admin_disable_user(UserPoolId=pool["Id"], Username=disabled)
    for name in (without_contact, disabled, unique("nobody")):
        details = idp.forgot_password(ClientId=hiding["ClientId"], Username=name)["CodeDeliveryDetails"]
        assert set(details) == {"Destination", "DeliveryMedium", "AttributeName"}, name


def test_simulated_destinations_are_stable_and_vary_by_name(idp, hiding):
    first = idp.forgot_password(ClientId=hiding["ClientId"], Username="nobody-a")["CodeDeliveryDetails"]
    again = idp.forgot_password(ClientId=hiding["ClientId"], Username="nobody-a")["CodeDeliveryDetails"]
    assert first == again
    masks = {idp.forgot_password(ClientId=hiding["ClientId"], Username=f"zz-{i}")["CodeDeliveryDetails"]["Destination"]
             for i in range(12)}
    assert len(masks) > 1  # not one telltale domain for every unknown name


def test_one_name_gets_one_destination_from_both_code_requests(server, idp, pool, hiding):
    """ForgotPassword and ResendConfirmationCode each send to a real user in some states and
    not in others: a real user must be shown one address by both (an unknown name gets one
    decoy from both), or the pair tells which names exist. And a decoy's first letter is not
    always the typed name's, which a real address starting otherwise would give away."""
    confirmed, _, _ = confirmed_user(server, idp, pool, hiding)
    unconfirmed = unique()
    sign_up(idp, hiding, unconfirmed)
    disabled = admin_user(idp, pool["Id"], attributes=[("email", email_for(unique())), ("email_verified", "true")])
    idp.admin_disable_user(UserPoolId=pool["Id"], Username=disabled)
    for name in (confirmed, unconfirmed, disabled, unique("nobody")):
        forgot = idp.forgot_password(ClientId=hiding["ClientId"], Username=name)["CodeDeliveryDetails"]
        resent = idp.resend_confirmation_code(ClientId=hiding["ClientId"], Username=name)["CodeDeliveryDetails"]
        assert forgot == resent, name
    letters = {idp.forgot_password(ClientId=hiding["ClientId"], Username=f"zz-{i}")["CodeDeliveryDetails"]["Destination"][0]
               for i in range(12)}
    assert letters != {"z"}, letters


def test_legacy_clients_still_answer_as_cognito_does(server, idp, pool):
    legacy = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="legacy", ExplicitAuthFlows=FLOWS,
                                         PreventUserExistenceErrors="LEGACY")["UserPoolClient"]
    username, _, _ = confirmed_user(server, idp, pool, legacy)
    with cognito_error("NotAuthorizedException", "User cannot be confirmed. Current status is CONFIRMED"):
        idp.confirm_sign_up(ClientId=legacy["ClientId"], Username=username, ConfirmationCode="123456")
    with cognito_error("InvalidParameterException", "User is already confirmed."):
        idp.resend_confirmation_code(ClientId=legacy["ClientId"], Username=username)
