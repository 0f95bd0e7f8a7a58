"""PIN sign-in on a registered device (issue 12, Cognate's own extension): the pool's PIN policy
(SetUserPoolPinPolicy / GetPinPolicy), RegisterDevicePin with the SRP verifier of a secret derived
from the PIN on the device, DEVICE_PIN_AUTH → DEVICE_PASSWORD_VERIFIER answered by pycognito's device
SRP, and wrong PINs forgetting the device and ending its sessions."""
import base64
import hashlib
import hmac
import os

import pytest
from pycognito.aws_srp import AWSSRP, G_HEX, N_HEX, get_random, hash_sha256, hex_hash, hex_to_long, pad_hex

from helpers import (REFRESH_TOKEN_REVOKED, assert_raw_error, cognito_error, confirmed_user, raw_call, refresh,
                     run_concurrently, srp_auth, srp_for)
from test_devices import device_pool, remember

POLICY = {"MinimumLength": 5, "MaximumLength": 6, "AllowSequences": False, "MaximumSimilarDigits": 2,
          "BlockList": ["13579"], "MaximumAttempts": 3}


def call(server, operation, body):
    response = raw_call(server, operation, body)
    assert response.status_code == 200, response.text
    return response.json()


def pin_secret(device_key_material, pin):
    """What the device derives from the PIN: HMAC-SHA256(its own 256-bit key, PIN), base64."""
    return base64.standard_b64encode(hmac.new(device_key_material, pin.encode(), hashlib.sha256).digest()).decode()


def verifier_config(group_key, device_key, secret):
    """The device SRP verifier of `secret`, as ConfirmDevice's DeviceSecretVerifierConfig."""
    salt = pad_hex(get_random(16))
    x = hex_to_long(hex_hash(salt + hash_sha256(f"{group_key}{device_key}:{secret}".encode())))
    verifier = pad_hex(pow(hex_to_long(G_HEX), x, hex_to_long(N_HEX)))
    return {"PasswordVerifier": base64.standard_b64encode(bytearray.fromhex(verifier)).decode(),
            "Salt": base64.standard_b64encode(bytearray.fromhex(salt)).decode()}


def pin_sign_in(idp, pool, client, username, device, secret):
    """DEVICE_PIN_AUTH, then DEVICE_PASSWORD_VERIFIER computed by pycognito's device SRP."""
    key, group = device[:2]
    srp = AWSSRP(username, "unused", pool["Id"], client["ClientId"], client=idp, device_key=key,
                 device_group_key=group, device_password=secret)
    started = idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="DEVICE_PIN_AUTH",
                                AuthParameters={"USERNAME": username, "DEVICE_KEY": key,
                                                "SRP_A": srp.get_auth_params()["SRP_A"]})
    assert started["ChallengeName"] == "DEVICE_PASSWORD_VERIFIER"
    return idp.respond_to_auth_challenge(ClientId=client["ClientId"], ChallengeName="DEVICE_PASSWORD_VERIFIER",
                                         ChallengeResponses=srp.process_device_challenge(started["ChallengeParameters"]))


def registered(server, idp):
    """A pool with a PIN policy, a user signed in on a remembered device with PIN 24680."""
    pool, client = device_pool(idp)
    call(server, "SetUserPoolPinPolicy", {"UserPoolId": pool["Id"], "PinPolicy": POLICY})
    username, _, _ = confirmed_user(server, idp, pool, client)
    tokens = srp_auth(idp, srp_for(idp, pool["Id"], client, username))["AuthenticationResult"]
    device = remember(idp, tokens)
    material = os.urandom(32)
    call(server, "RegisterDevicePin", {"AccessToken": tokens["AccessToken"], "DeviceKey": device[0],
                                       "PinVerifierConfig": verifier_config(device[1], device[0], pin_secret(material, "24680"))})
    return pool, client, username, device, material, tokens


def test_the_policy_is_published_to_apps_and_checked(server, idp):
    pool, client = device_pool(idp)
    assert call(server, "GetPinPolicy", {"ClientId": client["ClientId"]}) == {}       # no policy: no PIN sign-in
    assert call(server, "SetUserPoolPinPolicy", {"UserPoolId": pool["Id"], "PinPolicy": POLICY})["PinPolicy"] == POLICY
    assert call(server, "GetPinPolicy", {"ClientId": client["ClientId"]})["PinPolicy"] == POLICY
    defaults = call(server, "SetUserPoolPinPolicy", {"UserPoolId": pool["Id"], "PinPolicy": {}})["PinPolicy"]
    assert defaults["MinimumLength"] == 5 and defaults["MaximumAttempts"] == 3
    assert_raw_error(raw_call(server, "SetUserPoolPinPolicy", {"UserPoolId": pool["Id"], "PinPolicy": {"MinimumLength": 2}}),
                     "InvalidParameterException", contains="MinimumLength")
    assert_raw_error(raw_call(server, "SetUserPoolPinPolicy", {"PinPolicy": POLICY}), "InvalidParameterException",
                     contains="userPoolId")
    assert_raw_error(raw_call(server, "SetUserPoolPinPolicy", {"UserPoolId": pool["Id"], "PinPolicy": "1234"}),
                     "SerializationException")
    assert_raw_error(raw_call(server, "GetPinPolicy", {"ClientId": "nope"}), "ResourceNotFoundException")


def test_a_pin_signs_in_on_its_device_without_the_password(server, idp):
    pool, client, username, device, material, _ = registered(server, idp)
    tokens = pin_sign_in(idp, pool, client, username, device, pin_secret(material, "24680"))["AuthenticationResult"]
    assert idp.get_user(AccessToken=tokens["AccessToken"])["Username"] == username
    assert "NewDeviceMetadata" not in tokens
    # Its refresh token is bound to the device: another DEVICE_KEY is refused.
    renew = {"REFRESH_TOKEN": tokens["RefreshToken"], "DEVICE_KEY": device[0]}
    assert "AccessToken" in idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="REFRESH_TOKEN_AUTH",
                                              AuthParameters=renew)["AuthenticationResult"]
    with cognito_error("NotAuthorizedException", "Invalid Refresh Token"):
        idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="REFRESH_TOKEN_AUTH",
                          AuthParameters=dict(renew, DEVICE_KEY="us-east-1_00000000-0000-0000-0000-000000000000"))

    # The device's own secret still serves password sign-ins; the PIN's verifier is separate.
    with cognito_error("NotAuthorizedException", contains="Incorrect PIN. 2 attempts left."):
        pin_sign_in(idp, pool, client, username, device, device[2])
    # A right PIN starts the count again.
    pin_sign_in(idp, pool, client, username, device, pin_secret(material, "24680"))
    with cognito_error("NotAuthorizedException", contains="2 attempts left."):
        pin_sign_in(idp, pool, client, username, device, pin_secret(material, "11223"))


def test_wrong_pins_forget_the_device_and_end_its_sessions(server, idp):
    pool, client, username, device, material, tokens = registered(server, idp)
    for left in ("2 attempts", "1 attempt "):
        with cognito_error("NotAuthorizedException", contains=f"Incorrect PIN. {left.strip()} left."):
            pin_sign_in(idp, pool, client, username, device, pin_secret(material, "99887"))
    with cognito_error("NotAuthorizedException", contains="the device was forgotten"):
        pin_sign_in(idp, pool, client, username, device, pin_secret(material, "99887"))
    with cognito_error("ResourceNotFoundException", "Device does not exist."):
        pin_sign_in(idp, pool, client, username, device, pin_secret(material, "24680"))
    with cognito_error("NotAuthorizedException", REFRESH_TOKEN_REVOKED):
        refresh(idp, client, tokens["RefreshToken"])
    assert idp.admin_list_devices(UserPoolId=pool["Id"], Username=username)["Devices"] == []


def test_wrong_pins_are_counted_on_the_device_until_a_right_one(server, idp):
    """The count lives with the PIN, not in a counter swept with stale windows: however long
    ago the PIN was registered or last right, its wrong answers add up."""
    pool, client, username, device, material, tokens = registered(server, idp)
    key = device[0]
    for _ in range(2):
        with cognito_error("NotAuthorizedException", contains="Incorrect PIN."):
            pin_sign_in(idp, pool, client, username, device, pin_secret(material, "99887"))
    assert server.rows("devices", device_key=key)[0]["pin_failures"] == 2
    assert not [row for row in server.rows("counters") if key in str(row)]
    pin_sign_in(idp, pool, client, username, device, pin_secret(material, "24680"))
    assert server.rows("devices", device_key=key)[0]["pin_failures"] == 0


def test_a_pin_is_registered_only_on_the_device_the_token_was_issued_to(server, idp):
    pool, client, username, device, material, tokens = registered(server, idp)
    config = verifier_config(device[1], device[0], pin_secret(material, "97531"))
    # A token from a sign-in without the device's key is a new device's: not this one.
    other = srp_auth(idp, srp_for(idp, pool["Id"], client, username))["AuthenticationResult"]
    assert_raw_error(raw_call(server, "RegisterDevicePin", {"AccessToken": other["AccessToken"], "DeviceKey": device[0],
                                                            "PinVerifierConfig": config}),
                     "NotAuthorizedException", contains="not issued to this device")
    assert_raw_error(raw_call(server, "RegisterDevicePin", {"AccessToken": tokens["AccessToken"], "DeviceKey": device[0],
                                                            "PinVerifierConfig": {"PasswordVerifier": "!!", "Salt": "AA=="}}),
                     "InvalidParameterException", contains="PinVerifierConfig")
    assert_raw_error(raw_call(server, "RegisterDevicePin", {"AccessToken": tokens["AccessToken"], "DeviceKey": device[0]}),
                     "InvalidParameterException", contains="pinVerifierConfig")
    # Changing the PIN: the new one works, the old one no longer does.
    call(server, "RegisterDevicePin", {"AccessToken": tokens["AccessToken"], "DeviceKey": device[0], "PinVerifierConfig": config})
    assert "AuthenticationResult" in pin_sign_in(idp, pool, client, username, device, pin_secret(material, "97531"))
    with cognito_error("NotAuthorizedException", contains="Incorrect PIN"):
        pin_sign_in(idp, pool, client, username, device, pin_secret(material, "24680"))


def test_pin_sign_in_needs_a_policy_and_a_registered_pin(server, idp):
    pool, client = device_pool(idp)
    username, _, _ = confirmed_user(server, idp, pool, client)
    tokens = srp_auth(idp, srp_for(idp, pool["Id"], client, username))["AuthenticationResult"]
    device = remember(idp, tokens)
    with cognito_error("InvalidUserPoolConfigurationException", contains="PIN sign-in is not enabled"):
        pin_sign_in(idp, pool, client, username, device, "whatever")
    call(server, "SetUserPoolPinPolicy", {"UserPoolId": pool["Id"], "PinPolicy": POLICY})
    with cognito_error("NotAuthorizedException", "No PIN is registered for this device."):
        pin_sign_in(idp, pool, client, username, device, "whatever")


def pin_started(idp, client, username, device, secret):
    """DEVICE_PIN_AUTH only: (the SRP helper, the DEVICE_PASSWORD_VERIFIER challenge's parameters)."""
    key, group = device[:2]
    srp = AWSSRP(username, "unused", "unused", client["ClientId"], client=idp, device_key=key, device_group_key=group,
                 device_password=secret)
    started = idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="DEVICE_PIN_AUTH",
                                AuthParameters={"USERNAME": username, "DEVICE_KEY": key,
                                                "SRP_A": srp.get_auth_params()["SRP_A"]})
    return srp, started["ChallengeParameters"]


def test_parallel_wrong_pins_are_judged_one_at_a_time_up_to_the_limit(server, idp):
    """30 answers released together, one of them the right PIN: each is judged on the count the
    one before left, so at most the policy's 3 wrong PINs in a row are ever judged, and the
    right PIN never wins once the limit forgot the device (both databases)."""
    pool, client, username, device, material, _ = registered(server, idp)
    secrets = [pin_secret(material, "99887")] * 29 + [pin_secret(material, "24680")]
    started = [pin_started(idp, client, username, device, secret) for secret in secrets]

    def answer(each_idp, index):
        srp, parameters = started[index]
        each_idp.respond_to_auth_challenge(ClientId=client["ClientId"], ChallengeName="DEVICE_PASSWORD_VERIFIER",
                                           ChallengeResponses=srp.process_device_challenge(parameters))

    messages = []

    def record(each_idp, index):
        try:
            answer(each_idp, index)
            messages.append((index, "signed in"))
        except Exception as error:
            messages.append((index, error.response["Error"]["Message"]))
            raise

    run_concurrently(server, len(started), record)
    judged = [message for _, message in messages if "Incorrect PIN" in message]
    right_won = (len(secrets) - 1, "signed in") in messages
    if right_won:
        # Two wrong at most before it, three at most after it (its success starts the count again).
        assert len(judged) <= 5, messages
    else:
        assert len(judged) == 3, messages
        assert sum("the device was forgotten" in message for message in judged) == 1, messages
        with cognito_error("ResourceNotFoundException", "Device does not exist."):
            pin_sign_in(idp, pool, client, username, device, pin_secret(material, "24680"))
    assert not server.faults()


def test_a_pin_registration_is_told_to_the_user(server, idp):
    pool, client, username, device, material, tokens = registered(server, idp)
    notices = [m for m in server.outbox(pool["Id"]) if m["purpose"] == "pinRegistered"]
    assert len(notices) == 1 and notices[0]["destination"] == f"{username}@example.com", notices
    assert "A PIN was set" in notices[0]["body"] and not notices[0].get("code")


REVOCATIONS = {
    "GlobalSignOut": lambda server, idp, pool, client, username, tokens: idp.global_sign_out(
        AccessToken=tokens["AccessToken"]),
    "AdminUserGlobalSignOut": lambda server, idp, pool, client, username, tokens: idp.admin_user_global_sign_out(
        UserPoolId=pool["Id"], Username=username),
    "AdminSetUserPassword": lambda server, idp, pool, client, username, tokens: idp.admin_set_user_password(
        UserPoolId=pool["Id"], Username=username, Password="N3w-Passw0rd!", Permanent=True),
    "ChangePassword": lambda server, idp, pool, client, username, tokens: idp.change_password(
        AccessToken=tokens["AccessToken"], PreviousPassword="Passw0rd!", ProposedPassword="N3w-Passw0rd!"),
    "AdminDisableUser": lambda server, idp, pool, client, username, tokens: (
        idp.admin_disable_user(UserPoolId=pool["Id"], Username=username),
        idp.admin_enable_user(UserPoolId=pool["Id"], Username=username)),
    "AdminResetUserPassword + ConfirmForgotPassword": lambda server, idp, pool, client, username, tokens: (
        idp.admin_reset_user_password(UserPoolId=pool["Id"], Username=username),
        idp.confirm_forgot_password(ClientId=client["ClientId"], Username=username,
                                    ConfirmationCode=server.last_code(pool["Id"]), Password="N3w-Passw0rd!")),
}


@pytest.mark.parametrize("revocation", sorted(REVOCATIONS))
def test_every_revocation_and_password_change_takes_back_pins_and_remembered_devices(server, idp, revocation):
    """Whoever registered a PIN (or remembered a device) with a stolen token loses it when the
    user signs out everywhere, is signed out by an administrator, or has a new password."""
    pool, client, username, device, material, tokens = registered(server, idp)
    REVOCATIONS[revocation](server, idp, pool, client, username, tokens)
    with cognito_error("NotAuthorizedException", "No PIN is registered for this device."):
        pin_sign_in(idp, pool, client, username, device, pin_secret(material, "24680"))
    attributes = {a["Name"]: a["Value"] for a in idp.admin_get_device(
        UserPoolId=pool["Id"], Username=username, DeviceKey=device[0])["Device"]["DeviceAttributes"]}
    assert attributes["dev:device_remembered_status"] == "not_remembered"
