"""A trigger service as a team moving from Cognito would run it: the Lambda handlers of the
health-app journey, unchanged in shape (`handler(event) -> event`, raise to refuse), behind a
thin HTTP wrapper that checks Cognate's signature and answers Lambda's way (the event back, or
`{"errorMessage": ...}` with a 400).

Each handler is served at /<name>; `cognate functions put <arn> http://host:port/<name>` binds
a pool's ARN to it. Every event received is kept in `received` for the tests to inspect.

A real function is given its own key (`cognate functions secret <arn>`, 64 hex digits) and
checks calls with `verify` below; this service serves many ARNs, so it derives each function's
key from the server's secret itself (`function_key`), as that command does.
"""
import hashlib
import hmac
import http.server
import json
import threading
import time

# --- the Lambda handlers ------------------------------------------------------------------

CLINIC_DOMAIN = "clinic.example"
LEGACY_USERS = {  # the old user directory the pool migrates from
    "legacy@example.com": {"password": "Legacy-Passw0rd!", "name": "Lee Gacy"},
    "oldtimer": {"password": None, "email": "oldtimer@example.com"},   # known, password unknown: reset
}
SECURITY_QUESTIONS = {"color": "blue"}


def pre_sign_up(event):
    email = event["request"]["userAttributes"].get("email", "")
    if email.endswith("@" + CLINIC_DOMAIN):
        raise Exception("This email belongs to a clinic account; ask your clinic for an invitation")
    if event["request"].get("validationData", {}).get("invitation") == "trusted":
        event["response"]["autoConfirmUser"] = True
        event["response"]["autoVerifyEmail"] = "email" in event["request"]["userAttributes"]
    return event


LINKING = {"idp": None}   # the boto3 cognito-idp client link_by_email calls back with (set by the test)


def link_by_email(event):
    """Cognito's documented pattern for automatic linking: on a provider user's first sign-in
    (PreSignUp_ExternalProvider), link them to the pool's native user with the same email."""
    if event["triggerSource"] != "PreSignUp_ExternalProvider":
        return event
    idp = LINKING["idp"]
    email = event["request"]["userAttributes"].get("email", "")
    users = idp.list_users(UserPoolId=event["userPoolId"], Filter=f'email = "{email}"')["Users"]
    native = [user for user in users if user["UserStatus"] != "EXTERNAL_PROVIDER"]
    if native:
        provider, user_id = event["userName"].split("_", 1)
        idp.admin_link_provider_for_user(
            UserPoolId=event["userPoolId"],
            DestinationUser={"ProviderName": "Cognito", "ProviderAttributeValue": native[0]["Username"]},
            SourceUser={"ProviderName": provider, "ProviderAttributeName": "Cognito_Subject", "ProviderAttributeValue": user_id})
    return event


def post_confirmation(event):
    if event["request"]["userAttributes"].get("family_name") == "Unwelcome":
        raise Exception("Profile service rejected the user")
    return event


def pre_authentication(event):
    if event["request"]["userAttributes"].get("custom:suspended") == "yes":
        raise Exception("Your account is suspended")
    return event


def post_authentication(event):
    return event


def pre_token_generation(event):
    """V1: adds the clinic to the ID token, drops the phone number, overrides groups."""
    event["response"]["claimsOverrideDetails"] = {
        "claimsToAddOrOverride": {"clinic_id": "clinic-42", "sub": "forged", "iss": "https://evil.example"},
        "claimsToSuppress": ["phone_number", "aud"],
        "groupOverrideDetails": {"groupsToOverride": ["patients"], "iamRolesToOverride": [], "preferredRole": None},
    }
    return event


def pre_token_generation_v2(event):
    event["response"]["claimsAndScopeOverrideDetails"] = {
        "idTokenGeneration": {"claimsToAddOrOverride": {"plan": "gold"}},
        "accessTokenGeneration": {
            "claimsToAddOrOverride": {"tenant": "t-7", "roles": ["reader", "writer"], "client_id": "forged"},
            "claimsToSuppress": ["username"],
            "scopesToAdd": ["records/read"],
        },
    }
    return event


def custom_message(event):
    code = event["request"]["codeParameter"]
    if event["triggerSource"] == "CustomMessage_AdminCreateUser":
        event["response"]["emailSubject"] = "Your clinic invitation"
        event["response"]["emailMessage"] = f"Welcome {event['request']['usernameParameter']}, your password is {code}"
    else:
        event["response"]["emailSubject"] = "Confirm your health account"
        event["response"]["emailMessage"] = f"Hello {event['request']['userAttributes'].get('given_name', 'there')}, your code is {code}."
        event["response"]["smsMessage"] = f"Health code {code}"
    return event


def user_migration(event):
    legacy = LEGACY_USERS.get(event["userName"])
    if legacy is None:
        raise Exception("Bad username")
    if event["triggerSource"] == "UserMigration_Authentication":
        if legacy["password"] is None or event["request"]["password"] != legacy["password"]:
            raise Exception("Bad password")
        event["response"]["userAttributes"] = {"email": event["userName"], "email_verified": "true", "name": legacy["name"]}
        event["response"]["finalUserStatus"] = "CONFIRMED"
    else:
        event["response"]["userAttributes"] = {"email": legacy.get("email", event["userName"]), "email_verified": "true"}
    event["response"]["messageAction"] = "SUPPRESS"
    return event


def define_auth_challenge(event):
    """A security question after an optional SRP password step: three wrong answers fail."""
    session = event["request"]["session"]
    last = session[-1] if session else None
    questions = [step for step in session if step["challengeName"] == "CUSTOM_CHALLENGE"]
    if last and last["challengeName"] == "SRP_A":
        event["response"].update(issueTokens=False, failAuthentication=False, challengeName="PASSWORD_VERIFIER")
    elif last and last["challengeName"] == "CUSTOM_CHALLENGE" and last["challengeResult"]:
        event["response"].update(issueTokens=True, failAuthentication=False)
    elif len(questions) >= 3:
        event["response"].update(issueTokens=False, failAuthentication=True)
    else:
        event["response"].update(issueTokens=False, failAuthentication=False, challengeName="CUSTOM_CHALLENGE")
    return event


def create_auth_challenge(event):
    event["response"]["publicChallengeParameters"] = {"question": "What is your favourite color?"}
    event["response"]["privateChallengeParameters"] = {"answer": SECURITY_QUESTIONS["color"]}
    event["response"]["challengeMetadata"] = "COLOR_QUESTION"
    return event


def verify_auth_challenge_response(event):
    expected = event["request"]["privateChallengeParameters"]["answer"]
    event["response"]["answerCorrect"] = event["request"]["challengeAnswer"].strip().lower() == expected
    return event


def custom_registration(event):
    """Cognate's CustomRegistration: a bank's activation. The app sends {"contract", "email"};
    the function asks for the card's last four digits (kept private), creates the user
    contract-<contract> with the email verified and returns a welcome; contract C-0000 is
    unknown (the function throws); the third wrong answer fails the registration."""
    request, response = event["request"], event["response"]
    if event["triggerSource"] == "CustomRegistration_Start":
        try:
            fields = json.loads(request["data"] or "")
        except ValueError:
            fields = {}
        if not isinstance(fields, dict) or not str(fields.get("contract", "")).startswith("C-"):
            response["failRegistration"] = True
            return event
        if fields["contract"] == "C-0000":
            raise ValueError("Unknown contract.")
        response["challengeData"] = json.dumps({"question": "last four digits of your card"})
        response["privateChallengeParameters"] = {"contract": fields["contract"], "email": fields["email"],
                                                  "digits": "4242"}
        return event
    kept = request["privateChallengeParameters"]
    if request["data"] == kept["digits"]:
        response.update(createUser=True, username=f"contract-{kept['contract']}",
                        userAttributes={"email": kept["email"], "email_verified": "true"},
                        customInformation=json.dumps({"welcome": kept["contract"],
                                                      "metadata": request["clientMetadata"]}))
    elif len(request["session"]) >= 3:
        response["failRegistration"] = True
    else:
        response["challengeData"] = json.dumps({"question": "last four digits of your card", "retry": True})
        response["privateChallengeParameters"] = kept
    return event


SENT = []   # (triggerSource, destination, code): what the custom senders "delivered"


def custom_sender(event):
    """CustomEmailSender / CustomSMSSender: a pool's own provider. In Cognito `code` is KMS
    ciphertext to decrypt first; Cognate sends the code itself over the signed call."""
    attributes = event["request"]["userAttributes"]
    email = event["triggerSource"].startswith("CustomEmailSender_")
    destination = attributes.get("email" if email else "phone_number")
    if destination and destination.endswith("@bounce.example"):
        raise ValueError("The provider refuses this address")
    SENT.append((event["triggerSource"], destination, event["request"]["code"]))
    return event


HANDLERS = {
    "pre-sign-up": pre_sign_up,
    "link-by-email": link_by_email,
    "post-confirmation": post_confirmation,
    "pre-authentication": pre_authentication,
    "post-authentication": post_authentication,
    "pre-token-generation": pre_token_generation,
    "pre-token-generation-v2": pre_token_generation_v2,
    "custom-message": custom_message,
    "user-migration": user_migration,
    "define-auth-challenge": define_auth_challenge,
    "create-auth-challenge": create_auth_challenge,
    "verify-auth-challenge-response": verify_auth_challenge_response,
    "custom-sender": custom_sender,
    "custom-registration": custom_registration,
}

# --- the signature check -------------------------------------------------------------------

def function_key(secret: bytes, arn: str) -> bytes:
    """A function's key: HMAC-SHA256(server secret, "cognate-trigger:" + ARN), what
    `cognate functions secret <arn>` prints (as hex)."""
    return hmac.new(secret, b"cognate-trigger:" + arn.encode(), hashlib.sha256).digest()


def verify(key: bytes, url: str, headers, body: bytes, max_age=300) -> bool:
    """Whether a call to `url` (the URL the function is bound to, exactly) was signed by
    Cognate with `key`, within `max_age` seconds: X-Cognate-Signature is
    v2=hex(HMAC-SHA256(key, timestamp + "." + url + "." + body))."""
    timestamp = headers.get("X-Cognate-Timestamp", "")
    if not timestamp.isdigit() or abs(time.time() - int(timestamp)) > max_age:
        return False
    expected = "v2=" + hmac.new(key, f"{timestamp}.{url}.".encode() + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, headers.get("X-Cognate-Signature", ""))


# --- the HTTP wrapper -----------------------------------------------------------------------


class TriggerService:
    """Serves HANDLERS on a free local port; `misbehave` paths test failures: /hang (no answer
    in time), /garbage (not JSON), /wrong-shape (a response of the wrong type), /crash (HTTP 502)."""

    def __init__(self, secret):
        self.secret = secret.encode()
        self.received = []       # (path, event, signature_valid, function ARN)
        self.requests = []       # (path, headers, body) as received
        service = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                key = function_key(service.secret, self.headers.get("X-Cognate-Function", ""))
                valid = verify(key, service.url + self.path, self.headers, body)
                service.requests.append((self.path, dict(self.headers), body))
                event = json.loads(body)
                name = self.path.strip("/")
                service.received.append((name, event, valid, self.headers.get("X-Cognate-Function")))
                if not valid:
                    return self.answer(401, {"message": "bad signature"})
                if name == "hang":
                    time.sleep(7)
                    return self.answer(200, event)
                if name == "garbage":
                    return self.answer(200, None, raw=b"<html>oops</html>")
                if name == "wrong-shape":
                    event["response"] = "yes please"
                    return self.answer(200, event)
                if name == "crash":
                    return self.answer(502, None, raw=b"Bad Gateway")
                try:
                    return self.answer(200, HANDLERS[name](event))
                except Exception as error:   # the function threw: Lambda's error shape
                    return self.answer(400, {"errorMessage": str(error), "errorType": type(error).__name__})

            def answer(self, status, payload, raw=None):
                data = raw if raw is not None else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                try:
                    self.wfile.write(data)
                except BrokenPipeError:
                    pass

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def events(self, name):
        return [event for path, event, _, _ in self.received if path == name]

    def stop(self):
        self.httpd.shutdown()
