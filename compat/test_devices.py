"""Remembered devices (issue 12, part 2): NewDeviceMetadata, ConfirmDevice with a device SRP
verifier computed by pycognito, DEVICE_SRP_AUTH → DEVICE_PASSWORD_VERIFIER through pycognito's own
authenticate_user, a remembered device skipping MFA, the device operations, and forgetting a
device ending its sessions."""
import jwt
import pyotp
from pycognito.aws_srp import AWSSRP, generate_hash_device

from helpers import (PASSWORD, cognito_error, confirmed_user, new_client, password_auth, refresh, sign_in, srp_auth,
                     srp_for, unique)
from test_mfa import next_code


def device_pool(idp, prompt=False):
    pool = idp.create_user_pool(
        PoolName=unique("devices"), AutoVerifiedAttributes=["email"],
        DeviceConfiguration={"ChallengeRequiredOnNewDevice": True, "DeviceOnlyRememberedOnUserPrompt": prompt})["UserPool"]
    return pool, new_client(idp, pool["Id"])


def remember(idp, tokens, name="phone"):
    """Confirms the device NewDeviceMetadata announced, as pycognito computes its verifier;
    returns (device_key, group_key, device_password)."""
    metadata = tokens["NewDeviceMetadata"]
    password, config = generate_hash_device(metadata["DeviceGroupKey"], metadata["DeviceKey"])
    confirmed = idp.confirm_device(AccessToken=tokens["AccessToken"], DeviceKey=metadata["DeviceKey"],
                                   DeviceSecretVerifierConfig=config, DeviceName=name)
    return metadata["DeviceKey"], metadata["DeviceGroupKey"], password, confirmed["UserConfirmationNecessary"]


def device_srp(idp, pool, client, username, device, password=PASSWORD):
    key, group, device_password = device[:3]
    return AWSSRP(username, password, pool["Id"], client["ClientId"], client=idp, device_key=key,
                  device_group_key=group, device_password=device_password)


def test_a_remembered_device_signs_in_with_its_own_srp_proof(server, idp):
    pool, client = device_pool(idp)
    username, _, _ = confirmed_user(server, idp, pool, client)
    first = srp_auth(idp, srp_for(idp, pool["Id"], client, username))["AuthenticationResult"]
    device = remember(idp, first)
    assert device[3] is False                                   # remembered at once
    assert jwt.decode(first["AccessToken"], options={"verify_signature": False})["device_key"] == device[0]

    tokens = device_srp(idp, pool, client, username, device).authenticate_user()["AuthenticationResult"]
    assert "NewDeviceMetadata" not in tokens
    assert jwt.decode(tokens["AccessToken"], options={"verify_signature": False})["device_key"] == device[0]
    listed = idp.list_devices(AccessToken=tokens["AccessToken"])["Devices"]
    assert [d["DeviceKey"] for d in listed] == [device[0]]
    attributes = {a["Name"]: a["Value"] for a in listed[0]["DeviceAttributes"]}
    assert attributes["device_name"] == "phone" and attributes["dev:device_remembered_status"] == "remembered"
    assert idp.get_device(AccessToken=tokens["AccessToken"], DeviceKey=device[0])["Device"]["DeviceKey"] == device[0]
    assert idp.admin_list_devices(UserPoolId=pool["Id"], Username=username)["Devices"][0]["DeviceKey"] == device[0]

    # The wrong device secret is refused.
    impostor = device_srp(idp, pool, client, username, (device[0], device[1], "not-the-device-password"))
    with cognito_error("NotAuthorizedException", "Incorrect username or password."):
        impostor.authenticate_user()


def test_a_remembered_device_skips_mfa_until_it_is_forgotten(server, idp):
    pool, client = device_pool(idp)
    idp.set_user_pool_mfa_config(UserPoolId=pool["Id"], SoftwareTokenMfaConfiguration={"Enabled": True},
                                 MfaConfiguration="OPTIONAL")
    username, _, _ = confirmed_user(server, idp, pool, client)
    access = sign_in(idp, client, username)["AccessToken"]
    secret = idp.associate_software_token(AccessToken=access)["SecretCode"]
    idp.verify_software_token(AccessToken=access, UserCode=pyotp.TOTP(secret).now())
    idp.set_user_mfa_preference(AccessToken=access, SoftwareTokenMfaSettings={"Enabled": True})

    challenged = password_auth(idp, client, username)
    assert challenged["ChallengeName"] == "SOFTWARE_TOKEN_MFA"
    tokens = idp.respond_to_auth_challenge(
        ClientId=client["ClientId"], ChallengeName="SOFTWARE_TOKEN_MFA", Session=challenged["Session"],
        ChallengeResponses={"USERNAME": username, "SOFTWARE_TOKEN_MFA_CODE": next_code(secret)})["AuthenticationResult"]
    device = remember(idp, tokens)
    on_device = device_srp(idp, pool, client, username, device).authenticate_user()["AuthenticationResult"]
    assert on_device["AccessToken"]                              # no code asked on the remembered device

    idp.admin_update_device_status(UserPoolId=pool["Id"], Username=username, DeviceKey=device[0],
                                   DeviceRememberedStatus="not_remembered")
    assert srp_auth(idp, device_srp(idp, pool, client, username, device))["ChallengeName"] == "SOFTWARE_TOKEN_MFA"

    idp.forget_device(AccessToken=on_device["AccessToken"], DeviceKey=device[0])
    with cognito_error("NotAuthorizedException", "Refresh Token has been revoked"):
        refresh(idp, client, on_device["RefreshToken"])
    with cognito_error("ResourceNotFoundException"):
        idp.admin_get_device(UserPoolId=pool["Id"], Username=username, DeviceKey=device[0])


def test_devices_remembered_only_on_the_users_word(server, idp):
    pool, client = device_pool(idp, prompt=True)
    username, _, _ = confirmed_user(server, idp, pool, client)
    tokens = sign_in(idp, client, username)
    device = remember(idp, tokens)
    assert device[3] is True
    status = {a["Name"]: a["Value"] for a in idp.get_device(AccessToken=tokens["AccessToken"], DeviceKey=device[0])
              ["Device"]["DeviceAttributes"]}
    assert status["dev:device_remembered_status"] == "not_remembered"
    idp.update_device_status(AccessToken=tokens["AccessToken"], DeviceKey=device[0], DeviceRememberedStatus="remembered")
    with cognito_error("DeviceKeyExistsException"):
        remember(idp, tokens)
    idp.admin_forget_device(UserPoolId=pool["Id"], Username=username, DeviceKey=device[0])
    assert idp.admin_list_devices(UserPoolId=pool["Id"], Username=username)["Devices"] == []


def test_pools_without_device_tracking_issue_no_device(server, idp):
    pool = idp.create_user_pool(PoolName=unique("nodevices"), AutoVerifiedAttributes=["email"])["UserPool"]
    client = new_client(idp, pool["Id"])
    username, _, _ = confirmed_user(server, idp, pool, client)
    tokens = sign_in(idp, client, username)
    assert "NewDeviceMetadata" not in tokens
    _, config = generate_hash_device("-group", "us-east-1_0b6f8e2a-1c3d")
    with cognito_error("InvalidUserPoolConfigurationException"):
        idp.confirm_device(AccessToken=tokens["AccessToken"], DeviceKey="us-east-1_0b6f8e2a-1c3d",
                          DeviceSecretVerifierConfig=config)


def answer_device_step(idp, client, username, device, session=None):
    """DEVICE_SRP_AUTH then DEVICE_PASSWORD_VERIFIER with `device`'s secret (pycognito's math),
    sending the step's Session as Amplify does when one is given."""
    srp = device_srp(idp, {"Id": "unused"}, client, username, device)
    extra = {"Session": session} if session else {}
    verifier = idp.respond_to_auth_challenge(
        ClientId=client["ClientId"], ChallengeName="DEVICE_SRP_AUTH", **extra,
        ChallengeResponses={"USERNAME": username, "DEVICE_KEY": device[0], "SRP_A": srp.get_auth_params()["SRP_A"]})
    assert verifier["ChallengeName"] == "DEVICE_PASSWORD_VERIFIER"
    return idp.respond_to_auth_challenge(ClientId=client["ClientId"], ChallengeName="DEVICE_PASSWORD_VERIFIER",
                                         ChallengeResponses=srp.process_device_challenge(verifier["ChallengeParameters"]))


def test_the_pending_device_step_is_used_up_only_by_the_right_device(server, idp):
    """DEVICE_SRP_AUTH comes with a Session (as in Cognito); someone who knows the user and the
    device key but not the device's secret cannot spend the user's pending step."""
    pool, client = device_pool(idp)
    username, _, _ = confirmed_user(server, idp, pool, client)
    device = remember(idp, sign_in(idp, client, username))
    challenged = idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="USER_PASSWORD_AUTH",
                                   AuthParameters={"USERNAME": username, "PASSWORD": PASSWORD, "DEVICE_KEY": device[0]})
    assert challenged["ChallengeName"] == "DEVICE_SRP_AUTH" and challenged["Session"]
    # A third party, without Session and without the device's secret: refused, and the step stays.
    impostor = (device[0], device[1], "not-the-device-password")
    for _ in range(2):
        with cognito_error("NotAuthorizedException", "Incorrect username or password."):
            answer_device_step(idp, client, username, impostor)
    tokens = answer_device_step(idp, client, username, device, session=challenged["Session"])["AuthenticationResult"]
    assert tokens["AccessToken"]
    # Used up by the right claim: neither its Session nor its name opens it again.
    with cognito_error("NotAuthorizedException"):
        answer_device_step(idp, client, username, device, session=challenged["Session"])
    with cognito_error("NotAuthorizedException"):
        answer_device_step(idp, client, username, device)
