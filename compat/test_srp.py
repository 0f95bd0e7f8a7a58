"""USER_SRP_AUTH against the real server with pycognito: its high-level Cognito object and its
low-level AWSSRP (protocol doc §3.3, §4.4, §4.5)."""
import base64
import datetime
import uuid

import pytest
from pycognito.exceptions import ForceChangePasswordException

from helpers import (
    PASSWORD, USER_FLOWS, admin_user, attributes_of, cognito_error, email_for, issuer, pycognito_user, srp_auth,
    srp_for, srp_respond, srp_start, unique, user_status, verify_token,
)

WRONG = "Wr0ng-password!"
INCORRECT = "Incorrect username or password."
WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


@pytest.fixture
def secret_client(idp, pool):
    return idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="confidential", GenerateSecret=True,
                                       ExplicitAuthFlows=USER_FLOWS)["UserPoolClient"]


@pytest.fixture
def user(idp, pool):
    return admin_user(idp, pool["Id"], attributes=[("email", "srp@example.com"), ("email_verified", "true")])


def flip_bit(b64):
    raw = bytearray(base64.b64decode(b64))
    raw[0] ^= 1
    return base64.b64encode(bytes(raw)).decode()


def rendered(moment):
    """Cognito's TIMESTAMP rendering (§4.5), independent of pycognito's."""
    return (f"{WEEKDAYS[moment.weekday()]} {MONTHS[moment.month - 1]} {moment.day} "
            f"{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d} UTC {moment.year}")


def claim_at(srp, params, challenge, timestamp):
    """The PASSWORD_VERIFIER answer pycognito computes, but correctly signed over `timestamp`."""
    srp.get_cognito_formatted_timestamp = lambda _now: timestamp
    return srp.process_challenge(challenge["ChallengeParameters"], params)


# --- the high-level client ------------------------------------------------------------------

def test_pycognito_authenticate_verify_refresh_and_get_user(server, idp, pool, app_client, user):
    cognito = pycognito_user(server, pool["Id"], app_client, user)
    cognito.authenticate(PASSWORD)
    cognito.verify_tokens()  # signature (JWKS under <endpoint>/<poolId>), iss, aud, token_use
    assert cognito.id_claims["cognito:username"] == user
    assert cognito.id_claims["iss"] == issuer(server, pool["Id"])
    assert cognito.access_claims["username"] == user
    assert cognito.access_claims["client_id"] == app_client["ClientId"]
    assert cognito.token_type == "Bearer"
    first_access, first_refresh = cognito.access_token, cognito.refresh_token
    assert first_refresh

    assert cognito.check_token(renew=False) is False  # not expired
    cognito.renew_access_token()  # REFRESH_TOKEN_AUTH
    assert cognito.access_token != first_access
    assert cognito.refresh_token == first_refresh
    cognito.verify_tokens()
    assert cognito.access_claims["origin_jti"] == verify_token(server, pool["Id"], first_access, "access",
                                                               app_client["ClientId"])["origin_jti"]

    me = cognito.get_user()
    assert me.username == user
    assert me.email == "srp@example.com"
    assert me.sub == cognito.id_claims["sub"]


def test_pycognito_with_client_secret(server, idp, pool, secret_client, user):
    cognito = pycognito_user(server, pool["Id"], secret_client, user)
    cognito.authenticate(PASSWORD)
    cognito.verify_tokens()
    assert cognito.id_claims["aud"] == secret_client["ClientId"]
    cognito.renew_access_token()  # SECRET_HASH over the (internal = given) username
    cognito.verify_tokens()


def test_pycognito_wrong_password(server, idp, pool, app_client, user):
    with cognito_error("NotAuthorizedException", INCORRECT):
        pycognito_user(server, pool["Id"], app_client, user).authenticate(WRONG)


def test_pycognito_new_password_challenge(server, idp, pool, app_client):
    username = unique()
    idp.admin_create_user(UserPoolId=pool["Id"], Username=username, TemporaryPassword="Temp-0rary!",
                          MessageAction="SUPPRESS")
    cognito = pycognito_user(server, pool["Id"], app_client, username)
    with pytest.raises(ForceChangePasswordException):
        cognito.authenticate("Temp-0rary!")
    assert user_status(idp, pool["Id"], username) == "FORCE_CHANGE_PASSWORD"
    assert cognito.access_token is None

    cognito.new_password_challenge("Temp-0rary!", "Brand-new-0ne!")
    cognito.verify_tokens()
    assert cognito.access_claims["username"] == username
    assert user_status(idp, pool["Id"], username) == "CONFIRMED"

    # The temporary password is gone; the new one signs in with SRP straight to tokens.
    with cognito_error("NotAuthorizedException", INCORRECT):
        pycognito_user(server, pool["Id"], app_client, username).authenticate("Temp-0rary!")
    again = pycognito_user(server, pool["Id"], app_client, username)
    again.authenticate("Brand-new-0ne!")
    again.verify_tokens()


# --- the low-level exchange -----------------------------------------------------------------

def test_challenge_shape(idp, pool, app_client, user):
    srp = srp_for(idp, pool["Id"], app_client, user)
    _, started = srp_start(idp, srp)
    assert started["ChallengeName"] == "PASSWORD_VERIFIER"
    assert "Session" not in started  # real Cognito sends none here (§3.1); state is in SECRET_BLOCK
    assert "AuthenticationResult" not in started
    parameters = started["ChallengeParameters"]
    assert set(parameters) == {"SALT", "SRP_B", "SECRET_BLOCK", "USERNAME", "USER_ID_FOR_SRP"}
    assert parameters["USERNAME"] == parameters["USER_ID_FOR_SRP"] == user
    # Hex without redundant leading zeros beyond PAD's (§4.2), B in [1, N).
    salt = parameters["SALT"]
    assert int(salt, 16) > 0 and salt == salt.lower()
    assert not salt.startswith("00") or salt[2] in "89abcdef"
    big_b = int(parameters["SRP_B"], 16)
    assert 0 < big_b < srp.big_n
    base64.b64decode(parameters["SECRET_BLOCK"], validate=True)
    # The salt is the user's: the same on the next exchange; B and the block are fresh.
    _, second = srp_start(idp, srp_for(idp, pool["Id"], app_client, user))
    assert second["ChallengeParameters"]["SALT"] == salt
    assert second["ChallengeParameters"]["SRP_B"] != parameters["SRP_B"]
    assert second["ChallengeParameters"]["SECRET_BLOCK"] != parameters["SECRET_BLOCK"]


def test_authenticate_user_without_secret(server, idp, pool, app_client, user):
    tokens = srp_for(idp, pool["Id"], app_client, user).authenticate_user()["AuthenticationResult"]
    claims = verify_token(server, pool["Id"], tokens["IdToken"], "id", app_client["ClientId"])
    assert claims["cognito:username"] == user
    assert verify_token(server, pool["Id"], tokens["AccessToken"], "access", app_client["ClientId"])["sub"] == \
        claims["sub"]
    assert tokens["RefreshToken"] and tokens["TokenType"] == "Bearer" and tokens["ExpiresIn"] == 3600


def test_authenticate_user_with_secret(server, idp, pool, secret_client, user):
    client_id = secret_client["ClientId"]
    tokens = srp_for(idp, pool["Id"], secret_client, user).authenticate_user()["AuthenticationResult"]
    assert verify_token(server, pool["Id"], tokens["AccessToken"], "access", client_id)["username"] == user

    with cognito_error("NotAuthorizedException",
                       f"Client {client_id} is configured with secret but SECRET_HASH was not received"):
        srp_for(idp, pool["Id"], secret_client, user, secret=False).authenticate_user()
    with cognito_error("NotAuthorizedException", f"Unable to verify secret hash for client {client_id}"):
        srp_for(idp, pool["Id"], secret_client, user, secret="not-the-secret-of-this-client").authenticate_user()

    # The second step needs SECRET_HASH too.
    srp = srp_for(idp, pool["Id"], secret_client, user)
    params, started = srp_start(idp, srp)
    answer = srp.process_challenge(started["ChallengeParameters"], params)
    del answer["SECRET_HASH"]
    with cognito_error("NotAuthorizedException"):
        srp_respond(idp, srp, answer)


def test_email_as_username_pool(server, idp):
    pool = idp.create_user_pool(PoolName=unique("emailpool"), UsernameAttributes=["email"])["UserPool"]
    for secret in (False, True):
        client = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="app", GenerateSecret=secret,
                                             ExplicitAuthFlows=USER_FLOWS)["UserPoolClient"]
        email = email_for(unique("mail"))
        admin_user(idp, pool["Id"], email)
        sub = attributes_of(idp.admin_get_user(UserPoolId=pool["Id"], Username=email))["sub"]

        srp = srp_for(idp, pool["Id"], client, email)
        params, started = srp_start(idp, srp)
        # USER_ID_FOR_SRP (the name in the verifier's x and the signature) is the internal
        # username, the sub; the client signs in with the email.
        assert started["ChallengeParameters"]["USER_ID_FOR_SRP"] == sub
        assert started["ChallengeParameters"]["USERNAME"] == sub
        assert uuid.UUID(sub)
        tokens = srp_respond(idp, srp, srp.process_challenge(started["ChallengeParameters"], params))
        claims = verify_token(server, pool["Id"], tokens["AuthenticationResult"]["IdToken"], "id", client["ClientId"])
        assert claims["cognito:username"] == sub
        assert claims["email"] == email

        cognito = pycognito_user(server, pool["Id"], client, email)
        cognito.authenticate(PASSWORD)
        assert cognito.access_claims["username"] == sub


def test_wrong_password(idp, pool, app_client, user):
    with cognito_error("NotAuthorizedException", INCORRECT):
        srp_for(idp, pool["Id"], app_client, user, WRONG).authenticate_user()


def test_password_claim_is_single_use(idp, pool, app_client, user):
    srp = srp_for(idp, pool["Id"], app_client, user)
    params, started = srp_start(idp, srp)
    answer = srp.process_challenge(started["ChallengeParameters"], params)
    assert "AuthenticationResult" in srp_respond(idp, srp, answer)
    with cognito_error("NotAuthorizedException"):
        srp_respond(idp, srp, answer)


def test_tampered_signature_fails_and_consumes_the_block(idp, pool, app_client, user):
    srp = srp_for(idp, pool["Id"], app_client, user)
    params, started = srp_start(idp, srp)
    answer = srp.process_challenge(started["ChallengeParameters"], params)
    with cognito_error("NotAuthorizedException", INCORRECT):
        srp_respond(idp, srp, {**answer, "PASSWORD_CLAIM_SIGNATURE": flip_bit(answer["PASSWORD_CLAIM_SIGNATURE"])})
    with cognito_error("NotAuthorizedException"):
        srp_respond(idp, srp, answer)


def test_tampered_secret_block_fails(idp, pool, app_client, user):
    srp = srp_for(idp, pool["Id"], app_client, user)
    params, started = srp_start(idp, srp)
    tampered = {**started["ChallengeParameters"],
                "SECRET_BLOCK": flip_bit(started["ChallengeParameters"]["SECRET_BLOCK"])}
    # Correctly signed over the tampered block: the block itself must be refused.
    with cognito_error("NotAuthorizedException"):
        srp_respond(idp, srp, srp.process_challenge(tampered, params))


def test_secret_block_is_bound_to_its_client(idp, pool, app_client, user):
    other = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="other",
                                        ExplicitAuthFlows=USER_FLOWS)["UserPoolClient"]
    srp = srp_for(idp, pool["Id"], app_client, user)
    params, started = srp_start(idp, srp)
    answer = srp.process_challenge(started["ChallengeParameters"], params)
    with cognito_error("NotAuthorizedException"):
        idp.respond_to_auth_challenge(ClientId=other["ClientId"], ChallengeName="PASSWORD_VERIFIER",
                                      ChallengeResponses=answer)


def test_secret_block_is_bound_to_its_user(idp, pool, app_client, user):
    """An answer naming another user (whose password the signer knows) does not pass."""
    other = admin_user(idp, pool["Id"])
    srp = srp_for(idp, pool["Id"], app_client, user)
    params, started = srp_start(idp, srp)
    forged = srp_for(idp, pool["Id"], app_client, other)
    forged.small_a_value, forged.large_a_value = srp.small_a_value, srp.large_a_value
    answer = forged.process_challenge({**started["ChallengeParameters"], "USERNAME": other, "USER_ID_FOR_SRP": other},
                                      params)
    with cognito_error("NotAuthorizedException"):
        srp_respond(idp, srp, answer)


def test_client_without_srp_flow(idp, pool, user):
    client = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="password-only",
                                         ExplicitAuthFlows=["ALLOW_USER_PASSWORD_AUTH"])["UserPoolClient"]
    with cognito_error("InvalidParameterException"):
        srp_for(idp, pool["Id"], client, user).authenticate_user()


def test_admin_initiate_auth_with_srp(server, idp, pool, app_client, user):
    srp = srp_for(idp, pool["Id"], app_client, user)
    params, started = srp_start(idp, srp, admin=True)
    assert started["ChallengeName"] == "PASSWORD_VERIFIER"
    assert started["ChallengeParameters"]["USER_ID_FOR_SRP"] == user
    result = srp_respond(idp, srp, srp.process_challenge(started["ChallengeParameters"], params), admin=True)
    claims = verify_token(server, pool["Id"], result["AuthenticationResult"]["AccessToken"], "access",
                          app_client["ClientId"])
    assert claims["username"] == user
    with cognito_error("NotAuthorizedException", INCORRECT):
        srp_auth(idp, srp_for(idp, pool["Id"], app_client, user, WRONG), admin=True)


# --- TIMESTAMP (§4.5) -----------------------------------------------------------------------

def test_timestamp_rendered_by_hand_is_accepted(idp, pool, app_client, user):
    srp = srp_for(idp, pool["Id"], app_client, user)
    params, started = srp_start(idp, srp)
    answer = claim_at(srp, params, started, rendered(datetime.datetime.now(datetime.timezone.utc)))
    assert "AuthenticationResult" in srp_respond(idp, srp, answer)


def test_timestamp_with_wrong_weekday_is_refused(idp, pool, app_client, user):
    now = datetime.datetime.now(datetime.timezone.utc)
    stamp = rendered(now)
    wrong_day = WEEKDAYS[(now.weekday() + 1) % 7] + stamp[3:]
    srp = srp_for(idp, pool["Id"], app_client, user)
    params, started = srp_start(idp, srp)
    with cognito_error("NotAuthorizedException", INCORRECT):
        srp_respond(idp, srp, claim_at(srp, params, started, wrong_day))


def test_timestamp_far_from_now_is_refused(idp, pool, app_client, user):
    srp = srp_for(idp, pool["Id"], app_client, user)
    params, started = srp_start(idp, srp)
    stale = rendered(datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=1))
    with cognito_error("NotAuthorizedException"):
        srp_respond(idp, srp, claim_at(srp, params, started, stale))


@pytest.mark.parametrize("timestamp", ["not a timestamp", "2026-11-03T04:05:06Z"])
def test_unparseable_timestamp(idp, pool, app_client, user, timestamp):
    srp = srp_for(idp, pool["Id"], app_client, user)
    params, started = srp_start(idp, srp)
    with cognito_error("InvalidParameterException", "TIMESTAMP format should be EEE MMM d HH:mm:ss z yyyy in english."):
        srp_respond(idp, srp, claim_at(srp, params, started, timestamp))


# --- statuses -------------------------------------------------------------------------------

def test_unconfirmed_user(idp, pool, app_client):
    username = unique()
    idp.sign_up(ClientId=app_client["ClientId"], Username=username, Password=PASSWORD,
                UserAttributes=[{"Name": "email", "Value": email_for(username)}])
    with cognito_error("UserNotConfirmedException", "User is not confirmed."):
        srp_for(idp, pool["Id"], app_client, username).authenticate_user()
    with cognito_error("NotAuthorizedException", INCORRECT):
        srp_for(idp, pool["Id"], app_client, username, WRONG).authenticate_user()
