"""The server's cache of users (GetUser answers from it on both databases): its own writes show
at once, and a change another process commits to the database by hand shows within moments."""
import time

import pytest

from helpers import confirmed_user, sign_in


def eventually(condition, within=1.5):
    """Waits for `condition`: well within the cache's 3 s lease, so that a cache that stopped
    hearing of changes (and falls back to the database after its lease) cannot pass."""
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, f"not within {within} s"
        time.sleep(0.02)


def email_of(idp, token):
    return {a["Name"]: a["Value"] for a in idp.get_user(AccessToken=token)["UserAttributes"]}["email"]


def test_own_writes_show_at_once(server, idp, pool, app_client):
    username, email, _ = confirmed_user(server, idp, pool, app_client)
    token = sign_in(idp, app_client, username)["AccessToken"]
    for round in range(5):
        assert idp.get_user(AccessToken=token)["Username"] == username   # cached from now on
        changed = f"r{round}-{email}"
        idp.admin_update_user_attributes(UserPoolId=pool["Id"], Username=username,
                                         UserAttributes=[{"Name": "email", "Value": changed}])
        assert email_of(idp, token) == changed
    idp.global_sign_out(AccessToken=token)
    with pytest.raises(idp.exceptions.NotAuthorizedException):
        idp.get_user(AccessToken=token)


def test_another_process_disabling_a_user_shows_within_moments(server, idp, pool, app_client):
    username, _, sub = confirmed_user(server, idp, pool, app_client)
    token = sign_in(idp, app_client, username)["AccessToken"]
    for _ in range(3):
        assert idp.get_user(AccessToken=token)["Username"] == username
    server.execute("UPDATE users SET enabled = 0 WHERE sub = ?", sub)

    def refused():
        try:
            idp.get_user(AccessToken=token)
            return False
        except idp.exceptions.NotAuthorizedException as error:
            assert error.response["Error"]["Message"] == "User is disabled."
            return True
    eventually(refused)
    server.execute("UPDATE users SET enabled = 1 WHERE sub = ?", sub)

    def answered():
        try:
            return idp.get_user(AccessToken=token)["Username"] == username
        except idp.exceptions.NotAuthorizedException:   # the cached copy, until the change is seen
            return False
    eventually(answered)
