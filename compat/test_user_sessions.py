"""User sessions through boto3: a pool that tracks sessions lists a user's token sessions across
app clients (with the device and address of their last activity), ends one of them (never the
caller's own), limits how many a user keeps (the least recently used goes first), and keeps the
pool's and clients' session configurations; a pool that does not track answers
OperationNotEnabledException."""
import re
import tempfile

import pytest

from conftest import CognateServer
from helpers import (PASSWORD, cognito_error, confirmed_user, new_client, refresh, sign_in, unique)


@pytest.fixture(scope="module")
def server():
    with tempfile.TemporaryDirectory(prefix="cognate-sessions-") as workdir:
        s = CognateServer(workdir, extra_args=["--client-address-header", "X-Forwarded-For"]).start()
        yield s
        s.stop()
        assert not s.faults(), "\n".join(s.faults()[:20])


def tracking_pool(idp, max_per_user=20):
    pool = idp.create_user_pool(PoolName=unique("sessions"), AutoVerifiedAttributes=["email"])["UserPool"]
    idp.set_user_pool_session_configuration(
        UserPoolId=pool["Id"], UserSessionTracking="ENABLED", TokenSession={"MaxPerUser": max_per_user})
    return pool, new_client(idp, pool["Id"])


def from_device(server, user_agent, address="198.51.100.40"):
    client = server.client()
    def headers(request, **_):
        request.headers["User-Agent"] = user_agent
        request.headers["X-Forwarded-For"] = address
    client.meta.events.register("before-sign.cognito-idp.*", headers)
    return client


def test_configurations_have_cognitos_defaults_and_round_trip(server, idp):
    pool = idp.create_user_pool(PoolName=unique("sessions"), AutoVerifiedAttributes=["email"])["UserPool"]
    client = new_client(idp, pool["Id"])
    config = idp.get_user_pool_session_configuration(UserPoolId=pool["Id"])
    assert config["UserSessionTracking"] == "DISABLED" and config["TokenSession"] == {"MaxPerUser": 20}
    assert idp.get_user_pool_client_session_configuration(
        UserPoolId=pool["Id"], ClientId=client["ClientId"])["SSOSession"] == {"MaxValidityMinutes": 60}
    with cognito_error("OperationNotEnabledException"):
        idp.set_user_pool_client_session_configuration(
            UserPoolId=pool["Id"], ClientId=client["ClientId"], SSOSession={"MaxValidityMinutes": 30})
    username, _, _ = confirmed_user(server, idp, pool, client)
    with cognito_error("OperationNotEnabledException"):
        idp.list_user_sessions(AccessToken=sign_in(idp, client, username)["AccessToken"])
    idp.set_user_pool_session_configuration(
        UserPoolId=pool["Id"], UserSessionTracking="ENABLED", TokenSession={"MaxPerUser": 5})
    config = idp.get_user_pool_session_configuration(UserPoolId=pool["Id"])
    assert config["UserSessionTracking"] == "ENABLED" and config["TokenSession"] == {"MaxPerUser": 5}
    idp.set_user_pool_client_session_configuration(
        UserPoolId=pool["Id"], ClientId=client["ClientId"], SSOSession={"MaxValidityMinutes": 30})
    assert idp.get_user_pool_client_session_configuration(
        UserPoolId=pool["Id"], ClientId=client["ClientId"])["SSOSession"] == {"MaxValidityMinutes": 30}
    with cognito_error("InvalidParameterException"):
        idp.set_user_pool_session_configuration(
            UserPoolId=pool["Id"], UserSessionTracking="ENABLED", TokenSession={"MaxPerUser": 101})
    lite = idp.create_user_pool(PoolName=unique("lite"), UserPoolTier="LITE")["UserPool"]
    with cognito_error("FeatureUnavailableInTierException"):
        idp.set_user_pool_session_configuration(
            UserPoolId=lite["Id"], UserSessionTracking="ENABLED", TokenSession={"MaxPerUser": 5})


def test_a_user_sees_and_ends_their_sessions_across_clients(server, idp):
    pool, web = tracking_pool(idp)
    mobile = new_client(idp, pool["Id"], name="mobile")
    username, _, _ = confirmed_user(server, idp, pool, web)
    laptop = sign_in(from_device(server, "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 "
                                         "(KHTML, like Gecko) Chrome/131.0 Safari/537.36"), web, username)
    phone = sign_in(from_device(server, "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 "
                                        "Version/18.0 Mobile/15E148 Safari/604.1", "203.0.113.9"), mobile, username)
    sessions = idp.list_user_sessions(AccessToken=laptop["AccessToken"])["Sessions"]
    assert len(sessions) == 2
    assert all(re.fullmatch(r"tkn[a-z0-9]{25}", s["SessionId"]) and s["SessionType"] == "TOKEN" for s in sessions)
    current = [s for s in sessions if s["IsCurrentSession"]]
    assert len(current) == 1 and current[0]["ClientId"] == web["ClientId"]
    assert current[0]["DeviceType"] == "Chrome on macOS" and current[0]["LastIPAddress"] == "198.51.100.40"
    other = next(s for s in sessions if not s["IsCurrentSession"])
    assert other["ClientId"] == mobile["ClientId"] and other["DeviceType"] == "Safari on iOS"
    assert other["LastIPAddress"] == "203.0.113.9"
    assert other["LastActiveDate"] >= other["CreateDate"]

    # A refresh is activity.
    refresh(from_device(server, "Boto3/1.44.8 Python/3.11 Linux/6.1", "192.0.2.7"), mobile, phone["RefreshToken"])
    refreshed = next(s for s in idp.list_user_sessions(AccessToken=laptop["AccessToken"])["Sessions"]
                     if s["SessionId"] == other["SessionId"])
    assert refreshed["LastIPAddress"] == "192.0.2.7" and refreshed["DeviceType"] == "Boto3 on Linux"

    # Not the caller's own session; another ends with its tokens.
    with cognito_error("InvalidParameterException"):
        idp.revoke_user_session(AccessToken=laptop["AccessToken"], SessionId=current[0]["SessionId"])
    with cognito_error("ResourceNotFoundException"):
        idp.revoke_user_session(AccessToken=laptop["AccessToken"], SessionId="tkn" + "0" * 25)
    idp.revoke_user_session(AccessToken=laptop["AccessToken"], SessionId=other["SessionId"])
    with cognito_error("NotAuthorizedException"):
        idp.get_user(AccessToken=phone["AccessToken"])
    with cognito_error("NotAuthorizedException"):
        refresh(idp, mobile, phone["RefreshToken"])
    assert [s["SessionId"] for s in idp.list_user_sessions(AccessToken=laptop["AccessToken"])["Sessions"]] == [
        current[0]["SessionId"]]

    # An administrator sees the same and ends any.
    admin_view = idp.admin_list_user_sessions(UserPoolId=pool["Id"], Username=username)["Sessions"]
    assert [s["SessionId"] for s in admin_view] == [current[0]["SessionId"]]
    assert admin_view[0]["IsCurrentSession"] is False
    idp.admin_revoke_user_session(UserPoolId=pool["Id"], Username=username, SessionId=current[0]["SessionId"],
                                  RevokeAssociatedSessions="LINKED")
    with cognito_error("NotAuthorizedException"):
        idp.get_user(AccessToken=laptop["AccessToken"])
    assert idp.admin_list_user_sessions(UserPoolId=pool["Id"], Username=username)["Sessions"] == []


def test_a_sign_in_past_the_limit_ends_the_least_recently_used_session(server, idp):
    pool, client = tracking_pool(idp, max_per_user=2)
    username, _, _ = confirmed_user(server, idp, pool, client)
    first = sign_in(idp, client, username)
    second = sign_in(idp, client, username)
    refresh(idp, client, first["RefreshToken"])              # the first is now the more recently used
    third = sign_in(idp, client, username)
    with cognito_error("NotAuthorizedException"):
        idp.get_user(AccessToken=second["AccessToken"])
    assert idp.get_user(AccessToken=first["AccessToken"])["Username"] == username
    assert len(idp.list_user_sessions(AccessToken=third["AccessToken"])["Sessions"]) == 2
