"""The operator-side operations of issue 14 through the AWS CLI: threat protection (risk
configuration, auth events, feedback), log delivery, managed login branding and the signing
certificate."""
import base64
import json

from helpers import confirmed_user, sign_in, unique
from test_flow_awscli import aws  # noqa: F401  (the fixture)


def test_threat_protection_and_log_delivery(server, idp, aws):  # noqa: F811
    pool = aws("create-user-pool", "--pool-name", unique("cli-risk"), "--auto-verified-attributes", "email",
               "--user-pool-add-ons", "AdvancedSecurityMode=AUDIT")["UserPool"]
    client = aws("create-user-pool-client", "--user-pool-id", pool["Id"], "--client-name", "app",
                 "--explicit-auth-flows", "ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH")["UserPoolClient"]
    configured = aws("set-risk-configuration", "--user-pool-id", pool["Id"], "--risk-exception-configuration",
                     json.dumps({"SkippedIPRangeList": ["10.0.0.0/8"]}))["RiskConfiguration"]
    assert configured["RiskExceptionConfiguration"]["SkippedIPRangeList"] == ["10.0.0.0/8"]
    described = aws("describe-risk-configuration", "--user-pool-id", pool["Id"])["RiskConfiguration"]
    assert described["RiskExceptionConfiguration"] == configured["RiskExceptionConfiguration"]

    username, _, _ = confirmed_user(server, idp, pool, client)
    sign_in(idp, client, username)
    events = aws("admin-list-user-auth-events", "--user-pool-id", pool["Id"], "--username", username)["AuthEvents"]
    assert [e["EventType"] for e in events] == ["SignIn", "SignUp"]
    aws("admin-update-auth-event-feedback", "--user-pool-id", pool["Id"], "--username", username,
        "--event-id", events[0]["EventId"], "--feedback-value", "Valid")
    events = aws("admin-list-user-auth-events", "--user-pool-id", pool["Id"], "--username", username)["AuthEvents"]
    assert events[0]["EventFeedback"]["FeedbackValue"] == "Valid"

    logs = [{"LogLevel": "ERROR", "EventSource": "userAuthEvents",
             "FirehoseConfiguration": {"StreamArn": "arn:aws:firehose:us-east-1:000000000000:deliverystream/auth"}}]
    aws("set-log-delivery-configuration", "--user-pool-id", pool["Id"], "--log-configurations", json.dumps(logs))
    got = aws("get-log-delivery-configuration", "--user-pool-id", pool["Id"])["LogDeliveryConfiguration"]
    assert got["LogConfigurations"] == logs
    failed = aws.fails("set-risk-configuration", "--user-pool-id", pool["Id"], "--risk-exception-configuration",
                       json.dumps({"BlockedIPRangeList": ["not-a-range"]}))
    assert "InvalidParameterException" in failed


def test_branding_and_signing_certificate(server, aws):  # noqa: F811
    pool = aws("create-user-pool", "--pool-name", unique("cli-brand"))["UserPool"]
    client = aws("create-user-pool-client", "--user-pool-id", pool["Id"], "--client-name", "web")["UserPoolClient"]
    settings = {"components": {"pageBackground": {"lightMode": {"color": "112233ff"}}}}
    created = aws("create-managed-login-branding", "--user-pool-id", pool["Id"], "--client-id", client["ClientId"],
                  "--settings", json.dumps(settings))["ManagedLoginBranding"]
    by_client = aws("describe-managed-login-branding-by-client", "--user-pool-id", pool["Id"],
                    "--client-id", client["ClientId"])["ManagedLoginBranding"]
    assert by_client["ManagedLoginBrandingId"] == created["ManagedLoginBrandingId"] and by_client["Settings"] == settings
    assert "ManagedLoginBrandingExistsException" in aws.fails(
        "create-managed-login-branding", "--user-pool-id", pool["Id"], "--client-id", client["ClientId"],
        "--use-cognito-provided-values")
    aws("delete-managed-login-branding", "--user-pool-id", pool["Id"],
        "--managed-login-branding-id", created["ManagedLoginBrandingId"])
    assert "ResourceNotFoundException" in aws.fails(
        "describe-managed-login-branding", "--user-pool-id", pool["Id"],
        "--managed-login-branding-id", created["ManagedLoginBrandingId"])
    certificate = aws("get-signing-certificate", "--user-pool-id", pool["Id"])["Certificate"]
    assert base64.b64decode(certificate)[:1] == b"\x30"          # a DER SEQUENCE
