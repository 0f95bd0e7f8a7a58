"""MFA with authenticator apps (issue 12, first part): SetUserPoolMfaConfig, AssociateSoftwareToken,
VerifySoftwareToken, SetUserMFAPreference, the SOFTWARE_TOKEN_MFA and MFA_SETUP challenges. Codes
from pyotp; driven with boto3 and pycognito's own MFA methods."""
import time

import pyotp
import pytest
from pycognito.exceptions import SoftwareTokenMFAChallengeException

from helpers import (PASSWORD, cognito_error, confirmed_user, new_client, password_auth, pycognito_user, sign_in, srp_auth,
                     srp_for, unique, verify_token)


def mfa_pool(idp, mode="OPTIONAL"):
    pool = idp.create_user_pool(PoolName=unique("mfa"), AutoVerifiedAttributes=["email"])["UserPool"]
    idp.set_user_pool_mfa_config(UserPoolId=pool["Id"], SoftwareTokenMfaConfiguration={"Enabled": True},
                                 MfaConfiguration=mode)
    return pool, new_client(idp, pool["Id"])


def next_code(secret):
    """The code of the next 30 s step: accepted (one step of skew) and never used yet."""
    return pyotp.TOTP(secret).at(time.time() + 30)


def test_an_app_set_up_while_signed_in_is_asked_for_at_every_sign_in(server, idp):
    pool, client = mfa_pool(idp)
    config = idp.get_user_pool_mfa_config(UserPoolId=pool["Id"])
    assert config["MfaConfiguration"] == "OPTIONAL" and config["SoftwareTokenMfaConfiguration"] == {"Enabled": True}
    username, _, sub = confirmed_user(server, idp, pool, client)
    access = sign_in(idp, client, username)["AccessToken"]          # no factor yet: no challenge

    secret = idp.associate_software_token(AccessToken=access)["SecretCode"]
    assert len(secret) == 32 and pyotp.TOTP(secret).now().isdigit()
    with cognito_error("InvalidParameterException", "User has not verified software token mfa"):
        idp.set_user_mfa_preference(AccessToken=access, SoftwareTokenMfaSettings={"Enabled": True})
    with cognito_error("EnableSoftwareTokenMFAException", "Code mismatch"):
        idp.verify_software_token(AccessToken=access, UserCode=f"{(int(pyotp.TOTP(secret).now()) + 1) % 10**6:06d}")
    verified = idp.verify_software_token(AccessToken=access, UserCode=pyotp.TOTP(secret).now(), FriendlyDeviceName="phone")
    assert verified["Status"] == "SUCCESS"
    idp.set_user_mfa_preference(AccessToken=access, SoftwareTokenMfaSettings={"Enabled": True, "PreferredMfa": True})
    user = idp.get_user(AccessToken=access)
    assert user["UserMFASettingList"] == ["SOFTWARE_TOKEN_MFA"] and user["PreferredMfaSetting"] == "SOFTWARE_TOKEN_MFA"
    factors = idp.get_user_auth_factors(AccessToken=access)
    assert factors["Username"] == username and factors["ConfiguredUserAuthFactors"] == ["PASSWORD"]
    assert factors["UserMFASettingList"] == ["SOFTWARE_TOKEN_MFA"]
    admin_view = idp.admin_get_user(UserPoolId=pool["Id"], Username=username)
    assert admin_view["UserMFASettingList"] == ["SOFTWARE_TOKEN_MFA"]

    started = password_auth(idp, client, username)
    assert started["ChallengeName"] == "SOFTWARE_TOKEN_MFA" and "AuthenticationResult" not in started
    assert started["ChallengeParameters"] == {"FRIENDLY_DEVICE_NAME": "phone", "USER_ID_FOR_SRP": username}
    answer = dict(ClientId=client["ClientId"], ChallengeName="SOFTWARE_TOKEN_MFA", Session=started["Session"])
    with cognito_error("CodeMismatchException", "Invalid code received for user"):
        idp.respond_to_auth_challenge(**answer, ChallengeResponses={"USERNAME": username, "SOFTWARE_TOKEN_MFA_CODE": "000000"})
    code = next_code(secret)
    tokens = idp.respond_to_auth_challenge(
        **answer, ChallengeResponses={"USERNAME": username, "SOFTWARE_TOKEN_MFA_CODE": code})["AuthenticationResult"]
    assert verify_token(server, pool["Id"], tokens["IdToken"], "id", client["ClientId"])["sub"] == sub

    # The same code never works twice, even in a new sign-in.
    again = password_auth(idp, client, username)
    with cognito_error("CodeMismatchException", "Invalid code received for user"):
        idp.respond_to_auth_challenge(ClientId=client["ClientId"], ChallengeName="SOFTWARE_TOKEN_MFA",
                                      Session=again["Session"],
                                      ChallengeResponses={"USERNAME": username, "SOFTWARE_TOKEN_MFA_CODE": code})

    # Turned off, sign-in needs no code.
    idp.set_user_mfa_preference(AccessToken=tokens["AccessToken"], SoftwareTokenMfaSettings={"Enabled": False})
    assert "AuthenticationResult" in password_auth(idp, client, username)


def test_an_administrator_deletes_a_lost_authenticator_app(server, idp):
    pool, client = mfa_pool(idp)
    username, _, _ = confirmed_user(server, idp, pool, client)
    access = sign_in(idp, client, username)["AccessToken"]
    secret = idp.associate_software_token(AccessToken=access)["SecretCode"]
    idp.verify_software_token(AccessToken=access, UserCode=pyotp.TOTP(secret).now())
    idp.set_user_mfa_preference(AccessToken=access, SoftwareTokenMfaSettings={"Enabled": True, "PreferredMfa": True})
    assert password_auth(idp, client, username)["ChallengeName"] == "SOFTWARE_TOKEN_MFA"
    factors = idp.admin_get_user_auth_factors(UserPoolId=pool["Id"], Username=username)
    assert factors["UserMFASettingList"] == ["SOFTWARE_TOKEN_MFA"] and factors["PreferredMfaSetting"] == "SOFTWARE_TOKEN_MFA"
    assert factors["ConfiguredUserAuthFactors"] == ["PASSWORD"]

    idp.admin_delete_software_token(UserPoolId=pool["Id"], Username=username)
    assert "AuthenticationResult" in password_auth(idp, client, username)     # no factor left to ask for
    factors = idp.admin_get_user_auth_factors(UserPoolId=pool["Id"], Username=username)
    assert "UserMFASettingList" not in factors and "PreferredMfaSetting" not in factors
    with cognito_error("InvalidParameterException", "User has not verified software token mfa"):
        idp.set_user_mfa_preference(AccessToken=access, SoftwareTokenMfaSettings={"Enabled": True})
    # A new app can be set up.
    secret = idp.associate_software_token(AccessToken=access)["SecretCode"]
    assert idp.verify_software_token(AccessToken=access, UserCode=pyotp.TOTP(secret).now())["Status"] == "SUCCESS"
    with cognito_error("UserNotFoundException"):
        idp.admin_delete_software_token(UserPoolId=pool["Id"], Username="nobody-" + username)


def test_required_mfa_makes_users_set_up_an_app_during_sign_in(server, idp):
    pool, client = mfa_pool(idp, mode="ON")
    username, _, _ = confirmed_user(server, idp, pool, client)
    srp = srp_for(idp, pool["Id"], client, username)
    started = srp_auth(idp, srp)                                      # SRP first factor
    assert started["ChallengeName"] == "MFA_SETUP"
    assert started["ChallengeParameters"]["MFAS_CAN_SETUP"] == '["SOFTWARE_TOKEN_MFA"]'
    with cognito_error("InvalidParameterException", contains="Set up an authenticator app first"):
        idp.respond_to_auth_challenge(ClientId=client["ClientId"], ChallengeName="MFA_SETUP", Session=started["Session"],
                                      ChallengeResponses={"USERNAME": username})
    associated = idp.associate_software_token(Session=started["Session"])
    secret = associated["SecretCode"]
    verified = idp.verify_software_token(Session=associated["Session"], UserCode=pyotp.TOTP(secret).now())
    assert verified["Status"] == "SUCCESS"
    with cognito_error("NotAuthorizedException", "Invalid session for the user."):   # each session answers once
        idp.verify_software_token(Session=associated["Session"], UserCode=pyotp.TOTP(secret).now())
    tokens = idp.respond_to_auth_challenge(
        ClientId=client["ClientId"], ChallengeName="MFA_SETUP", Session=verified["Session"],
        ChallengeResponses={"USERNAME": username})["AuthenticationResult"]
    assert idp.get_user(AccessToken=tokens["AccessToken"])["UserMFASettingList"] == ["SOFTWARE_TOKEN_MFA"]
    # From now on the app's code is asked for.
    assert password_auth(idp, client, username)["ChallengeName"] == "SOFTWARE_TOKEN_MFA"


def test_pycognito_signs_in_with_its_software_token_methods(server, idp):
    pool, client = mfa_pool(idp)
    username, _, _ = confirmed_user(server, idp, pool, client)
    user = pycognito_user(server, pool["Id"], client, username)
    user.authenticate(password=PASSWORD)
    secret = user.associate_software_token()
    assert user.verify_software_token(pyotp.TOTP(secret).now(), "laptop")
    user.set_user_mfa_preference(False, True, preferred="SOFTWARE_TOKEN")
    fresh = pycognito_user(server, pool["Id"], client, username)
    with pytest.raises(SoftwareTokenMFAChallengeException):
        fresh.authenticate(password=PASSWORD)
    fresh.respond_to_software_token_mfa_challenge(next_code(secret))
    assert fresh.access_token and fresh.id_token


def test_three_wrong_codes_use_the_challenge_up(server, idp):
    pool, client = mfa_pool(idp)
    username, _, _ = confirmed_user(server, idp, pool, client)
    secret = idp.associate_software_token(AccessToken=sign_in(idp, client, username)["AccessToken"])["SecretCode"]
    access = sign_in(idp, client, username)["AccessToken"]
    idp.verify_software_token(AccessToken=access, UserCode=pyotp.TOTP(secret).now())
    idp.admin_set_user_mfa_preference(UserPoolId=pool["Id"], Username=username, SoftwareTokenMfaSettings={"Enabled": True})
    session = password_auth(idp, client, username)["Session"]
    responses = {"USERNAME": username, "SOFTWARE_TOKEN_MFA_CODE": "000000"}
    for _ in range(3):
        with cognito_error("CodeMismatchException"):
            idp.respond_to_auth_challenge(ClientId=client["ClientId"], ChallengeName="SOFTWARE_TOKEN_MFA", Session=session,
                                          ChallengeResponses=responses)
    with cognito_error("NotAuthorizedException", "Invalid session for the user."):
        idp.respond_to_auth_challenge(ClientId=client["ClientId"], ChallengeName="SOFTWARE_TOKEN_MFA", Session=session,
                                      ChallengeResponses=dict(responses, SOFTWARE_TOKEN_MFA_CODE=next_code(secret)))


def test_wrong_codes_count_per_user_across_sessions(server, idp):
    """A session allows three guesses and a right password opens another at will: wrong codes
    also count per user, with the lockout of wrong passwords (five free, then one second,
    doubling up to 15 minutes), during which even the right code is refused."""
    pool, client = mfa_pool(idp)
    username, _, _ = confirmed_user(server, idp, pool, client)
    secret = idp.associate_software_token(AccessToken=sign_in(idp, client, username)["AccessToken"])["SecretCode"]
    idp.verify_software_token(AccessToken=sign_in(idp, client, username)["AccessToken"], UserCode=pyotp.TOTP(secret).now())
    idp.admin_set_user_mfa_preference(UserPoolId=pool["Id"], Username=username, SoftwareTokenMfaSettings={"Enabled": True})

    def answer(session, code):
        return idp.respond_to_auth_challenge(
            ClientId=client["ClientId"], ChallengeName="SOFTWARE_TOKEN_MFA", Session=session,
            ChallengeResponses={"USERNAME": username, "SOFTWARE_TOKEN_MFA_CODE": code})

    wrong = f"{(int(next_code(secret)) + 500_000) % 10**6:06d}"
    for guesses in (3, 2):  # five wrong codes over two sessions
        session = password_auth(idp, client, username)["Session"]
        for _ in range(guesses):
            with cognito_error("CodeMismatchException"):
                answer(session, wrong)
    with cognito_error("NotAuthorizedException", "Password attempts exceeded"):
        answer(session, next_code(secret))
    time.sleep(1.2)  # the first lockout lasts a second; the password itself was never locked
    result = answer(password_auth(idp, client, username)["Session"], next_code(secret))
    assert "AccessToken" in result["AuthenticationResult"]


def test_pool_mfa_settings_are_checked(server, idp):
    pool = idp.create_user_pool(PoolName=unique("mfa"))["UserPool"]
    with cognito_error("InvalidParameterException", contains="At least one MFA method"):
        idp.set_user_pool_mfa_config(UserPoolId=pool["Id"], MfaConfiguration="ON")
    with cognito_error("InvalidParameterException", contains="smsMfaConfiguration.smsAuthenticationMessage"):
        idp.set_user_pool_mfa_config(UserPoolId=pool["Id"], SmsMfaConfiguration={"SmsAuthenticationMessage": "no code"},
                                     MfaConfiguration="OPTIONAL")
    with cognito_error("ResourceNotFoundException"):
        idp.get_user_pool_mfa_config(UserPoolId="us-east-1_nope")
    assert idp.get_user_pool_mfa_config(UserPoolId=pool["Id"])["MfaConfiguration"] == "OFF"
    assert idp.describe_user_pool(UserPoolId=pool["Id"])["UserPool"]["MfaConfiguration"] == "OFF"
