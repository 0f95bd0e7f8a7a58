#!/usr/bin/env python3
"""Writes docs/compatibility.md: every operation of botocore's cognito-idp model and, in a section
of its own, of its cognito-identity model (identity pools), whether Cognate serves it (read from
Sources/CognateServer/CognitoAPI/OperationTable+Cognate.swift), the errors Cognito documents for
it, and which of those Cognate never answers, and why.

    python3 Scripts/generate-compatibility.py           # rewrite the document
    python3 Scripts/generate-compatibility.py --check   # exit 1 when it is out of date

compat/test_compatibility_doc.py runs the check and probes the server for every operation."""
import pathlib
import re
import sys

import botocore.session

ROOT = pathlib.Path(__file__).resolve().parent.parent
TABLE = ROOT / "Sources" / "CognateServer" / "CognitoAPI" / "OperationTable+Cognate.swift"
DOCUMENT = ROOT / "docs" / "compatibility.md"

# Errors Cognate does not produce, by the reason shown in the document.
NEVER = {
    "AWS only (IAM roles, SES/SNS, WAF, pricing tiers)": {
        "InvalidSmsRoleAccessPolicyException", "InvalidSmsRoleTrustRelationshipException",
        "InvalidEmailRoleAccessPolicyException", "ForbiddenException", "FeatureUnavailableInTierException",
        "TierChangeNotAllowedException", "UserPoolTaggingException",
    },
    "a user without a usable second factor is asked to set one up (`MFA_SETUP`)": {"MFAMethodNotFoundException"},
    "a user import job does not stop other changes to its pool": {"UserImportInProgressException"},
    "too many wrong codes answer `LimitExceededException`, as observed from Cognito": {"TooManyFailedAttemptsException"},
}
LAMBDA_ERRORS = {"UnexpectedLambdaException", "UserLambdaValidationException", "InvalidLambdaResponseException"}
# Operations that run a pool's Lambda triggers (docs/triggers.md); the others answer no Lambda error.
TRIGGERING = {
    "SignUp", "ConfirmSignUp", "AdminConfirmSignUp", "ResendConfirmationCode", "ForgotPassword",
    "ConfirmForgotPassword", "InitiateAuth", "AdminInitiateAuth", "RespondToAuthChallenge",
    "AdminRespondToAuthChallenge", "AdminCreateUser", "UpdateUserAttributes", "AdminUpdateUserAttributes",
    "GetUserAttributeVerificationCode", "AdminResetUserPassword",
}
# Per operation: errors Cognate does not produce there, with the reason.
NEVER_FOR = {
    "UpdateUserPool": {"ConcurrentModificationException": "the database serializes updates"},
    "UpdateUserPoolClient": {"ConcurrentModificationException": "the database serializes updates"},
    "DeleteUserPoolClient": {"ConcurrentModificationException": "the database serializes updates"},
    "CreateCIMDPolicy": {"ConcurrentModificationException": "the database serializes updates",
                         "OperationNotEnabledException": "Cognate has no replica regions"},
    "UpdateCIMDPolicy": {"ConcurrentModificationException": "the database serializes updates",
                         "LimitExceededException": "the pool's limit counts policies, which an update does not add",
                         "OperationNotEnabledException": "Cognate has no replica regions"},
    "DeleteCIMDPolicy": {"ConcurrentModificationException": "the database serializes updates",
                         "OperationNotEnabledException": "Cognate has no replica regions"},
    "UpdateClientMetadataURLState": {"OperationNotEnabledException": "Cognate has no replica regions"},
    "InitiatePointInTimeRecovery": {"ConcurrentModificationException": "no recovery is started through the API",
                                    "LimitExceededException": "no recovery is started through the API"},
    "StartPointInTimeRecovery": {"ConcurrentModificationException": "no recovery is started through the API"},
    "CancelPointInTimeRecovery": {"ConcurrentModificationException": "no recovery is started through the API"},
    "CreateUserPoolReplica": {"LimitExceededException": "no replica is created through the API"},
}
# Operations not served yet, by the issue that brings them.
PLANNED = [
    (re.compile(r"UserSession|SessionConfiguration"), "user sessions are not built yet"),
    (re.compile(r"ProvisionedLimit"), "Cognito's account-wide request-rate quotas: Cognate has no account quota "
     "to report or raise (its limits are per caller and per destination, docs/security.md)"),
]
OTHER = "not built yet"
# Cognate's own operations (not in Cognito's model), with what they are for.
EXTENSIONS = {
    "SetUserPoolPinPolicy": "a pool's PIN policy (admin, SigV4); without one the pool offers no PIN sign-in",
    "GetPinPolicy": "the PIN policy of an app client's pool, for apps to check PINs against",
    "RegisterDevicePin": "the SRP verifier of a PIN-derived secret for the device an access token was issued to",
    "SetUserPoolCustomRegistration":
        "a pool's custom-registration function (admin, SigV4); without one the pool offers none",
    "GetUserPoolCustomRegistration": "a pool's custom-registration function (admin, SigV4)",
    "StartCustomRegistration": "starts a custom registration with the app's data, answered by the pool's function",
    "RespondToCustomRegistration":
        "answers a custom registration's challenge; the last answer creates the account, signed in",
}

HEADER = """# Compatibility with Cognito's API

Every operation of the Cognito User Pools API (botocore's `cognito-idp` model, {count}
operations), whether Cognate serves it, the errors Cognito documents for it and which of them
Cognate never answers. An operation Cognate does not serve answers `UnknownOperationException`
(HTTP 400). Generated by `Scripts/generate-compatibility.py` from the model and the server's
operation table; `compat/test_compatibility_doc.py` checks it is current and asks the server
every operation.

Cognate serves **{served}** operations. Errors it answers are worded as Cognito words them where
that is known (the compat suites check them): `NotAuthorizedException` "Incorrect username or password." for wrong passwords and, with
PreventUserExistenceErrors, unknown users; "Invalid Access Token" / "Access Token has been
revoked" / "Access Token has expired" for tokens; "User pool client … does not exist." for an
unknown client; "Error while parsing filter." for ListUsers; "Attributes did not conform to the
schema: …" for attribute values; "Username/client id combination not found." for ForgotPassword;
"Cannot modify an already provided email" for NEW_PASSWORD_REQUIRED answers. Every client error is
HTTP 400 (as observed from Cognito), server faults 500.

Cognate-specific answers: `TooManyRequestsException` from the per-address limits of SignUp,
ConfirmSignUp, ResendConfirmationCode, ForgotPassword and ConfirmForgotPassword, and
`LimitExceededException` for codes to one address beyond the hourly limit
(`cognate serve --help`); `InvalidParameterException` "Values must not contain the NUL
character (U+0000)." for any value with that character, which no store can hold.

Where Cognate does differently from Cognito on purpose:

- **Revocations take back device trust.** GlobalSignOut, AdminUserGlobalSignOut,
  AdminDisableUser, AdminSetUserPassword, AdminResetUserPassword and every password change or
  reset remove the PINs registered on the user's devices (Cognate's own PIN sign-in) and leave
  no device remembered, so a device remembered with a stolen token stops skipping MFA; Cognito
  keeps remembered devices (docs/security.md).
- **An administrator's password reset ends every session** (AdminSetUserPassword,
  AdminResetUserPassword); Cognito keeps them.
- **Pool settings Cognito does not have**, as user pool tags (every Cognito client can set
  them): `cognate:RevokeTokensOnPasswordChange=true` ends all of a user's sessions when they
  change or reset their own password; `cognate:HideExistingUsers=true` makes clients with
  PreventUserExistenceErrors hide the state of users who exist too (a confirmed user, a used
  code), where Cognito hides only users who do not;
  `cognate:PasskeyRegistrationNeedsRecentSignIn=true` lets only a sign-in under 5 minutes old
  register a passkey.
- **Choice-based sign-in** (`USER_AUTH`): codes as a first factor go only to a verified email
  address or phone number; a passkey's origin must be its RP ID or a name under it over HTTPS
  (HTTP for `localhost`), or an Android app's key-hash origin; `FriendlyCredentialName` is
  "Passkey"; auth events name the factor (`EMAIL_OTP`, `SMS_OTP`, `WEB_AUTHN`) in
  `ChallengeResponses`; a user with a temporary password who signs in with a code must still
  choose a password (`NEW_PASSWORD_REQUIRED`).
- **Setting up MFA during sign-in** (`MFA_SETUP`): `MFAS_CAN_SETUP` lists what the answer can
  set up — `SOFTWARE_TOKEN_MFA` where the pool enables it, `EMAIL_OTP` where it enables email MFA
  and the user has no email address — and not `SMS_MFA`, which Cognito lists too though no
  phone number can be given in the answer. An answer with `EMAIL` is checked as any address a
  user writes (the app client must be allowed to write `email`) and gets a code there
  (`EMAIL_OTP`); only the right code makes the address the user's, verified, and turns email
  MFA on. It never replaces an address the user has ("Cannot modify an already provided
  email"), and where the email is the username another user's address is refused
  (`AliasExistsException`) before a code is sent. The hosted pages set up the authenticator app
  only.
- **GetClientToken** is for app clients with a secret that allow the client credentials grant
  (`AllowedOAuthFlows: client_credentials`): Cognito's guide names an `ALLOW_CLIENT_TOKEN_AUTH`
  flow, which botocore's model does not list among `ExplicitAuthFlows`. Its client secret
  authorizes it (no SigV4 needed, as Cognito evaluates no IAM policy for it).
- **GetDerivedToken** (token exchange) takes tokens of the client's own user pool only (no
  SAML assertions, no tokens of other providers); the requesting client gives its secret when
  it has one (its secret authorizes the call, not SigV4); the new token keeps the subject's
  sign-in, so signing it out ends the new token too.
- **SAML providers**: a `MetadataURL` may use any port (Cognito takes 80 and 443 only); what
  DescribeIdentityProvider shows (`SSORedirectBindingURI`, `SLORedirectBindingURI`) is read
  when the provider is created or updated, while sign-ins use the URL's document of the last six
  hours; the refusal of an app client that mixes an IdP-initiated SAML provider
  with other providers is `InvalidParameterException` with Cognate's own message (Cognito
  documents the rule, not the error); an attribute with several values maps as `[a, b]` (Cognito documents the
  encoding of each value, not the joining); a response with a status other than Success goes back
  to the app as `invalid_request` with the status; the hosted pages accept a LogoutResponse by
  POST only and do not take the IdP's own LogoutRequests (IdP-initiated logout), as Cognito
  documents none.
- **Client ID metadata documents** (CIMD policies, docs/oauth.md): `/oauth2/authorize` and
  `/oauth2/token` take an `https` URL as `client_id`; Cognate fetches the document (public
  addresses only, no redirect, 5 KB, 5 s), checks it by the draft's rules and Cognito's
  public-client rule, and records the URL once its document passes (ListClientMetadataURLs). A
  URL must be admitted by exactly one policy of the deployment. REFRESH marks a cached document
  due (its ExpirationDate becomes now) rather than fetching it at once; the next use fetches it.
  Tokens carry the app client's ID. A URL client refreshes tokens only where its app client has
  no secret. A URL pattern's `*` is Cognate's reading of Cognito's unpublished
  rules: in the host only the whole first label (`https://*.example.com/…`, one label), in the
  path any run of characters; a pattern needs a path, and no `.`/`..` segment, user info or
  port other than digits. A policy may not repeat a pattern; a pool holds at most 20 policies
  (`LimitExceededException`; Cognito publishes no quota with the API). UpdateCIMDPolicy forgets
  the recorded URLs the new patterns no longer admit.
- **Point-in-time recovery and replicas** are the database's in a self-hosted deployment
  (docs/deploy.md, "Disaster recovery"): a restore rolls the whole database back while the
  server is stopped, and a second Region is a PostgreSQL standby with nodes of its own.
  InitiatePointInTimeRecovery, CreateUserPoolReplica and a failover by UpdateUserPoolReplica
  answer `OperationNotEnabledException` saying what to set up; ListPointInTimeRecoveries
  answers none, Start/Cancel/DescribePointInTimeRecovery `ResourceNotFoundException`;
  ListUserPoolReplicas answers the deployment itself as the pool's `PRIMARY` in its region.
- **Dev mode** (`cognate serve` without `--mode production`) accepts any credentials, keeps
  every message in an outbox, answers only to local names and refuses admin operations from
  web pages (docs/security.md).

| operation | Cognate | errors Cognito documents | of those, never answered by Cognate |
| --- | --- | --- | --- |
"""


def served_operations():
    return set(re.findall(r"\bCognitoAPI\.(\w+)\.self", TABLE.read_text()))


def served_identity_operations():
    return set(re.findall(r"\bCognitoIdentityAPI\.(\w+)\.self", TABLE.read_text()))


# The identity-pool API: errors Cognate does not produce, by the reason shown.
IDENTITY_NEVER = {
    "no request limits on the identity-pool API (put a proxy's in front)": {"TooManyRequestsException"},
    "the database serializes updates": {"ConcurrentModificationException"},
}
IDENTITY_NEVER_FOR = {
    "CreateIdentityPool": {"LimitExceededException": "no limit on the number of identity pools",
                           "ResourceConflictException": "pool names need not be unique (as in Cognito)"},
    "UpdateIdentityPool": {"LimitExceededException": "no limit on the number of identity pools",
                           "ResourceConflictException": "pool names need not be unique (as in Cognito)"},
    "GetIdentityPoolRoles": {"ResourceConflictException": "a read conflicts with nothing"},
    "SetIdentityPoolRoles": {"ResourceConflictException": "roles are replaced whole"},
    "LookupDeveloperIdentity": {},
}

IDENTITY_HEADER = """
## The identity-pool API (`cognito-identity`)

Every operation of Cognito's identity-pool API (botocore's `cognito-identity` model, {count}
operations), served on the same endpoint with `X-Amz-Target: AWSCognitoIdentityService.<name>`;
Cognate serves **{served}**. GetId, GetOpenIdToken, GetCredentialsForIdentity and UnlinkIdentity
are public, as the model says; the others are admin operations (SigV4 outside dev mode). How it
works, what to configure and where Cognate differs: [identity-pools.md](identity-pools.md).

| operation | Cognate | errors Cognito documents | of those, never answered by Cognate |
| --- | --- | --- | --- |
"""


def render_identity():
    model = botocore.session.get_session().get_service_model("cognito-identity")
    served = served_identity_operations()
    names = sorted(model.operation_names)
    unknown = served - set(names)
    if unknown:
        raise SystemExit(f"served but not in the cognito-identity model: {sorted(unknown)}")
    rows = []
    for name in names:
        errors = sorted(e.name for e in model.operation_model(name).error_shapes)
        if name in served:
            never = []
            for reason, group in IDENTITY_NEVER.items():
                missing = [e for e in errors if e in group]
                if missing:
                    never.append(f"{', '.join(f'`{e}`' for e in missing)}: {reason}")
            for error, reason in IDENTITY_NEVER_FOR.get(name, {}).items():
                if error in errors:
                    never.append(f"`{error}`: {reason}")
            status, never_text = "served", "; ".join(never) or "—"
        else:
            status, never_text = "not yet", "all (`UnknownOperationException`)"
        rows.append(f"| `{name}` | {status} | {', '.join(f'`{e}`' for e in errors)} | {never_text} |")
    return IDENTITY_HEADER.format(count=len(names), served=len(served & set(names))) + "\n".join(rows) + "\n"


def render():
    model = botocore.session.get_session().get_service_model("cognito-idp")
    served = served_operations()
    names = sorted(model.operation_names)
    unknown = served - set(names) - set(EXTENSIONS)
    if unknown:
        raise SystemExit(f"served but not in the model: {sorted(unknown)}")
    rows = []
    for name in names:
        errors = sorted(e.name for e in model.operation_model(name).error_shapes)
        if name in served:
            status = "served"
            never = []
            for reason, group in NEVER.items():
                missing = [e for e in errors if e in group]
                if missing:
                    never.append(f"{', '.join(f'`{e}`' for e in missing)}: {reason}")
            lambda_errors = [e for e in errors if e in LAMBDA_ERRORS]
            if lambda_errors and name not in TRIGGERING:
                never.append(f"{', '.join(f'`{e}`' for e in lambda_errors)}: Cognate runs no trigger here")
            for error, reason in NEVER_FOR.get(name, {}).items():
                if error in errors:
                    never.append(f"`{error}`: {reason}")
            never_text = "; ".join(never) or "—"
        else:
            status = "not yet: " + next((why for pattern, why in PLANNED if pattern.search(name)), OTHER)
            never_text = "all (`UnknownOperationException`)"
        rows.append(f"| `{name}` | {status} | {', '.join(f'`{e}`' for e in errors)} | {never_text} |")
    own = [f"| `{name}` | {purpose} |" for name, purpose in sorted(EXTENSIONS.items())]
    return (HEADER.format(count=len(names), served=len(served & set(names))) + "\n".join(rows) + "\n\n"
            + "## Cognate's own operations\n\nOn the same wire (`X-Amz-Target: AWSCognitoIdentityProviderService.<name>`), "
            + "for PIN sign-in (docs/sdk.md; with `InitiateAuth`'s `DEVICE_PIN_AUTH` flow) and custom registration "
            + "(docs/triggers.md).\n\n"
            + "| operation | what for |\n| --- | --- |\n" + "\n".join(own) + "\n" + render_identity())


def main():
    text = render()
    if "--check" in sys.argv:
        if DOCUMENT.read_text() != text:
            print("docs/compatibility.md is out of date: run python3 Scripts/generate-compatibility.py", file=sys.stderr)
            sys.exit(1)
        return
    DOCUMENT.write_text(text)


if __name__ == "__main__":
    main()
