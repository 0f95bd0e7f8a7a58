"""The audit log (issue 14): who did what, when and from where — admin calls with their access
key, users' sign-ups, sign-ins and failures, attribute changes — as JSON lines in a file that
holds no secret and survives a rotation."""
import base64
import json
import os
import tempfile

import pytest
import requests

from conftest import CognateServer
from helpers import AMZ_JSON, PASSWORD, TARGET_PREFIX, cognito_error, last_message, new_client, sign_in, unique

AKID, SECRET = "AKIDAUDIT", "audit-secret-key"


@pytest.fixture(scope="module")
def server():
    with tempfile.TemporaryDirectory(prefix="cognate-audit-") as workdir:
        s = CognateServer(workdir, extra_args=[
            "--mode", "production", "--admin-credentials", f"{AKID}:{SECRET}", "--email-delivery", "outbox",
            "--client-address-header", "X-Forwarded-For", "--audit-log", f"{workdir}/audit.jsonl"])
        s.audit = f"{workdir}/audit.jsonl"
        yield s.start()
        s.stop()
        assert not s.faults(), "\n".join(s.faults()[:20])


def lines(server):
    with open(server.audit) as f:
        return [json.loads(line) for line in f]


def test_who_did_what_when_and_from_where(server):
    admin = server.client(access_key=AKID, secret_key=SECRET)
    user_side = server.client(access_key=AKID, secret_key=SECRET)
    user_side.meta.events.register(
        "before-sign.cognito-idp.*", lambda request, **_: request.headers.__setitem__("X-Forwarded-For", "198.51.100.23"))
    pool = admin.create_user_pool(PoolName=unique("audit"), AutoVerifiedAttributes=["email"])["UserPool"]
    client = new_client(admin, pool["Id"])
    username, email = unique(), unique() + "@example.com"
    user_side.sign_up(ClientId=client["ClientId"], Username=username, Password=PASSWORD,
                      UserAttributes=[{"Name": "email", "Value": email}])
    with cognito_error("NotAuthorizedException"):
        sign_in(user_side, client, username, password="Wrong-Pass1!")
    admin.admin_confirm_sign_up(UserPoolId=pool["Id"], Username=username)
    tokens = sign_in(user_side, client, username)
    user_side.update_user_attributes(AccessToken=tokens["AccessToken"], UserAttributes=[{"Name": "name", "Value": "Ada"}])
    user_side.get_user(AccessToken=tokens["AccessToken"])                                   # a read: not audited
    admin.admin_disable_user(UserPoolId=pool["Id"], Username=username)
    with cognito_error("InvalidSignatureException"):
        server.client(access_key=AKID, secret_key="wrong").admin_enable_user(UserPoolId=pool["Id"], Username=username)

    logged = [line for line in lines(server) if line.get("pool_id") == pool["Id"] or line.get("username") == username
              or line["actor"].get("username") == username]
    operations = [line["operation"] for line in logged]
    assert operations[0] == "CreateUserPoolClient"
    assert "GetUser" not in operations
    sign_up = next(line for line in logged if line["operation"] == "SignUp")
    assert sign_up["actor"] == {"kind": "user"} and sign_up["client_address"] == "198.51.100.23"
    assert sign_up["username"] == username and sign_up["attributes"] == ["email"] and sign_up["outcome"] == "ok"
    sign_ins = [line for line in logged if line["operation"] == "InitiateAuth"]
    assert [line["outcome"] for line in sign_ins] == ["NotAuthorizedException", "ok"]
    assert sign_ins[0]["auth_flow"] == "USER_PASSWORD_AUTH" and sign_ins[0]["username"] == username
    change = next(line for line in logged if line["operation"] == "UpdateUserAttributes")
    assert change["actor"]["username"] == username and change["actor"]["sub"] and change["attributes"] == ["name"]
    disable = next(line for line in logged if line["operation"] == "AdminDisableUser")
    assert disable["actor"] == {"kind": "admin", "access_key_id": AKID} and disable["username"] == username
    refused = next(line for line in logged if line["operation"] == "AdminEnableUser")
    assert refused["outcome"] == "InvalidSignatureException" and refused["status"] == 400
    assert refused["actor"] == {"kind": "admin", "access_key_id": "unverified"}    # the key named, not proved
    assert all({"time", "request_id", "operation", "outcome", "status", "actor"} <= line.keys() for line in logged)
    text = open(server.audit).read()
    for secret in (PASSWORD, "Wrong-Pass1!", tokens["AccessToken"], tokens["RefreshToken"], SECRET, "Ada"):
        assert secret not in text


def test_a_rotated_log_starts_a_new_file(server):
    admin = server.client(access_key=AKID, secret_key=SECRET)
    os.rename(server.audit, server.audit + ".1")
    admin.list_user_pools(MaxResults=1)
    assert [line["operation"] for line in lines(server)] == ["ListUserPools"]



def test_the_actor_is_the_verified_token_s_user_never_what_the_request_claims(server):
    """A public call carrying someone's (or a forged) access token in a member the operation does
    not take is not logged as that user: only a token the service verified names the actor."""
    admin = server.client(access_key=AKID, secret_key=SECRET)
    pool = admin.create_user_pool(PoolName=unique("audit"))["UserPool"]
    client = new_client(admin, pool["Id"])
    victim = unique()
    admin.admin_create_user(UserPoolId=pool["Id"], Username=victim, TemporaryPassword=PASSWORD, MessageAction="SUPPRESS")
    admin.admin_set_user_password(UserPoolId=pool["Id"], Username=victim, Password=PASSWORD, Permanent=True)
    victim_token = sign_in(admin, client, victim)["AccessToken"]
    header, _, signature = victim_token.split(".")
    forged = base64.urlsafe_b64encode(json.dumps({"sub": "forged-sub", "username": "forged"}).encode()).decode().rstrip("=")
    for token in (victim_token, f"{header}.{forged}.{signature}"):
        response = requests.post(server.endpoint + "/", timeout=10, headers={
            "Content-Type": AMZ_JSON, "X-Amz-Target": TARGET_PREFIX + "SignUp"}, data=json.dumps({
                "ClientId": client["ClientId"], "Username": unique(), "Password": PASSWORD, "AccessToken": token}))
        assert response.status_code == 200, response.text
    sign_ups = [line for line in lines(server) if line["operation"] == "SignUp" and line.get("client_id") == client["ClientId"]]
    assert len(sign_ups) == 2 and all(line["actor"] == {"kind": "user"} for line in sign_ups), sign_ups
    # A call whose token the service verified names its user.
    admin.update_user_attributes(AccessToken=victim_token, UserAttributes=[{"Name": "name", "Value": "V"}])
    update = [line for line in lines(server) if line["operation"] == "UpdateUserAttributes"][-1]
    assert update["actor"]["username"] == victim and update["actor"]["sub"] != "forged-sub"


def test_hosted_sign_ins_and_the_token_endpoint_are_audited(server):
    """The routes outside the API that sign in or change something get audit lines too, with
    the user who signed in."""
    import secrets
    from test_oauth import app_session, authorize, hosted_sign_in, oauth_pool
    admin = server.client(access_key=AKID, secret_key=SECRET)
    pool, client = oauth_pool(admin)
    username = unique()
    admin.admin_create_user(UserPoolId=pool["Id"], Username=username, TemporaryPassword=PASSWORD, MessageAction="SUPPRESS")
    admin.admin_set_user_password(UserPoolId=pool["Id"], Username=username, Password=PASSWORD, Permanent=True)
    app = app_session(server, client)
    verifier = secrets.token_urlsafe(48)
    uri, _ = authorize(server, app, verifier)
    answer = hosted_sign_in(server, requests.Session(), uri, username)
    app.fetch_token(server.endpoint + "/oauth2/token", authorization_response=answer.headers["Location"],
                    code_verifier=verifier)
    logged = lines(server)
    login = [line for line in logged if line["operation"] == "POST /login"][-1]
    assert login["outcome"] == "ok" and login["status"] == 302 and login["actor"]["username"] == username
    token = [line for line in logged if line["operation"] == "POST /oauth2/token"][-1]
    assert token["outcome"] == "ok" and token["request_id"]
    assert not any(line["operation"] in ("GET /login", "GET /oauth2/authorize") for line in logged)   # reads: not audited


def test_a_refused_hosted_step_is_logged_refused_under_the_flows_client(server):
    """A wrong password on the hosted page answers 200 with the page again, but the audit line
    says it was refused; and the client logged is the flow's, not whatever the form's query
    names."""
    import secrets
    from test_oauth import app_session, authorize, flow_of, oauth_pool
    admin = server.client(access_key=AKID, secret_key=SECRET)
    pool, client = oauth_pool(admin)
    _, decoy = oauth_pool(admin)
    uri, _ = authorize(server, app_session(server, client), secrets.token_urlsafe(48))
    browser = requests.Session()
    page = browser.get(uri, timeout=10)
    answer = browser.post(server.endpoint + f"/login?client_id={decoy['ClientId']}", timeout=10, allow_redirects=False,
                          data={"flow": flow_of(page), "username": unique(), "password": "wrong-Passw0rd!"})
    assert answer.status_code == 200 and "Location" not in answer.headers
    login = [line for line in lines(server) if line["operation"] == "POST /login"][-1]
    assert login["outcome"] in ("NotAuthorizedException", "UserNotFoundException"), login
    assert login["client_id"] == client["ClientId"], login
