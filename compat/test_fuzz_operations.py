"""A deterministic (seeded) black-box fuzz of every operation the server registers.

The operations are read from the server's operation table (OperationTable+Cognate.swift), the
members of their inputs, their types and the model's limits (lengths, ranges, list sizes) from
the generated wire types (CognateProtocol/Generated, Pin), so a new operation or member is fuzzed
without touching this file. The module's own server runs without rate limits. For each operation,
against real pools, app clients, users, tokens, devices, groups, providers… set up through boto3
(every operation gets a user of its own), raw HTTP sends:

  * a plausible request built from the input's members (the real ids, tokens and codes where the
    member name says so), with the required members only and with every member;
  * each member in turn (nested members too, a few levels deep) given a wrong JSON type (number,
    list, object, null, bool, string), an empty string, a 10,000-character string, unicode (emoji,
    lone combining marks, RTL overrides, an escaped NUL, a lone surrogate, case-expanding letters),
    values at and past the model's limits, maps with non-string values, negative and huge numbers,
    unknown enum values and every known one; and, by member name, forged and malformed JWTs,
    crafted pagination tokens, ListUsers filters, user attributes, SRP values, URLs, issuers;
  * requests that vary two members together (every auth flow × parameter set, SRP challenge
    answers on a real session, token validity × time units);
  * whole-body mutations (empty, null, array, every member null / a number / a long string,
    unknown members, duplicate keys, invalid UTF-8, trailing garbage, lower-case keys) and, once,
    deep nesting, an oversized body, odd numbers and odd headers;
  * then a read-back of what the writes left (every pool, client, group, provider, user…, each
    listing a page of one item at a time, the pools' documents and the hosted sign-in pages);
    deletions come last.

Every answer must be a 200 or a 4xx within REQUEST_TIMEOUT seconds; a 4xx must be a JSON object
with a `__type` and a `message` string; GETs must not answer 5xx; a pagination token the server
issued must be accepted; the server must stay up and /health answer 200. The fuzz runs once and
every failure is collected, then reported together (a crash or a wedged server is restarted and
the fuzz goes on). Failures known to reproduce are listed in KNOWN_FAILURES (with what is wrong);
they are reported as xfail, anything else fails the module.

`COGNATE_FUZZ_SEED` changes the seed; `COGNATE_FUZZ_REPORT=<path>` writes every answer's type and
every failure (full request bodies included) as JSON.
"""
import base64
import dataclasses
import json
import os
import pathlib
import random
import re
import tempfile
import time
import urllib.parse
import uuid

import pytest
import requests
from pycognito.aws_srp import AWSSRP, N_HEX

from conftest import CognateServer
from helpers import AMZ_JSON, PASSWORD, TARGET_PREFIX

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROTOCOL = ROOT / "Sources" / "CognateProtocol"
TABLE = ROOT / "Sources" / "CognateServer" / "CognitoAPI" / "OperationTable+Cognate.swift"

SEED = int(os.environ.get("COGNATE_FUZZ_SEED", "20240611"))
REQUEST_TIMEOUT = 10          # seconds; a request that takes longer is a hang
TOP_CASES = 100               # top-level member mutations kept per operation (seeded sample)
NESTED_CASES = 60             # mutations of nested members kept per operation (seeded sample)
NESTING = 3                   # how deep member mutations go into structures
LONG = 10_000                 # the very long string
BODY_LIMIT = 1 << 20          # the server's default maximum body (ServerConfiguration.maxBodyBytes)


# --- the model, read from the Swift sources -------------------------------------------------------

@dataclasses.dataclass
class Model:
    structs: dict      # type name → [(json key, swift type)]
    enums: dict        # enum type name → [raw values]
    inputs: dict       # operation name → input type name
    operations: list   # operation names the server registers, in table order
    bounds: dict       # (type name, json key) → {"string"|"element"|"number"|"count": (min, max)}


def parse_bounds(body, members):
    """The constraints the generated decoder checks, per member: string lengths (of the value
    or of a list's elements), number ranges and list sizes."""
    found = {}
    for var, key in members:
        start = body.find(f"forKey: .{var})")
        if start < 0:
            start = body.find(f"forKey: .`{var}`)")
        if start < 0:
            continue
        following = body.find("forKey: .", start + 10)
        chunk = body[start:following if following > 0 else len(body)]
        bounds = {}
        checks = re.findall(r"validator\.(checkString|checkNumber|checkCount)\((\w+(?:\.count)?)", chunk)
        for call, subject in checks:
            line = re.search(rf"validator\.{call}\({re.escape(subject)}[^\n]*", chunk).group(0)
            low = re.search(r"min: (-?\d+)", line)
            high = re.search(r"max: (-?\d+)", line)
            what = {"checkString": "string" if subject == "value" else "element", "checkNumber": "number",
                    "checkCount": "count"}[call]
            bounds[what] = (int(low.group(1)) if low else None, int(high.group(1)) if high else None)
        if bounds:
            found[key] = bounds
    return found


def load_model():
    files = (sorted((PROTOCOL / "Generated").glob("*.swift")) + sorted((PROTOCOL / "Pin").glob("*.swift"))
             + sorted((PROTOCOL / "CustomRegistration").glob("*.swift")))
    text = "\n".join(f.read_text() for f in files)
    structs, enums, bounds = {}, {}, {}
    for match in re.finditer(r"^public struct (\w+): ([\w, ]+) \{\n(.*?)^\}", text, re.S | re.M):
        name, conformances, body = match.groups()
        if "WireEnum" in conformances:
            enums[name] = []
            continue
        keys = dict(re.findall(r'^        case `?(\w+)`? = "(\w+)"', body, re.M))
        members, names = [], []
        for var, swift_type in re.findall(r"^    public var `?(\w+)`?: ([^{=\n]+?)\s*$", body, re.M):
            members.append((keys.get(var, var[0].upper() + var[1:]), swift_type.strip()))
            names.append((var, members[-1][0]))
        structs[name] = members
        for key, member_bounds in parse_bounds(body, names).items():
            bounds[(name, key)] = member_bounds
    # Enum values, including those added in extensions (AuthFlowType's DEVICE_PIN_AUTH).
    for enum, raw in re.findall(r'static let \w+ = (\w+)\(rawValue: "([^"]*)"\)', text):
        if enum in enums and raw not in enums[enum]:
            enums[enum].append(raw)
    inputs = dict(re.findall(r"public enum (\w+): CognitoOperation \{\n\s+public typealias Input = (\w+)", text))
    operations = re.findall(r"table\.register\(CognitoAPI\.(\w+)\.self", TABLE.read_text())
    return Model(structs, enums, inputs, operations, bounds)


MODEL = load_model()


def base_type(swift_type):
    return swift_type.strip().rstrip("?")


def kind_of(swift_type):
    t = base_type(swift_type)
    if re.fullmatch(r"\[String: String\]", t):
        return "map"
    if re.fullmatch(r"\[String: \w+\]", t):
        return "objectmap"   # values are structures (AcrMapping's levels)
    if t.startswith("["):
        return "list"
    if t in ("String", "Int", "Bool", "Data", "Date", "JSONValue", "Double"):
        return t
    if t in MODEL.enums:
        return "enum"
    if t in MODEL.structs:
        return "struct"
    raise AssertionError(f"unknown wire type {swift_type}")


def element_type(swift_type):
    return base_type(swift_type)[1:-1]


# --- raw JSON that json.dumps cannot produce -------------------------------------------------------

class Raw:
    """A JSON fragment written as is (1e400, -0, …)."""
    def __init__(self, text):
        self.text = text


def encode(body):
    """JSON text of `body` (ASCII, with \\uXXXX escapes), Raw fragments spliced in."""
    raws = []

    def default(value):
        if isinstance(value, Raw):
            raws.append(value.text)
            return f"@@RAW{len(raws) - 1}@@"
        raise TypeError(value)

    text = json.dumps(body, default=default)
    for index, raw in enumerate(raws):
        text = text.replace(f'"@@RAW{index}@@"', raw)
    return text.encode()


# --- plausible values -----------------------------------------------------------------------------

def b64(data):
    return base64.b64encode(data).decode()


def plausible_string(name, ctx):
    by_name = {
        "UserPoolId": ctx["pool"], "ClientId": ctx["client"], "Username": ctx["username"],
        "AccessToken": ctx["access"], "RefreshToken": ctx["refresh"], "Token": ctx["refresh"],
        "DeviceKey": ctx["device"], "GroupName": ctx["group"], "Identifier": ctx["resource_server"],
        "Domain": ctx["domain"], "ProviderName": ctx["provider"], "IdpIdentifier": "upstream.example",
        "TermsId": ctx["terms"], "ManagedLoginBrandingId": ctx["branding"], "JobId": ctx["job"],
        "ClientSecretId": ctx["secret_id"], "EventId": ctx["event"], "ResourceArn": ctx["arn"],
        "Password": PASSWORD, "PreviousPassword": PASSWORD, "ProposedPassword": PASSWORD,
        "TemporaryPassword": "Temp-0rary!", "ConfirmationCode": "123456", "Code": "123456", "UserCode": "123456",
        "AttributeName": "email", "Session": "AYABeFuzzSession" + "x" * 40, "SecretHash": b64(b"\x01" * 32),
        "ClientSecret": "s" * 40, "FeedbackToken": "fuzz-feedback-token",
        "CSS": ".label-customizable {font-weight: 400;}", "Filter": 'username = "fuzz"',
        "EmailVerificationMessage": "Your code is {####}", "SmsVerificationMessage": "Your code is {####}",
        "SmsAuthenticationMessage": "Your code is {####}", "EmailMessage": "Your code is {####}",
        "SmsMessage": "Your code is {####}", "SMSMessage": "Your code is {####}",
        "EmailMessageByLink": "Click {##Verify##}", "Message": "Your code is {####}",
        "IpAddress": "192.0.2.1", "ServerName": "example.com", "ServerPath": "/login",
        "headerName": "User-Agent", "headerValue": "fuzz", "EncodedData": "e30=",
        "From": "fuzz@example.com", "ReplyTo": "fuzz@example.com", "ReplyToEmailAddress": "fuzz@example.com",
        "ProviderAttributeName": "Cognito_Subject", "ProviderAttributeValue": ctx["username"],
        "ScopeName": "read", "ScopeDescription": "Read", "MinValue": "0", "MaxValue": "100",
        "MinLength": "0", "MaxLength": "100", "RelyingPartyId": "example.com",
        "PasswordVerifier": b64(b"\x07" * 256), "Salt": b64(b"\x05" * 16), "ApplicationId": "a" * 32,
        "SnsRegion": "us-east-1", "DefaultRedirectURI": "https://example.com/callback",
        "KMSKeyID": "arn:aws:kms:us-east-1:123456789012:key/fuzz",
    }
    if name in by_name:
        return by_name[name]
    if name in LAMBDA_TRIGGERS:
        return "arn:aws:lambda:us-east-1:123456789012:function:fuzz"
    if name == "LogGroupArn":
        return "arn:aws:logs:us-east-1:123456789012:log-group:fuzz"
    if name == "TermsName":
        return "privacy-policy"
    if name.endswith("Arn") or name.endswith("ARN"):
        return "arn:aws:iam::123456789012:role/fuzz"
    if name in ("CallbackURLs", "LogoutURLs"):
        return "https://example.com/callback"
    if name in ("ReadAttributes", "WriteAttributes", "AttributesToGet"):
        return "email"
    if name in ("UserAttributeNames",):
        return "name"
    if name == "AllowedOAuthScopes":
        return "openid"
    if name == "SupportedIdentityProviders":
        return "COGNITO"
    if name in ("BlockedIPRangeList", "SkippedIPRangeList"):
        return "203.0.113.0/24"
    if name == "BlockList":
        return "11111"
    if name in ("IdpIdentifiers",):
        return "fuzz.example"
    return "fuzz-" + name.lower()[:20]


LAMBDA_TRIGGERS = {"PreSignUp", "CustomMessage", "PostConfirmation", "PreAuthentication", "PostAuthentication",
                   "DefineAuthChallenge", "CreateAuthChallenge", "VerifyAuthChallengeResponse", "PreTokenGeneration",
                   "UserMigration", "LambdaArn"}


def plausible_int(name):
    return {"MaxResults": 10, "Limit": 10, "AccessTokenValidity": 1, "IdTokenValidity": 1,
            "RefreshTokenValidity": 30, "AuthSessionValidity": 3, "MinimumLength": 8,
            "MaximumLength": 8, "MaximumSimilarDigits": 2, "MaximumAttempts": 3,
            "TemporaryPasswordValidityDays": 7, "Priority": 1}.get(name, 1)


ENUM_BY_NAME = {
    "AuthFlow": "USER_PASSWORD_AUTH", "ChallengeName": "NEW_PASSWORD_REQUIRED", "MessageAction": "SUPPRESS",
    "DesiredDeliveryMediums": "EMAIL", "ProviderType": "OIDC", "DeletionProtection": "INACTIVE",
    "MfaConfiguration": "OFF", "ExplicitAuthFlows": "ALLOW_USER_PASSWORD_AUTH", "AllowedOAuthFlows": "code",
    "AccessToken": "hours", "IdToken": "hours", "RefreshToken": "days", "Name": "verified_email",
    "DeviceRememberedStatus": "remembered", "PreventUserExistenceErrors": "ENABLED", "Feature": "DISABLED",
    "AutoVerifiedAttributes": "email", "UsernameAttributes": "email", "AliasAttributes": "email",
    "UserPoolTier": "ESSENTIALS", "EventAction": "NO_ACTION", "DeliveryMedium": "SMS", "LogLevel": "ERROR",
}


def plausible_enum(enum, name):
    values = MODEL.enums[enum]
    wanted = ENUM_BY_NAME.get(name)
    return wanted if wanted in values else values[0]


def plausible_map(name, ctx):
    return {
        "AuthParameters": {"USERNAME": ctx["username"], "PASSWORD": PASSWORD},
        "ChallengeResponses": {"USERNAME": ctx["username"], "NEW_PASSWORD": PASSWORD},
        "ProviderDetails": {"client_id": "upstream", "client_secret": "secret", "authorize_scopes": "openid email",
                            "attributes_request_method": "GET", "oidc_issuer": ctx["issuer"]},
        "AttributeMapping": {"email": "email"},
        "Links": {"cognito:default": "https://example.com/terms"},
        "Tags": {"team": "fuzz"}, "UserPoolTags": {"team": "fuzz"},
    }.get(name, {"fuzz-key": "fuzz-value"})


SPECIAL_STRUCTS = {
    "MFAOptionType": {"DeliveryMedium": "SMS", "AttributeName": "phone_number"},
    "SchemaAttributeType": {"Name": "fuzzattr", "AttributeDataType": "String"},
    "LogConfigurationType": {"LogLevel": "ERROR", "EventSource": "userNotification",
                             "CloudWatchLogsConfiguration": {
                                 "LogGroupArn": "arn:aws:logs:us-east-1:123456789012:log-group:fuzz"}},
}


def plausible_struct(struct, ctx, full=False, depth=0):
    """The plausible value of a structure: its required members (every member when `full`);
    at the top level (an operation's input), the context's `overrides` replace members."""
    value = {}
    for key, member_type in MODEL.structs[struct]:
        if full or not member_type.endswith("?"):
            if depth < 4 or not member_type.endswith("?"):
                value[key] = plausible(member_type, key, ctx, full, depth + 1)
    if struct == "AttributeType":
        value = {"Name": "email", "Value": "fuzz@example.com"} if full else {"Name": "name", "Value": "Fuzz"}
    if struct in SPECIAL_STRUCTS:
        value = {**value, **SPECIAL_STRUCTS[struct]}
    if depth == 0:
        keys = {key for key, _ in MODEL.structs[struct]}
        value.update({k: v for k, v in ctx.get("overrides", {}).items() if k in keys})
    return value


def plausible(swift_type, name, ctx, full=False, depth=0):
    kind = kind_of(swift_type)
    t = base_type(swift_type)
    if kind == "String":
        return plausible_string(name, ctx)
    if kind == "Int":
        return plausible_int(name)
    if kind == "Double":
        return 1.0
    if kind == "Bool":
        return name in ("Permanent", "Enabled", "Notify", "CaseSensitive")
    if kind == "Data":
        return b64(b"\x89PNG\r\n\x1a\nfuzz")
    if kind == "Date":
        return 1_700_000_000
    if kind == "JSONValue":
        return {}
    if kind == "enum":
        return plausible_enum(t, name)
    if kind == "map":
        return plausible_map(name, ctx)
    if kind == "objectmap":
        return {}
    if kind == "list":
        return [plausible(element_type(t), name, ctx, full, depth + 1)]
    if name == "DestinationUser":
        return {"ProviderName": "Cognito", "ProviderAttributeValue": ctx["username"]}
    if name in ("SourceUser", "User"):
        return {"ProviderName": ctx["provider"], "ProviderAttributeName": "Cognito_Subject",
                "ProviderAttributeValue": "upstream-subject-1"}
    return plausible_struct(t, ctx, full, depth)


# --- mutations ------------------------------------------------------------------------------------

WRONG_TYPES = [("number", 12345), ("list", ["x"]), ("object", {"k": "v"}), ("null", None), ("bool", True),
               ("string", "fuzz")]
UNICODE = [("emoji", "😀🎉👩‍👩‍👧‍👦🏳️‍🌈"), ("combining", "\u0301\u0308\u0327\u20dd"),
           ("rtl", "\u202eevil\u202c مرحبا \u200f"), ("nul", "a\u0000b"), ("lone-surrogate", "x\ud800y"),
           ("bom-zero-width", "\ufeff\u200b\u2060"), ("case-expanding", "İßŉﬁΐ")]
INTS = [("neg", -1), ("zero", 0), ("int32+1", 2 ** 31), ("int32-1", -2 ** 31 - 1), ("int64max", 2 ** 63 - 1),
        ("int64min", -2 ** 63), ("int64+1", 2 ** 63), ("huge", 10 ** 30), ("fraction", 1.5),
        ("exp", Raw("1e400")), ("negzero", Raw("-0")), ("digits-string", "7")]


def type_label(kind):
    return {"String": "string", "enum": "string", "Data": "string", "Int": "number", "Double": "number",
            "Bool": "bool", "list": "list", "map": "object", "objectmap": "object", "struct": "object", "Date": "number"}.get(kind)


def boundaries(kind, bounds, plausible_element):
    """Values at and just past the model's limits: lengths (also counted in emoji and in
    combining sequences, where characters, UTF-16 units and bytes differ), ranges, list sizes."""
    low, high = bounds.get("string", (None, None))
    if kind in ("String", "enum", "Data") and high is not None and high <= 200_000:
        yield "len:max", "b" * high
        yield "len:max+1", "b" * (high + 1)
        if high <= 20_000:
            yield "len:max-emoji", "😀" * high
            yield "len:max-combining", "e\u0301" * high
            yield "len:half-max-emoji", "😀" * (high // 2) + "b" * (high % 2)
            yield "len:max-case-expanding", "İ" * high
    if kind in ("String", "enum") and low is not None and low > 1:
        yield "len:min-1", "b" * (low - 1)
    low, high = bounds.get("number", (None, None))
    if kind in ("Int", "Double"):
        for label, value in (("min-1", low - 1 if low is not None else None), ("min", low), ("max", high),
                             ("max+1", high + 1 if high is not None else None)):
            if value is not None:
                yield "range:" + label, value
    low, high = bounds.get("count", (None, None))
    if kind in ("list", "map") and high is not None and high <= 5_000:
        if kind == "list":
            yield "count:max", [plausible_element] * high
            yield "count:max+1", [plausible_element] * (high + 1)
        else:
            yield "count:max+1", {f"k{i}": "v" for i in range(high + 1)}
    if kind == "list" and low is not None and low > 1:
        yield "count:min-1", [plausible_element] * (low - 1)


def b64url(data):
    return base64.urlsafe_b64encode(data if isinstance(data, bytes) else data.encode()).decode().rstrip("=")


def jwt_variants(ctx):
    """Token-shaped garbage: malformed segments, unsigned and re-signed-looking tokens whose
    claims are hostile, other kinds of token in the wrong place."""
    real = ctx["access"]
    parts = real.split(".")
    header = json.loads(base64.urlsafe_b64decode(parts[0] + "=="))
    claims = json.loads(base64.urlsafe_b64decode(parts[1] + "=="))

    def token(h, c, signature=parts[2]):
        h = h if isinstance(h, str) else b64url(json.dumps(h))
        c = c if isinstance(c, str) else b64url(json.dumps(c))
        return f"{h}.{c}.{signature}"

    yield "jwt:a.b.c", "a.b.c"
    yield "jwt:dots", ".."
    yield "jwt:four-dots", "...."
    yield "jwt:many-segments", "a." * 5000 + "a"
    yield "jwt:empty-objects", token({}, {}, "")
    yield "jwt:alg-none", token({**header, "alg": "none"}, claims, "")
    yield "jwt:alg-HS256", token({**header, "alg": "HS256"}, claims)
    yield "jwt:unknown-kid", token({**header, "kid": "no-such-key"}, claims)
    yield "jwt:kid-not-string", token({**header, "kid": {"k": [1]}}, claims)
    yield "jwt:header-array", token([1, 2], claims)
    yield "jwt:header-not-json", token(b64url("not json"), claims)
    yield "jwt:header-not-base64", token("!!!", claims)
    yield "jwt:claims-not-base64", token(header, "***")
    yield "jwt:bad-signature", token(header, claims, parts[2][::-1])
    yield "jwt:signature-not-base64", token(header, claims, "%%%")
    yield "jwt:exp-huge", token(header, {**claims, "exp": 10 ** 30})
    yield "jwt:exp-float", token(header, {**claims, "exp": 1e308})
    yield "jwt:exp-string", token(header, {**claims, "exp": "tomorrow"})
    yield "jwt:exp-negative", token(header, {**claims, "exp": -2 ** 63})
    other_pool = claims.get("iss", "").rsplit("/", 1)[0] + "/us-east-1_NoSuchPl"
    yield "jwt:iss-other-pool", token(header, {**claims, "iss": other_pool})
    yield "jwt:iss-not-string", token(header, {**claims, "iss": 5})
    yield "jwt:client-id-other", token(header, {**claims, "client_id": "x" * 26})
    yield "jwt:claims-null", token(header, "bnVsbA")
    yield "jwt:id-token", ctx["id"]
    yield "jwt:refresh-token", ctx["refresh"]
    yield "jwt:whitespace", " " + real + "\n"
    yield "jwt:truncated", real[:-10]


def page_token_variants():
    for label, text in (("empty-key", b"v1:"), ("nul", b"v1:\x00"), ("long", b"v1:" + b"x" * 5000),
                        ("sql", b"v1:' OR 1=1; DROP TABLE users;--"), ("like", b"v1:%_%"), ("emoji", "v1:😀".encode()),
                        ("bad-utf8", b"v1:\xff\xfe"), ("other-version", b"v9:x"), ("no-version", b"x")):
        yield "page-token:" + label, b64url(text)
    yield "page-token:padding", "dj E6eA=="


FILTERS = ['username = ""', 'email ^= ""', 'email ^= "%"', 'email ^= "_"', "email ^= '\\'", 'email = "\\"',
           'username = "unterminated', 'username "x"', '= "x"', 'no_such_attribute = "x"', 'custom:x = "y"',
           'cognito:user_status = "CONFIRMED"', 'status = "Enabled"', 'sub ^= "' + "a" * 3000 + '"',
           "username = \"x\" OR 1=1", 'email ^= "😀\u0301"', 'email ^= "\u0000"', 'name = "a" and name = "b"',
           'username   =   "x"', '"', "", "   ", 'username ^=', 'phone_number ^= "+"', 'email != "x"']


ATTRIBUTES = [("sub", "forged"), ("email", "not-an-email"), ("email", "a@b"), ("email", "😀@example.com"),
              ("email_verified", "maybe"), ("phone_number", "+1"), ("phone_number", "+" + "9" * 40),
              ("phone_number_verified", "yes"), ("custom:fuzzattr", "x"), ("custom:", ""), ("custom:" + "n" * 30, "x"),
              ("updated_at", "-1"), ("updated_at", "99999999999999999999999"), ("updated_at", "1e400"),
              ("birthdate", "2020-13-45"), ("picture", "javascript:alert(1)"), ("cognito:username", "x"),
              ("identities", "[{"), ("preferred_username", "someone-else"), ("locale", "x" * 2049),
              ("name", "\u0000"), ("address", '{"formatted": [1]}'), ("email", None), ("", "x"),
              ("phone_number", "+١٢٣٤٥٦٧٨٩٠"), ("phone_number", "+1 (555) 010-0000"), ("email", "x@xn--80ak6aa92e.com"),
              ("email", "İ@EXAMPLE.COM"), ("zoneinfo", "../../etc/passwd"), ("email_verified", "TRUE")]


NUMBER_STRINGS = ["abc", "-1", "1e400", "99999999999999999999", "1.5", " 7", "٣", "0x10", "", "NaN", "-0"]
CODES = ["١٢٣٤٥٦", "12345678901234567890", "-12345", "+12345", " 123456", "1e5", "12 34 56", "000000"]


def semantic(name, ctx, depth=0):
    """Values that mean something to one member, by its name (the first group at any depth)."""
    if name in ("MinValue", "MaxValue", "MinLength", "MaxLength"):
        for index, text in enumerate(NUMBER_STRINGS):
            yield f"number-string:{index}", text
    if name in ("ConfirmationCode", "Code", "UserCode"):
        for index, text in enumerate(CODES):
            yield f"code:{index}", text
    if depth > 0:
        return
    if name in ("AccessToken", "RefreshToken", "Token"):
        yield from jwt_variants(ctx)
    elif name in ("NextToken", "PaginationToken"):
        yield from page_token_variants()
    elif name == "Filter":
        for index, text in enumerate(FILTERS):
            yield f"filter:{index}", text
    elif name in ("UserAttributes", "ValidationData"):
        for index, (attribute, value) in enumerate(ATTRIBUTES):
            yield f"attribute:{index}:{attribute[:20]}", [{"Name": attribute, "Value": value}]
        yield "attribute:duplicate", [{"Name": "name", "Value": "a"}, {"Name": "name", "Value": "b"}]
    elif name == "Session":
        yield "session:jwt-like", "eyJ.eyJ.sig" + "A" * 30
        yield "session:base64-noise", b64(bytes(range(256)))
        yield "session:other-kind", ctx["refresh"]
    elif name == "ProviderDetails":
        base = plausible_map(name, ctx)
        for index, issuer in enumerate(["http://127.0.0.1:1/unreachable", "not a url", "http://[::1", "file:///etc/passwd",
                                        "https://", "http://" + "a" * 300 + ".example", ctx["issuer"] + "/../.."]):
            yield f"issuer:{index}", {**base, "oidc_issuer": issuer}
    elif name in ("CallbackURLs", "LogoutURLs"):
        for index, url in enumerate(["javascript:alert(1)", "http://", "https://exa mple.com", "https://😀.example/cb",
                                     "https://example.com/#fragment", "myapp://", "http://localhost:99999/"]):
            yield f"url:{index}", [url]


def mutations(swift_type, name, ctx, depth=0, bounds=None):
    """(label, value) pairs for one member of type `swift_type`, each replacing its value."""
    kind = kind_of(swift_type)
    t = base_type(swift_type)
    bounds = bounds or {}
    if kind != "JSONValue":
        element = plausible(element_type(t), name, ctx) if kind == "list" else None
        for label, value in boundaries(kind, bounds, element):
            yield label, value
    for label, value in semantic(name, ctx, depth):
        yield label, value
    if depth == 0:
        if kind == "list":
            yield "list:huge", [plausible(element_type(t), name, ctx)] * 10_000
    if kind == "JSONValue":
        yield "deep-nesting", Raw("[" * 5000 + "]" * 5000)
        yield "deep-object", Raw('{"a":' * 5000 + "1" + "}" * 5000)
        yield "long-string", "x" * LONG
        yield "huge-number", Raw("1" * 400)
        yield "null", None
        return
    for label, value in WRONG_TYPES:
        if label != type_label(kind):
            yield "type:" + label, value
    if kind in ("String", "enum", "Data"):
        yield "empty", ""
        yield "long", "x" * LONG
        for label, value in UNICODE:
            yield "unicode:" + label, value
    if kind == "enum":
        yield "enum:unknown", "NO_SUCH_VALUE"
        plausible_value = plausible_enum(t, name)
        yield "enum:case", plausible_value.swapcase()
        for value in MODEL.enums[t]:
            yield "enum=" + value, value
    if kind == "Data":
        yield "data:not-base64", "!!!not base64!!!"
        yield "data:bad-padding", "QUJD="
        yield "data:garbage-bytes", b64(bytes(range(256)) * 4)
    if kind in ("Int", "Double"):
        for label, value in INTS:
            yield "int:" + label, value
    if kind == "Bool":
        yield "bool:string", "true"
        yield "bool:one", 1
    if kind == "objectmap":
        yield "objectmap:string-value", {"k": "v"}
        yield "objectmap:null-value", {"k": None}
        yield "objectmap:unknown-member", {"k": {"Unknown": 1}}
    if kind == "map":
        yield "map:number-value", {"k": 1}
        yield "map:nested-object", {"k": {"nested": [1, {"a": None}], "n": 2}}
        yield "map:null-value", {"k": None}
        yield "map:list-value", {"k": ["a"]}
        yield "map:empty", {}
        yield "map:empty-key", {"": "v"}
        yield "map:long-key", {"k" * LONG: "v"}
        yield "map:unicode-key", {"😀\u0301\u202e": "\u0000"}
        yield "map:many-keys", {f"k{i}": "v" for i in range(2000)}
        base = ctx.get("overrides", {}).get(name) if depth == 0 else None
        base = base or plausible_map(name, ctx)
        for key in list(base)[:3]:
            for label, value in [("number", 1), ("null", None), ("object", {"a": 1}), ("empty", ""),
                                 ("long", "x" * LONG)] + UNICODE[:5]:
                yield f"map[{key}]:{label}", {**base, key: value}
    if kind == "list":
        element = element_type(t)
        yield "list:empty", []
        yield "list:null-element", [None]
        yield "list:many", [plausible(element, name, ctx)] * 1000
        if depth < NESTING:
            element_bounds = {"string": bounds["element"]} if "element" in bounds else {}
            for label, value in mutations(element, name, ctx, depth + 1, element_bounds):
                yield "[0]." + label, [value]
    if kind == "struct":
        yield "struct:empty", {}
        yield "struct:unknown-member", {**plausible_struct(t, ctx, depth=1), "NoSuchMember": [1, 2]}
        if depth < NESTING:
            base = plausible_struct(t, ctx, depth=1)
            for key, member_type in MODEL.structs[t]:
                for label, value in mutations(member_type, key, ctx, depth + 1, MODEL.bounds.get((t, key))):
                    yield f"{key}.{label}", {**base, key: value}


SRP_A = [("zero", "0"), ("zeros", "00" * 384), ("N", N_HEX), ("2N", format(2 * int(N_HEX, 16), "x")),
         ("negative", "-1"), ("not-hex", "zz"), ("empty", ""), ("long", "f" * 8000), ("one", "1"),
         ("plausible", format(pow(2, 12345, int(N_HEX, 16)), "x"))]


def operation_extras(operation, ctx, minimal):
    """Cases that vary two members together, where one member's meaning depends on another's."""
    if operation in ("InitiateAuth", "AdminInitiateAuth"):
        user = ctx["username"]
        parameter_sets = [
            ("password", {"USERNAME": user, "PASSWORD": PASSWORD}),
            ("refresh", {"REFRESH_TOKEN": ctx["refresh"]}), ("refresh-garbage", {"REFRESH_TOKEN": "a.b.c"}),
            ("refresh-is-access", {"REFRESH_TOKEN": ctx["access"]}),
            ("device", {"USERNAME": user, "DEVICE_KEY": ctx["device"], "SRP_A": SRP_A[-1][1]}),
            ("choice", {"USERNAME": user, "PREFERRED_CHALLENGE": "EMAIL_OTP"}),
            ("choice-unknown", {"USERNAME": user, "PREFERRED_CHALLENGE": "NO_SUCH_CHALLENGE"}),
            ("empty", {}), ("everything", {"USERNAME": user, "PASSWORD": PASSWORD, "SRP_A": "1", "SECRET_HASH": "x",
                                            "DEVICE_KEY": "x", "REFRESH_TOKEN": "x", "CHALLENGE_NAME": "SRP_A"}),
        ]
        for flow in MODEL.enums["AuthFlowType"]:
            for label, parameters in parameter_sets:
                yield f"flow:{flow}:{label}", {**minimal, "AuthFlow": flow, "AuthParameters": parameters}
        for flow in ("USER_SRP_AUTH", "DEVICE_PIN_AUTH"):
            for label, value in SRP_A:
                yield f"flow:{flow}:srp-a:{label}", {**minimal, "AuthFlow": flow, "AuthParameters": {
                    "USERNAME": user, "SRP_A": value, "DEVICE_KEY": ctx["device"]}}
    if operation in ("RespondToAuthChallenge", "AdminRespondToAuthChallenge") and ctx.get("srp"):
        srp = ctx["srp"]
        session = {"Session": srp["session"]} if srp["session"] else {}
        minimal = {k: v for k, v in minimal.items() if k != "Session"}
        good = {"USERNAME": srp["USER_ID_FOR_SRP"], "PASSWORD_CLAIM_SECRET_BLOCK": srp["SECRET_BLOCK"],
                "PASSWORD_CLAIM_SIGNATURE": b64(b"\x11" * 32), "TIMESTAMP": "Mon Jan 1 00:00:00 UTC 2024"}
        variants = [("as-is", {}), ("signature-empty", {"PASSWORD_CLAIM_SIGNATURE": ""}),
                    ("signature-not-base64", {"PASSWORD_CLAIM_SIGNATURE": "!!!"}),
                    ("signature-long", {"PASSWORD_CLAIM_SIGNATURE": b64(b"\x11" * 5000)}),
                    ("timestamp-garbage", {"TIMESTAMP": "garbage"}), ("timestamp-empty", {"TIMESTAMP": ""}),
                    ("timestamp-impossible", {"TIMESTAMP": "Thu Feb 30 99:99:99 UTC 99999"}),
                    ("timestamp-unicode", {"TIMESTAMP": "Mon Jan 1 00:00:00 UTC 2024\u0000😀"}),
                    ("secret-block-garbage", {"PASSWORD_CLAIM_SECRET_BLOCK": "!!!"}),
                    ("secret-block-noise", {"PASSWORD_CLAIM_SECRET_BLOCK": b64(bytes(range(256)))}),
                    ("secret-block-empty", {"PASSWORD_CLAIM_SECRET_BLOCK": ""}),
                    ("username-other", {"USERNAME": "someone-else"}), ("no-username", {"USERNAME": None})]
        for label, change in variants:
            responses = {k: v for k, v in {**good, **change}.items() if v is not None}
            yield f"srp:{label}", {**minimal, "ChallengeName": "PASSWORD_VERIFIER", **session,
                                   "ChallengeResponses": responses}
        for challenge in MODEL.enums["ChallengeNameType"]:
            yield f"srp-session:{challenge}", {**minimal, "ChallengeName": challenge, **session,
                                               "ChallengeResponses": {
                                                   "USERNAME": srp["USER_ID_FOR_SRP"], "SMS_MFA_CODE": "123456",
                                                   "SOFTWARE_TOKEN_MFA_CODE": "123456", "EMAIL_OTP_CODE": "123456",
                                                   "ANSWER": "x", "NEW_PASSWORD": PASSWORD, "DEVICE_KEY": ctx["device"],
                                                   "SRP_A": SRP_A[0][1], "MFAS_CAN_SETUP": "[]"}}
        for label, value in SRP_A:
            yield f"device-srp:{label}", {**minimal, "ChallengeName": "DEVICE_SRP_AUTH", **session,
                                          "ChallengeResponses": {"USERNAME": srp["USER_ID_FOR_SRP"],
                                                                 "DEVICE_KEY": ctx["device"], "SRP_A": value}}
    if operation in ("CreateUserPoolClient", "UpdateUserPoolClient"):
        for member, value in (("AccessTokenValidity", 86400), ("IdTokenValidity", 86400),
                              ("RefreshTokenValidity", 315360000), ("AuthSessionValidity", 15)):
            for unit in MODEL.enums["TimeUnitsType"]:
                units = {"AccessToken": unit, "IdToken": unit, "RefreshToken": unit}
                yield f"validity:{member}={value}:{unit}", {**minimal, member: value, "TokenValidityUnits": units}
        yield "rotation:max-grace", {**minimal, "RefreshTokenRotation": {"Feature": "ENABLED",
                                                                         "RetryGracePeriodSeconds": 60}}


@dataclasses.dataclass
class Case:
    operation: str
    label: str
    data: bytes
    headers: dict = dataclasses.field(default_factory=dict)   # replace the usual ones
    path: str = ""     # a GET of this path (a page or document) instead of the API's POST


PRIORITY = ("range:", "number-string:", "code:", "count:", "len:max")


def sample(rng, cases, limit):
    """At most `limit` of `cases`, in their order: those at the model's limits first, then a
    seeded sample of the rest."""
    if len(cases) <= limit:
        return cases
    first = [i for i, c in enumerate(cases) if any(p in c.label for p in PRIORITY)]
    first = sorted(rng.sample(first, min(len(first), limit // 2)))
    rest = [i for i in range(len(cases)) if i not in set(first)]
    chosen = set(first) | set(rng.sample(rest, limit - len(first)))
    return [cases[i] for i in sorted(chosen)]


def cases_for(operation, ctx):
    """Every request sent for `operation`: plausible ones, member mutations (bounded, seeded),
    whole-body mutations. A destructive plausible request goes last."""
    rng = random.Random(f"{SEED}:{operation}")
    struct = MODEL.inputs[operation]
    members = MODEL.structs[struct]
    minimal = plausible_struct(struct, ctx)
    full = plausible_struct(struct, ctx, full=True)

    top, nested = [], []
    for key, member_type in members:
        for label, value in mutations(member_type, key, ctx, 0, MODEL.bounds.get((struct, key))):
            body = {**minimal, key: value}
            is_nested = "." in label.split(":", 1)[0]
            (nested if is_nested else top).append(Case(operation, f"{key}:{label}", encode(body)))
            if member_type.endswith("?") and not label.startswith("type:null"):
                # the same mutation next to every other member
                if not is_nested and rng.random() < 0.15:
                    top.append(Case(operation, f"{key}:{label}+full", encode({**full, key: value})))
    top = sample(rng, top, TOP_CASES)
    nested = sample(rng, nested, NESTED_CASES)

    whole = [
        ("body:empty", b""), ("body:{}", b"{}"), ("body:null", b"null"), ("body:array", b"[]"),
        ("body:all-null", encode({k: None for k, _ in members})),
        ("body:all-numbers", encode({k: 7 for k, _ in members})),
        ("body:all-long-strings", encode({k: "y" * LONG for k, _ in members})),
        ("body:unknown-members", encode({**minimal, **{f"Unknown{i}": {"x": [i, None]} for i in range(50)}})),
        ("body:duplicate-keys", encode(minimal)[:-1] + b", " + encode(minimal)[1:] if minimal else b"{}"),
        ("body:invalid-utf8", b'{"' + (members[0][0] if members else "X").encode() + b'": "\xff\xfe\xc3"}'),
        ("body:trailing-garbage", encode(minimal) + b" }{ trailing"),
        ("body:lowercase-keys", encode({k.lower(): v for k, v in minimal.items()})),
    ]
    plausible_cases = [Case(operation, "plausible:minimal", encode(minimal)),
                       Case(operation, "plausible:full", encode(full))]
    top += [Case(operation, label, encode(body)) for label, body in operation_extras(operation, ctx, minimal)]
    whole_cases = [Case(operation, label, data) for label, data in whole]
    if operation.startswith(("Delete", "AdminDelete", "Revoke", "GlobalSignOut", "AdminUserGlobalSignOut",
                             "AdminDisable", "Stop", "Forget", "AdminForget")):
        return top + nested + whole_cases + plausible_cases
    return plausible_cases + top + nested + whole_cases


# Whole-body cases sent once (the decoder is shared by every operation).
def global_cases(ctx):
    minimal = encode({"UserPoolId": ctx["pool"]})
    return [
        Case("DescribeUserPool", "global:deep-array",
             b'{"UserPoolId": "x", "X": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"),
        Case("DescribeUserPool", "global:deep-object", b'{"X":' * 60_000 + b"1" + b"}" * 60_000),
        Case("DescribeUserPool", "global:oversized-body", minimal[:-1] + b', "X": "' + b"z" * (BODY_LIMIT + 10) + b'"}'),
        Case("DescribeUserPool", "global:many-members", encode({f"m{i}": i for i in range(50_000)})),
        Case("ListUserPools", "global:number-1e400", b'{"MaxResults": 1e400}'),
        Case("ListUserPools", "global:number-long-digits", b'{"MaxResults": ' + b"9" * 5000 + b"}"),
        Case("ListUserPools", "global:number-tiny", b'{"MaxResults": 1e-400}'),
        Case("SignUp", "global:escaped-nul-key", b'{"ClientId": "' + ctx["client"].encode()
             + b'", "Username": "n\\u0000ul", "Password": "Passw0rd!", "\\u0000": 1}'),
        Case("GetUser", "global:bom-prefix", b"\xef\xbb\xbf" + encode({"AccessToken": ctx["access"]})),
        Case("GetUser", "global:utf16-body", json.dumps({"AccessToken": "x"}).encode("utf-16")),
        Case("GetUser", "global:no-content-type", encode({"AccessToken": ctx["access"]}), {"Content-Type": None}),
        Case("GetUser", "global:text-plain", encode({"AccessToken": ctx["access"]}), {"Content-Type": "text/plain"}),
        Case("GetUser", "global:gzip-encoding", b"\x1f\x8b\x08\x00garbage", {"Content-Encoding": "gzip"}),
        Case("GetUser", "global:two-targets", b"{}", {"X-Amz-Target": f"{TARGET_PREFIX}GetUser, {TARGET_PREFIX}SignUp"}),
        Case("GetUser", "global:long-target", b"{}", {"X-Amz-Target": TARGET_PREFIX + "G" * 20_000}),
        Case("GetUser", "global:bad-authorization", encode({"AccessToken": ctx["access"]}),
             {"Authorization": "AWS4-HMAC-SHA256 Credential=/x, SignedHeaders=, Signature=zz"}),
    ]


# --- the server and the resources the fuzz points at ----------------------------------------------

@pytest.fixture(scope="module")
def server():
    """A server without rate limits (the fuzz would otherwise mostly meet TooManyRequests)."""
    with tempfile.TemporaryDirectory(prefix="cognate-fuzz-") as workdir:
        logs = pathlib.Path(workdir) / "log-delivery"
        logs.mkdir()
        s = CognateServer(workdir, extra_args=[
            "--rate-limit-user-creation", "0", "--rate-limit-account-recovery", "0",
            "--rate-limit-messages", "0", "--log-delivery-directory", str(logs)]).start()
        yield s
        s.stop()


def tolerant(call, default):
    try:
        return call()
    except Exception:   # noqa: BLE001 - a resource the fuzz can do without
        return default


# Operations that change the settings of a pool or client run against a second pool, so that
# the fuzz of the others keeps meeting the main pool as set up.
CONFIG_OPERATIONS = {
    "UpdateUserPool", "SetUserPoolMfaConfig", "UpdateUserPoolClient", "SetRiskConfiguration", "SetUICustomization",
    "AddCustomAttributes", "SetUserPoolPinPolicy", "SetLogDeliveryConfiguration", "TagResource", "UntagResource",
    "AddUserPoolClientSecret", "DeleteUserPoolClientSecret", "ListUserPoolClientSecrets",
}


def raw(server, operation, body):
    """A call the fuzz's set-up needs without boto3's validation (Cognate's own operations)."""
    response = requests.post(server.endpoint + "/", data=encode(body), timeout=REQUEST_TIMEOUT,
                             headers={"Content-Type": AMZ_JSON, "X-Amz-Target": TARGET_PREFIX + operation})
    assert response.status_code == 200, (operation, response.text)
    return response.json()


def outbox_code(server, pool_id, username):
    messages = [m for m in server.outbox(pool_id) if m.get("username") == username and m.get("code")]
    return messages[-1]["code"] if messages else "123456"


@pytest.fixture(scope="module")
def contexts(server):
    """{operation: context}: ids, names, tokens and codes the plausible values use. Every
    operation gets a user of its own (signed in, its device confirmed), so that one operation's
    deletions, sign-outs and password changes do not change what the next one meets; some get
    the state their plausible request needs (an unconfirmed user and its code, a challenge's
    session, a TOTP code)."""
    idp = server.client()
    flows = ["ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH", "ALLOW_USER_SRP_AUTH",
             "ALLOW_ADMIN_USER_PASSWORD_AUTH", "ALLOW_CUSTOM_AUTH"]
    tag = uuid.uuid4().hex[:8]

    def make_pool(name):
        pool = idp.create_user_pool(
            PoolName=f"fuzz-{name}-{tag}", AutoVerifiedAttributes=["email"],
            UserPoolTier="PLUS", UserPoolAddOns={"AdvancedSecurityMode": "AUDIT"},
            DeviceConfiguration={"ChallengeRequiredOnNewDevice": False, "DeviceOnlyRememberedOnUserPrompt": False},
        )["UserPool"]
        tolerant(lambda: idp.set_user_pool_mfa_config(UserPoolId=pool["Id"], MfaConfiguration="OPTIONAL",
                                                      SoftwareTokenMfaConfiguration={"Enabled": True}), None)
        client = idp.create_user_pool_client(
            UserPoolId=pool["Id"], ClientName="fuzz", ExplicitAuthFlows=flows,
            AllowedOAuthFlows=["code"], AllowedOAuthScopes=["openid", "email"], AllowedOAuthFlowsUserPoolClient=True,
            CallbackURLs=["https://example.com/callback"], SupportedIdentityProviders=["COGNITO"],
        )["UserPoolClient"]
        return pool, client

    main_pool, main_client = make_pool("main")
    other_pool, other_client = make_pool("config")
    doomed_pool = idp.create_user_pool(PoolName=f"fuzz-doomed-{tag}")["UserPool"]
    doomed_client = idp.create_user_pool_client(UserPoolId=other_pool["Id"], ClientName="doomed")["UserPoolClient"]
    secret_client = idp.create_user_pool_client(UserPoolId=other_pool["Id"], ClientName="secret",
                                                GenerateSecret=True)["UserPoolClient"]
    secrets = tolerant(lambda: idp.list_user_pool_client_secrets(
        UserPoolId=other_pool["Id"], ClientId=secret_client["ClientId"])["ClientSecrets"], [])
    pool_id = main_pool["Id"]
    idp.create_group(UserPoolId=pool_id, GroupName="fuzz-group")
    tolerant(lambda: idp.create_resource_server(UserPoolId=pool_id, Identifier="https://api.fuzz.example",
                                                Name="api", Scopes=[{"ScopeName": "read", "ScopeDescription": "Read"}]), None)
    domain = f"fuzz-{tag}"
    tolerant(lambda: idp.create_user_pool_domain(UserPoolId=pool_id, Domain=domain), None)
    issuer = f"{server.endpoint}/{other_pool['Id']}"
    tolerant(lambda: idp.create_identity_provider(
        UserPoolId=pool_id, ProviderName="Upstream", ProviderType="OIDC", IdpIdentifiers=["upstream.example"],
        ProviderDetails={"client_id": other_client["ClientId"], "client_secret": "secret",
                         "authorize_scopes": "openid email", "attributes_request_method": "GET", "oidc_issuer": issuer},
        AttributeMapping={"email": "email"}), None)
    terms = tolerant(lambda: idp.create_terms(
        UserPoolId=pool_id, ClientId=main_client["ClientId"], TermsName="terms-of-use", TermsSource="LINK",
        Enforcement="NONE", Links={"cognito:default": "https://example.com/terms"})["Terms"]["TermsId"], None)
    branding = tolerant(lambda: idp.create_managed_login_branding(
        UserPoolId=pool_id, ClientId=main_client["ClientId"], UseCognitoProvidedValues=True)[
        "ManagedLoginBranding"]["ManagedLoginBrandingId"], None)
    job = tolerant(lambda: idp.create_user_import_job(
        JobName="fuzz-import", UserPoolId=pool_id, CloudWatchLogsRoleArn="arn:aws:iam::123456789012:role/fuzz")[
        "UserImportJob"], None)
    if job:   # a one-row file, so that StartUserImportJob has something to start
        header = idp.get_csv_header(UserPoolId=pool_id)["CSVHeader"]
        row = {"cognito:username": f"imported-{tag}", "email": f"imported-{tag}@example.com",
               "email_verified": "true", "cognito:mfa_enabled": "false", "phone_number_verified": "false"}
        csv = ",".join(header) + "\r\n" + ",".join(row.get(c, "") for c in header) + "\r\n"
        tolerant(lambda: requests.put(job["PreSignedUrl"], data=csv.encode(), timeout=10), None)
    raw(server, "SetUserPoolPinPolicy", {"UserPoolId": pool_id, "PinPolicy": {}})

    def user_in(pool, client, username, confirm_device=True):
        """A confirmed user with an email, signed in: (tokens, device key)."""
        idp.admin_create_user(UserPoolId=pool["Id"], Username=username, MessageAction="SUPPRESS",
                              TemporaryPassword="Temp-0rary!",
                              UserAttributes=[{"Name": "email", "Value": f"{username}@example.com"},
                                              {"Name": "email_verified", "Value": "true"}])
        idp.admin_set_user_password(UserPoolId=pool["Id"], Username=username, Password=PASSWORD, Permanent=True)
        tokens = idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="USER_PASSWORD_AUTH",
                                   AuthParameters={"USERNAME": username, "PASSWORD": PASSWORD})["AuthenticationResult"]
        device = tokens.get("NewDeviceMetadata", {}).get("DeviceKey")
        if device and confirm_device:
            tolerant(lambda: raw(server, "ConfirmDevice", {
                "AccessToken": tokens["AccessToken"], "DeviceKey": device, "DeviceName": "fuzz-phone",
                "DeviceSecretVerifierConfig": {"PasswordVerifier": b64(b"\x07" * 256), "Salt": b64(b"\x05" * 16)}}),
                None)
        return tokens, device or f"us-east-1_{uuid.uuid4()}"

    shared = {
        "group": "fuzz-group", "resource_server": "https://api.fuzz.example", "domain": domain,
        "provider": "Upstream", "issuer": issuer, "terms": terms or str(uuid.uuid4()),
        "branding": branding or str(uuid.uuid4()), "job": job["JobId"] if job else "import-" + "a" * 10,
        "secret_id": secrets[0]["ClientSecretId"] if secrets else "fuzz-secret-id", "event": str(uuid.uuid4()),
    }
    result = {}
    for operation in MODEL.operations:
        pool, client = (other_pool, other_client) if operation in CONFIG_OPERATIONS else (main_pool, main_client)
        sign_in_client = client
        if operation in ("AddUserPoolClientSecret", "DeleteUserPoolClientSecret", "ListUserPoolClientSecrets"):
            client = secret_client
        if operation == "DeleteUserPoolClient":
            client = doomed_client
        username = f"fz-{operation.lower()[:40]}-{tag}"
        overrides = {}
        if operation in ("SignUp", "AdminCreateUser"):
            # a name no one has yet; the operation's own user signs in under another name
            overrides["Username"] = username + "-new"
        tokens, device = user_in(pool, sign_in_client, username, confirm_device=operation != "ConfirmDevice")
        ctx = {**shared, "pool": pool["Id"], "client": client["ClientId"], "username": username,
               "access": tokens["AccessToken"], "refresh": tokens["RefreshToken"], "id": tokens["IdToken"],
               "device": device,
               "arn": pool.get("Arn") or f"arn:aws:cognito-idp:us-east-1:123456789012:userpool/{pool['Id']}",
               "overrides": overrides}
        if operation in ("ConfirmSignUp", "ResendConfirmationCode", "AdminConfirmSignUp"):
            unconfirmed = username + "-unconfirmed"
            idp.sign_up(ClientId=client["ClientId"], Username=unconfirmed, Password=PASSWORD,
                        UserAttributes=[{"Name": "email", "Value": f"{unconfirmed}@example.com"}])
            overrides.update(Username=unconfirmed, ConfirmationCode=outbox_code(server, pool["Id"], unconfirmed))
        if operation == "ConfirmForgotPassword":
            idp.forgot_password(ClientId=client["ClientId"], Username=username)
            overrides["ConfirmationCode"] = outbox_code(server, pool["Id"], username)
        if operation == "VerifyUserAttribute":
            idp.get_user_attribute_verification_code(AccessToken=tokens["AccessToken"], AttributeName="email")
            overrides["Code"] = outbox_code(server, pool["Id"], username)
        if operation == "VerifySoftwareToken":
            secret = tolerant(lambda: idp.associate_software_token(AccessToken=tokens["AccessToken"])["SecretCode"], None)
            if secret:
                import pyotp
                overrides["UserCode"] = pyotp.TOTP(secret).now()
        if operation in ("RespondToAuthChallenge", "AdminRespondToAuthChallenge"):
            srp = AWSSRP(username, PASSWORD, pool["Id"], client["ClientId"], client=idp)
            started = tolerant(lambda: idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="USER_SRP_AUTH",
                                                         AuthParameters=srp.get_auth_params()), None)
            if started and started.get("ChallengeName") == "PASSWORD_VERIFIER":
                ctx["srp"] = {"session": started.get("Session", ""), **started["ChallengeParameters"]}
            challenged = username + "-challenged"
            idp.admin_create_user(UserPoolId=pool["Id"], Username=challenged, MessageAction="SUPPRESS",
                                  TemporaryPassword="Temp-0rary!")
            started = idp.admin_initiate_auth(
                UserPoolId=pool["Id"], ClientId=client["ClientId"], AuthFlow="ADMIN_USER_PASSWORD_AUTH",
                AuthParameters={"USERNAME": challenged, "PASSWORD": "Temp-0rary!"})
            overrides.update(ChallengeName=started["ChallengeName"], Session=started["Session"],
                             ChallengeResponses={"USERNAME": challenged, "NEW_PASSWORD": PASSWORD})
        if operation == "AdminInitiateAuth":
            overrides["AuthFlow"] = "ADMIN_USER_PASSWORD_AUTH"
        if operation in ("AdminUpdateAuthEventFeedback", "AdminListUserAuthEvents"):
            events = tolerant(lambda: idp.admin_list_user_auth_events(UserPoolId=pool["Id"], Username=username)[
                "AuthEvents"], [])
            if events:
                ctx["event"] = events[0]["EventId"]
        if operation == "DeleteUserPool":
            ctx["pool"] = doomed_pool["Id"]
        result[operation] = ctx
    return result


# --- running the cases ----------------------------------------------------------------------------

@dataclasses.dataclass
class Failure:
    operation: str
    label: str
    problem: str
    status: object
    response: str
    data: bytes
    log: list

    def key(self):
        return self.operation, self.label

    def short(self):
        body = self.data.decode("utf-8", "backslashreplace")
        if len(body) > 400:
            body = body[:300] + f"…({len(body)} bytes)…" + body[-60:]
        log = "\n        ".join(self.log[-6:])
        return (f"{self.operation} [{self.label}]: {self.problem}; status {self.status}, answer {self.response[:300]!r}\n"
                f"      request: {body}\n" + (f"      log: {log}\n" if self.log else ""))


def problem_with(response):
    """Why `response` breaks the contract (None: it keeps it)."""
    status = response.status_code
    if status >= 500:
        return "server error"
    if not (status == 200 or 400 <= status < 500):
        return "unexpected status"
    try:
        body = response.json()
    except ValueError:
        return "body is not JSON"
    if not isinstance(body, dict):
        return "body is not a JSON object"
    if status != 200:
        if not isinstance(body.get("__type"), str) or not body["__type"]:
            return "error without __type"
        if not isinstance(body.get("message"), str) or not body["message"]:
            return "error without message"
    return None


class Runner:
    def __init__(self, server):
        self.server = server
        self.session = requests.Session()
        self.sent = 0
        self.failures = []
        self.restarts = 0
        self.slowest = (0.0, None)
        self.outcomes = {}      # operation → {"200" or error type: count}
        self.plausible = {}     # "operation [label]" → answer (truncated)
        self.answers = []       # (operation, label, status, "200" or error type)

    def log_size(self):
        return self.server.log_path.stat().st_size if self.server.log_path.exists() else 0

    def new_log_lines(self, offset):
        with open(self.server.log_path, "rb") as f:
            f.seek(offset)
            return [line for line in f.read().decode("utf-8", "replace").splitlines() if line.strip()][-20:]

    def send(self, case):
        offset = self.log_size()
        headers = {"Content-Type": AMZ_JSON, "X-Amz-Target": TARGET_PREFIX + case.operation, **case.headers}
        self.sent += 1
        started = time.monotonic()
        problem, status, text, response = None, None, "", None
        try:
            if case.path:
                response = self.session.get(self.server.endpoint + case.path, timeout=REQUEST_TIMEOUT)
                status, text = response.status_code, response.text
                problem = "server error" if status >= 500 else None
            else:
                response = self.session.post(self.server.endpoint + "/", data=case.data, headers=headers,
                                             timeout=REQUEST_TIMEOUT)
                status, text = response.status_code, response.text
                problem = problem_with(response)
            if problem is None and not case.path:
                outcome = "200" if status == 200 else response.json()["__type"]
                counts = self.outcomes.setdefault(case.operation, {})
                counts[outcome] = counts.get(outcome, 0) + 1
                if case.label.startswith("plausible"):
                    self.plausible[f"{case.operation} [{case.label}]"] = text[:200]
                self.answers.append((case.operation, case.label, status, outcome,
                                     "" if status == 200 else response.json()["message"][:160]))
        except requests.Timeout:
            problem = f"no answer within {REQUEST_TIMEOUT} s (hang)"
        except requests.ConnectionError as error:
            problem = f"connection failed: {type(error).__name__}"
        elapsed = time.monotonic() - started
        if elapsed > self.slowest[0]:
            self.slowest = (elapsed, f"{case.operation} [{case.label}]")
        if problem is None:
            return response
        died = self.server.process.poll() is not None
        if died:
            problem += f"; the server died (exit {self.server.process.returncode})"
        self.failures.append(Failure(case.operation, case.label, problem, status, text, case.data,
                                     self.new_log_lines(offset)))
        if died:
            self.restarts += 1
            self.session = requests.Session()
            self.server.restart()
        elif "hang" in problem:
            self.session = requests.Session()
            try:
                healthy = requests.get(self.server.endpoint + "/health", timeout=5).status_code == 200
            except requests.RequestException:
                healthy = False
            if not healthy:   # wedged: every later request would wait out the timeout too
                self.failures[-1].problem += "; /health did not answer either, the server was killed and restarted"
                self.server.process.kill()
                self.restarts += 1
                self.server.restart()


    def call(self, operation, body, label):
        """Sends one read-back request; its output document when it succeeded, else None."""
        response = self.send(Case(operation, label, encode(body)))
        return response.json() if response is not None and response.status_code == 200 else None

    def pages(self, operation, body, items, label, token="NextToken", limit=200):
        """The items of up to `limit` pages of a listing (one item a page, so that every item's
        key goes into a token). A token the server issued must take the listing on."""
        found, body = [], dict(body)
        for _ in range(limit):
            case = Case(operation, "read-back:next-page" if token in body else label, encode(body))
            response = self.send(case)
            if response is None:
                break
            if response.status_code != 200:
                if token in body:
                    failure = response.json()
                    decoded = base64.urlsafe_b64decode(body[token] + "=" * (-len(body[token]) % 4))
                    self.failures.append(Failure(
                        operation, case.label, f"rejected the {token} it issued (it decodes to {decoded!r})",
                        response.status_code, response.text, case.data, []))
                break
            answer = response.json()
            found += answer.get(items, [])
            if not answer.get(token):
                break
            body[token] = answer[token]
        return found


def read_back(runner):
    """Reads back what the fuzz stored: every pool, client, group, provider, resource server,
    user (a bounded number of each) through the API, and each pool's documents and each client's
    hosted sign-in page. Values a write accepted must not break a read."""
    pools = runner.pages("ListUserPools", {"MaxResults": 60}, "UserPools", "read-back:pools", limit=5)
    for pool in pools[:80]:
        pool_id = pool["Id"]
        label = f"read-back:{pool_id}"
        described = runner.call("DescribeUserPool", {"UserPoolId": pool_id}, label) or {}
        for operation in ("GetUserPoolMfaConfig", "GetLogDeliveryConfiguration", "DescribeRiskConfiguration",
                          "GetUICustomization", "GetCSVHeader", "GetSigningCertificate", "ListUserImportJobs"):
            runner.call(operation, {"UserPoolId": pool_id, "MaxResults": 60}, label)
        arn = described.get("UserPool", {}).get("Arn")
        if arn:
            runner.call("ListTagsForResource", {"ResourceArn": arn}, label)
        for document in ("jwks.json", "openid-configuration"):
            runner.send(Case("GET", f"{label}:{document}", b"", path=f"/{pool_id}/.well-known/{document}"))
        clients = runner.pages("ListUserPoolClients", {"UserPoolId": pool_id, "MaxResults": 60},
                               "UserPoolClients", label, limit=5)
        for client in clients[:30]:
            body = {"UserPoolId": pool_id, "ClientId": client["ClientId"]}
            detail = (runner.call("DescribeUserPoolClient", body, label) or {}).get("UserPoolClient", {})
            runner.call("DescribeManagedLoginBrandingByClient", {**body, "ReturnMergedResources": True}, label)
            runner.call("GetUICustomization", body, label)
            runner.call("DescribeRiskConfiguration", body, label)
            runner.call("GetPinPolicy", {"ClientId": client["ClientId"]}, label)
            callback = (detail.get("CallbackURLs") or ["https://example.com/callback"])[0]
            query = urllib.parse.urlencode({"client_id": client["ClientId"], "response_type": "code",
                                            "redirect_uri": callback, "scope": "openid"})
            runner.send(Case("GET", f"{label}:hosted-sign-in", b"", path=f"/oauth2/authorize?{query}"))
        for group in runner.pages("ListGroups", {"UserPoolId": pool_id, "Limit": 1}, "Groups", label)[:30]:
            runner.call("GetGroup", {"UserPoolId": pool_id, "GroupName": group["GroupName"]}, label)
            runner.pages("ListUsersInGroup", {"UserPoolId": pool_id, "GroupName": group["GroupName"], "Limit": 1},
                         "Users", label, limit=20)
        for provider in runner.pages("ListIdentityProviders", {"UserPoolId": pool_id, "MaxResults": 1},
                                     "Providers", label)[:30]:
            runner.call("DescribeIdentityProvider", {"UserPoolId": pool_id, "ProviderName": provider["ProviderName"]},
                        label)
        for server_ in runner.pages("ListResourceServers", {"UserPoolId": pool_id, "MaxResults": 1},
                                    "ResourceServers", label)[:30]:
            runner.call("DescribeResourceServer", {"UserPoolId": pool_id, "Identifier": server_["Identifier"]}, label)
        for terms in runner.pages("ListTerms", {"UserPoolId": pool_id, "MaxResults": 1}, "Terms", label)[:30]:
            runner.call("DescribeTerms", {"UserPoolId": pool_id, "TermsId": terms["TermsId"]}, label)
        users = runner.pages("ListUsers", {"UserPoolId": pool_id, "Limit": 1}, "Users", label,
                             token="PaginationToken", limit=400)
        for user in users[:150]:
            body = {"UserPoolId": pool_id, "Username": user["Username"]}
            runner.call("AdminGetUser", body, label)
            runner.call("AdminListGroupsForUser", body, label)


# (operation, label): what is wrong — failures that reproduce with this server build. Empty since
# the pagination tokens of names starting with combining marks were fixed (PageToken compares bytes).
KNOWN_FAILURES = {}


@pytest.fixture(scope="module")
def fuzz(server, contexts):
    runner = Runner(server)
    started = time.monotonic()
    by_operation = {}
    deleting = [op for op in MODEL.operations if op.startswith(("Delete", "AdminDelete"))]
    seconds = {}

    def fuzz_operations(operations):
        for operation in sorted(operations):
            begun = time.monotonic()
            cases = cases_for(operation, contexts[operation])
            by_operation[operation] = len(cases)
            for case in cases:
                runner.send(case)
            seconds[operation] = round(time.monotonic() - begun, 2)

    # Deletions last, after everything else has been fuzzed and read back.
    fuzz_operations(set(MODEL.operations) - set(deleting))
    for case in global_cases(contexts["DescribeUserPool"]):
        runner.send(case)
    before = runner.sent
    read_back(runner)
    runner.read_back = runner.sent - before
    fuzz_operations(deleting)
    runner.elapsed = time.monotonic() - started
    runner.by_operation = by_operation
    report = os.environ.get("COGNATE_FUZZ_REPORT")
    if report:
        pathlib.Path(report).write_text(json.dumps({
            "seed": SEED, "sent": runner.sent, "seconds": round(runner.elapsed, 1), "restarts": runner.restarts,
            "slowest": runner.slowest, "per_operation": by_operation, "operation_seconds": seconds, "outcomes": runner.outcomes,
            "plausible": runner.plausible, "answers": runner.answers,
            "failures": [{**dataclasses.asdict(f), "data": f.data.decode("utf-8", "backslashreplace")}
                         for f in runner.failures]}, indent=1))
    print(f"\nfuzz: {runner.sent} requests ({runner.read_back} of them reading back) to {len(by_operation)} "
          f"operations in {runner.elapsed:.1f} s, "
          f"{len(runner.failures)} failures, {runner.restarts} restarts; slowest {runner.slowest[0]:.2f} s "
          f"({runner.slowest[1]})")
    return runner


# --- tests ----------------------------------------------------------------------------------------

def test_every_registered_operation_has_an_input_type():
    assert len(MODEL.operations) > 100
    missing = [op for op in MODEL.operations if MODEL.inputs.get(op) not in MODEL.structs]
    assert not missing, f"no input type found for {missing}"
    for op in MODEL.operations:
        for key, member_type in MODEL.structs[MODEL.inputs[op]]:
            kind_of(member_type)   # every member type is understood


def answer(status, text):
    response = requests.Response()
    response.status_code, response._content = status, text.encode()
    return response


def test_contract_checker_flags_bad_answers():
    assert problem_with(answer(200, "{}")) is None
    assert problem_with(answer(400, '{"__type": "X", "message": "m"}')) is None
    assert problem_with(answer(500, '{"__type": "InternalErrorException", "message": "m"}')) == "server error"
    assert problem_with(answer(400, "<html>")) == "body is not JSON"
    assert problem_with(answer(400, "[]")) == "body is not a JSON object"
    assert problem_with(answer(400, '{"message": "m"}')) == "error without __type"
    assert problem_with(answer(413, '{"__type": "X"}')) == "error without message"
    assert problem_with(answer(302, "{}")) == "unexpected status"


def test_cases_are_deterministic(contexts):
    first = [(c.label, c.data) for c in cases_for("CreateUserPool", contexts["CreateUserPool"])]
    again = [(c.label, c.data) for c in cases_for("CreateUserPool", contexts["CreateUserPool"])]
    assert first == again


def test_fuzz_every_operation(fuzz, server):
    unexpected = [f for f in fuzz.failures if f.key() not in KNOWN_FAILURES]
    assert server.process.poll() is None, "the server is not running after the fuzz"
    assert requests.get(server.endpoint + "/health", timeout=10).status_code == 200
    if unexpected:
        groups = {}
        for f in unexpected:
            groups.setdefault((f.operation, f.problem.split(";")[0], f.status), []).append(f)
        lines = [f"{len(unexpected)} of {fuzz.sent} requests broke the contract "
                 f"({len(groups)} distinct operation/problem/status groups, {fuzz.restarts} restarts):"]
        for (operation, problem, status), members in sorted(groups.items(), key=lambda g: str(g[0])):
            lines.append(f"  - {operation}: {problem} (status {status}) ×{len(members)}; first:\n    "
                         + members[0].short())
        pytest.fail("\n".join(lines), pytrace=False)


def test_known_failures_still_reproduce(fuzz):
    """KNOWN_FAILURES, as found by this run: xfail while they reproduce; one that no longer
    does must leave the list (so that it is guarded again)."""
    found = {f.key(): f for f in fuzz.failures if f.key() in KNOWN_FAILURES}
    gone = sorted(set(KNOWN_FAILURES) - set(found))
    assert not gone, f"fixed (remove them from KNOWN_FAILURES): {gone}"
    if found:
        pytest.xfail("known failures:\n" + "\n".join(f"{KNOWN_FAILURES[k]}: {f.short()}" for k, f in found.items()))


def test_server_is_still_healthy(fuzz, server):
    assert server.process.poll() is None, "server process exited"
    assert requests.get(server.endpoint + "/health", timeout=10).status_code == 200
    assert not server.faults() or fuzz.failures, "the server logged faults no answer showed:\n" + \
        "\n".join(server.faults()[:20])
