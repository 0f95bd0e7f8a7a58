"""Lambda triggers as signed webhooks (issue 11): a pool's LambdaConfig names function ARNs as
in Cognito, `cognate functions put` binds each ARN to a webhook, and the trigger service of
compat/trigger_service.py (Lambda handlers behind a thin HTTP wrapper) receives Cognito's
events. Driven with boto3, pycognito and PyJWT; errors as Cognito words them."""
import hashlib
import hmac
import json
import os
import subprocess
import tempfile
import time
import uuid

import pytest

from conftest import BINARY, CognateServer
from helpers import (PASSWORD, cognito_error, new_client, password_auth, sign_up, srp_auth, srp_for, unique,
                     verify_token)
from trigger_service import SENT, TriggerService, function_key, verify
from test_federation import upstream  # noqa: F401 (fixture)
from test_oauth import CALLBACK
from urllib.parse import parse_qs, urlparse

SECRET = "trigger-secret-for-tests"
ACCOUNT = "123456789012"


@pytest.fixture(scope="module")
def server():
    with tempfile.TemporaryDirectory(prefix="cognate-triggers-") as workdir:
        s = CognateServer(workdir, env={"COGNATE_WEBHOOK_SECRET": SECRET}).start()
        yield s
        s.stop()
        assert not s.faults(), "cognate logged server faults:\n" + "\n".join(s.faults()[:20])


@pytest.fixture(scope="module")
def idp(server):
    return server.client()


@pytest.fixture(scope="module")
def hooks():
    service = TriggerService(SECRET)
    yield service
    service.stop()


def functions(server, *args, env=None):
    return subprocess.run([str(BINARY), "functions", *args, "--database", server.database],
                          capture_output=True, text=True, timeout=60, env={**os.environ, **(env or {})})


def bind(server, hooks, name):
    """Binds a fresh ARN to the service's handler `name`; returns the ARN."""
    arn = f"arn:aws:lambda:us-east-1:{ACCOUNT}:function:{name}-{uuid.uuid4().hex[:6]}"
    result = functions(server, "put", arn, f"{hooks.url}/{name}")
    assert result.returncode == 0, result.stderr
    return arn


def pool_with(idp, server, hooks, **triggers):
    """A pool whose LambdaConfig binds each trigger (PreSignUp=...) to a handler name, with a client."""
    config = {trigger: bind(server, hooks, name) for trigger, name in triggers.items()}
    pool = idp.create_user_pool(PoolName=unique("triggers"), AutoVerifiedAttributes=["email"], LambdaConfig=config,
                                Schema=[{"Name": "suspended", "AttributeDataType": "String", "Mutable": True}])["UserPool"]
    return pool, new_client(idp, pool["Id"])


def confirmed(server, idp, pool, client, username=None, attributes=()):
    username = username or unique()
    sign_up(idp, client, username, attributes=attributes)
    idp.admin_confirm_sign_up(UserPoolId=pool["Id"], Username=username)
    return username


# --- PreSignUp ------------------------------------------------------------------------------

def test_pre_sign_up_rejects_a_clinic_email_with_the_functions_message(server, idp, hooks):
    pool, client = pool_with(idp, server, hooks, PreSignUp="pre-sign-up")
    username = unique()
    with cognito_error("UserLambdaValidationException",
                       "PreSignUp failed with error This email belongs to a clinic account; ask your clinic for an invitation."):
        sign_up(idp, client, username, email=f"{username}@clinic.example")
    with cognito_error("UserNotFoundException"):
        idp.admin_get_user(UserPoolId=pool["Id"], Username=username)
    assert not [m for m in server.outbox(pool["Id"])]


def test_pre_sign_up_receives_cognitos_event_signed(server, idp, hooks):
    pool, client = pool_with(idp, server, hooks, PreSignUp="pre-sign-up")
    username = unique()
    idp.sign_up(ClientId=client["ClientId"], Username=username, Password=PASSWORD,
                UserAttributes=[{"Name": "email", "Value": f"{username}@example.com"}],
                ValidationData=[{"Name": "invitation", "Value": "none"}], ClientMetadata={"app": "health"})
    name, event, signed, function = hooks.received[-1]
    assert (name, signed) == ("pre-sign-up", True)
    assert function == pool["LambdaConfig"]["PreSignUp"]
    assert event["version"] == "1" and event["triggerSource"] == "PreSignUp_SignUp"
    assert event["region"] == "us-east-1" and event["userPoolId"] == pool["Id"] and event["userName"] == username
    assert event["callerContext"]["clientId"] == client["ClientId"]
    assert event["request"]["userAttributes"] == {"email": f"{username}@example.com"}
    assert event["request"]["validationData"] == {"invitation": "none"}
    assert event["request"]["clientMetadata"] == {"app": "health"}
    assert event["response"] == {}


def test_pre_sign_up_can_confirm_and_verify_at_once(server, idp, hooks):
    pool, client = pool_with(idp, server, hooks, PreSignUp="pre-sign-up")
    username = unique()
    response = idp.sign_up(ClientId=client["ClientId"], Username=username, Password=PASSWORD,
                           UserAttributes=[{"Name": "email", "Value": f"{username}@example.com"}],
                           ValidationData=[{"Name": "invitation", "Value": "trusted"}])
    assert response["UserConfirmed"] is True and "CodeDeliveryDetails" not in response
    user = idp.admin_get_user(UserPoolId=pool["Id"], Username=username)
    assert user["UserStatus"] == "CONFIRMED"
    assert {a["Name"]: a["Value"] for a in user["UserAttributes"]}["email_verified"] == "true"
    assert not server.outbox(pool["Id"])
    assert "AccessToken" in password_auth(idp, client, username)["AuthenticationResult"]


def test_pre_sign_up_also_guards_admin_create_user(server, idp, hooks):
    pool, _ = pool_with(idp, server, hooks, PreSignUp="pre-sign-up")
    with cognito_error("UserLambdaValidationException", contains="PreSignUp failed with error This email belongs"):
        idp.admin_create_user(UserPoolId=pool["Id"], Username=unique(),
                              UserAttributes=[{"Name": "email", "Value": "doctor@clinic.example"}])
    assert hooks.received[-1][1]["triggerSource"] == "PreSignUp_AdminCreateUser"
    assert hooks.received[-1][1]["callerContext"]["clientId"] == "CLIENT_ID_NOT_APPLICABLE"


# --- PostConfirmation -----------------------------------------------------------------------

def test_post_confirmation_sees_the_confirmed_user(server, idp, hooks):
    pool, client = pool_with(idp, server, hooks, PostConfirmation="post-confirmation")
    username = unique()
    sign_up(idp, client, username)
    code = server.last_code(pool["Id"])
    idp.confirm_sign_up(ClientId=client["ClientId"], Username=username, ConfirmationCode=code,
                        ClientMetadata={"source": "app"})
    event = hooks.events("post-confirmation")[-1]
    assert event["triggerSource"] == "PostConfirmation_ConfirmSignUp"
    attributes = event["request"]["userAttributes"]
    assert attributes["cognito:user_status"] == "CONFIRMED" and attributes["email_verified"] == "true"
    assert attributes["sub"] and event["request"]["clientMetadata"] == {"source": "app"}


def test_a_refusing_post_confirmation_is_reported_but_the_user_stays_confirmed(server, idp, hooks):
    pool, client = pool_with(idp, server, hooks, PostConfirmation="post-confirmation")
    username = unique()
    sign_up(idp, client, username, attributes=[("family_name", "Unwelcome")])
    with cognito_error("UserLambdaValidationException", "PostConfirmation failed with error Profile service rejected the user."):
        idp.confirm_sign_up(ClientId=client["ClientId"], Username=username, ConfirmationCode=server.last_code(pool["Id"]))
    assert idp.admin_get_user(UserPoolId=pool["Id"], Username=username)["UserStatus"] == "CONFIRMED"


# --- PreAuthentication and PostAuthentication -----------------------------------------------

def test_pre_authentication_refuses_a_suspended_user_in_every_flow(server, idp, hooks):
    pool, client = pool_with(idp, server, hooks, PreAuthentication="pre-authentication",
                             PostAuthentication="post-authentication")
    active = confirmed(server, idp, pool, client)
    suspended = confirmed(server, idp, pool, client, attributes=[("custom:suspended", "yes")])
    message = "PreAuthentication failed with error Your account is suspended."
    with cognito_error("UserLambdaValidationException", message):
        password_auth(idp, client, suspended)
    with cognito_error("UserLambdaValidationException", message):
        srp_auth(idp, srp_for(idp, pool["Id"], client, suspended))
    assert not [e for e in hooks.events("post-authentication") if e["userName"] == suspended]

    idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="USER_PASSWORD_AUTH",
                      AuthParameters={"USERNAME": active, "PASSWORD": PASSWORD}, ClientMetadata={"device": "ios"})
    pre = [e for e in hooks.events("pre-authentication") if e["userName"] == active][-1]
    assert pre["triggerSource"] == "PreAuthentication_Authentication"
    assert pre["request"]["validationData"] == {"device": "ios"} and "userNotFound" not in pre["request"]
    post = [e for e in hooks.events("post-authentication") if e["userName"] == active][-1]
    assert post["triggerSource"] == "PostAuthentication_Authentication"
    assert post["request"]["newDeviceUsed"] is False and post["request"]["clientMetadata"] == {"device": "ios"}
    assert srp_auth(idp, srp_for(idp, pool["Id"], client, active))["AuthenticationResult"]


# --- PreTokenGeneration ---------------------------------------------------------------------

def test_pre_token_generation_v1_shapes_the_id_token_but_not_its_identity(server, idp, hooks):
    pool, client = pool_with(idp, server, hooks, PreTokenGeneration="pre-token-generation")
    username = confirmed(server, idp, pool, client, attributes=[("phone_number", "+15555550101")])
    idp.create_group(UserPoolId=pool["Id"], GroupName="staff")
    idp.admin_add_user_to_group(UserPoolId=pool["Id"], Username=username, GroupName="staff")
    tokens = password_auth(idp, client, username)["AuthenticationResult"]
    claims = verify_token(server, pool["Id"], tokens["IdToken"], "id", client["ClientId"])
    assert claims["clinic_id"] == "clinic-42"
    assert "phone_number" not in claims
    assert claims["cognito:groups"] == ["patients"]
    assert claims["iss"].endswith(pool["Id"]) and claims["sub"] != "forged" and claims["aud"] == client["ClientId"]
    access = verify_token(server, pool["Id"], tokens["AccessToken"], "access", client["ClientId"])
    assert "clinic_id" not in access and access["cognito:groups"] == ["patients"]
    event = hooks.events("pre-token-generation")[-1]
    assert event["triggerSource"] == "TokenGeneration_Authentication" and event["version"] == "1"
    assert event["request"]["groupConfiguration"]["groupsToOverride"] == ["staff"]

    refreshed = idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="REFRESH_TOKEN_AUTH",
                                  AuthParameters={"REFRESH_TOKEN": tokens["RefreshToken"]})["AuthenticationResult"]
    assert verify_token(server, pool["Id"], refreshed["IdToken"], "id", client["ClientId"])["clinic_id"] == "clinic-42"
    assert hooks.events("pre-token-generation")[-1]["triggerSource"] == "TokenGeneration_RefreshTokens"


def test_pre_token_generation_v2_shapes_the_access_token_and_scopes(server, idp, hooks):
    arn = bind(server, hooks, "pre-token-generation-v2")
    pool = idp.create_user_pool(PoolName=unique("v2"), AutoVerifiedAttributes=["email"], LambdaConfig={
        "PreTokenGenerationConfig": {"LambdaVersion": "V2_0", "LambdaArn": arn}})["UserPool"]
    client = new_client(idp, pool["Id"])
    username = confirmed(server, idp, pool, client)
    tokens = password_auth(idp, client, username)["AuthenticationResult"]
    access = verify_token(server, pool["Id"], tokens["AccessToken"], "access", client["ClientId"])
    assert access["tenant"] == "t-7" and access["roles"] == ["reader", "writer"]
    assert access["client_id"] == client["ClientId"] and access["username"] == username   # protected
    assert access["scope"].split() == ["aws.cognito.signin.user.admin", "records/read"]
    assert verify_token(server, pool["Id"], tokens["IdToken"], "id", client["ClientId"])["plan"] == "gold"
    event = hooks.events("pre-token-generation-v2")[-1]
    assert event["version"] == "2" and event["request"]["scopes"] == ["aws.cognito.signin.user.admin"]


# --- UserMigration --------------------------------------------------------------------------

def test_a_legacy_user_is_migrated_on_first_sign_in(server, idp, hooks):
    arn = bind(server, hooks, "user-migration")
    pool = idp.create_user_pool(PoolName=unique("migration"), UsernameAttributes=["email"],
                                AutoVerifiedAttributes=["email"], LambdaConfig={"UserMigration": arn})["UserPool"]
    client = new_client(idp, pool["Id"])
    with cognito_error("UserNotFoundException", f"Exception migrating user in app client {client['ClientId']}"):
        password_auth(idp, client, "legacy@example.com", "Wrong-Passw0rd!")
    tokens = password_auth(idp, client, "legacy@example.com", "Legacy-Passw0rd!")["AuthenticationResult"]
    claims = verify_token(server, pool["Id"], tokens["IdToken"], "id", client["ClientId"])
    assert claims["email"] == "legacy@example.com" and claims["email_verified"] is True and claims["name"] == "Lee Gacy"
    event = hooks.events("user-migration")[-1]
    assert event["triggerSource"] == "UserMigration_Authentication" and event["request"]["password"] == "Legacy-Passw0rd!"
    calls = len(hooks.events("user-migration"))
    # Migrated once: the next sign-ins are Cognate's own (SRP included), the old directory is not asked.
    assert srp_auth(idp, srp_for(idp, pool["Id"], client, "legacy@example.com", "Legacy-Passw0rd!"))["AuthenticationResult"]
    with cognito_error("NotAuthorizedException", "Incorrect username or password."):
        password_auth(idp, client, "legacy@example.com", "Wrong-Passw0rd!")
    assert len(hooks.events("user-migration")) == calls


def test_a_legacy_user_is_migrated_by_forgot_password_and_resets(server, idp, hooks):
    arn = bind(server, hooks, "user-migration")
    pool = idp.create_user_pool(PoolName=unique("migration"), AutoVerifiedAttributes=["email"],
                                LambdaConfig={"UserMigration": arn})["UserPool"]
    client = new_client(idp, pool["Id"])
    delivery = idp.forgot_password(ClientId=client["ClientId"], Username="oldtimer")["CodeDeliveryDetails"]
    assert delivery["DeliveryMedium"] == "EMAIL" and delivery["Destination"] == "o***@e***"
    assert hooks.events("user-migration")[-1]["triggerSource"] == "UserMigration_ForgotPassword"
    assert "password" not in hooks.events("user-migration")[-1]["request"]
    assert idp.admin_get_user(UserPoolId=pool["Id"], Username="oldtimer")["UserStatus"] == "RESET_REQUIRED"
    idp.confirm_forgot_password(ClientId=client["ClientId"], Username="oldtimer", Password="New-Passw0rd!",
                                ConfirmationCode=server.last_code(pool["Id"], "oldtimer@example.com"))
    assert password_auth(idp, client, "oldtimer", "New-Passw0rd!")["AuthenticationResult"]


# --- CustomMessage --------------------------------------------------------------------------

def test_custom_message_rewrites_codes_and_invitations(server, idp, hooks):
    pool, client = pool_with(idp, server, hooks, CustomMessage="custom-message")
    username = unique()
    sign_up(idp, client, username, attributes=[("given_name", "Ada")])
    message = server.outbox(pool["Id"])[-1]
    assert message["subject"] == "Confirm your health account"
    assert message["body"] == f"Hello Ada, your code is {message['code']}."
    event = hooks.events("custom-message")[-1]
    assert event["triggerSource"] == "CustomMessage_SignUp" and event["request"]["codeParameter"] == "{####}"
    assert message["code"] not in json.dumps(hooks.received[-1][1])   # the function never sees the code
    idp.confirm_sign_up(ClientId=client["ClientId"], Username=username, ConfirmationCode=message["code"])

    idp.admin_create_user(UserPoolId=pool["Id"], Username="nurse", TemporaryPassword="Temp-Passw0rd!",
                          UserAttributes=[{"Name": "email", "Value": "nurse@example.com"}])
    invitation = server.outbox(pool["Id"])[-1]
    assert invitation["subject"] == "Your clinic invitation"
    assert invitation["body"] == "Welcome nurse, your password is Temp-Passw0rd!"
    assert hooks.events("custom-message")[-1]["triggerSource"] == "CustomMessage_AdminCreateUser"

    idp.resend_confirmation_code(ClientId=client["ClientId"], Username=sign_up_user(idp, client))
    assert hooks.events("custom-message")[-1]["triggerSource"] == "CustomMessage_ResendCode"


def test_custom_message_rewrites_first_factor_codes_of_choice_based_sign_in(server, idp, hooks):
    config = {"CustomMessage": bind(server, hooks, "custom-message")}
    pool = idp.create_user_pool(
        PoolName=unique("triggers"), AutoVerifiedAttributes=["email"], LambdaConfig=config,
        Policies={"SignInPolicy": {"AllowedFirstAuthFactors": ["PASSWORD", "EMAIL_OTP"]}})["UserPool"]
    client = new_client(idp, pool["Id"], flows=["ALLOW_USER_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"])
    username = unique()
    idp.admin_create_user(UserPoolId=pool["Id"], Username=username, MessageAction="SUPPRESS",
                          UserAttributes=[{"Name": "email", "Value": f"{username}@example.com"},
                                          {"Name": "email_verified", "Value": "true"}])
    idp.admin_set_user_password(UserPoolId=pool["Id"], Username=username, Password=PASSWORD, Permanent=True)
    started = idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="USER_AUTH",
                                AuthParameters={"USERNAME": username, "PREFERRED_CHALLENGE": "EMAIL_OTP"})
    assert started["ChallengeName"] == "EMAIL_OTP"
    message = server.outbox(pool["Id"])[-1]
    assert message["body"] == f"Hello there, your code is {message['code']}." and len(message["code"]) == 8
    assert hooks.events("custom-message")[-1]["triggerSource"] == "CustomMessage_Authentication"
    tokens = idp.respond_to_auth_challenge(
        ClientId=client["ClientId"], ChallengeName="EMAIL_OTP", Session=started["Session"],
        ChallengeResponses={"USERNAME": username, "EMAIL_OTP_CODE": message["code"]})["AuthenticationResult"]
    assert tokens["AccessToken"]


def sign_up_user(idp, client):
    username = unique()
    sign_up(idp, client, username)
    return username


# --- failures -------------------------------------------------------------------------------

def test_a_hanging_function_is_unexpected_lambda_after_five_seconds_and_creates_nothing(server, idp, hooks):
    pool, client = pool_with(idp, server, hooks, PreSignUp="hang")
    username = unique()
    started = time.time()
    with cognito_error("UnexpectedLambdaException",
                       "PreSignUp invocation failed due to error Socket timeout while invoking Lambda function."):
        sign_up(idp, client, username)
    assert 4 < time.time() - started < 10
    with cognito_error("UserNotFoundException"):
        idp.admin_get_user(UserPoolId=pool["Id"], Username=username)


@pytest.mark.parametrize("name, code, message", [
    ("garbage", "InvalidLambdaResponseException", "Invalid lambda function output : Invalid JSON"),
    ("wrong-shape", "InvalidLambdaResponseException", "Unrecognizable lambda output"),
    ("crash", "UnexpectedLambdaException", None),
])
def test_a_broken_function_gives_cognitos_error_and_no_half_created_user(server, idp, hooks, name, code, message):
    pool, client = pool_with(idp, server, hooks, PreSignUp=name)
    username = unique()
    with cognito_error(code, message):
        sign_up(idp, client, username)
    with cognito_error("UserNotFoundException"):
        idp.admin_get_user(UserPoolId=pool["Id"], Username=username)


def test_a_failing_post_authentication_gives_no_tokens(server, idp, hooks):
    pool, client = pool_with(idp, server, hooks, PostAuthentication="crash")
    username = confirmed(server, idp, pool, client)
    with cognito_error("UnexpectedLambdaException", contains="PostAuthentication invocation failed"):
        password_auth(idp, client, username)


def test_bindings_are_managed_with_the_cli_and_apply_to_a_running_server(server, idp, hooks):
    arn = f"arn:aws:lambda:us-east-1:{ACCOUNT}:function:late-{uuid.uuid4().hex[:6]}"
    pool = idp.create_user_pool(PoolName=unique("late"), AutoVerifiedAttributes=["email"],
                                LambdaConfig={"PreSignUp": arn})["UserPool"]
    client = new_client(idp, pool["Id"])
    with cognito_error("UnexpectedLambdaException", "PreSignUp invocation failed due to error ResourceNotFoundException."):
        sign_up(idp, client, unique(), email="someone@clinic.example")
    assert functions(server, "put", arn, f"{hooks.url}/pre-sign-up").returncode == 0
    listed = functions(server, "list").stdout
    assert any(row.split()[:2] == [arn, f"{hooks.url}/pre-sign-up"] for row in listed.splitlines())
    time.sleep(2)   # the change feed: within about a second
    with cognito_error("UserLambdaValidationException", contains="This email belongs to a clinic"):
        sign_up(idp, client, unique(), email="someone@clinic.example")
    assert functions(server, "delete", arn).returncode == 0
    assert functions(server, "delete", arn).returncode != 0
    bad = functions(server, "put", "not-an-arn", "ftp://example.com")
    assert bad.returncode != 0 and "not a function ARN" in bad.stderr


def test_without_a_configured_secret_functions_are_signed_with_the_databases(tmp_path):
    server = CognateServer(tmp_path).start()
    secret = functions(server, "secret").stdout.strip()
    service = TriggerService(secret)
    try:
        assert len(secret) == 64
        idp = server.client()
        pool, client = pool_with(idp, server, service, PreSignUp="pre-sign-up")
        sign_up(idp, client, unique())
        assert service.received[-1][2] is True
        assert functions(server, "secret").stdout.strip() == secret
        arn = pool["LambdaConfig"]["PreSignUp"]
        assert functions(server, "secret", arn).stdout.strip() == function_key(secret.encode(), arn).hex()
    finally:
        service.stop()
        server.stop()


def test_a_call_verifies_only_with_its_functions_key_over_its_url(server, idp, hooks):
    """Each function has a key of its own, derived from the server's secret and its ARN, which
    `cognate functions secret <arn>` prints; the signature (v2) covers timestamp, the bound URL
    and body. Another function's key, the delivery webhooks' keys, the secret itself, another
    URL or another body do not verify: a receiver cannot sign calls for anyone else."""
    pool, client = pool_with(idp, server, hooks, PreSignUp="pre-sign-up")
    arn = pool["LambdaConfig"]["PreSignUp"]
    sign_up(idp, client, unique())
    path, headers, body = hooks.requests[-1]
    url = hooks.url + path
    assert headers["X-Cognate-Signature"].startswith("v2=") and headers["X-Cognate-Function"] == arn
    printed = functions(server, "secret", arn, env={"COGNATE_WEBHOOK_SECRET": SECRET})
    assert printed.returncode == 0, printed.stderr
    key = bytes.fromhex(printed.stdout.strip())
    assert key == function_key(SECRET.encode(), arn)
    assert verify(key, url, headers, body)

    def derived(label):
        return hmac.new(SECRET.encode(), label.encode(), hashlib.sha256).digest()
    for wrong in [function_key(SECRET.encode(), arn + "-other"), derived("cognate-email-webhook"),
                  derived("cognate-sms-webhook"), SECRET.encode()]:
        assert not verify(wrong, url, headers, body)
    assert not verify(key, hooks.url + "/post-confirmation", headers, body)
    assert not verify(key, url, headers, body + b" ")


# --- CUSTOM_AUTH: DefineAuthChallenge, CreateAuthChallenge, VerifyAuthChallengeResponse -------

CUSTOM_FLOWS = ["ALLOW_CUSTOM_AUTH", "ALLOW_USER_SRP_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"]


def custom_pool(idp, server, hooks, **extra):
    pool, _ = pool_with(idp, server, hooks, DefineAuthChallenge="define-auth-challenge",
                        CreateAuthChallenge="create-auth-challenge",
                        VerifyAuthChallengeResponse="verify-auth-challenge-response", **extra)
    return pool, new_client(idp, pool["Id"], flows=CUSTOM_FLOWS)


def answer(idp, client, username, session, text):
    return idp.respond_to_auth_challenge(ClientId=client["ClientId"], ChallengeName="CUSTOM_CHALLENGE", Session=session,
                                         ChallengeResponses={"USERNAME": username, "ANSWER": text})


def test_custom_auth_asks_the_functions_question_and_signs_in_on_the_right_answer(server, idp, hooks):
    pool, client = custom_pool(idp, server, hooks)
    username = confirmed(server, idp, pool, client)
    started = idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="CUSTOM_AUTH",
                                AuthParameters={"USERNAME": username}, ClientMetadata={"app": "clinic"})
    assert started["ChallengeName"] == "CUSTOM_CHALLENGE"
    assert started["ChallengeParameters"] == {"question": "What is your favourite color?", "USERNAME": username}
    define = [e for e in hooks.events("define-auth-challenge") if e["userName"] == username]
    assert define[0]["triggerSource"] == "DefineAuthChallenge_Authentication"
    assert define[0]["request"]["session"] == [] and define[0]["request"]["clientMetadata"] == {"app": "clinic"}
    assert define[0]["request"]["userAttributes"]["cognito:user_status"] == "CONFIRMED"

    wrong = answer(idp, client, username, started["Session"], "red")
    assert wrong["ChallengeName"] == "CUSTOM_CHALLENGE" and wrong["Session"] != started["Session"]
    verify = [e for e in hooks.events("verify-auth-challenge-response") if e["userName"] == username]
    assert verify[0]["request"]["privateChallengeParameters"] == {"answer": "blue"}
    assert verify[0]["request"]["challengeAnswer"] == "red"
    define = [e for e in hooks.events("define-auth-challenge") if e["userName"] == username]
    assert define[-1]["request"]["session"] == [
        {"challengeName": "CUSTOM_CHALLENGE", "challengeResult": False, "challengeMetadata": "COLOR_QUESTION"}]

    signed_in = answer(idp, client, username, wrong["Session"], " Blue ")
    tokens = signed_in["AuthenticationResult"]
    claims = verify_token(server, pool["Id"], tokens["IdToken"], "id", client["ClientId"])
    assert claims["cognito:username"] == username
    assert idp.get_user(AccessToken=tokens["AccessToken"])["Username"] == username
    # A session answers once.
    with cognito_error("NotAuthorizedException", "Invalid session for the user."):
        answer(idp, client, username, wrong["Session"], "blue")


def test_custom_auth_fails_when_the_define_function_says_so(server, idp, hooks):
    pool, client = custom_pool(idp, server, hooks)
    username = confirmed(server, idp, pool, client)
    session = idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="CUSTOM_AUTH",
                                AuthParameters={"USERNAME": username})["Session"]
    session = answer(idp, client, username, session, "red")["Session"]
    session = answer(idp, client, username, session, "green")["Session"]
    with cognito_error("NotAuthorizedException", "Incorrect username or password."):
        answer(idp, client, username, session, "yellow")


def test_custom_auth_starting_with_srp_proves_the_password_first(server, idp, hooks):
    pool, client = custom_pool(idp, server, hooks)
    username = confirmed(server, idp, pool, client)
    srp = srp_for(idp, pool["Id"], client, username)
    params = dict(srp.get_auth_params(), CHALLENGE_NAME="SRP_A")
    started = idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="CUSTOM_AUTH", AuthParameters=params)
    assert started["ChallengeName"] == "PASSWORD_VERIFIER"
    question = idp.respond_to_auth_challenge(
        ClientId=client["ClientId"], ChallengeName="PASSWORD_VERIFIER",
        ChallengeResponses=srp.process_challenge(started["ChallengeParameters"], params))
    assert question["ChallengeName"] == "CUSTOM_CHALLENGE"
    define = [e for e in hooks.events("define-auth-challenge") if e["userName"] == username]
    assert [(s["challengeName"], s["challengeResult"]) for s in define[-1]["request"]["session"]] == [
        ("SRP_A", True), ("PASSWORD_VERIFIER", True)]
    tokens = answer(idp, client, username, question["Session"], "blue")["AuthenticationResult"]
    assert idp.get_user(AccessToken=tokens["AccessToken"])["Username"] == username

    # A wrong password ends the sign-in as in USER_SRP_AUTH, before any question.
    bad = srp_for(idp, pool["Id"], client, username, password="Wrong-password-1")
    params = dict(bad.get_auth_params(), CHALLENGE_NAME="SRP_A")
    started = idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="CUSTOM_AUTH", AuthParameters=params)
    with cognito_error("NotAuthorizedException", "Incorrect username or password."):
        idp.respond_to_auth_challenge(ClientId=client["ClientId"], ChallengeName="PASSWORD_VERIFIER",
                                      ChallengeResponses=bad.process_challenge(started["ChallengeParameters"], params))


def test_custom_auth_refusals_are_cognitos(server, idp, hooks):
    pool, client = custom_pool(idp, server, hooks)
    username = confirmed(server, idp, pool, client)
    with cognito_error("UserNotFoundException", "User does not exist."):
        idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="CUSTOM_AUTH", AuthParameters={"USERNAME": unique()})
    srp_only = new_client(idp, pool["Id"], flows=["ALLOW_USER_SRP_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"])
    with cognito_error("InvalidParameterException", "CUSTOM_AUTH flow not enabled for this client"):
        idp.initiate_auth(ClientId=srp_only["ClientId"], AuthFlow="CUSTOM_AUTH", AuthParameters={"USERNAME": username})
    idp.admin_disable_user(UserPoolId=pool["Id"], Username=username)
    with cognito_error("NotAuthorizedException", "User is disabled."):
        idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="CUSTOM_AUTH", AuthParameters={"USERNAME": username})
    plain, plain_client = pool_with(idp, server, hooks)
    plain_client = new_client(idp, plain["Id"], flows=CUSTOM_FLOWS)
    with cognito_error("InvalidParameterException", "Custom auth lambda trigger is not configured for the user pool."):
        idp.initiate_auth(ClientId=plain_client["ClientId"], AuthFlow="CUSTOM_AUTH",
                          AuthParameters={"USERNAME": username})
    with cognito_error("InvalidParameterException", contains="Session"):
        idp.respond_to_auth_challenge(ClientId=client["ClientId"], ChallengeName="CUSTOM_CHALLENGE",
                                      ChallengeResponses={"USERNAME": username, "ANSWER": "blue"})


def test_custom_auth_with_hidden_users_tells_the_functions_and_never_signs_in_a_stranger(server, idp, hooks):
    pool, _ = custom_pool(idp, server, hooks)
    client = new_client(idp, pool["Id"], flows=CUSTOM_FLOWS, PreventUserExistenceErrors="ENABLED")
    stranger = unique()
    started = idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="CUSTOM_AUTH", AuthParameters={"USERNAME": stranger})
    assert started["ChallengeName"] == "CUSTOM_CHALLENGE"
    define = [e for e in hooks.events("define-auth-challenge") if e["userName"] == stranger]
    assert define[0]["request"]["userNotFound"] is True and define[0]["request"]["userAttributes"] == {}
    # The function is fooled into issuing tokens; the server still refuses.
    with cognito_error("NotAuthorizedException", "Incorrect username or password."):
        answer(idp, client, stranger, started["Session"], "blue")


# --- CustomEmailSender / CustomSMSSender: the pool's own channel --------------------------------

def test_custom_senders_deliver_the_pools_codes_instead_of_the_server(server, idp, hooks):
    arn = bind(server, hooks, "custom-sender")
    pool = idp.create_user_pool(
        PoolName=unique("senders"), AutoVerifiedAttributes=["email"],
        LambdaConfig={"CustomEmailSender": {"LambdaVersion": "V1_0", "LambdaArn": arn},
                      "CustomSMSSender": {"LambdaVersion": "V1_0", "LambdaArn": arn},
                      "KMSKeyID": f"arn:aws:kms:us-east-1:{ACCOUNT}:key/unused"})["UserPool"]
    client = new_client(idp, pool["Id"])
    username = unique()
    sign_up(idp, client, username)
    source, destination, code = SENT[-1]
    assert (source, destination) == ("CustomEmailSender_SignUp", f"{username}@example.com")
    event = [e for e in hooks.events("custom-sender") if e["userName"] == username][-1]
    assert event["request"]["type"] == "customEmailSenderRequestV1"
    assert event["callerContext"]["clientId"] == client["ClientId"]
    assert not server.outbox(pool["Id"]), "the server's channel must not carry the pool's messages"
    idp.resend_confirmation_code(ClientId=client["ClientId"], Username=username)
    assert SENT[-1][0] == "CustomEmailSender_ResendCode"
    idp.confirm_sign_up(ClientId=client["ClientId"], Username=username, ConfirmationCode=SENT[-1][2])
    idp.forgot_password(ClientId=client["ClientId"], Username=username)
    assert SENT[-1][0] == "CustomEmailSender_ForgotPassword"

    invited = unique()
    idp.admin_create_user(UserPoolId=pool["Id"], Username=invited, DesiredDeliveryMediums=["SMS"],
                          TemporaryPassword="Temp-0rary!",
                          UserAttributes=[{"Name": "phone_number", "Value": "+15555550123"}])
    assert SENT[-1] == ("CustomSMSSender_AdminCreateUser", "+15555550123", "Temp-0rary!")
    # A refusal is final: the request says the code could not be delivered; nothing is retried.
    with cognito_error("CodeDeliveryFailureException", contains="The provider refuses this address"):
        sign_up(idp, client, unique(), email="someone@bounce.example")


# --- PreSignUp_ExternalProvider -----------------------------------------------------------

def test_a_first_federated_sign_in_runs_pre_sign_up_which_may_link_it(server, idp, hooks, upstream):  # noqa: F811
    """A provider user's first sign-in runs PreSignUp with PreSignUp_ExternalProvider; a function
    that links them to the native user with their email (AdminLinkProviderForUser, Cognito's
    documented pattern) makes this very sign-in that user's. A function's refusal ends the
    sign-in at the app's callback with its message."""
    import trigger_service
    from test_federation import federated_pool, upstream_pool, upstream_user
    from test_oauth import app_session
    from test_federation import federated_sign_in
    trigger_service.LINKING["idp"] = idp
    up_idp, up_pool, up_client = upstream_pool(server, upstream)
    up_name, up_email, up_sub = upstream_user(upstream, up_idp, up_pool, up_client)
    pool, client = federated_pool(idp, upstream, up_pool["Id"], up_client)
    idp.update_user_pool(UserPoolId=pool["Id"], AutoVerifiedAttributes=["email"],
                         LambdaConfig={"PreSignUp": bind(server, hooks, "link-by-email")})
    native = unique("native")
    idp.admin_create_user(UserPoolId=pool["Id"], Username=native, MessageAction="SUPPRESS", UserAttributes=[
        {"Name": "email", "Value": up_email}, {"Name": "email_verified", "Value": "true"}])
    idp.admin_set_user_password(UserPoolId=pool["Id"], Username=native, Password=PASSWORD, Permanent=True)
    app = app_session(server, client, scope="openid email profile")
    location, verifier = federated_sign_in(server, upstream, app, up_name)
    token = app.fetch_token(server.endpoint + "/oauth2/token", authorization_response=location, code_verifier=verifier)
    claims = verify_token(server, pool["Id"], token["id_token"], "id", client["ClientId"])
    assert claims["cognito:username"] == native
    event = [e for name, e, valid, _ in hooks.received if name == "link-by-email"][-1]
    assert event["triggerSource"] == "PreSignUp_ExternalProvider" and event["userName"] == f"Upstream_{up_sub}"
    assert event["callerContext"]["clientId"] == client["ClientId"] and event["request"]["userAttributes"]["email"] == up_email
    with cognito_error("UserNotFoundException"):
        idp.admin_get_user(UserPoolId=pool["Id"], Username=f"Upstream_{up_sub}")

    # Signed in again: the link holds, and the function is not asked again.
    calls = len([1 for name, *_ in hooks.received if name == "link-by-email"])
    location, verifier = federated_sign_in(server, upstream, app, up_name)
    token = app.fetch_token(server.endpoint + "/oauth2/token", authorization_response=location, code_verifier=verifier)
    assert verify_token(server, pool["Id"], token["id_token"], "id", client["ClientId"])["cognito:username"] == native
    assert len([1 for name, *_ in hooks.received if name == "link-by-email"]) == calls

    # A refusing function: the app's callback gets the error, and no user is made.
    other_name, _, other_sub = upstream_user(upstream, up_idp, up_pool, up_client)
    idp.update_user_pool(UserPoolId=pool["Id"], AutoVerifiedAttributes=["email"],
                         LambdaConfig={"PreSignUp": bind(server, hooks, "crash")})
    refused, _ = federated_sign_in(server, upstream, app, other_name)
    query = parse_qs(urlparse(refused).query)
    assert refused.startswith(CALLBACK) and query["error"] == ["invalid_request"], refused
    with cognito_error("UserNotFoundException"):
        idp.admin_get_user(UserPoolId=pool["Id"], Username=f"Upstream_{other_sub}")
