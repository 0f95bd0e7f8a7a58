"""Setting up email MFA during sign-in: in a pool that requires MFA, a user with no factor gets
MFA_SETUP with the factors they can set up (MFAS_CAN_SETUP, e.g. ["SOFTWARE_TOKEN_MFA","EMAIL_OTP"])
and may answer it with an address (ChallengeResponses EMAIL), as Amplify does; the code sent there
(EMAIL_OTP) signs in, makes the address the user's, verified, and turns email MFA on. Driven with boto3."""
import pytest
import pyotp

from helpers import (PASSWORD, admin_user, attributes_of, cognito_error, email_for, last_message, masked_email, messages,
                     new_client, password_auth, unique, wrong_code)

PHONE = "+15550004321"


def required_pool(idp, totp=True, email=True, **settings):
    pool = idp.create_user_pool(PoolName=unique("mfa-setup"), AutoVerifiedAttributes=["email"], **settings)["UserPool"]
    config = {"SoftwareTokenMfaConfiguration": {"Enabled": totp}}
    if email:
        config["EmailMfaConfiguration"] = {"Message": "Your sign-in code is {####}", "Subject": "Sign-in code"}
    idp.set_user_pool_mfa_config(UserPoolId=pool["Id"], MfaConfiguration="ON", **config)
    return pool


def set_up(idp, client, started, username, email):
    return idp.respond_to_auth_challenge(ClientId=client["ClientId"], ChallengeName="MFA_SETUP", Session=started["Session"],
                                         ChallengeResponses={"USERNAME": username, "EMAIL": email})


def answer_code(idp, client, challenge, username, code):
    return idp.respond_to_auth_challenge(ClientId=client["ClientId"], ChallengeName="EMAIL_OTP",
                                         Session=challenge["Session"],
                                         ChallengeResponses={"USERNAME": username, "EMAIL_OTP_CODE": code})


def test_a_user_without_an_address_sets_up_email_mfa_with_the_code_sent_to_it(server, idp):
    pool = required_pool(idp)
    client = new_client(idp, pool["Id"])
    username = admin_user(idp, pool["Id"])                                   # no email, no factor
    started = password_auth(idp, client, username)
    assert started["ChallengeName"] == "MFA_SETUP"
    assert started["ChallengeParameters"] == {"MFAS_CAN_SETUP": '["SOFTWARE_TOKEN_MFA","EMAIL_OTP"]',
                                              "USER_ID_FOR_SRP": username}
    with cognito_error("InvalidParameterException", contains="or answer with EMAIL"):
        idp.respond_to_auth_challenge(ClientId=client["ClientId"], ChallengeName="MFA_SETUP", Session=started["Session"],
                                      ChallengeResponses={"USERNAME": username})
    with cognito_error("InvalidParameterException", "Invalid email address format."):
        set_up(idp, client, started, username, "not-an-address")

    email = email_for(unique("setup"))
    challenge = set_up(idp, client, started, username, email)
    assert challenge["ChallengeName"] == "EMAIL_OTP" and "AuthenticationResult" not in challenge
    assert challenge["ChallengeParameters"] == {"CODE_DELIVERY_DELIVERY_MEDIUM": "EMAIL",
                                                "CODE_DELIVERY_DESTINATION": masked_email(email),
                                                "USER_ID_FOR_SRP": username}
    sent = last_message(server, pool["Id"], destination=email, purpose="mfa")
    assert sent["subject"] == "Sign-in code" and sent["body"] == f"Your sign-in code is {sent['code']}"
    with cognito_error("NotAuthorizedException", "Invalid session for the user."):     # MFA_SETUP answers once
        set_up(idp, client, started, username, email_for(unique("again")))
    # Nothing is the user's before the code: the address is neither set nor verified.
    assert "email" not in attributes_of(idp.admin_get_user(UserPoolId=pool["Id"], Username=username))
    with cognito_error("CodeMismatchException", "Invalid code received for user"):
        answer_code(idp, client, challenge, username, wrong_code(sent["code"]))

    tokens = answer_code(idp, client, challenge, username, sent["code"])["AuthenticationResult"]
    user = idp.get_user(AccessToken=tokens["AccessToken"])
    assert attributes_of(user)["email"] == email and attributes_of(user)["email_verified"] == "true"
    assert user["UserMFASettingList"] == ["EMAIL_OTP"]
    # From now on the emailed code is asked for.
    again = password_auth(idp, client, username)
    assert again["ChallengeName"] == "EMAIL_OTP"
    assert again["ChallengeParameters"]["CODE_DELIVERY_DESTINATION"] == masked_email(email)
    code = last_message(server, pool["Id"], destination=email, purpose="mfa")["code"]
    assert "AuthenticationResult" in answer_code(idp, client, again, username, code)


def test_what_is_offered_follows_the_pool_and_the_user(server, idp):
    # Email MFA alone: the only way in is an address; the authenticator app is not offered.
    pool = required_pool(idp, totp=False)
    client = new_client(idp, pool["Id"])
    username = admin_user(idp, pool["Id"])
    started = password_auth(idp, client, username)
    assert started["ChallengeParameters"]["MFAS_CAN_SETUP"] == '["EMAIL_OTP"]'
    with cognito_error("InvalidParameterException", "Answer with EMAIL, the address email MFA codes go to."):
        idp.respond_to_auth_challenge(ClientId=client["ClientId"], ChallengeName="MFA_SETUP", Session=started["Session"],
                                      ChallengeResponses={"USERNAME": username})
    with cognito_error("InvalidUserPoolConfigurationException", "Software token MFA is not enabled for the user pool."):
        idp.associate_software_token(Session=started["Session"])
    with cognito_error("InvalidUserPoolConfigurationException", "Software token MFA is not enabled for the user pool."):
        idp.verify_software_token(Session=started["Session"], UserCode="123456")
    email = email_for(unique("only"))
    challenge = set_up(idp, client, started, username, email)
    code = last_message(server, pool["Id"], destination=email, purpose="mfa")["code"]
    assert "AuthenticationResult" in answer_code(idp, client, challenge, username, code)
    # A user with an address is sent a code to it at once, with nothing to set up.
    owner = admin_user(idp, pool["Id"], attributes=[("email", email_for(unique("has")))])
    assert password_auth(idp, client, owner)["ChallengeName"] == "EMAIL_OTP"

    # The authenticator app alone: email is neither offered nor accepted.
    pool = required_pool(idp, email=False)
    client = new_client(idp, pool["Id"])
    username = admin_user(idp, pool["Id"])
    started = password_auth(idp, client, username)
    assert started["ChallengeParameters"]["MFAS_CAN_SETUP"] == '["SOFTWARE_TOKEN_MFA"]'
    with cognito_error("InvalidParameterException", "Email MFA is not enabled for the user pool."):
        set_up(idp, client, started, username, email_for(unique("refused")))
    # The app is set up with the same session as before.
    associated = idp.associate_software_token(Session=started["Session"])
    verified = idp.verify_software_token(Session=associated["Session"],
                                         UserCode=pyotp.TOTP(associated["SecretCode"]).now())
    assert "AuthenticationResult" in idp.respond_to_auth_challenge(
        ClientId=client["ClientId"], ChallengeName="MFA_SETUP", Session=verified["Session"],
        ChallengeResponses={"USERNAME": username})


def test_the_answer_cannot_take_or_change_an_address(server, idp):
    pool = required_pool(idp)
    client = new_client(idp, pool["Id"])
    username = admin_user(idp, pool["Id"])
    # An address the user got after the challenge began is not replaced.
    started = password_auth(idp, client, username)
    idp.admin_update_user_attributes(UserPoolId=pool["Id"], Username=username,
                                     UserAttributes=[{"Name": "email", "Value": email_for(unique("admin"))}])
    with cognito_error("NotAuthorizedException", "Cannot modify an already provided email"):
        set_up(idp, client, started, username, email_for(unique("other")))
    # Nor one that changed between the code and its answer.
    idp.admin_delete_user_attributes(UserPoolId=pool["Id"], Username=username, UserAttributeNames=["email"])
    started = password_auth(idp, client, username)
    email = email_for(unique("first"))
    challenge = set_up(idp, client, started, username, email)
    code = last_message(server, pool["Id"], destination=email, purpose="mfa")["code"]
    idp.admin_update_user_attributes(UserPoolId=pool["Id"], Username=username,
                                     UserAttributes=[{"Name": "email", "Value": email_for(unique("meanwhile"))}])
    with cognito_error("NotAuthorizedException", "Cannot modify an already provided email"):
        answer_code(idp, client, challenge, username, code)
    assert attributes_of(idp.admin_get_user(UserPoolId=pool["Id"], Username=username))["email"] != email

    # The app client must be allowed to write the email address.
    limited = new_client(idp, pool["Id"], "limited", WriteAttributes=["given_name"])
    other = admin_user(idp, pool["Id"])
    started = password_auth(idp, limited, other)
    with cognito_error("NotAuthorizedException", "A client attempted to write unauthorized attribute email"):
        set_up(idp, limited, started, other, email_for(unique("limited")))


def test_another_users_address(server, idp):
    # Where the email is the username, another user's address is refused before any code is sent.
    pool = required_pool(idp, UsernameAttributes=["email", "phone_number"])
    client = new_client(idp, pool["Id"])
    taken = email_for(unique("taken"))
    idp.sign_up(ClientId=client["ClientId"], Username=taken, Password=PASSWORD)
    idp.admin_confirm_sign_up(UserPoolId=pool["Id"], Username=taken)
    idp.sign_up(ClientId=client["ClientId"], Username=PHONE, Password=PASSWORD)
    idp.admin_confirm_sign_up(UserPoolId=pool["Id"], Username=PHONE)
    started = password_auth(idp, client, PHONE)
    assert started["ChallengeParameters"]["MFAS_CAN_SETUP"] == '["SOFTWARE_TOKEN_MFA","EMAIL_OTP"]'
    username = started["ChallengeParameters"]["USER_ID_FOR_SRP"]
    with cognito_error("AliasExistsException", "An account with the given email already exists."):
        set_up(idp, client, started, username, taken)
    assert not messages(server, pool["Id"], destination=taken, purpose="mfa")

    # With email aliases, a verified alias moves to the user who answers the code sent to it, as a
    # verification by VerifyUserAttribute moves it (only that mailbox's reader can).
    pool = required_pool(idp, AliasAttributes=["email"])
    client = new_client(idp, pool["Id"])
    shared = email_for(unique("alias"))
    first = admin_user(idp, pool["Id"], attributes=[("email", shared), ("email_verified", "true")])
    second = admin_user(idp, pool["Id"])
    challenge = set_up(idp, client, password_auth(idp, client, second), second, shared)
    code = last_message(server, pool["Id"], destination=shared, purpose="mfa")["code"]
    assert "AuthenticationResult" in answer_code(idp, client, challenge, second, code)
    assert attributes_of(idp.admin_get_user(UserPoolId=pool["Id"], Username=first))["email_verified"] == "false"
    assert password_auth(idp, client, shared)["ChallengeParameters"]["USER_ID_FOR_SRP"] == second


@pytest.mark.fixed_window(3600)
def test_one_password_sends_set_up_codes_to_five_addresses_an_hour(server, idp):
    """Each address has its hourly limit, and so has the user: one password cannot have codes
    sent to any number of addresses."""
    pool = required_pool(idp)
    client = new_client(idp, pool["Id"])
    username = admin_user(idp, pool["Id"])
    for _ in range(5):
        assert set_up(idp, client, password_auth(idp, client, username), username,
                      email_for(unique("spray")))["ChallengeName"] == "EMAIL_OTP"
    with cognito_error("LimitExceededException"):
        set_up(idp, client, password_auth(idp, client, username), username, email_for(unique("spray")))
