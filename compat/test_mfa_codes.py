"""MFA by codes sent to the user (issue 12): SMS_MFA and EMAIL_OTP through the delivery channels
(the dev outbox here), SELECT_MFA_TYPE when a user has several factors, the older
SetUserSettings/AdminSetUserSettings MFAOptions, and preferences checked by one rule set."""
import pyotp

from helpers import (PASSWORD, cognito_error, confirmed_user, last_message, masked_email, masked_phone, messages,
                     new_client, password_auth, sign_in, srp_auth, srp_for, unique, wrong_code)
from test_mfa import next_code

PHONE = "+15550001234"


def code_pool(idp, mode="OPTIONAL", totp=False, sms=True, email=True):
    pool = idp.create_user_pool(PoolName=unique("mfa-codes"), AutoVerifiedAttributes=["email"])["UserPool"]
    config = {"SoftwareTokenMfaConfiguration": {"Enabled": totp}}
    if sms:
        config["SmsMfaConfiguration"] = {"SmsAuthenticationMessage": "Sign-in code: {####}"}
    if email:
        config["EmailMfaConfiguration"] = {"Message": "Your sign-in code is {####}", "Subject": "Sign-in code"}
    idp.set_user_pool_mfa_config(UserPoolId=pool["Id"], MfaConfiguration=mode, **config)
    return pool, new_client(idp, pool["Id"])


def user_with_phone(server, idp, pool, client):
    return confirmed_user(server, idp, pool, client, attributes=[("phone_number", PHONE)])


def answer(idp, client, started, name, member, code, username):
    return idp.respond_to_auth_challenge(ClientId=client["ClientId"], ChallengeName=name, Session=started["Session"],
                                         ChallengeResponses={"USERNAME": username, member: code})


def test_sms_mfa_sends_a_code_to_the_phone_and_signs_in_with_it(server, idp):
    pool, client = code_pool(idp)
    config = idp.get_user_pool_mfa_config(UserPoolId=pool["Id"])
    assert config["SmsMfaConfiguration"]["SmsAuthenticationMessage"] == "Sign-in code: {####}"
    assert config["EmailMfaConfiguration"] == {"Message": "Your sign-in code is {####}", "Subject": "Sign-in code"}
    username, _, _ = user_with_phone(server, idp, pool, client)
    access = sign_in(idp, client, username)["AccessToken"]                       # nothing enabled yet
    idp.set_user_mfa_preference(AccessToken=access, SMSMfaSettings={"Enabled": True, "PreferredMfa": True})
    user = idp.get_user(AccessToken=access)
    assert user["UserMFASettingList"] == ["SMS_MFA"] and user["PreferredMfaSetting"] == "SMS_MFA"
    assert user["MFAOptions"] == [{"DeliveryMedium": "SMS", "AttributeName": "phone_number"}]

    started = srp_auth(idp, srp_for(idp, pool["Id"], client, username))
    assert started["ChallengeName"] == "SMS_MFA"
    assert started["ChallengeParameters"]["CODE_DELIVERY_DELIVERY_MEDIUM"] == "SMS"
    assert started["ChallengeParameters"]["CODE_DELIVERY_DESTINATION"] == masked_phone(PHONE)
    sent = last_message(server, pool["Id"], destination=PHONE, purpose="mfa")
    assert sent["medium"] == "SMS" and sent["body"] == f"Sign-in code: {sent['code']}"
    with cognito_error("CodeMismatchException"):
        answer(idp, client, started, "SMS_MFA", "SMS_MFA_CODE", wrong_code(sent["code"]), username)
    tokens = answer(idp, client, started, "SMS_MFA", "SMS_MFA_CODE", sent["code"], username)["AuthenticationResult"]
    assert tokens["AccessToken"]
    with cognito_error("NotAuthorizedException", "Invalid session for the user."):     # the code works once
        answer(idp, client, started, "SMS_MFA", "SMS_MFA_CODE", sent["code"], username)


def test_email_otp_and_a_code_bound_to_its_session_and_address(server, idp):
    pool, client = code_pool(idp, sms=False)
    username, email, _ = confirmed_user(server, idp, pool, client)
    idp.admin_set_user_mfa_preference(UserPoolId=pool["Id"], Username=username, EmailMfaSettings={"Enabled": True})
    first = password_auth(idp, client, username)
    assert first["ChallengeName"] == "EMAIL_OTP"
    assert first["ChallengeParameters"]["CODE_DELIVERY_DESTINATION"] == masked_email(email)
    first_code = last_message(server, pool["Id"], destination=email, purpose="mfa")
    assert first_code["subject"] == "Sign-in code" and first_code["body"] == f"Your sign-in code is {first_code['code']}"
    second = password_auth(idp, client, username)
    second_code = last_message(server, pool["Id"], destination=email, purpose="mfa")["code"]
    if second_code != first_code["code"]:      # a code of another session does not answer this one
        with cognito_error("CodeMismatchException"):
            answer(idp, client, second, "EMAIL_OTP", "EMAIL_OTP_CODE", first_code["code"], username)
    # Three wrong codes use the session up.
    for _ in range(3):
        with cognito_error("CodeMismatchException"):
            answer(idp, client, first, "EMAIL_OTP", "EMAIL_OTP_CODE", wrong_code(first_code["code"]), username)
    with cognito_error("NotAuthorizedException", "Invalid session for the user."):
        answer(idp, client, first, "EMAIL_OTP", "EMAIL_OTP_CODE", first_code["code"], username)
    assert "AuthenticationResult" in answer(idp, client, second, "EMAIL_OTP", "EMAIL_OTP_CODE", second_code, username)


def test_several_factors_let_the_user_choose(server, idp):
    pool, client = code_pool(idp, totp=True, email=False)
    username, _, _ = user_with_phone(server, idp, pool, client)
    access = sign_in(idp, client, username)["AccessToken"]
    secret = idp.associate_software_token(AccessToken=access)["SecretCode"]
    idp.verify_software_token(AccessToken=access, UserCode=pyotp.TOTP(secret).now())
    idp.set_user_mfa_preference(AccessToken=access, SoftwareTokenMfaSettings={"Enabled": True},
                                SMSMfaSettings={"Enabled": True})
    assert idp.get_user(AccessToken=access)["UserMFASettingList"] == ["SOFTWARE_TOKEN_MFA", "SMS_MFA"]

    started = password_auth(idp, client, username)
    assert started["ChallengeName"] == "SELECT_MFA_TYPE"
    assert started["ChallengeParameters"]["MFAS_CAN_CHOOSE"] == '["SOFTWARE_TOKEN_MFA","SMS_MFA"]'
    with cognito_error("InvalidParameterException", contains="ANSWER must be one of"):
        idp.respond_to_auth_challenge(ClientId=client["ClientId"], ChallengeName="SELECT_MFA_TYPE",
                                      Session=started["Session"], ChallengeResponses={"USERNAME": username, "ANSWER": "EMAIL_OTP"})
    chosen = idp.respond_to_auth_challenge(ClientId=client["ClientId"], ChallengeName="SELECT_MFA_TYPE",
                                           Session=started["Session"],
                                           ChallengeResponses={"USERNAME": username, "ANSWER": "SOFTWARE_TOKEN_MFA"})
    assert chosen["ChallengeName"] == "SOFTWARE_TOKEN_MFA"
    assert "AuthenticationResult" in answer(idp, client, chosen, "SOFTWARE_TOKEN_MFA", "SOFTWARE_TOKEN_MFA_CODE",
                                            next_code(secret), username)

    # A preferred factor is asked for directly; preferring another moves the preference.
    idp.admin_set_user_mfa_preference(UserPoolId=pool["Id"], Username=username, SMSMfaSettings={"PreferredMfa": True})
    assert password_auth(idp, client, username)["ChallengeName"] == "SMS_MFA"
    idp.admin_set_user_mfa_preference(UserPoolId=pool["Id"], Username=username,
                                      SoftwareTokenMfaSettings={"PreferredMfa": True})
    assert idp.admin_get_user(UserPoolId=pool["Id"], Username=username)["PreferredMfaSetting"] == "SOFTWARE_TOKEN_MFA"


def test_required_mfa_sends_a_code_to_users_with_a_phone_number(server, idp):
    pool, client = code_pool(idp, mode="ON", email=False)
    username, _, _ = user_with_phone(server, idp, pool, client)
    started = password_auth(idp, client, username)
    assert started["ChallengeName"] == "SMS_MFA"
    code = last_message(server, pool["Id"], destination=PHONE, purpose="mfa")["code"]
    assert "AuthenticationResult" in answer(idp, client, started, "SMS_MFA", "SMS_MFA_CODE", code, username)


def test_older_mfa_options_and_preference_rules(server, idp):
    pool, client = code_pool(idp, email=False)
    username, _, _ = confirmed_user(server, idp, pool, client)              # no phone number
    access = sign_in(idp, client, username)["AccessToken"]
    with cognito_error("InvalidParameterException", "User does not have delivery config set to turn on SMS_MFA"):
        idp.set_user_mfa_preference(AccessToken=access, SMSMfaSettings={"Enabled": True})
    with cognito_error("InvalidParameterException", contains="Email MFA is not enabled"):
        idp.set_user_mfa_preference(AccessToken=access, EmailMfaSettings={"Enabled": True})
    with cognito_error("InvalidParameterException", "User does not have delivery config set to turn on SMS_MFA"):
        idp.set_user_settings(AccessToken=access, MFAOptions=[{"DeliveryMedium": "SMS", "AttributeName": "phone_number"}])

    idp.admin_update_user_attributes(UserPoolId=pool["Id"], Username=username,
                                     UserAttributes=[{"Name": "phone_number", "Value": PHONE}])
    idp.admin_set_user_settings(UserPoolId=pool["Id"], Username=username,
                                MFAOptions=[{"DeliveryMedium": "SMS", "AttributeName": "phone_number"}])
    view = idp.admin_get_user(UserPoolId=pool["Id"], Username=username)
    assert view["UserMFASettingList"] == ["SMS_MFA"]
    assert view["MFAOptions"] == [{"DeliveryMedium": "SMS", "AttributeName": "phone_number"}]
    assert password_auth(idp, client, username)["ChallengeName"] == "SMS_MFA"
    idp.set_user_settings(AccessToken=access, MFAOptions=[])
    assert "UserMFASettingList" not in idp.get_user(AccessToken=access)
    assert "AuthenticationResult" in password_auth(idp, client, username)
    with cognito_error("InvalidParameterException", contains="Only SMS delivery"):
        idp.set_user_settings(AccessToken=access, MFAOptions=[{"DeliveryMedium": "EMAIL", "AttributeName": "email"}])


def test_naming_factors_replaces_the_pools_set(server, idp):
    pool, _ = code_pool(idp)
    idp.set_user_pool_mfa_config(UserPoolId=pool["Id"], SoftwareTokenMfaConfiguration={"Enabled": True})
    config = idp.get_user_pool_mfa_config(UserPoolId=pool["Id"])
    assert "SmsMfaConfiguration" not in config and "EmailMfaConfiguration" not in config
    assert config["SoftwareTokenMfaConfiguration"] == {"Enabled": True} and config["MfaConfiguration"] == "OPTIONAL"
    assert not messages(server, pool["Id"], purpose="mfa")
