"""Several `cognate serve` nodes on one PostgreSQL database act as one service (issue 5 item 4),
and the operational surface of a PostgreSQL deployment (item 5).

Nodes A and B share a database and a public URL, as behind a load balancer; every test sends
the steps of one flow to different nodes. They run with --config-cache-seconds 1 (a pool or
client change made on another node applies within that bound, and the change feed applies it
within a second), --key-refresh-seconds 1, and rotate keys with --activation-seconds 2 (a rotated
key is published by every node within a second and signs two seconds after the rotation).

Needs PostgreSQL: run under `Scripts/with-postgres`; COGNATE_SKIP_POSTGRES=1 skips the module.
"""
import re
import time
import urllib.parse

import pyotp
import pytest
import requests
from botocore.exceptions import ClientError

from conftest import BINARY
from helpers import (
    PASSWORD, USER_FLOWS, admin_user, cognito_error, email_for, password_auth, refresh, sign_in, sign_up,
    srp_for, srp_respond, srp_start, unique,
)
from multinode import (
    CuttableProxy, Node, PostgresDatabase, eventually, kid_of, kids, node_jwks, postgres_url, run,
    run_on_nodes, skip_without_postgres, start_nodes, stop_nodes, verify_on, with_port,
)

pytestmark = skip_without_postgres

CONFIG_CACHE_SECONDS = 1
KEY_REFRESH_SECONDS = 1
KEY_ACTIVATION_SECONDS = 2
FAST = ["--config-cache-seconds", str(CONFIG_CACHE_SECONDS), "--key-refresh-seconds", str(KEY_REFRESH_SECONDS)]
SLACK = 3  # seconds allowed on top of a documented bound (a loaded two-core machine)


WRONG = "Wr0ng-password!"
INCORRECT = ("NotAuthorizedException", "Incorrect username or password.")
LOCKED = ("NotAuthorizedException", "Password attempts exceeded")
CODE_MISMATCH = ("CodeMismatchException", "Invalid verification code provided, please try again.")
ATTEMPT_LIMIT = ("LimitExceededException", "Attempt limit exceeded, please try after some time.")
ACCESS_REVOKED = ("NotAuthorizedException", "Access Token has been revoked")
REFRESH_REVOKED = ("NotAuthorizedException", "Refresh Token has been revoked")


# --- fixtures -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def pg():
    return postgres_url()


@pytest.fixture(scope="module")
def database(pg):
    db = PostgresDatabase(pg).create()
    yield db
    db.drop()


@pytest.fixture(scope="module")
def nodes(database, tmp_path_factory):
    started = start_nodes(tmp_path_factory.mktemp("nodes"), database.url, 2, FAST)
    yield started
    stop_nodes(started)


@pytest.fixture(scope="module")
def a(nodes):
    return nodes[0]


@pytest.fixture(scope="module")
def b(nodes):
    return nodes[1]


@pytest.fixture(scope="module")
def idp_a(a):
    return a.client()


@pytest.fixture(scope="module")
def idp_b(b):
    return b.client()


@pytest.fixture
def pool(idp_a):
    return idp_a.create_user_pool(PoolName=unique("multinode"), AutoVerifiedAttributes=["email"])["UserPool"]


@pytest.fixture
def client(idp_a, pool):
    return idp_a.create_user_pool_client(UserPoolId=pool["Id"], ClientName="app",
                                         ExplicitAuthFlows=USER_FLOWS)["UserPoolClient"]


@pytest.fixture
def fresh_database(pg):
    """A database of the test's own (not migrated)."""
    db = PostgresDatabase(pg).create()
    yield db
    db.drop()


def code_for(node, pool_id, email):
    """The newest code sent to `email`, read from `node`'s outbox (the outbox is in the database)."""
    found = [m for m in node.outbox(pool_id) if m["destination"] == email]
    assert found, f"no message to {email} in the outbox as {node} shows it"
    return found[-1]["code"]


def wrong(code):
    return f"{(int(code) + 1) % 1_000_000:06d}"


def get_user(idp, access_token):
    return idp.get_user(AccessToken=access_token)


# --- one user's life across the nodes -------------------------------------------------------

def test_sign_up_on_a_confirm_on_b_sign_in_on_a_refresh_on_b(a, b, idp_a, idp_b, pool, client):
    username = unique()
    email = email_for(username)
    sub = sign_up(idp_a, client, username)["UserSub"]

    # Both nodes show the message (the dev outbox is in the shared database).
    code = code_for(b, pool["Id"], email)
    assert code == code_for(a, pool["Id"], email)
    idp_b.confirm_sign_up(ClientId=client["ClientId"], Username=username, ConfirmationCode=code)
    assert idp_a.admin_get_user(UserPoolId=pool["Id"], Username=username)["UserStatus"] == "CONFIRMED"

    tokens = sign_in(idp_a, client, username)
    refreshed = refresh(idp_b, client, tokens["RefreshToken"])
    assert "RefreshToken" not in refreshed

    for access in (tokens["AccessToken"], refreshed["AccessToken"]):
        for idp in (idp_a, idp_b):
            user = get_user(idp, access)
            assert user["Username"] == username
            assert {"Name": "sub", "Value": sub} in user["UserAttributes"]
    for node in (a, b):
        claims = verify_on(node, pool["Id"], refreshed["IdToken"], "id", client["ClientId"])
        assert claims["sub"] == sub and claims["cognito:username"] == username

    # The refresh token keeps working on the node that issued it.
    assert refresh(idp_a, client, tokens["RefreshToken"])["AccessToken"]


def test_signing_keys_are_shared(a, b, idp_a, idp_b, pool, client):
    username = admin_user(idp_a, pool["Id"])
    assert node_jwks(a, pool["Id"]) == node_jwks(b, pool["Id"])
    from_a, from_b = sign_in(idp_a, client, username), sign_in(idp_b, client, username)
    assert kid_of(from_a["AccessToken"]) == kid_of(from_b["AccessToken"])
    for tokens in (from_a, from_b):
        for node in (a, b):
            verify_on(node, pool["Id"], tokens["AccessToken"], "access", client["ClientId"])
            verify_on(node, pool["Id"], tokens["IdToken"], "id", client["ClientId"])
    assert get_user(idp_b, from_a["AccessToken"])["Username"] == username
    assert get_user(idp_a, from_b["AccessToken"])["Username"] == username


def test_parallel_refreshes_on_both_nodes(a, b, idp_a, pool, client):
    username = admin_user(idp_a, pool["Id"])
    token = sign_in(idp_a, client, username)["RefreshToken"]
    outcomes = run_on_nodes([a, b], 10, lambda idp, _: refresh(idp, client, token))
    assert outcomes == [(200, None)] * 10


# --- configuration changes ------------------------------------------------------------------

def test_client_change_on_a_applies_on_b_within_the_cache_bound(idp_a, idp_b, pool, client):
    username = admin_user(idp_a, pool["Id"])
    assert sign_in(idp_b, client, username)["AccessToken"]  # B has the client in its cache now

    idp_a.update_user_pool_client(UserPoolId=pool["Id"], ClientId=client["ClientId"], ClientName="app",
                                  ExplicitAuthFlows=["ALLOW_REFRESH_TOKEN_AUTH", "ALLOW_USER_SRP_AUTH"])
    with cognito_error("InvalidParameterException", "USER_PASSWORD_AUTH flow not enabled for this client"):
        password_auth(idp_a, client, username)  # the node that made the change applies it at once

    def refused_on_b():
        with cognito_error("InvalidParameterException", "USER_PASSWORD_AUTH flow not enabled for this client"):
            password_auth(idp_b, client, username)
        return True

    eventually(refused_on_b, CONFIG_CACHE_SECONDS + SLACK, what="USER_PASSWORD_AUTH refused on B")
    # Once applied it stays applied (B does not flap back to a stale copy).
    for _ in range(5):
        refused_on_b()


def test_password_policy_change_on_a_applies_on_b_within_the_cache_bound(idp_a, idp_b, pool, client):
    short = "Sh0rt-pw!"  # 9 characters, fine for the default policy (8)
    sign_up(idp_b, client, unique(), short)  # B has the pool in its cache now

    idp_a.update_user_pool(UserPoolId=pool["Id"], AutoVerifiedAttributes=["email"], Policies={"PasswordPolicy": {
        "MinimumLength": 12, "RequireUppercase": True, "RequireLowercase": True, "RequireNumbers": True,
        "RequireSymbols": True}})
    with cognito_error("InvalidPasswordException", contains="Password did not conform with policy"):
        sign_up(idp_a, client, unique(), short)

    def refused_on_b():
        with cognito_error("InvalidPasswordException", contains="Password did not conform with policy"):
            sign_up(idp_b, client, unique(), short)
        return True

    eventually(refused_on_b, CONFIG_CACHE_SECONDS + SLACK, what="the new password policy on B")
    assert sign_up(idp_b, client, unique(), "Long-enough-Passw0rd!")["UserSub"]


STALE_CACHE_SECONDS = 3
NOT_FOUND = (400, "ResourceNotFoundException")


@pytest.fixture(scope="module")
def stale_nodes(pg, tmp_path_factory):
    """Nodes of their own for the deletion tests (which make the server log faults), with a
    three-second configuration cache so the stale window is wide enough to probe."""
    db = PostgresDatabase(pg).create()
    started = start_nodes(tmp_path_factory.mktemp("stale"), db.url, 2,
                          ["--config-cache-seconds", str(STALE_CACHE_SECONDS)])
    yield started
    stop_nodes(started, check_faults=False)
    db.drop()


def outcomes_until(call, expected, within):
    """Calls `call()` every 0.1 s until it fails with `expected` (status, code) or `within` seconds
    pass; returns every outcome, (200, None) for a success."""
    outcomes = []
    deadline = time.monotonic() + within
    while True:
        try:
            call()
            outcomes.append((200, None))
        except ClientError as e:
            outcomes.append((e.response["ResponseMetadata"]["HTTPStatusCode"], e.response["Error"]["Code"]))
        if outcomes[-1] == expected or time.monotonic() > deadline:
            return outcomes
        time.sleep(0.1)


def test_deleted_client_is_refused_on_b_within_the_cache_bound_without_errors(stale_nodes):
    a, b = stale_nodes
    idp_a, idp_b = a.client(), b.client()
    pool = idp_a.create_user_pool(PoolName=unique("stale"))["UserPool"]
    client = idp_a.create_user_pool_client(UserPoolId=pool["Id"], ClientName="app",
                                           ExplicitAuthFlows=USER_FLOWS)["UserPoolClient"]
    username = admin_user(idp_a, pool["Id"])
    assert sign_in(idp_b, client, username)["AccessToken"]  # B has the client in its cache now
    idp_a.delete_user_pool_client(UserPoolId=pool["Id"], ClientId=client["ClientId"])
    with cognito_error("ResourceNotFoundException"):
        password_auth(idp_a, client, username)

    # While its copy is stale B may still accept the client, but it must never fail with a 5xx.
    srp = outcomes_until(lambda: srp_for(idp_b, pool["Id"], client, username).authenticate_user(), NOT_FOUND,
                         STALE_CACHE_SECONDS + SLACK)
    password = outcomes_until(lambda: password_auth(idp_b, client, username), NOT_FOUND,
                              STALE_CACHE_SECONDS + SLACK)
    for outcomes in (srp, password):
        assert all(o in ((200, None), NOT_FOUND) for o in outcomes), outcomes
        assert outcomes[-1] == NOT_FOUND, outcomes


def test_deleted_pool_is_refused_on_b_within_the_cache_bound_without_errors(stale_nodes):
    a, b = stale_nodes
    idp_a, idp_b = a.client(), b.client()
    pool = idp_a.create_user_pool(PoolName=unique("stale"))["UserPool"]
    client = idp_a.create_user_pool_client(UserPoolId=pool["Id"], ClientName="app",
                                           ExplicitAuthFlows=USER_FLOWS)["UserPoolClient"]
    sign_up(idp_b, client, unique())  # B has the pool and client in its cache now
    idp_a.delete_user_pool(UserPoolId=pool["Id"])
    with cognito_error("ResourceNotFoundException"):
        sign_up(idp_a, client, unique())

    outcomes = outcomes_until(lambda: sign_up(idp_b, client, unique()), NOT_FOUND, STALE_CACHE_SECONDS + SLACK)
    assert all(o in ((200, None), NOT_FOUND) for o in outcomes), outcomes
    assert outcomes[-1] == NOT_FOUND, outcomes


# --- races and counters across nodes --------------------------------------------------------

def test_concurrent_sign_ups_of_one_username_on_both_nodes(a, b, idp_a, idp_b, pool, client):
    for _ in range(3):
        username = unique()
        outcomes = run_on_nodes([a, b], 10, lambda idp, i: sign_up(
            idp, client, username, email=f"{username}-{i}@example.com"))
        assert outcomes.count((200, None)) == 1, outcomes
        assert outcomes.count((400, "UsernameExistsException")) == 9, outcomes
        views = [idp.admin_get_user(UserPoolId=pool["Id"], Username=username) for idp in (idp_a, idp_b)]
        assert views[0]["UserAttributes"] == views[1]["UserAttributes"]
        listed = idp_b.list_users(UserPoolId=pool["Id"], Filter=f'username = "{username}"')["Users"]
        assert len(listed) == 1


def test_a_taken_username_is_refused_whichever_way_the_second_user_comes(a, idp_a, idp_b, pool, client):
    """On PostgreSQL a new user's rows (user, attributes, code, outbox message) go out as one
    statement at the end of the write: a taken name must still answer UsernameExistsException
    and leave nothing of the refused attempt behind."""
    username = unique()
    sign_up(idp_a, client, username)
    with cognito_error("UsernameExistsException"):
        idp_b.admin_create_user(UserPoolId=pool["Id"], Username=username, MessageAction="SUPPRESS",
                                UserAttributes=[{"Name": "email", "Value": "second@example.com"}])
    with cognito_error("UsernameExistsException"):
        sign_up(idp_b, client, username, email="third@example.com")
    user = idp_b.admin_get_user(UserPoolId=pool["Id"], Username=username)
    assert {x["Name"]: x["Value"] for x in user["UserAttributes"]}["email"] == email_for(username)
    sent = {m["destination"] for m in a.outbox(pool["Id"])}
    assert email_for(username) in sent
    assert not {"second@example.com", "third@example.com"} & sent


def test_lockout_holds_across_nodes(idp_a, idp_b, pool, client):
    victim = admin_user(idp_a, pool["Id"])
    for idp in (idp_a, idp_b, idp_a, idp_b, idp_a):
        with cognito_error(*INCORRECT):
            password_auth(idp, client, victim, WRONG)
    locked_at = time.monotonic()
    with cognito_error(*LOCKED):
        password_auth(idp_b, client, victim)  # the right password, on the other node
    with cognito_error(*LOCKED):
        password_auth(idp_a, client, victim)
    time.sleep(max(0.0, locked_at + 1.3 - time.monotonic()))  # the first lockout lasts one second
    assert sign_in(idp_b, client, victim)["AccessToken"]


def test_failures_with_both_flows_on_both_nodes_add_up(idp_a, idp_b, pool, client):
    victim = admin_user(idp_a, pool["Id"])
    for idp in (idp_a, idp_b):
        with cognito_error(*INCORRECT):
            srp_for(idp, pool["Id"], client, victim, WRONG).authenticate_user()
    for idp in (idp_b, idp_a, idp_b):
        with cognito_error(*INCORRECT):
            password_auth(idp, client, victim, WRONG)
    with cognito_error(*LOCKED):
        srp_for(idp_a, pool["Id"], client, victim).authenticate_user()


def test_right_and_wrong_passwords_at_once_on_both_nodes(a, b, idp_a, idp_b, pool, client):
    """Right passwords settle without the user's lock (a conditional insert under a share lock),
    wrong ones under it: four of each at once, on both nodes, each answer is the one it would be
    alone (four failures lock nobody out), and afterwards a success clears the count, so four
    more failures still lock nobody out and a fifth does."""
    for _ in range(3):
        victim = admin_user(idp_a, pool["Id"])

        def attempt(idp, index):
            password_auth(idp, client, victim, PASSWORD if index % 4 < 2 else WRONG)

        outcomes = run_on_nodes([a, b], 8, attempt)
        assert [outcomes[i] for i in (0, 1, 4, 5)] == [(200, None)] * 4, outcomes
        assert [outcomes[i] for i in (2, 3, 6, 7)] == [(400, "NotAuthorizedException")] * 4, outcomes
        assert sign_in(idp_b, client, victim)["AccessToken"]
        for idp in (idp_a, idp_b, idp_a, idp_b):
            with cognito_error(*INCORRECT):
                password_auth(idp, client, victim, WRONG)
        assert sign_in(idp_a, client, victim)["AccessToken"]
        for idp in (idp_b, idp_a, idp_b, idp_a, idp_b):
            with cognito_error(*INCORRECT):
                password_auth(idp, client, victim, WRONG)
        with cognito_error(*LOCKED):
            password_auth(idp_a, client, victim)


def test_concurrent_wrong_passwords_on_both_nodes_are_all_counted(a, b, idp_a, idp_b, pool, client):
    """Bursts of ten wrong passwords at once, half on each node, on fresh users: every failure
    counts, so the first five answer "Incorrect…", the rest find the user locked out (when the
    burst is over within the one-second lockout), and the right password right after is refused."""
    for _ in range(6):
        victim = admin_user(idp_a, pool["Id"])
        messages = []

        def wrong_password(idp, _):
            try:
                password_auth(idp, client, victim, WRONG)
            except ClientError as e:
                messages.append(e.response["Error"]["Message"])
                raise

        began = time.monotonic()
        outcomes = run_on_nodes([a, b], 10, wrong_password)
        took = time.monotonic() - began
        assert outcomes == [(400, "NotAuthorizedException")] * 10, outcomes
        assert messages.count(INCORRECT[1]) >= 5, messages
        if took < 0.9:  # every attempt fell within the first lockout
            assert messages.count(INCORRECT[1]) == 5, messages
        for idp in (idp_b, idp_a):
            try:
                password_auth(idp, client, victim)
                outcome = "signed in"
            except ClientError as e:
                outcome = (e.response["Error"]["Code"], e.response["Error"]["Message"])
            assert outcome == LOCKED, f"the right password after a burst of 10 wrong ones: {outcome}"


def test_wrong_codes_spread_over_both_nodes_kill_the_code(a, idp_a, idp_b, pool, client):
    username = unique()
    sign_up(idp_a, client, username)
    code = code_for(a, pool["Id"], email_for(username))
    for idp in (idp_a, idp_b, idp_a, idp_b, idp_b):
        with cognito_error(*CODE_MISMATCH):
            idp.confirm_sign_up(ClientId=client["ClientId"], Username=username, ConfirmationCode=wrong(code))
    for idp in (idp_a, idp_b):
        with cognito_error(*ATTEMPT_LIMIT):
            idp.confirm_sign_up(ClientId=client["ClientId"], Username=username, ConfirmationCode=code)
    assert idp_b.admin_get_user(UserPoolId=pool["Id"], Username=username)["UserStatus"] == "UNCONFIRMED"


def test_concurrent_wrong_codes_on_both_nodes_are_all_counted(a, b, idp_a, pool, client):
    username = unique()
    sign_up(idp_a, client, username)
    code = code_for(b, pool["Id"], email_for(username))
    outcomes = run_on_nodes([a, b], 20, lambda idp, _: idp.confirm_sign_up(
        ClientId=client["ClientId"], Username=username, ConfirmationCode=wrong(code)))
    assert outcomes.count((400, "CodeMismatchException")) == 5, outcomes
    assert outcomes.count((400, "LimitExceededException")) == 15, outcomes
    with cognito_error(*ATTEMPT_LIMIT):
        idp_a.confirm_sign_up(ClientId=client["ClientId"], Username=username, ConfirmationCode=code)


def test_concurrent_confirmations_of_one_code_on_both_nodes(a, b, idp_a, pool, client):
    username = unique()
    sign_up(idp_a, client, username)
    code = code_for(a, pool["Id"], email_for(username))
    outcomes = run_on_nodes([a, b], 10, lambda idp, _: idp.confirm_sign_up(
        ClientId=client["ClientId"], Username=username, ConfirmationCode=code))
    assert outcomes.count((200, None)) == 1, outcomes
    assert {error for _, error in outcomes if error} <= {
        "NotAuthorizedException", "ExpiredCodeException", "CodeMismatchException"}, outcomes
    assert idp_a.admin_get_user(UserPoolId=pool["Id"], Username=username)["UserStatus"] == "CONFIRMED"


# --- challenges that span nodes -------------------------------------------------------------

def test_srp_started_on_a_finishes_on_b(a, b, idp_a, idp_b, pool, client):
    username = admin_user(idp_a, pool["Id"])
    srp = srp_for(idp_a, pool["Id"], client, username)
    params, started = srp_start(idp_a, srp)
    assert started["ChallengeName"] == "PASSWORD_VERIFIER"
    answer = srp.process_challenge(started["ChallengeParameters"], params)
    result = srp_respond(idp_b, srp, answer, session=started.get("Session"))["AuthenticationResult"]
    assert verify_on(a, pool["Id"], result["AccessToken"], "access", client["ClientId"])["username"] == username
    assert get_user(idp_a, result["AccessToken"])["Username"] == username
    # The answer was used up on B, so A refuses it.
    with cognito_error("NotAuthorizedException"):
        srp_respond(idp_a, srp, answer, session=started.get("Session"))


def test_srp_answer_replayed_on_both_nodes_at_once_signs_in_once(a, b, idp_a, pool, client):
    username = admin_user(idp_a, pool["Id"])
    srp = srp_for(idp_a, pool["Id"], client, username)
    params, started = srp_start(idp_a, srp)
    answer = srp.process_challenge(started["ChallengeParameters"], params)
    outcomes = run_on_nodes([a, b], 8, lambda idp, _: srp_respond(idp, srp, answer, session=started.get("Session")))
    assert outcomes.count((200, None)) == 1, outcomes
    assert outcomes.count((400, "NotAuthorizedException")) == 7, outcomes


def test_srp_with_a_wrong_password_started_on_b_fails_on_a(idp_a, idp_b, pool, client):
    username = admin_user(idp_a, pool["Id"])
    srp = srp_for(idp_b, pool["Id"], client, username, WRONG)
    params, started = srp_start(idp_b, srp)
    answer = srp.process_challenge(started["ChallengeParameters"], params)
    with cognito_error(*INCORRECT):
        srp_respond(idp_a, srp, answer, session=started.get("Session"))


def test_new_password_challenge_started_on_a_answered_on_b(idp_a, idp_b, pool, client):
    username = unique()
    idp_a.admin_create_user(UserPoolId=pool["Id"], Username=username, TemporaryPassword="Temp-0rary!",
                            MessageAction="SUPPRESS")
    challenge = password_auth(idp_a, client, username, "Temp-0rary!")
    assert challenge["ChallengeName"] == "NEW_PASSWORD_REQUIRED"
    answered = idp_b.respond_to_auth_challenge(
        ClientId=client["ClientId"], ChallengeName="NEW_PASSWORD_REQUIRED", Session=challenge["Session"],
        ChallengeResponses={"USERNAME": username, "NEW_PASSWORD": "Brand-new-0ne!"})
    assert get_user(idp_a, answered["AuthenticationResult"]["AccessToken"])["Username"] == username
    assert idp_a.admin_get_user(UserPoolId=pool["Id"], Username=username)["UserStatus"] == "CONFIRMED"
    # The session is used up, on either node.
    with cognito_error("NotAuthorizedException"):
        idp_a.respond_to_auth_challenge(
            ClientId=client["ClientId"], ChallengeName="NEW_PASSWORD_REQUIRED", Session=challenge["Session"],
            ChallengeResponses={"USERNAME": username, "NEW_PASSWORD": "An0ther-one!"})
    assert sign_in(idp_a, client, username, "Brand-new-0ne!")["AccessToken"]
    with cognito_error(*INCORRECT):
        password_auth(idp_b, client, username, "Temp-0rary!")


# --- revocation -----------------------------------------------------------------------------

# GetUser on PostgreSQL answers from a node's cache of users, which the database's notice of a
# change made on another node clears as the change commits (milliseconds; Cognito itself takes
# about 0.6 s to apply a GlobalSignOut). The node that made the change answers from it at once.
NOTICE_BOUND = 1  # seconds


def test_global_sign_out_on_a_revokes_on_b(idp_a, idp_b, pool, client):
    username = admin_user(idp_a, pool["Id"])
    tokens = sign_in(idp_b, client, username)
    assert get_user(idp_b, tokens["AccessToken"])["Username"] == username
    idp_a.global_sign_out(AccessToken=tokens["AccessToken"])
    with cognito_error(*ACCESS_REVOKED):
        get_user(idp_a, tokens["AccessToken"])

    def revoked_on_b():
        with cognito_error(*ACCESS_REVOKED):
            get_user(idp_b, tokens["AccessToken"])
        return True
    _, seconds = eventually(revoked_on_b, within=NOTICE_BOUND, interval=0.005, what="revoked on B")
    print(f"GlobalSignOut on A reached GetUser on B after {seconds * 1000:.1f} ms")
    for idp in (idp_b, idp_a):
        with cognito_error(*REFRESH_REVOKED):
            refresh(idp, client, tokens["RefreshToken"])
    assert sign_in(idp_b, client, username)["AccessToken"]  # signing in again still works


def test_mfa_changes_on_a_reach_get_user_on_b(idp_a, idp_b, pool, client):
    idp_a.set_user_pool_mfa_config(UserPoolId=pool["Id"], SoftwareTokenMfaConfiguration={"Enabled": True},
                                   MfaConfiguration="OPTIONAL")
    username = admin_user(idp_a, pool["Id"])
    access = sign_in(idp_a, client, username)["AccessToken"]
    assert "UserMFASettingList" not in get_user(idp_b, access)   # B keeps the user without MFA settings
    secret = idp_a.associate_software_token(AccessToken=access)["SecretCode"]
    assert idp_a.verify_software_token(AccessToken=access, UserCode=pyotp.TOTP(secret).now())["Status"] == "SUCCESS"
    idp_a.set_user_mfa_preference(AccessToken=access, SoftwareTokenMfaSettings={"Enabled": True, "PreferredMfa": True})
    assert get_user(idp_a, access)["UserMFASettingList"] == ["SOFTWARE_TOKEN_MFA"]

    def on_b(expected):
        user = get_user(idp_b, access)
        return user.get("UserMFASettingList") == expected and user.get("PreferredMfaSetting") == (expected or [None])[0]
    eventually(lambda: on_b(["SOFTWARE_TOKEN_MFA"]), within=NOTICE_BOUND, interval=0.005, what="the factor on B")
    idp_a.set_user_mfa_preference(AccessToken=access, SoftwareTokenMfaSettings={"Enabled": False})
    eventually(lambda: on_b(None), within=NOTICE_BOUND, interval=0.005, what="the factor turned off, on B")


def test_attribute_changes_on_a_reach_get_user_on_b(idp_a, idp_b, pool, client):
    username = admin_user(idp_a, pool["Id"])
    tokens = sign_in(idp_a, client, username)
    for round in range(5):
        before = get_user(idp_b, tokens["AccessToken"])["UserAttributes"]   # B keeps the user
        name = f"Name {round} \u00e9\u4e16"
        assert {"Name": "name", "Value": name} not in before
        idp_a.update_user_attributes(AccessToken=tokens["AccessToken"], UserAttributes=[{"Name": "name", "Value": name}])
        assert {"Name": "name", "Value": name} in get_user(idp_a, tokens["AccessToken"])["UserAttributes"]
        eventually(lambda: {"Name": "name", "Value": name} in get_user(idp_b, tokens["AccessToken"])["UserAttributes"],
                   within=NOTICE_BOUND, interval=0.005, what="the new name on B")
    # A user deleted on A is gone on B.
    get_user(idp_b, tokens["AccessToken"])
    idp_a.admin_delete_user(UserPoolId=pool["Id"], Username=username)

    def gone_on_b():
        with cognito_error("UserNotFoundException"):
            get_user(idp_b, tokens["AccessToken"])
        return True
    eventually(gone_on_b, within=NOTICE_BOUND, interval=0.005, what="the deletion on B")


def test_admin_disable_on_a_applies_on_b(idp_a, idp_b, pool, client):
    username = admin_user(idp_a, pool["Id"])
    tokens = sign_in(idp_b, client, username)
    idp_a.admin_disable_user(UserPoolId=pool["Id"], Username=username)
    with cognito_error("NotAuthorizedException", "User is disabled."):
        password_auth(idp_b, client, username)
    with cognito_error("NotAuthorizedException"):
        refresh(idp_b, client, tokens["RefreshToken"])
    with cognito_error("NotAuthorizedException"):
        get_user(idp_b, tokens["AccessToken"])


# --- signing key rotation -------------------------------------------------------------------

def test_key_rotation_keeps_unexpired_tokens_valid(pg, tmp_path):
    db = PostgresDatabase(pg).create()
    started = []
    try:
        # C reloads keys only when a token names one it does not know.
        started += start_nodes(tmp_path, db.url, 2, FAST)
        started.append(Node(tmp_path, db.url, ["--key-refresh-seconds", "3600"], name="C").start())
        a, b, c = started
        idp_a, idp_b, idp_c = a.client(), b.client(), c.client()
        pool = idp_a.create_user_pool(PoolName=unique("rotation"))["UserPool"]
        client = idp_a.create_user_pool_client(UserPoolId=pool["Id"], ClientName="app",
                                               ExplicitAuthFlows=USER_FLOWS)["UserPoolClient"]
        username = admin_user(idp_a, pool["Id"])
        old = sign_in(idp_a, client, username)
        [old_kid] = kids(a, pool["Id"])
        assert kids(b, pool["Id"]) == [old_kid] and kid_of(old["AccessToken"]) == old_kid

        before = time.monotonic()
        rotated = db.cognate("keys", "rotate", "--activation-seconds", str(KEY_ACTIVATION_SECONDS))
        fresh = sign_in(idp_b, client, username)
        if time.monotonic() - before < KEY_ACTIVATION_SECONDS - 0.5:
            assert kid_of(fresh["AccessToken"]) == old_kid, "the new key signed before its activation delay"

        # The new key is published by A and B within their key refresh interval, beside the old one.
        def both_published():
            listed = [kids(node, pool["Id"]) for node in (a, b)]
            return len(listed[0]) == 2 and listed[0] == listed[1] and old_kid in listed[0] and listed
        listed, _ = eventually(both_published, KEY_REFRESH_SECONDS + SLACK, what="the new key published")
        new_kid = next(k for k in listed[0] if k != old_kid)
        assert listed[0] == [new_kid, old_kid]  # newest first
        assert new_kid in rotated.stdout, rotated.stdout
        assert node_jwks(a, pool["Id"]) == node_jwks(b, pool["Id"])

        # After the activation delay new tokens on A and B carry the new kid.
        def signs_with_new_key():
            return all(kid_of(sign_in(idp, client, username)["AccessToken"]) == new_kid for idp in (idp_a, idp_b))
        eventually(signs_with_new_key, KEY_ACTIVATION_SECONDS + SLACK, what="the new key signing")
        new = sign_in(idp_a, client, username)
        assert kid_of(new["IdToken"]) == new_kid

        # Tokens from before the rotation still work everywhere, and verify against both JWKS.
        for tokens in (old, fresh):
            for idp in (idp_a, idp_b, idp_c):
                assert get_user(idp, tokens["AccessToken"])["Username"] == username
            for node in (a, b):
                verify_on(node, pool["Id"], tokens["IdToken"], "id", client["ClientId"])
                verify_on(node, pool["Id"], tokens["AccessToken"], "access", client["ClientId"])
        refreshed = refresh(idp_b, client, old["RefreshToken"])
        assert kid_of(refreshed["AccessToken"]) == new_kid

        # C has not reloaded on its own; a token with the new kid makes it (at most once per 5 s).
        time.sleep(max(0.0, c.started_at + 5.5 - time.monotonic()))
        assert get_user(idp_c, new["AccessToken"])["Username"] == username
        assert new_kid in kids(c, pool["Id"])
        for node in (a, b):
            verify_on(node, pool["Id"], new["AccessToken"], "access", client["ClientId"])
    finally:
        stop_nodes(started)
        db.drop()


# --- operations -----------------------------------------------------------------------------

def test_health_and_ready(a, b):
    for node in (a, b):
        for path in ("/health", "/ready"):
            r = requests.get(node.endpoint + path, timeout=10)
            assert r.status_code == 200, (node, path, r.text)
        assert requests.get(node.endpoint + "/ready", timeout=10).json()["status"] == "ready"


def test_ready_follows_the_database(pg, database, tmp_path):
    """A node whose database goes away stays alive (/health) but is not ready (/ready 503)
    until the database is back; the password in the URL stays out of the answer."""
    parts = urllib.parse.urlsplit(database.url)
    proxy = CuttableProxy(parts.hostname, parts.port).start()
    url = with_port(database.url.replace("cognate@", "cognate:pr0xy-secret@"), proxy.port)
    node = Node(tmp_path, url, FAST, name="proxied")
    try:
        node.start()
        assert requests.get(node.endpoint + "/ready", timeout=10).status_code == 200
        proxy.cut()

        def not_ready():  # within a probe's few seconds: the answer comes after 2 s at most
            r = requests.get(node.endpoint + "/ready", timeout=4)
            return r.status_code == 503 and r.text
        (answer, _) = eventually(not_ready, 20, interval=0.5, what="/ready 503 with the database gone")
        assert "pr0xy-secret" not in answer
        assert requests.get(node.endpoint + "/health", timeout=10).status_code == 200
        assert node.process.poll() is None

        proxy.restore()
        eventually(lambda: requests.get(node.endpoint + "/ready", timeout=30).status_code == 200, 20, interval=0.5,
                   what="/ready 200 with the database back")
        assert node.client().list_user_pools(MaxResults=10)["UserPools"] is not None
    finally:
        proxy.cut()
        stop_nodes([node], check_faults=False)


def serve_once(database_url, timeout=60):
    """Runs `cognate serve` expecting it to exit; returns (returncode, output)."""
    result = run([BINARY, "serve", "--port", "0", "--database", database_url], timeout=timeout, check=False)
    return result.returncode, result.stdout + result.stderr


def test_unreachable_database_is_a_clear_start_up_error():
    code, output = serve_once("postgres://cognate@127.0.0.1:1/cognate")
    assert code != 0, output
    assert output.splitlines() == ["Error: Cannot connect to PostgreSQL at 127.0.0.1:1: connection refused (for 10 s); is "
                                   "PostgreSQL running there? (from --database; --database or COGNATE_DATABASE sets it)."], output


def test_start_up_error_does_not_print_the_database_password():
    code, output = serve_once("postgres://cognate:hunter2-secret@127.0.0.1:1/cognate")
    assert code != 0, output
    assert "Cannot connect to PostgreSQL" in output, output
    assert "hunter2-secret" not in output, output


def test_migrate_on_an_up_to_date_database(database, nodes):
    versions = database.sql("SELECT version FROM schema_migrations ORDER BY version").split()
    result = database.cognate("migrate")
    assert re.search(r"up to date \(version (\d+)\)", result.stdout), result.stdout
    assert re.search(r"version (\d+)", result.stdout).group(1) == versions[-1]
    assert database.sql("SELECT version FROM schema_migrations ORDER BY version").split() == versions


def test_migrate_on_an_empty_database(fresh_database):
    result = fresh_database.cognate("migrate")
    assert "Applied migrations" in result.stdout, result.stdout
    versions = fresh_database.sql("SELECT version FROM schema_migrations ORDER BY version").split()
    assert versions and versions == sorted(set(versions), key=int)
    assert f"version {versions[-1]}" in result.stdout


def test_newer_schema_is_refused(fresh_database):
    fresh_database.cognate("migrate")
    fresh_database.sql("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'from the future', 0)")
    code, output = serve_once(fresh_database.url)
    assert code != 0, output
    assert "999" in output and "newer" in output, output
    migrate = fresh_database.cognate("migrate", check=False)
    assert migrate.returncode != 0 and "999" in migrate.stdout + migrate.stderr, migrate
    # Nothing was changed: the marker is still there.
    assert "999" in fresh_database.sql("SELECT version FROM schema_migrations").split()


def test_nodes_starting_at_once_on_an_empty_database(fresh_database, tmp_path):
    """Migrations are applied once when three nodes start together on an empty database, and
    once their key refresh has run (see the next test for before) they serve as one."""
    started = []
    try:
        started = start_nodes(tmp_path, fresh_database.url, 3, FAST, names="PQR", at_once=True)
        versions = fresh_database.sql("SELECT version FROM schema_migrations ORDER BY version").split()
        assert versions and len(versions) == len(set(versions)), versions
        assert f"version {versions[-1]}" in fresh_database.cognate("migrate").stdout
        p, q, r = started
        idp_p, idp_q, idp_r = p.client(), q.client(), r.client()
        pool = idp_p.create_user_pool(PoolName=unique("race"), AutoVerifiedAttributes=["email"])["UserPool"]
        client = idp_q.create_user_pool_client(UserPoolId=pool["Id"], ClientName="app",
                                               ExplicitAuthFlows=USER_FLOWS)["UserPoolClient"]
        eventually(lambda: node_jwks(p, pool["Id"]) == node_jwks(q, pool["Id"]) == node_jwks(r, pool["Id"]),
                   KEY_REFRESH_SECONDS + SLACK, what="identical JWKS")

        username = unique()
        sign_up(idp_r, client, username)
        idp_p.confirm_sign_up(ClientId=client["ClientId"], Username=username,
                              ConfirmationCode=code_for(q, pool["Id"], email_for(username)))
        tokens = sign_in(idp_q, client, username)
        assert refresh(idp_p, client, tokens["RefreshToken"])["AccessToken"]
        for node in started:
            token = sign_in(node.client(), client, username)["AccessToken"]
            for other in started:
                verify_on(other, pool["Id"], token, "access", client["ClientId"])
                assert get_user(other.client(), token)["Username"] == username
    finally:
        stop_nodes(started)


def test_nodes_starting_at_once_share_one_signing_key_from_the_start(pg, tmp_path):
    for attempt in range(3):
        db = PostgresDatabase(pg).create()
        started = []
        try:
            started = start_nodes(tmp_path / str(attempt), db.url, 3, FAST, names="PQR", at_once=True)
            idp = started[0].client()
            pool = idp.create_user_pool(PoolName=unique("race"))["UserPool"]
            client = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="app",
                                                 ExplicitAuthFlows=USER_FLOWS)["UserPoolClient"]
            username = admin_user(idp, pool["Id"])
            published = {node.name: kids(node, pool["Id"]) for node in started}
            assert len({tuple(k) for k in published.values()}) == 1, f"JWKS differ right after start: {published}"
            for node in started:
                token = sign_in(node.client(), client, username)["AccessToken"]
                for other in started:
                    try:
                        other.client().get_user(AccessToken=token)
                        outcome = "accepted"
                    except ClientError as e:
                        outcome = e.response["Error"]["Message"]
                    assert outcome == "accepted", f"a token from {node} on {other}: {outcome}"
        finally:
            stop_nodes(started, check_faults=False)
            db.drop()
