"""Threat protection (issue 14): auth events with their risk and feedback, risk configurations
(blocked and skipped address ranges, compromised passwords from the operator's list, account
takeover actions with notification emails and one-click feedback links), and log delivery of
auth events to files — through boto3, with callers' addresses given by X-Forwarded-For."""
import hashlib
import json
import os
import tempfile
import time
import urllib.request

import pytest

from conftest import CognateServer
from helpers import PASSWORD, cognito_error, confirmed_user, last_message, new_client, sign_in, srp_auth, srp_for, unique

BREACHED = "Breached-Pass1!"
BREACHED_AS_SHA1 = "Pwned-Pass2!"
SAFE = "Unusual-Pass3!"


@pytest.fixture(scope="module")
def server():
    with tempfile.TemporaryDirectory(prefix="cognate-threats-") as workdir:
        breached = f"{workdir}/breached.txt"
        sha1 = hashlib.sha1(BREACHED_AS_SHA1.encode()).hexdigest().upper()
        with open(breached, "w") as f:
            f.write(f"{BREACHED}\n{sha1}:42\n\n")
        s = CognateServer(workdir, extra_args=[
            "--client-address-header", "X-Forwarded-For", "--breached-passwords", breached,
            "--log-delivery-directory", f"{workdir}/logs"]).start()
        s.logs = f"{workdir}/logs"
        yield s
        s.stop()
        assert not s.faults(), "\n".join(s.faults()[:20])


def from_address(server, address):
    """A boto3 client whose requests come from `address` as the server sees it."""
    client = server.client()
    client.meta.events.register(
        "before-sign.cognito-idp.*", lambda request, **_: request.headers.__setitem__("X-Forwarded-For", address))
    return client


def protected_pool(idp, mode="ENFORCED", mfa=None):
    pool = idp.create_user_pool(
        PoolName=unique("threats"), AutoVerifiedAttributes=["email"],
        UserPoolAddOns={"AdvancedSecurityMode": mode})["UserPool"]
    if mfa:
        idp.set_user_pool_mfa_config(
            UserPoolId=pool["Id"], MfaConfiguration=mfa,
            EmailMfaConfiguration={"Message": "Code {####}", "Subject": "Sign-in code"})
    return pool, new_client(idp, pool["Id"])


def events(idp, pool, username):
    return idp.admin_list_user_auth_events(UserPoolId=pool["Id"], Username=username, MaxResults=60)["AuthEvents"]


def test_a_pool_without_threat_protection_has_no_auth_events(server, idp):
    pool, client = protected_pool(idp, mode="OFF")
    username, _, _ = confirmed_user(server, idp, pool, client)
    with cognito_error("UserPoolAddOnNotEnabledException"):
        events(idp, pool, username)
    with cognito_error("UserPoolAddOnNotEnabledException"):
        idp.set_risk_configuration(UserPoolId=pool["Id"], RiskExceptionConfiguration={"BlockedIPRangeList": ["10.0.0.0/8"]})


def test_sign_ins_and_account_events_are_recorded_newest_first_with_feedback(server, idp):
    pool, client = protected_pool(idp, mode="AUDIT")
    username, _, _ = confirmed_user(server, idp, pool, client)
    caller = from_address(server, "198.51.100.7")
    with cognito_error("NotAuthorizedException", "Incorrect username or password."):
        sign_in(caller, client, username, password="Wrong-Pass1!")
    sign_in(caller, client, username)
    srp_auth(caller, srp_for(caller, pool["Id"], client, username))
    idp.forgot_password(ClientId=client["ClientId"], Username=username)
    listed = events(idp, pool, username)
    assert [e["EventType"] for e in listed] == ["ForgotPassword", "SignIn", "SignIn", "SignIn", "SignUp"]
    failed, passed = listed[3], listed[2]
    assert failed["EventResponse"] == "Fail"
    assert failed["ChallengeResponses"] == [{"ChallengeName": "Password", "ChallengeResponse": "Failure"}]
    assert passed["EventResponse"] == "Pass" and passed["EventRisk"]["RiskDecision"] == "NoRisk"
    assert passed["ChallengeResponses"] == [{"ChallengeName": "Password", "ChallengeResponse": "Success"}]
    assert passed["EventContextData"]["IpAddress"] == "198.51.100.7"
    assert listed[0]["CreationDate"] >= listed[-1]["CreationDate"]
    page = idp.admin_list_user_auth_events(UserPoolId=pool["Id"], Username=username, MaxResults=2)
    rest = idp.admin_list_user_auth_events(UserPoolId=pool["Id"], Username=username, NextToken=page["NextToken"])
    assert [e["EventId"] for e in page["AuthEvents"] + rest["AuthEvents"]] == [e["EventId"] for e in listed]

    idp.admin_update_auth_event_feedback(
        UserPoolId=pool["Id"], Username=username, EventId=passed["EventId"], FeedbackValue="Valid")
    feedback = [e for e in events(idp, pool, username) if e["EventId"] == passed["EventId"]][0]["EventFeedback"]
    assert feedback["FeedbackValue"] == "Valid" and feedback["Provider"] == "Admin" and feedback["FeedbackDate"]
    with cognito_error("NotAuthorizedException"):
        idp.update_auth_event_feedback(UserPoolId=pool["Id"], Username=username, EventId=passed["EventId"],
                                       FeedbackToken="forged-token", FeedbackValue="Invalid")
    with cognito_error("ResourceNotFoundException"):
        idp.admin_update_auth_event_feedback(
            UserPoolId=pool["Id"], Username=username, EventId="no-such-event", FeedbackValue="Valid")
    with cognito_error("UserNotFoundException"):
        events(idp, pool, "nobody-" + unique())


def test_risk_configuration_per_pool_and_per_client(server, idp):
    pool, client = protected_pool(idp)
    empty = idp.describe_risk_configuration(UserPoolId=pool["Id"])["RiskConfiguration"]
    assert empty == {"UserPoolId": pool["Id"]}
    set_ = idp.set_risk_configuration(
        UserPoolId=pool["Id"],
        CompromisedCredentialsRiskConfiguration={"EventFilter": ["SIGN_IN"], "Actions": {"EventAction": "BLOCK"}},
        RiskExceptionConfiguration={"SkippedIPRangeList": ["192.0.2.0/24"]})["RiskConfiguration"]
    assert set_["LastModifiedDate"] and set_["UserPoolId"] == pool["Id"]
    idp.set_risk_configuration(UserPoolId=pool["Id"], ClientId=client["ClientId"],
                               RiskExceptionConfiguration={"BlockedIPRangeList": ["2001:db8::/32"]})
    own = idp.describe_risk_configuration(UserPoolId=pool["Id"], ClientId=client["ClientId"])["RiskConfiguration"]
    assert own["ClientId"] == client["ClientId"] and "CompromisedCredentialsRiskConfiguration" not in own
    other = new_client(idp, pool["Id"], name="other")
    inherited = idp.describe_risk_configuration(UserPoolId=pool["Id"], ClientId=other["ClientId"])["RiskConfiguration"]
    assert inherited["RiskExceptionConfiguration"] == {"SkippedIPRangeList": ["192.0.2.0/24"]}
    with cognito_error("InvalidParameterException", contains="Invalid IP range"):
        idp.set_risk_configuration(UserPoolId=pool["Id"], RiskExceptionConfiguration={"BlockedIPRangeList": ["10.0.0.0/33"]})
    with cognito_error("InvalidParameterException", contains="NotifyConfiguration"):
        idp.set_risk_configuration(UserPoolId=pool["Id"], AccountTakeoverRiskConfiguration={
            "Actions": {"HighAction": {"Notify": True, "EventAction": "BLOCK"}}})
    with cognito_error("ResourceNotFoundException"):
        idp.describe_risk_configuration(UserPoolId=pool["Id"], ClientId="nosuchclient0000000000000")


def test_blocked_and_skipped_address_ranges(server, idp):
    pool, client = protected_pool(idp)
    username, _, _ = confirmed_user(server, idp, pool, client)
    idp.set_risk_configuration(UserPoolId=pool["Id"], RiskExceptionConfiguration={
        "BlockedIPRangeList": ["203.0.113.0/24", "2001:db8::/32"], "SkippedIPRangeList": ["198.51.100.0/24"]})
    for address in ("203.0.113.9", "2001:db8::1"):
        with cognito_error("NotAuthorizedException", "Request not allowed due to security reasons."):
            sign_in(from_address(server, address), client, username)
    assert sign_in(from_address(server, "198.51.100.1"), client, username)["AccessToken"]
    blocked = events(idp, pool, username)[-2]
    assert blocked["EventResponse"] == "Fail" and blocked["EventRisk"]["RiskDecision"] == "Block"

    audit, audit_client = protected_pool(idp, mode="AUDIT")     # audit mode records, never acts
    other, _, _ = confirmed_user(server, idp, audit, audit_client)
    idp.set_risk_configuration(UserPoolId=audit["Id"], RiskExceptionConfiguration={"BlockedIPRangeList": ["203.0.113.0/24"]})
    assert sign_in(from_address(server, "203.0.113.9"), audit_client, other)["AccessToken"]
    assert events(idp, audit, other)[0]["EventRisk"]["RiskDecision"] == "Block"


def test_compromised_passwords_from_the_operators_list(server, idp):
    pool, client = protected_pool(idp)
    username, _, _ = confirmed_user(server, idp, pool, client, password=BREACHED)   # before the configuration
    idp.set_risk_configuration(UserPoolId=pool["Id"], CompromisedCredentialsRiskConfiguration={
        "EventFilter": ["SIGN_IN", "SIGN_UP", "PASSWORD_CHANGE"], "Actions": {"EventAction": "BLOCK"}})
    with cognito_error("NotAuthorizedException", "Unable to login because of security reasons."):
        sign_in(idp, client, username, password=BREACHED)
    refused = events(idp, pool, username)[0]
    assert refused["EventRisk"]["CompromisedCredentialsDetected"] is True and refused["EventResponse"] == "Fail"
    # SRP never shows the server the password: it cannot be checked there (as in Cognito).
    assert srp_auth(idp, srp_for(idp, pool["Id"], client, username, password=BREACHED))["AuthenticationResult"]
    for password in (BREACHED, BREACHED_AS_SHA1):
        with cognito_error("InvalidPasswordException", contains="compromised"):
            idp.sign_up(ClientId=client["ClientId"], Username=unique(), Password=password,
                        UserAttributes=[{"Name": "email", "Value": unique() + "@example.com"}])
    access = srp_auth(idp, srp_for(idp, pool["Id"], client, username, password=BREACHED))["AuthenticationResult"]["AccessToken"]
    with cognito_error("InvalidPasswordException", contains="compromised"):
        idp.change_password(AccessToken=access, PreviousPassword=BREACHED, ProposedPassword=BREACHED_AS_SHA1)
    idp.change_password(AccessToken=access, PreviousPassword=BREACHED, ProposedPassword=SAFE)
    assert sign_in(idp, client, username, password=SAFE)["AccessToken"]
    assert events(idp, pool, username)[1]["EventType"] == "PasswordChange"


def takeover_configuration(low="NO_ACTION", medium="BLOCK", high="BLOCK", notify=True):
    return {
        "NotifyConfiguration": {
            "SourceArn": "arn:aws:ses:us-east-1:000000000000:identity/security@example.com",
            "From": "security@example.com",
            "BlockEmail": {"Subject": "Blocked sign-in", "TextBody":
                           "Blocked {username} from {ip-address}. Not you? {one-click-link-invalid}"}},
        "Actions": {level: {"Notify": notify, "EventAction": action}
                    for level, action in (("LowAction", low), ("MediumAction", medium), ("HighAction", high))}}


def test_repeated_failures_then_the_right_password_are_blocked_and_the_user_is_told(server, idp):
    pool, client = protected_pool(idp)
    username, email, _ = confirmed_user(server, idp, pool, client)
    idp.set_risk_configuration(UserPoolId=pool["Id"], AccountTakeoverRiskConfiguration=takeover_configuration())
    caller = from_address(server, "192.0.2.44")
    for _ in range(3):
        with cognito_error("NotAuthorizedException", "Incorrect username or password."):
            sign_in(caller, client, username, password="Wrong-Pass1!")
    with cognito_error("NotAuthorizedException", "Unable to login because of security reasons."):
        sign_in(caller, client, username)
    blocked = events(idp, pool, username)[0]
    assert blocked["EventRisk"]["RiskDecision"] == "AccountTakeover" and blocked["EventRisk"]["RiskLevel"] == "Medium"
    deadline = time.time() + 10
    while True:
        sent = [m for m in server.outbox(pool["Id"]) if m["destination"] == email and m["subject"] == "Blocked sign-in"]
        if sent or time.time() > deadline:
            break
        time.sleep(0.2)
    assert sent, "no notification email"
    body = sent[-1]["body"]
    assert body.startswith(f"Blocked {username} from 192.0.2.44.") and "code" not in sent[-1] or not sent[-1]["code"]
    link = body.split("Not you? ")[1].strip()
    with urllib.request.urlopen(link) as page:
        assert page.status == 200 and b"recorded" in page.read()
    feedback = events(idp, pool, username)[0]["EventFeedback"]
    assert feedback["FeedbackValue"] == "Invalid" and feedback["Provider"] == "User"
    # The failures were cleared by the right password: the next sign-in is no risk.
    assert sign_in(caller, client, username)["AccessToken"]


def test_an_unfamiliar_address_can_require_mfa(server, idp):
    pool, client = protected_pool(idp, mfa="OPTIONAL")
    username, email, _ = confirmed_user(server, idp, pool, client)
    idp.set_risk_configuration(UserPoolId=pool["Id"], AccountTakeoverRiskConfiguration=takeover_configuration(
        low="MFA_REQUIRED", notify=False))
    home = from_address(server, "192.0.2.10")
    assert sign_in(home, client, username)["AccessToken"]         # no history: nothing is unfamiliar yet
    assert sign_in(home, client, username)["AccessToken"]
    away = from_address(server, "198.51.100.99")
    started = away.initiate_auth(ClientId=client["ClientId"], AuthFlow="USER_PASSWORD_AUTH",
                                 AuthParameters={"USERNAME": username, "PASSWORD": PASSWORD})
    assert started["ChallengeName"] == "EMAIL_OTP"                 # the user never enabled MFA
    code = last_message(server, pool["Id"], destination=email, purpose="mfa")["code"]
    tokens = away.respond_to_auth_challenge(
        ClientId=client["ClientId"], ChallengeName="EMAIL_OTP", Session=started["Session"],
        ChallengeResponses={"USERNAME": username, "EMAIL_OTP_CODE": code})["AuthenticationResult"]
    assert tokens["AccessToken"]
    risky = [e for e in events(idp, pool, username) if e["EventType"] == "SignIn"][0]
    assert risky["EventRisk"]["RiskLevel"] == "Low" and risky["EventResponse"] == "InProgress"

    no_mfa, no_mfa_client = protected_pool(idp)                    # MFA off: MFA_REQUIRED can only block
    other, _, _ = confirmed_user(server, idp, no_mfa, no_mfa_client)
    idp.set_risk_configuration(UserPoolId=no_mfa["Id"], AccountTakeoverRiskConfiguration=takeover_configuration(
        low="MFA_REQUIRED", notify=False))
    sign_in(home, no_mfa_client, other)
    with cognito_error("NotAuthorizedException", "Unable to login because of security reasons."):
        sign_in(away, no_mfa_client, other)


def test_auth_events_delivered_to_a_log_file(server, idp):
    pool, client = protected_pool(idp)
    arn = "arn:aws:logs:us-east-1:000000000000:log-group:cognate-auth-events"
    with cognito_error("InvalidParameterException"):
        idp.set_log_delivery_configuration(UserPoolId=pool["Id"], LogConfigurations=[
            {"LogLevel": "INFO", "EventSource": "userNotification", "CloudWatchLogsConfiguration": {"LogGroupArn": arn}}])
    with cognito_error("InvalidParameterException"):
        idp.set_log_delivery_configuration(UserPoolId=pool["Id"], LogConfigurations=[
            {"LogLevel": "INFO", "EventSource": "userAuthEvents"}])
    configured = idp.set_log_delivery_configuration(UserPoolId=pool["Id"], LogConfigurations=[
        {"LogLevel": "INFO", "EventSource": "userAuthEvents", "CloudWatchLogsConfiguration": {"LogGroupArn": arn}}])
    assert configured["LogDeliveryConfiguration"]["LogConfigurations"][0]["EventSource"] == "userAuthEvents"
    assert idp.get_log_delivery_configuration(UserPoolId=pool["Id"])["LogDeliveryConfiguration"] == \
        configured["LogDeliveryConfiguration"]
    username, _, _ = confirmed_user(server, idp, pool, client)
    sign_in(idp, client, username)
    with open(f"{server.logs}/cognate-auth-events.jsonl") as f:
        lines = [json.loads(line) for line in f]
    mine = [line for line in lines if line["username"] == username]
    assert [line["eventType"] for line in mine] == ["SignUp", "SignIn"]
    assert mine[1]["eventResponse"] == "Pass" and mine[1]["userPoolId"] == pool["Id"]
    assert PASSWORD not in json.dumps(lines)


def test_a_log_group_name_too_long_for_a_file_still_gets_its_events(server, idp):
    """CloudWatch takes log group names of up to 512 characters; a file name, 255 bytes. A long
    name is shortened with a hash of the whole, so its events are still written."""
    pool, client = protected_pool(idp)
    group = "cognate-" + "long-" * 60 + "events"
    idp.set_log_delivery_configuration(UserPoolId=pool["Id"], LogConfigurations=[
        {"LogLevel": "INFO", "EventSource": "userAuthEvents",
         "CloudWatchLogsConfiguration": {"LogGroupArn": f"arn:aws:logs:us-east-1:000000000000:log-group:{group}"}}])
    username, _, _ = confirmed_user(server, idp, pool, client)
    sign_in(idp, client, username)
    files = [f for f in os.listdir(server.logs) if f.startswith(group[:150]) and f.endswith(".jsonl")]
    assert len(files) == 1 and len(files[0].encode()) <= 206
    with open(os.path.join(server.logs, files[0])) as f:
        assert [json.loads(line)["eventType"] for line in f if username in line] == ["SignUp", "SignIn"]


def test_failed_deliveries_go_to_the_user_notification_log(tmp_path):
    """An email channel that refuses: the pool's userNotification destination gets an ERROR
    line per failed attempt, with the address masked and no code."""
    from conftest import free_port
    dead = f"http://127.0.0.1:{free_port()}/hook"                 # nothing listens there
    server = CognateServer(tmp_path, extra_args=[
        "--email-delivery", "webhook", "--email-webhook-url", dead, "--log-delivery-directory", str(tmp_path / "logs"),
        "--rate-limit-messages", "0"], env={"COGNATE_WEBHOOK_SECRET": "secret-for-this-test"}).start()
    try:
        idp = server.client()
        pool = idp.create_user_pool(PoolName=unique("notify"), AutoVerifiedAttributes=["email"])["UserPool"]
        client = new_client(idp, pool["Id"])
        idp.set_log_delivery_configuration(UserPoolId=pool["Id"], LogConfigurations=[{
            "LogLevel": "ERROR", "EventSource": "userNotification",
            "CloudWatchLogsConfiguration": {"LogGroupArn": "arn:aws:logs:us-east-1:000000000000:log-group:notifications"}}])
        email = unique() + "@example.com"
        with cognito_error("CodeDeliveryFailureException"):
            idp.sign_up(ClientId=client["ClientId"], Username=unique(), Password=PASSWORD,
                        UserAttributes=[{"Name": "email", "Value": email}])
        with open(tmp_path / "logs" / "notifications.jsonl") as f:
            lines = [json.loads(line) for line in f]
        assert lines and lines[0]["eventSource"] == "userNotification" and lines[0]["logLevel"] == "ERROR"
        assert lines[0]["userPoolId"] == pool["Id"] and lines[0]["deliveryMedium"] == "EMAIL"
        assert lines[0]["willRetry"] is True and email not in json.dumps(lines) and "code" not in lines[0]
    finally:
        server.stop()


def test_passwordless_sign_ins_are_recorded_and_screened(server, idp):
    pool = idp.create_user_pool(
        PoolName=unique("threats"), AutoVerifiedAttributes=["email"], UserPoolAddOns={"AdvancedSecurityMode": "ENFORCED"},
        Policies={"SignInPolicy": {"AllowedFirstAuthFactors": ["PASSWORD", "EMAIL_OTP"]}})["UserPool"]
    client = new_client(idp, pool["Id"], flows=["ALLOW_USER_AUTH", "ALLOW_USER_PASSWORD_AUTH"])
    username, email, _ = confirmed_user(server, idp, pool, client)
    caller = from_address(server, "198.51.100.9")

    def code_sign_in():
        started = caller.initiate_auth(ClientId=client["ClientId"], AuthFlow="USER_AUTH",
                                       AuthParameters={"USERNAME": username, "PREFERRED_CHALLENGE": "EMAIL_OTP"})
        code = last_message(server, pool["Id"], destination=email, purpose="mfa")["code"]
        return caller.respond_to_auth_challenge(
            ClientId=client["ClientId"], ChallengeName="EMAIL_OTP", Session=started["Session"],
            ChallengeResponses={"USERNAME": username, "EMAIL_OTP_CODE": code})

    assert code_sign_in()["AuthenticationResult"]["AccessToken"]
    latest = events(idp, pool, username)[0]
    assert latest["EventType"] == "SignIn" and latest["EventResponse"] == "Pass"
    assert latest["ChallengeResponses"] == [{"ChallengeName": "EMAIL_OTP", "ChallengeResponse": "Success"}]
    assert latest["EventContextData"]["IpAddress"] == "198.51.100.9"
    # A blocked address is blocked for codes too.
    idp.set_risk_configuration(UserPoolId=pool["Id"], RiskExceptionConfiguration={"BlockedIPRangeList": ["198.51.100.0/24"]})
    with cognito_error("NotAuthorizedException"):
        code_sign_in()
    assert events(idp, pool, username)[0]["EventResponse"] == "Fail"
