"""Choice-based sign-in (USER_AUTH) and passkeys through boto3, with python-fido2's WebAuthn
types as the authenticator (passkey_authenticator.py): registration (Start/Complete
WebAuthnRegistration), sign-in with a passkey, a replayed assertion, a wrong origin or RP ID,
listing and deletion; one-time codes by email and SMS as first factors; SELECT_CHALLENGE;
passwordless sign-up with sign-in by session; what a name that is no user is answered."""
import json
import urllib.parse

import pytest
from fido2.utils import websafe_encode
from passkey_authenticator import SoftAuthenticator

from helpers import (PASSWORD, cognito_error, confirmed_user, last_message, masked_email, masked_phone, messages,
                     srp_for, unique, verify_token)

RP_ID = "example.com"
ORIGIN = "https://example.com"
PHONE = "+15550009876"
CHOICE_FLOWS = ["ALLOW_USER_AUTH", "ALLOW_REFRESH_TOKEN_AUTH", "ALLOW_USER_SRP_AUTH", "ALLOW_USER_PASSWORD_AUTH"]


def choice_pool(idp, factors=("PASSWORD", "WEB_AUTHN", "EMAIL_OTP", "SMS_OTP"), rp_id=RP_ID, verification="preferred",
                auto_verified=("email",), mfa=None):
    pool = idp.create_user_pool(
        PoolName=unique("choice"), AutoVerifiedAttributes=list(auto_verified),
        Policies={"SignInPolicy": {"AllowedFirstAuthFactors": list(factors)}})["UserPool"]
    config = {"WebAuthnConfiguration": {"RelyingPartyId": rp_id, "UserVerification": verification}}
    if mfa:
        config.update(mfa)
    idp.set_user_pool_mfa_config(UserPoolId=pool["Id"], **config)
    client = idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="app", ExplicitAuthFlows=CHOICE_FLOWS)["UserPoolClient"]
    return pool, client


def user_auth(idp, client, username, preferred=None, **parameters):
    params = {"USERNAME": username, **parameters}
    if preferred:
        params["PREFERRED_CHALLENGE"] = preferred
    return idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="USER_AUTH", AuthParameters=params)


def respond(idp, client, started, name, username, **responses):
    return idp.respond_to_auth_challenge(
        ClientId=client["ClientId"], ChallengeName=name, Session=started["Session"],
        ChallengeResponses={"USERNAME": username, **responses})


def register_passkey(idp, access, authenticator, **create):
    options = idp.start_web_authn_registration(AccessToken=access)["CredentialCreationOptions"]
    credential = authenticator.create(options, **create)
    idp.complete_web_authn_registration(AccessToken=access, Credential=credential)
    return options, credential


def passkey_sign_in(idp, client, username, authenticator, **get):
    started = user_auth(idp, client, username, preferred="WEB_AUTHN")
    assert started["ChallengeName"] == "WEB_AUTHN", started
    options = json.loads(started["ChallengeParameters"]["CREDENTIAL_REQUEST_OPTIONS"])
    assertion = authenticator.get(options, **get)
    return started, options, assertion


def test_pool_settings_for_passkeys_round_trip(idp):
    pool, _ = choice_pool(idp, verification="required")
    described = idp.describe_user_pool(UserPoolId=pool["Id"])["UserPool"]
    assert described["Policies"]["SignInPolicy"]["AllowedFirstAuthFactors"] == [
        "PASSWORD", "WEB_AUTHN", "EMAIL_OTP", "SMS_OTP"]
    config = idp.get_user_pool_mfa_config(UserPoolId=pool["Id"])["WebAuthnConfiguration"]
    assert config["RelyingPartyId"] == RP_ID and config["UserVerification"] == "required"
    # A later MFA change keeps the passkey settings.
    idp.set_user_pool_mfa_config(UserPoolId=pool["Id"], SoftwareTokenMfaConfiguration={"Enabled": True},
                                 MfaConfiguration="OPTIONAL")
    assert idp.get_user_pool_mfa_config(UserPoolId=pool["Id"])["WebAuthnConfiguration"]["RelyingPartyId"] == RP_ID


def test_a_passkey_registered_through_the_api_signs_in(server, idp):
    pool, client = choice_pool(idp)
    username, _, sub = confirmed_user(server, idp, pool, client)
    access = idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="USER_PASSWORD_AUTH",
                               AuthParameters={"USERNAME": username, "PASSWORD": PASSWORD})["AuthenticationResult"][
        "AccessToken"]
    assert idp.get_user_auth_factors(AccessToken=access)["ConfiguredUserAuthFactors"] == ["PASSWORD", "EMAIL_OTP"]
    authenticator = SoftAuthenticator(ORIGIN)
    options, credential = register_passkey(idp, access, authenticator)
    assert options["rp"] == {"id": RP_ID, "name": pool["Name"]}
    assert options["user"]["name"] == username and options["timeout"] == 60000
    assert [p["alg"] for p in options["pubKeyCredParams"]] == [-7, -257]
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert options["authenticatorSelection"]["requireResidentKey"] is True
    assert options["excludeCredentials"] == []

    listed = idp.list_web_authn_credentials(AccessToken=access)["Credentials"]
    assert len(listed) == 1
    assert listed[0]["CredentialId"] == credential["id"] and listed[0]["RelyingPartyId"] == RP_ID
    assert listed[0]["AuthenticatorAttachment"] == "platform"
    assert listed[0]["AuthenticatorTransports"] == ["internal", "hybrid"]
    assert idp.get_user_auth_factors(AccessToken=access)["ConfiguredUserAuthFactors"] == [
        "PASSWORD", "WEB_AUTHN", "EMAIL_OTP"]
    # The next registration excludes the passkey the user has.
    again = idp.start_web_authn_registration(AccessToken=access)["CredentialCreationOptions"]
    assert [c["id"] for c in again["excludeCredentials"]] == [credential["id"]]

    started, request_options, assertion = passkey_sign_in(idp, client, username, authenticator)
    assert set(started["AvailableChallenges"]) == {"PASSWORD", "PASSWORD_SRP", "WEB_AUTHN", "EMAIL_OTP"}
    assert request_options["rpId"] == RP_ID and request_options["timeout"] == 180000
    assert [c["id"] for c in request_options["allowCredentials"]] == [credential["id"]]
    tokens = respond(idp, client, started, "WEB_AUTHN", username, CREDENTIAL=json.dumps(assertion))[
        "AuthenticationResult"]
    claims = verify_token(server, pool["Id"], tokens["IdToken"], "id", client["ClientId"])
    assert claims["sub"] == sub

    # The same assertion again, for a new challenge: refused.
    replay_started = user_auth(idp, client, username, preferred="WEB_AUTHN")
    with cognito_error("NotAuthorizedException"):
        respond(idp, client, replay_started, "WEB_AUTHN", username, CREDENTIAL=json.dumps(assertion))
    # A challenge answers once.
    with cognito_error("NotAuthorizedException", "Invalid session for the user."):
        respond(idp, client, started, "WEB_AUTHN", username, CREDENTIAL=json.dumps(assertion))

    # Deleted, the passkey no longer signs in.
    idp.delete_web_authn_credential(AccessToken=access, CredentialId=credential["id"])
    assert idp.list_web_authn_credentials(AccessToken=access)["Credentials"] == []
    with cognito_error("ResourceNotFoundException"):
        idp.delete_web_authn_credential(AccessToken=access, CredentialId=credential["id"])
    chosen = user_auth(idp, client, username, preferred="WEB_AUTHN")
    assert chosen["ChallengeName"] == "SELECT_CHALLENGE" and "WEB_AUTHN" not in chosen["AvailableChallenges"]


def test_packed_attestation_and_rsa_keys_register(server, idp):
    pool, client = choice_pool(idp)
    username, _, _ = confirmed_user(server, idp, pool, client)
    access = idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="USER_PASSWORD_AUTH",
                               AuthParameters={"USERNAME": username, "PASSWORD": PASSWORD})["AuthenticationResult"][
        "AccessToken"]
    for authenticator in (SoftAuthenticator(ORIGIN, attestation="packed"), SoftAuthenticator(ORIGIN, algorithm="RS256")):
        register_passkey(idp, access, authenticator)
        started, _, assertion = passkey_sign_in(idp, client, username, authenticator)
        assert respond(idp, client, started, "WEB_AUTHN", username, CREDENTIAL=json.dumps(assertion))[
            "AuthenticationResult"]["AccessToken"]
    assert len(idp.list_web_authn_credentials(AccessToken=access)["Credentials"]) == 2
    assert len(idp.list_web_authn_credentials(AccessToken=access, MaxResults=1)["Credentials"]) == 1


def test_wrong_origins_relying_parties_and_challenges_are_refused(server, idp):
    pool, client = choice_pool(idp, verification="required")
    other_client = idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="other", ExplicitAuthFlows=CHOICE_FLOWS)["UserPoolClient"]
    username, _, _ = confirmed_user(server, idp, pool, client)

    def access_of(app):
        return idp.initiate_auth(ClientId=app["ClientId"], AuthFlow="USER_PASSWORD_AUTH",
                                 AuthParameters={"USERNAME": username, "PASSWORD": PASSWORD})[
            "AuthenticationResult"]["AccessToken"]

    access = access_of(client)
    authenticator = SoftAuthenticator(ORIGIN)
    with cognito_error("WebAuthnOriginNotAllowedException"):
        register_passkey(idp, access, authenticator, origin="https://evil.example.net")
    with cognito_error("WebAuthnRelyingPartyMismatchException"):
        register_passkey(idp, access, authenticator, rp_id="evil.example.net")
    with cognito_error("NotAuthorizedException"):        # the pool requires user verification
        register_passkey(idp, access, SoftAuthenticator(ORIGIN, user_verified=False))
    # Every answer uses the challenge up; another client cannot answer it.
    options = idp.start_web_authn_registration(AccessToken=access)["CredentialCreationOptions"]
    with cognito_error("WebAuthnClientMismatchException"):
        idp.complete_web_authn_registration(AccessToken=access_of(other_client), Credential=authenticator.create(options))
    credential = authenticator.create(idp.start_web_authn_registration(AccessToken=access)["CredentialCreationOptions"])
    idp.complete_web_authn_registration(AccessToken=access, Credential=credential)
    with cognito_error("WebAuthnChallengeNotFoundException"):
        idp.complete_web_authn_registration(AccessToken=access, Credential=credential)
    with cognito_error("InvalidParameterException"):
        idp.start_web_authn_registration(AccessToken=access)
        idp.complete_web_authn_registration(AccessToken=access, Credential={"id": "x"})
    # A subdomain of the RP ID may sign in; another site may not, nor another RP ID.
    started, _, assertion = passkey_sign_in(idp, client, username, authenticator, origin="https://login.example.com")
    assert respond(idp, client, started, "WEB_AUTHN", username, CREDENTIAL=json.dumps(assertion))["AuthenticationResult"]
    for bad in ({"origin": "https://example.com.evil.net"}, {"rp_id": "evil.net"}):
        started, _, assertion = passkey_sign_in(idp, client, username, authenticator, **bad)
        with cognito_error("NotAuthorizedException"):
            respond(idp, client, started, "WEB_AUTHN", username, CREDENTIAL=json.dumps(assertion))
    # A counter below the last one accepted (a cloned authenticator) is refused.
    registered = next(p for p in authenticator.passkeys if websafe_encode(p.id) == credential["id"])
    registered.counter = 1
    started, _, assertion = passkey_sign_in(idp, client, username, authenticator, counter_step=0)
    with cognito_error("NotAuthorizedException"):
        respond(idp, client, started, "WEB_AUTHN", username, CREDENTIAL=json.dumps(assertion))


def test_passkeys_need_the_pool_to_allow_them_and_a_relying_party(server, idp):
    pool = idp.create_user_pool(PoolName=unique("plain"), AutoVerifiedAttributes=["email"])["UserPool"]
    client = idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="app", ExplicitAuthFlows=CHOICE_FLOWS)["UserPoolClient"]
    username, _, _ = confirmed_user(server, idp, pool, client)
    access = idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="USER_PASSWORD_AUTH",
                               AuthParameters={"USERNAME": username, "PASSWORD": PASSWORD})["AuthenticationResult"][
        "AccessToken"]
    with cognito_error("WebAuthnNotEnabledException"):
        idp.start_web_authn_registration(AccessToken=access)
    idp.update_user_pool(UserPoolId=pool["Id"], AutoVerifiedAttributes=["email"],
                         Policies={"SignInPolicy": {"AllowedFirstAuthFactors": ["PASSWORD", "WEB_AUTHN"]}})
    with cognito_error("WebAuthnConfigurationMissingException"):
        idp.start_web_authn_registration(AccessToken=access)
    idp.create_user_pool_domain(UserPoolId=pool["Id"], Domain=unique("login"))
    options = idp.start_web_authn_registration(AccessToken=access)["CredentialCreationOptions"]
    assert options["rp"]["id"] == urllib.parse.urlparse(server.endpoint).hostname   # a prefix domain: the server's host
    # USER_AUTH is a flow the client must allow.
    password_only = idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="old", ExplicitAuthFlows=["ALLOW_USER_PASSWORD_AUTH"])["UserPoolClient"]
    with cognito_error("InvalidParameterException", "USER_AUTH flow not enabled for this client"):
        user_auth(idp, password_only, username)


def test_select_challenge_offers_the_users_factors_and_signs_in_with_each(server, idp):
    pool, client = choice_pool(idp)
    username, email, _ = confirmed_user(server, idp, pool, client, attributes=[("phone_number", PHONE)])
    idp.admin_update_user_attributes(UserPoolId=pool["Id"], Username=username,
                                     UserAttributes=[{"Name": "phone_number_verified", "Value": "true"}])
    started = user_auth(idp, client, username)
    assert started["ChallengeName"] == "SELECT_CHALLENGE"
    assert started["AvailableChallenges"] == ["PASSWORD", "PASSWORD_SRP", "EMAIL_OTP", "SMS_OTP"]
    # PASSWORD answered inline.
    with cognito_error("NotAuthorizedException", "Incorrect username or password."):
        respond(idp, client, started, "SELECT_CHALLENGE", username, ANSWER="PASSWORD", PASSWORD="wrong-Passw0rd")
    started = user_auth(idp, client, username)
    assert respond(idp, client, started, "SELECT_CHALLENGE", username, ANSWER="PASSWORD", PASSWORD=PASSWORD)[
        "AuthenticationResult"]["AccessToken"]
    # A factor not offered is refused.
    started = user_auth(idp, client, username)
    with cognito_error("InvalidParameterException"):
        respond(idp, client, started, "SELECT_CHALLENGE", username, ANSWER="WEB_AUTHN")
    # EMAIL_OTP: an eight-digit code to the verified address.
    started = user_auth(idp, client, username)
    challenge = respond(idp, client, started, "SELECT_CHALLENGE", username, ANSWER="EMAIL_OTP")
    assert challenge["ChallengeName"] == "EMAIL_OTP"
    assert challenge["ChallengeParameters"]["CODE_DELIVERY_DESTINATION"] == masked_email(email)
    sent = last_message(server, pool["Id"], destination=email, purpose="mfa")
    assert len(sent["code"]) == 8
    with cognito_error("CodeMismatchException"):
        respond(idp, client, challenge, "EMAIL_OTP", username, EMAIL_OTP_CODE="00000000" if sent["code"] != "00000000"
                else "11111111")
    assert respond(idp, client, challenge, "EMAIL_OTP", username, EMAIL_OTP_CODE=sent["code"])[
        "AuthenticationResult"]["AccessToken"]
    # SMS_OTP named up front.
    challenge = user_auth(idp, client, username, preferred="SMS_OTP")
    assert challenge["ChallengeName"] == "SMS_OTP"
    assert challenge["ChallengeParameters"]["CODE_DELIVERY_DESTINATION"] == masked_phone(PHONE)
    sent = last_message(server, pool["Id"], destination=PHONE, purpose="mfa")
    assert respond(idp, client, challenge, "SMS_OTP", username, SMS_OTP_CODE=sent["code"])[
        "AuthenticationResult"]["AccessToken"]
    # PASSWORD_SRP named up front: the PASSWORD_VERIFIER exchange follows.
    srp = srp_for(idp, pool["Id"], client, username)
    params = srp.get_auth_params()
    verifier = user_auth(idp, client, username, preferred="PASSWORD_SRP", SRP_A=params["SRP_A"])
    assert verifier["ChallengeName"] == "PASSWORD_VERIFIER"
    answer = srp.process_challenge(verifier["ChallengeParameters"], params)
    assert idp.respond_to_auth_challenge(ClientId=client["ClientId"], ChallengeName="PASSWORD_VERIFIER",
                                         ChallengeResponses=answer)["AuthenticationResult"]["AccessToken"]


def test_users_with_mfa_get_no_passwordless_factors(server, idp):
    pool, client = choice_pool(idp, mfa={"SoftwareTokenMfaConfiguration": {"Enabled": True},
                                         "EmailMfaConfiguration": {"Message": "Code {####}", "Subject": "Code"},
                                         "MfaConfiguration": "OPTIONAL"})
    username, email, _ = confirmed_user(server, idp, pool, client)
    assert user_auth(idp, client, username)["AvailableChallenges"] == ["PASSWORD", "PASSWORD_SRP", "EMAIL_OTP"]
    access = idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="USER_PASSWORD_AUTH",
                               AuthParameters={"USERNAME": username, "PASSWORD": PASSWORD})["AuthenticationResult"][
        "AccessToken"]
    idp.set_user_mfa_preference(AccessToken=access, EmailMfaSettings={"Enabled": True, "PreferredMfa": True})
    started = user_auth(idp, client, username)
    assert started["AvailableChallenges"] == ["PASSWORD", "PASSWORD_SRP"]
    # The password factor is followed by the user's second factor, as in the password flows.
    mfa = respond(idp, client, started, "SELECT_CHALLENGE", username, ANSWER="PASSWORD", PASSWORD=PASSWORD)
    assert mfa["ChallengeName"] == "EMAIL_OTP"
    sent = last_message(server, pool["Id"], destination=email, purpose="mfa")
    assert len(sent["code"]) == 6
    assert respond(idp, client, mfa, "EMAIL_OTP", username, EMAIL_OTP_CODE=sent["code"])["AuthenticationResult"]


def test_passwordless_sign_up_then_sign_in_with_the_confirmation_session(server, idp):
    pool, client = choice_pool(idp, factors=("PASSWORD", "EMAIL_OTP"))
    username = unique()
    email = f"{username}@example.com"
    signed_up = idp.sign_up(ClientId=client["ClientId"], Username=username,
                            UserAttributes=[{"Name": "email", "Value": email}])
    assert signed_up["UserConfirmed"] is False and signed_up["Session"]
    code = server.last_code(pool["Id"], email)
    confirmed = idp.confirm_sign_up(ClientId=client["ClientId"], Username=username, ConfirmationCode=code,
                                    Session=signed_up["Session"])
    assert confirmed["Session"]
    tokens = idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="USER_AUTH", AuthParameters={"USERNAME": username},
                               Session=confirmed["Session"])["AuthenticationResult"]
    assert verify_token(server, pool["Id"], tokens["AccessToken"], "access", client["ClientId"])["username"] == username
    with cognito_error("NotAuthorizedException"):       # the session signs in once
        idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="USER_AUTH", AuthParameters={"USERNAME": username},
                          Session=confirmed["Session"])
    # The user has no password: codes are the way in.
    started = user_auth(idp, client, username)
    assert started["AvailableChallenges"] == ["EMAIL_OTP"]
    assert idp.get_user_auth_factors(AccessToken=tokens["AccessToken"])["ConfiguredUserAuthFactors"] == ["EMAIL_OTP"]
    with cognito_error("NotAuthorizedException", "Incorrect username or password."):
        idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="USER_PASSWORD_AUTH",
                          AuthParameters={"USERNAME": username, "PASSWORD": PASSWORD})


def test_sign_up_without_a_password_needs_a_passwordless_factor(server, idp):
    pool, client = choice_pool(idp, factors=("PASSWORD", "WEB_AUTHN"))
    with cognito_error("InvalidParameterException"):
        idp.sign_up(ClientId=client["ClientId"], Username=unique(),
                    UserAttributes=[{"Name": "email", "Value": "a@example.com"}])
    pool, client = choice_pool(idp, factors=("PASSWORD", "SMS_OTP"))       # phone numbers are not verified
    with cognito_error("InvalidParameterException"):
        idp.sign_up(ClientId=client["ClientId"], Username=unique(),
                    UserAttributes=[{"Name": "phone_number", "Value": PHONE}])


@pytest.mark.parametrize("preferred", [None, "EMAIL_OTP", "WEB_AUTHN", "PASSWORD"])
def test_a_name_that_is_no_user_is_answered_as_a_user_would_be(server, idp, preferred):
    pool, client = choice_pool(idp, factors=("PASSWORD", "EMAIL_OTP", "WEB_AUTHN"))
    idp.update_user_pool_client(UserPoolId=pool["Id"], ClientId=client["ClientId"], ExplicitAuthFlows=CHOICE_FLOWS,
                                PreventUserExistenceErrors="ENABLED")
    ghost = unique("ghost") + "@example.com"
    extra = {"PASSWORD": "Wr0ng-password"} if preferred == "PASSWORD" else {}
    if preferred == "PASSWORD":
        with cognito_error("NotAuthorizedException", "Incorrect username or password."):
            user_auth(idp, client, ghost, preferred=preferred, **extra)
        return
    started = user_auth(idp, client, ghost, preferred=preferred)
    assert started["AvailableChallenges"] == ["PASSWORD", "PASSWORD_SRP", "EMAIL_OTP", "WEB_AUTHN"]
    if preferred is None:
        assert started["ChallengeName"] == "SELECT_CHALLENGE"
        started = respond(idp, client, started, "SELECT_CHALLENGE", ghost, ANSWER="EMAIL_OTP")
        preferred = "EMAIL_OTP"
    if preferred == "EMAIL_OTP":
        assert started["ChallengeParameters"]["CODE_DELIVERY_DESTINATION"] == masked_email(ghost)
        assert not messages(server, pool["Id"], destination=ghost)
        with cognito_error("CodeMismatchException"):
            respond(idp, client, started, "EMAIL_OTP", ghost, EMAIL_OTP_CODE="12345678")
    else:
        options = json.loads(started["ChallengeParameters"]["CREDENTIAL_REQUEST_OPTIONS"])
        assert len(options["allowCredentials"]) == 1 and options["rpId"] == RP_ID
        again = json.loads(user_auth(idp, client, ghost, preferred="WEB_AUTHN")["ChallengeParameters"][
            "CREDENTIAL_REQUEST_OPTIONS"])
        assert again["allowCredentials"] == options["allowCredentials"]         # stable per name
        # An assertion by some other passkey is refused as for a real user.
        authenticator = SoftAuthenticator(ORIGIN)
        authenticator.create({"rp": {"id": RP_ID}, "user": {"id": "AAAA"}, "challenge": "AAAA"})
        assertion = authenticator.get({"rpId": RP_ID, "challenge": options["challenge"]})
        with cognito_error("NotAuthorizedException"):
            respond(idp, client, started, "WEB_AUTHN", ghost, CREDENTIAL=json.dumps(assertion))


def test_sign_in_policies_are_checked(idp):
    with cognito_error("InvalidParameterException", "AllowedFirstAuthFactors must include PASSWORD."):
        idp.create_user_pool(PoolName=unique("p"), Policies={"SignInPolicy": {"AllowedFirstAuthFactors": ["EMAIL_OTP"]}})
    with cognito_error("FeatureUnavailableInTierException"):
        idp.create_user_pool(PoolName=unique("p"), UserPoolTier="LITE",
                             Policies={"SignInPolicy": {"AllowedFirstAuthFactors": ["PASSWORD", "EMAIL_OTP"]}})
    lite = idp.create_user_pool(PoolName=unique("p"), UserPoolTier="LITE",
                                Policies={"SignInPolicy": {"AllowedFirstAuthFactors": ["PASSWORD"]}})["UserPool"]
    assert lite["UserPoolTier"] == "LITE"
