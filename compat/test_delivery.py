"""Real message delivery (issue 11): codes reach users through a real SMTP server (aiosmtpd)
and through a signed webhook, failures answer CodeDeliveryFailureException without losing the
account, and queued messages survive a restart."""
import email
import email.policy
import hashlib
import hmac
import http.server
import json
import re
import socket
import subprocess
import threading
import time
import urllib.request

import pytest
from aiosmtpd.controller import Controller

from conftest import BINARY, CognateServer
from helpers import cognito_error, new_client, sign_up, unique
from trigger_service import TriggerService

SECRET = "webhook-secret-for-tests"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Inbox:
    """An aiosmtpd handler keeping what it receives; it can refuse recipients."""

    def __init__(self):
        self.messages, self.refuse = [], set()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return "550 5.1.1 mailbox unavailable"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
        return "250 Message accepted"

    def to(self, address):
        return [m for m in self.messages if m["To"] == address]


@pytest.fixture
def smtp():
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield controller, inbox
    controller.stop()


def smtp_server(tmp_path, port, extra=()):
    return CognateServer(tmp_path, extra_args=[
        "--email-delivery", "smtp", "--smtp-host", "127.0.0.1", "--smtp-port", str(port), "--smtp-security", "none",
        "--smtp-from", "Cognate <no-reply@example.com>", *extra])


def wait_for(predicate, seconds=20):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def test_a_sign_up_code_arrives_by_smtp_with_the_pools_template(tmp_path, smtp):
    controller, inbox = smtp
    server = smtp_server(tmp_path, controller.port).start()
    try:
        idp = server.client()
        pool = idp.create_user_pool(
            PoolName="mail", AutoVerifiedAttributes=["email"],
            VerificationMessageTemplate={"EmailSubject": "Welcome to Clinic", "EmailMessage": "Your clinic code: {####}"},
            EmailConfiguration={"From": "Clinic <hello@clinic.example>"})["UserPool"]
        client = new_client(idp, pool["Id"])
        username = unique()
        address = f"{username}@example.com"
        response = sign_up(idp, client, username, email=address)
        assert response["CodeDeliveryDetails"]["DeliveryMedium"] == "EMAIL"
        [message] = inbox.to(address)
        assert message["Subject"] == "Welcome to Clinic"
        assert message["From"] == "Clinic <hello@clinic.example>"   # the pool's sender
        code = re.search(r"Your clinic code: (\d{6})", message.get_content()).group(1)
        idp.confirm_sign_up(ClientId=client["ClientId"], Username=username, ConfirmationCode=code)
        assert idp.admin_get_user(UserPoolId=pool["Id"], Username=username)["UserStatus"] == "CONFIRMED"
        assert code not in server.log_path.read_text()
    finally:
        server.stop()


def test_a_refused_address_answers_code_delivery_failure_and_keeps_the_account(tmp_path, smtp):
    controller, inbox = smtp
    server = smtp_server(tmp_path, controller.port).start()
    try:
        idp = server.client()
        pool = idp.create_user_pool(PoolName="refused", AutoVerifiedAttributes=["email"])["UserPool"]
        client = new_client(idp, pool["Id"])
        username = unique()
        address = f"{username}@example.com"
        inbox.refuse.add(address)
        with cognito_error("CodeDeliveryFailureException"):
            sign_up(idp, client, username, email=address)
        assert idp.admin_get_user(UserPoolId=pool["Id"], Username=username)["UserStatus"] == "UNCONFIRMED"
        inbox.refuse.clear()
        idp.resend_confirmation_code(ClientId=client["ClientId"], Username=username)
        assert len(inbox.to(address)) == 1
    finally:
        server.stop()


def test_a_message_queued_while_smtp_is_down_is_sent_after_a_restart(tmp_path):
    port = free_port()   # nothing listens yet
    server = smtp_server(tmp_path, port).start()
    idp = server.client()
    pool = idp.create_user_pool(PoolName="down", AutoVerifiedAttributes=["email"])["UserPool"]
    client = new_client(idp, pool["Id"])
    username = unique()
    address = f"{username}@example.com"
    with cognito_error("CodeDeliveryFailureException"):
        sign_up(idp, client, username, email=address)
    server.stop()
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        server.start()   # the queue is in the database; the retry finds the server up
        assert wait_for(lambda: inbox.to(address), 30), "the queued message never arrived"
        code = re.search(r"(\d{6})", inbox.to(address)[0].get_content()).group(1)
        server.client().confirm_sign_up(ClientId=client["ClientId"], Username=username, ConfirmationCode=code)
    finally:
        server.stop()
        controller.stop()


class Webhook(http.server.BaseHTTPRequestHandler):
    received, status, hang = [], 200, False

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if Webhook.hang:
            time.sleep(8)
        Webhook.received.append((dict(self.headers), body))
        self.send_response(Webhook.status)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def webhook():
    Webhook.received, Webhook.status, Webhook.hang = [], 200, False
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Webhook)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/hook"
    httpd.shutdown()


def gateway_key(medium):
    """The key a delivery webhook verifies with: HMAC-SHA256(secret, "cognate-<medium>-webhook")."""
    return hmac.new(SECRET.encode(), f"cognate-{medium}-webhook".encode(), hashlib.sha256).digest()


def webhook_server(tmp_path, url):
    return CognateServer(tmp_path, extra_args=["--email-delivery", "webhook", "--email-webhook-url", url,
                                               "--sms-delivery", "webhook", "--sms-webhook-url", url],
                         env={"COGNATE_WEBHOOK_SECRET": SECRET})


def test_sms_codes_reach_a_signed_webhook(tmp_path, webhook):
    server = webhook_server(tmp_path, webhook).start()
    try:
        idp = server.client()
        pool = idp.create_user_pool(PoolName="sms", AutoVerifiedAttributes=["phone_number"])["UserPool"]
        client = new_client(idp, pool["Id"])
        username = unique()
        sign_up(idp, client, username, email=False, attributes=[("phone_number", "+15555550188")])
        [(headers, body)] = Webhook.received
        timestamp = headers["X-Cognate-Timestamp"]
        expected = hmac.new(gateway_key("sms"), f"{timestamp}.{webhook}.".encode() + body, hashlib.sha256).hexdigest()
        assert headers["X-Cognate-Signature"] == f"v2={expected}"
        assert abs(int(timestamp) - time.time()) < 60
        payload = json.loads(body)
        assert payload["medium"] == "SMS" and payload["destination"] == "+15555550188" and payload["purpose"] == "signUp"
        idp.confirm_sign_up(ClientId=client["ClientId"], Username=username, ConfirmationCode=payload["code"])
    finally:
        server.stop()


def test_a_gateways_key_cannot_make_a_trigger_call(tmp_path, webhook):
    """The server signs SMS, email and a function's calls with one configured secret, but with
    a key per purpose over the target URL: what an SMS gateway receives verifies only as SMS
    (not as email), and neither replaying it to a function nor signing an event with the
    gateway's own key gets a function to accept it, while the server's own call is accepted."""
    server = webhook_server(tmp_path, webhook).start()
    service = TriggerService(SECRET)
    try:
        idp = server.client()
        pool = idp.create_user_pool(PoolName="sms", AutoVerifiedAttributes=["phone_number"])["UserPool"]
        sign_up(idp, new_client(idp, pool["Id"]), unique(), email=False, attributes=[("phone_number", "+15555550189")])
        [(headers, body)] = Webhook.received
        timestamp = headers["X-Cognate-Timestamp"]

        def signature(key, url, payload):
            return "v2=" + hmac.new(key, f"{timestamp}.{url}.".encode() + payload, hashlib.sha256).hexdigest()
        assert headers["X-Cognate-Signature"] == signature(gateway_key("sms"), webhook, body)
        assert headers["X-Cognate-Signature"] != signature(gateway_key("email"), webhook, body)

        arn = "arn:aws:lambda:us-east-1:123456789012:function:pre-sign-up-gateway"
        bound = subprocess.run([str(BINARY), "functions", "put", arn, service.url + "/pre-sign-up", "--database",
                                server.database], capture_output=True, text=True, timeout=60)
        assert bound.returncode == 0, bound.stderr
        event = json.dumps({"version": "1", "triggerSource": "PreSignUp_SignUp", "userName": "mallory",
                            "request": {"userAttributes": {}}, "response": {}}).encode()
        for forged_headers, forged_body in [
            (headers, body),                                                             # the SMS, replayed
            ({**headers, "X-Cognate-Signature": signature(gateway_key("sms"), service.url + "/pre-sign-up", event)},
             event),                                                                     # signed with the gateway's key
        ]:
            request = urllib.request.Request(service.url + "/pre-sign-up", data=forged_body, method="POST", headers={
                **{k: v for k, v in forged_headers.items() if k.startswith("X-Cognate")},
                "X-Cognate-Function": arn, "Content-Type": "application/json"})
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=10)
            assert refused.value.code == 401
        assert [valid for _, _, valid, _ in service.received] == [False, False]

        trigger_pool = idp.create_user_pool(PoolName="hooked", LambdaConfig={"PreSignUp": arn})["UserPool"]
        sign_up(idp, new_client(idp, trigger_pool["Id"]), unique(), email=False)
        assert service.received[-1][2] is True and service.received[-1][3] == arn
    finally:
        service.stop()
        server.stop()


def test_a_failing_or_hanging_webhook_answers_code_delivery_failure_in_bounded_time(tmp_path, webhook):
    server = webhook_server(tmp_path, webhook).start()
    try:
        idp = server.client()
        pool = idp.create_user_pool(PoolName="hooks", AutoVerifiedAttributes=["email"])["UserPool"]
        client = new_client(idp, pool["Id"])
        Webhook.status = 500
        with cognito_error("CodeDeliveryFailureException"):
            sign_up(idp, client, unique())
        Webhook.status, Webhook.hang = 200, True
        started = time.time()
        with cognito_error("CodeDeliveryFailureException"):
            sign_up(idp, client, unique())
        assert time.time() - started < 10   # the 5-second timeout, not a hang
    finally:
        server.stop()


def test_production_mode_needs_an_email_channel(tmp_path):
    import subprocess
    from conftest import BINARY
    result = subprocess.run([str(BINARY), "serve", "--mode", "production", "--admin-credentials", "AKID:secret",
                             "--port", "0", "--database", str(tmp_path / "db.sqlite")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "--email-delivery" in result.stderr + result.stdout
