"""The shared SRP vectors (vectors/srp.json, protocol doc §4.7) are what pycognito computes.

Every expected value of both vector sets is recomputed with pycognito's own functions
(`pycognito.aws_srp`), with the client's random `a`, the device salt/password and the clock
pinned to the vector's values. The server half (`B = (k·v + g^b) mod N`, `S = (A·v^u)^b mod N`)
is computed here with Python integers. No server is started."""
import base64
import datetime
import json
import pathlib
import types

import pytest
from pycognito import aws_srp
from pycognito.aws_srp import (
    AWSSRP, G_HEX, N_HEX, calculate_u, compute_hkdf, generate_hash_device, hash_sha256, hex_hash, hex_to_long,
    long_to_hex, pad_hex,
)

VECTORS = json.loads((pathlib.Path(__file__).parent / "vectors" / "srp.json").read_text())
N = hex_to_long(N_HEX)
G = hex_to_long(G_HEX)
K_MULTIPLIER = hex_to_long(hex_hash("00" + N_HEX + "0" + G_HEX))
TIMESTAMP_FORMAT = "%a %b %d %H:%M:%S UTC %Y"


def fixed_clock(timestamp):
    """A stand-in for the `datetime` module pycognito reads the time from: utcnow() answers
    the vector's TIMESTAMP (parsed with the day zero-padding it does not have)."""
    moment = datetime.datetime.strptime(timestamp, TIMESTAMP_FORMAT)

    class FrozenDateTime(datetime.datetime):
        @classmethod
        def utcnow(cls):
            return moment

    return types.SimpleNamespace(datetime=FrozenDateTime), moment


def srp_client(vector, **kwargs):
    """pycognito's AWSSRP with the vector's `a` (constructed with a placeholder boto3 client:
    nothing here talks to a server)."""
    srp = AWSSRP(vector.get("userId", "device-user"), vector.get("password", "unused"),
                 vector.get("poolId", "us-east-1_Unused"), "client-id", client=object(), **kwargs)
    srp.small_a_value = hex_to_long(vector["aHex"])
    srp.large_a_value = srp.calculate_a()
    return srp


def server_b(verifier, b_hex):
    return (K_MULTIPLIER * verifier + pow(G, hex_to_long(b_hex), N)) % N


def server_s(big_a, verifier, u, b_hex):
    return pow(big_a * pow(verifier, u, N), hex_to_long(b_hex), N)


# --- constants (§4.1) --------------------------------------------------------------------------

def test_group_constants():
    assert len(N_HEX) == 768
    assert N_HEX.upper().startswith("FFFFFFFFFFFFFFFFC90FDAA22168C234")
    assert N_HEX.upper().endswith("4B82D120A93AD2CAFFFFFFFFFFFFFFFF")
    assert hash_sha256(N.to_bytes(384, "big")) == "48cf8b092fbce4359d9871abf74f98e25b6163379eaa15cd9087e800c6d1c55c"
    assert G == 2
    # k = H(PAD(N) ‖ PAD(g)), as pycognito computes it.
    assert K_MULTIPLIER == srp_client(VECTORS["user"]).val_k
    assert long_to_hex(K_MULTIPLIER) == "538282c4354742d7cbbde2359fcf67f9f5b3a6b08791e5011b43b8a5b66d9ee6"


@pytest.mark.parametrize("value, padded", [(0x14, "14"), (0xEC, "00ec"), (0xABC, "0abc"), (0x8000, "008000")])
def test_pad_examples(value, padded):
    assert pad_hex(value) == padded


# --- user vector (§4.3, §4.4) ------------------------------------------------------------------

@pytest.fixture(scope="module")
def user():
    """Every intermediate value of the user exchange, computed with pycognito's functions."""
    vector = VECTORS["user"]
    pool_name = vector["poolId"].split("_")[1]
    srp = srp_client(vector)
    big_a = srp.large_a_value
    x = hex_to_long(hex_hash(pad_hex(vector["saltHex"]) + hash_sha256(
        f"{pool_name}{vector['userId']}:{vector['password']}".encode())))
    verifier = pow(G, x, N)
    big_b = server_b(verifier, vector["bHex"])
    u = calculate_u(big_a, big_b)
    client_s = pow((big_b - K_MULTIPLIER * pow(G, x, N)) % N, srp.small_a_value + u * x, N)
    return types.SimpleNamespace(vector=vector, expected=vector["expected"], pool_name=pool_name, srp=srp,
                                 A=big_a, x=x, v=verifier, B=big_b, u=u, S=client_s)


def test_user_a(user):
    hex_a = long_to_hex(user.A)
    assert len(hex_a) == 768
    assert hex_a.startswith(user.expected["APrefix"])
    # SRP_A as pycognito sends it in AuthParameters.
    assert user.srp.get_auth_params() == {"USERNAME": user.vector["userId"], "SRP_A": hex_a}


def test_user_x_and_verifier(user):
    assert f"{user.x:064x}" == user.expected["x"]
    assert long_to_hex(user.v).startswith(user.expected["vPrefix"])


def test_user_b(user):
    assert long_to_hex(user.B).startswith(user.expected["BPrefix"])


def test_user_u(user):
    assert f"{user.u:064x}" == user.expected["u"]
    assert hex_hash(pad_hex(user.A) + pad_hex(user.B)) == user.expected["u"]


def test_user_s_is_shared(user):
    assert long_to_hex(user.S).startswith(user.expected["SPrefix"])
    assert server_s(user.A, user.v, user.u, user.vector["bHex"]) == user.S


def test_user_key(user):
    key = user.srp.get_password_authentication_key(user.vector["userId"], user.vector["password"], user.B,
                                                   user.vector["saltHex"])
    assert key.hex() == user.expected["K"]
    # The same HKDF from the server's S.
    server_key = compute_hkdf(bytes.fromhex(pad_hex(server_s(user.A, user.v, user.u, user.vector["bHex"]))),
                              bytes.fromhex(pad_hex(long_to_hex(user.u))))
    assert server_key.hex() == user.expected["K"]


def test_user_timestamp_rendering(user):
    _, moment = fixed_clock(user.vector["timestamp"])
    assert AWSSRP.get_cognito_formatted_timestamp(moment) == user.vector["timestamp"]


def test_user_password_claim(user, monkeypatch):
    clock, _ = fixed_clock(user.vector["timestamp"])
    monkeypatch.setattr(aws_srp, "datetime", clock)
    challenge = {
        "USERNAME": user.vector["userId"], "USER_ID_FOR_SRP": user.vector["userId"],
        "SALT": user.vector["saltHex"], "SRP_B": long_to_hex(user.B),
        "SECRET_BLOCK": user.vector["secretBlockBase64"],
    }
    response = user.srp.process_challenge(challenge, user.srp.get_auth_params())
    assert response == {
        "TIMESTAMP": user.vector["timestamp"],
        "USERNAME": user.vector["userId"],
        "PASSWORD_CLAIM_SECRET_BLOCK": user.vector["secretBlockBase64"],
        "PASSWORD_CLAIM_SIGNATURE": user.expected["signature"],
    }


def test_user_signature_depends_on_every_input(user, monkeypatch):
    """The vector would not catch a wrong signed message if the signature ignored an input."""
    clock, _ = fixed_clock(user.vector["timestamp"])
    monkeypatch.setattr(aws_srp, "datetime", clock)
    base = {
        "USERNAME": user.vector["userId"], "USER_ID_FOR_SRP": user.vector["userId"],
        "SALT": user.vector["saltHex"], "SRP_B": long_to_hex(user.B),
        "SECRET_BLOCK": user.vector["secretBlockBase64"],
    }
    other_block = base64.b64encode(b"another-secret-block").decode()
    for change in ({"SECRET_BLOCK": other_block}, {"SALT": "0" + user.vector["saltHex"][1:]}):
        response = user.srp.process_challenge({**base, **change}, user.srp.get_auth_params())
        assert response["PASSWORD_CLAIM_SIGNATURE"] != user.expected["signature"]


# --- device vector (§4.6) ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def device():
    vector = VECTORS["device"]
    return types.SimpleNamespace(vector=vector, expected=vector["expected"])


@pytest.fixture
def device_config(device):
    """pycognito's generate_hash_device with its randomness pinned: 40 random bytes make the
    device password (here the vector's password bytes), 16 make the salt."""
    password_bytes = base64.b64decode(device.vector["devicePassword"])
    salt_bytes = bytes.fromhex(device.vector["saltHex"]).lstrip(b"\0")
    assert len(salt_bytes) == 16

    def urandom(count):
        return {40: password_bytes, 16: salt_bytes}[count]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(aws_srp, "os", types.SimpleNamespace(urandom=urandom))
        password, config = generate_hash_device(device.vector["deviceGroupKey"], device.vector["deviceKey"])
    assert password == device.vector["devicePassword"]
    return config


def test_device_salt_and_verifier(device, device_config):
    assert device_config["Salt"] == device.expected["saltBase64"]
    assert base64.b64decode(device_config["Salt"]).hex() == device.vector["saltHex"]
    verifier_bytes = base64.b64decode(device_config["PasswordVerifier"])
    assert len(verifier_bytes) == 385
    assert device_config["PasswordVerifier"].startswith(device.expected["passwordVerifierPrefix"])


def device_exchange(device, verifier_b64):
    vector = device.vector
    srp = srp_client(vector, device_key=vector["deviceKey"], device_group_key=vector["deviceGroupKey"],
                     device_password=vector["devicePassword"])
    verifier = int.from_bytes(base64.b64decode(verifier_b64), "big")
    return srp, verifier, server_b(verifier, vector["bHex"])


def test_device_key(device, device_config):
    vector = device.vector
    srp, verifier, big_b = device_exchange(device, device_config["PasswordVerifier"])
    key = srp.get_device_authentication_key(vector["deviceGroupKey"], vector["deviceKey"], vector["devicePassword"],
                                            big_b, vector["saltHex"])
    assert key.hex() == device.expected["K"]
    u = calculate_u(srp.large_a_value, big_b)
    server_key = compute_hkdf(bytes.fromhex(pad_hex(server_s(srp.large_a_value, verifier, u, vector["bHex"]))),
                              bytes.fromhex(pad_hex(long_to_hex(u))))
    assert server_key.hex() == device.expected["K"]


def test_device_password_claim(device, device_config, monkeypatch):
    vector = device.vector
    srp, _, big_b = device_exchange(device, device_config["PasswordVerifier"])
    clock, _ = fixed_clock(vector["timestamp"])
    monkeypatch.setattr(aws_srp, "datetime", clock)
    response = srp.process_device_challenge({
        "USERNAME": "device-user", "SALT": vector["saltHex"], "SRP_B": long_to_hex(big_b),
        "SECRET_BLOCK": vector["secretBlockBase64"], "DEVICE_KEY": vector["deviceKey"],
    })
    assert response == {
        "TIMESTAMP": vector["timestamp"],
        "USERNAME": "device-user",
        "PASSWORD_CLAIM_SECRET_BLOCK": vector["secretBlockBase64"],
        "PASSWORD_CLAIM_SIGNATURE": device.expected["signature"],
        "DEVICE_KEY": vector["deviceKey"],
    }
