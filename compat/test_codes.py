"""Confirmation code rules: mismatches, attempt limits, resends, storage and restarts."""
import re

import pytest

from helpers import USER_FLOWS, cognito_error, email_for, run_concurrently, sign_up, unique

MISMATCH = "Invalid verification code provided, please try again."
LIMIT = "Attempt limit exceeded, please try after some time."
EXPIRED = "Invalid code provided, please request a code again."


def new_user(idp, client):
    username = unique()
    sign_up(idp, client, username)
    return username, email_for(username)


def wrong(code):
    """A six-digit code different from `code`."""
    return f"{(int(code) + 1) % 1_000_000:06d}"


def confirm(idp, client, username, code):
    return idp.confirm_sign_up(ClientId=client["ClientId"], Username=username, ConfirmationCode=code)


def status(idp, pool, username):
    return idp.admin_get_user(UserPoolId=pool["Id"], Username=username)["UserStatus"]


def test_code_shape(server, idp, pool, app_client):
    username, email = new_user(idp, app_client)
    [message] = [m for m in server.outbox(pool["Id"]) if m["destination"] == email]
    assert re.fullmatch(r"\d{6}", message["code"])
    assert message["code"] in message["body"]
    assert message["username"] == username
    assert message["poolId"] == pool["Id"]


def test_wrong_code_is_a_mismatch(server, idp, pool, app_client):
    username, email = new_user(idp, app_client)
    code = server.last_code(pool["Id"], email)
    with cognito_error("CodeMismatchException", MISMATCH):
        confirm(idp, app_client, username, wrong(code))
    assert status(idp, pool, username) == "UNCONFIRMED"
    confirm(idp, app_client, username, code)    # a few wrong guesses do not kill the code
    assert status(idp, pool, username) == "CONFIRMED"


def test_five_wrong_codes_kill_the_code(server, idp, pool, app_client):
    username, email = new_user(idp, app_client)
    code = server.last_code(pool["Id"], email)
    for _ in range(5):
        with cognito_error("CodeMismatchException", MISMATCH):
            confirm(idp, app_client, username, wrong(code))
    with cognito_error("LimitExceededException", LIMIT):
        confirm(idp, app_client, username, code)
    assert status(idp, pool, username) == "UNCONFIRMED"

    # A new code within the hour does not renew the guesses (they stay at five per hour,
    # however many codes are requested): it is dead too.
    idp.resend_confirmation_code(ClientId=app_client["ClientId"], Username=username)
    with cognito_error("LimitExceededException", LIMIT):
        confirm(idp, app_client, username, server.last_code(pool["Id"], email))
    assert status(idp, pool, username) == "UNCONFIRMED"


def test_resend_replaces_the_code(server, idp, pool, app_client):
    username, email = new_user(idp, app_client)
    old = server.last_code(pool["Id"], email)
    details = idp.resend_confirmation_code(ClientId=app_client["ClientId"], Username=username)["CodeDeliveryDetails"]
    assert details == {"Destination": f"{username[0]}***@e***", "DeliveryMedium": "EMAIL", "AttributeName": "email"}
    messages = [m for m in server.outbox(pool["Id"]) if m["destination"] == email]
    assert len(messages) == 2
    new = messages[-1]["code"]
    if new != old:   # one chance in a million that the random codes coincide
        with cognito_error("ExpiredCodeException", EXPIRED):  # superseded, as Cognito answers
            confirm(idp, app_client, username, old)
    confirm(idp, app_client, username, new)
    assert status(idp, pool, username) == "CONFIRMED"


def test_used_code_cannot_confirm_again(server, idp, pool, app_client):
    username, email = new_user(idp, app_client)
    code = server.last_code(pool["Id"], email)
    confirm(idp, app_client, username, code)
    with cognito_error("NotAuthorizedException", "User cannot be confirmed. Current status is CONFIRMED"):
        confirm(idp, app_client, username, code)
    with cognito_error("InvalidParameterException"):
        idp.resend_confirmation_code(ClientId=app_client["ClientId"], Username=username)


def test_unknown_user_legacy(idp, app_client):
    with cognito_error("UserNotFoundException", "User does not exist."):
        confirm(idp, app_client, unique("nobody"), "123456")
    with cognito_error("UserNotFoundException", "User does not exist."):
        idp.resend_confirmation_code(ClientId=app_client["ClientId"], Username=unique("nobody"))


def test_unknown_user_with_prevent_user_existence_errors(idp, pool):
    client = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="hiding", ExplicitAuthFlows=USER_FLOWS,
                                         PreventUserExistenceErrors="ENABLED")["UserPoolClient"]
    with cognito_error("CodeMismatchException", MISMATCH):
        confirm(idp, client, unique("nobody"), "123456")
    details = idp.resend_confirmation_code(ClientId=client["ClientId"], Username=email_for(unique("nobody")))
    assert details["CodeDeliveryDetails"]["DeliveryMedium"] == "EMAIL"


@pytest.mark.fixed_window(3600)
def test_resend_limit(server, idp, pool, app_client):
    username, email = new_user(idp, app_client)
    for _ in range(5):
        idp.resend_confirmation_code(ClientId=app_client["ClientId"], Username=username)
    with cognito_error("LimitExceededException", LIMIT):
        idp.resend_confirmation_code(ClientId=app_client["ClientId"], Username=username)
    assert len([m for m in server.outbox(pool["Id"]) if m["destination"] == email]) == 6
    # The last code delivered is still good.
    confirm(idp, app_client, username, server.last_code(pool["Id"], email))
    assert status(idp, pool, username) == "CONFIRMED"


def test_resend_limit_is_per_user(server, idp, pool, app_client):
    first, _ = new_user(idp, app_client)
    second, _ = new_user(idp, app_client)
    for _ in range(5):
        idp.resend_confirmation_code(ClientId=app_client["ClientId"], Username=first)
    idp.resend_confirmation_code(ClientId=app_client["ClientId"], Username=second)


def test_codes_are_stored_hashed(server, idp, pool, app_client):
    usernames = [new_user(idp, app_client)[0] for _ in range(3)]
    codes = {m["code"] for m in server.outbox(pool["Id"]) if m["username"] in usernames}
    # Codes name their user by its internal number; the users table knows the pool.
    rows = server.rows("(SELECT c.*, u.pool_id FROM codes c JOIN users u ON u.number = c.user_number) AS codes",
                       pool_id=pool["Id"])
    assert len(rows) == 3
    for row in rows:
        assert re.fullmatch(r"[0-9a-f]{64}|[A-Za-z0-9+/=_-]{32,}", row["code_hash"]), row["code_hash"]
        # Text columns only: timestamps are numbers and could contain any six digits by chance.
        texts = [value for value in row.values() if isinstance(value, str)]
        for code in codes:
            assert all(code not in text for text in texts), f"code {code} stored in clear: {row}"


def test_code_survives_restart(server, idp, pool, app_client):
    username, email = new_user(idp, app_client)
    code = server.last_code(pool["Id"], email)
    with cognito_error("CodeMismatchException"):
        confirm(idp, app_client, username, wrong(code))
    server.restart()
    assert server.last_code(pool["Id"], email) == code
    confirm(idp, app_client, username, code)
    assert status(idp, pool, username) == "CONFIRMED"


def test_failed_attempts_survive_restart(server, idp, pool, app_client):
    username, email = new_user(idp, app_client)
    code = server.last_code(pool["Id"], email)
    for _ in range(5):
        with cognito_error("CodeMismatchException"):
            confirm(idp, app_client, username, wrong(code))
    server.restart()
    with cognito_error("LimitExceededException", LIMIT):
        confirm(idp, app_client, username, code)


def test_concurrent_wrong_codes_are_all_counted(server, idp, pool, app_client):
    username, email = new_user(idp, app_client)
    code = server.last_code(pool["Id"], email)
    outcomes = run_concurrently(server, 20, lambda c, _: confirm(c, app_client, username, wrong(code)))
    assert all(status == 400 for status, _ in outcomes), outcomes
    assert outcomes.count((400, "CodeMismatchException")) == 5, outcomes
    assert outcomes.count((400, "LimitExceededException")) == 15, outcomes
    with cognito_error("LimitExceededException", LIMIT):
        confirm(idp, app_client, username, code)


@pytest.mark.fixed_window(3600)
def test_concurrent_resends_respect_the_limit(server, idp, pool, app_client):
    username, email = new_user(idp, app_client)
    outcomes = run_concurrently(server, 20, lambda c, _: c.resend_confirmation_code(
        ClientId=app_client["ClientId"], Username=username))
    assert outcomes.count((200, None)) == 5, outcomes
    assert outcomes.count((400, "LimitExceededException")) == 15, outcomes
    codes = [m["code"] for m in server.outbox(pool["Id"]) if m["destination"] == email]
    assert len(codes) == 6
    # Concurrent resends are delivered in any order, so the code stored last (the one that
    # confirms) is one of the newest messages, not always the newest: an earlier code is
    # refused as expired, any other as a mismatch.
    for code in reversed(codes[-3:]):
        try:
            confirm(idp, app_client, username, code)
            break
        except (idp.exceptions.ExpiredCodeException, idp.exceptions.CodeMismatchException):
            continue
    else:
        pytest.fail(f"none of the newest codes confirms: {codes}")
