#!/usr/bin/env python3
"""Writes fido2-vectors.json: WebAuthn registrations and assertions for CognateWebAuthnTests.

A software authenticator built from python-fido2's WebAuthn structures (AuthenticatorData,
AttestedCredentialData, AttestationObject, CollectedClientData, COSE keys) and `cryptography`
for the keys, signatures and attestation certificates. Every value is derived from a fixed seed
(HKDF-SHA-256), ECDSA signs with RFC 6979 nonces, so a rerun writes the same file.

Each case is also checked by python-fido2's own relying party (Fido2Server.register_complete and
authenticate_complete, PackedAttestation for packed statements), and the refusal cases are
checked to be refused by it: the vectors do not only agree with the Swift code that reads them.

Usage (python-fido2 2.x):
    python3 -m venv /tmp/fido2-venv && /tmp/fido2-venv/bin/pip install fido2
    /tmp/fido2-venv/bin/python generate_fido2_vectors.py > fido2-vectors.json
"""

import datetime
import hashlib
import importlib.metadata
import json
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.x509.oid import NameOID
from fido2 import cbor
from fido2.attestation import PackedAttestation
from fido2.cose import ES256, RS256
from fido2.server import Fido2Server
from fido2.utils import websafe_encode
from fido2.webauthn import (
    AttestationObject,
    AttestedCredentialData,
    AuthenticatorData,
    CollectedClientData,
    PublicKeyCredentialRpEntity,
    UserVerificationRequirement,
)

RP_ID = "cognate.test"
ORIGIN = "https://cognate.test"
SEED = b"CognateWebAuthn test vectors"
FLAG = AuthenticatorData.FLAG
AAGUID_OID = x509.ObjectIdentifier("1.3.6.1.4.1.45724.1.1.4")
NOT_BEFORE = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
NOT_AFTER = datetime.datetime(2124, 1, 1, tzinfo=datetime.timezone.utc)


def derive(label: str, length: int) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=None, info=label.encode()).derive(SEED)


def ec_key(label: str) -> ec.EllipticCurvePrivateKey:
    order = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
    scalar = int.from_bytes(derive(label, 40), "big") % (order - 1) + 1
    return ec.derive_private_key(scalar, ec.SECP256R1())


def is_probable_prime(n: int) -> bool:
    small = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71]
    if any(n % p == 0 for p in small):
        return n in small
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in small:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = pow(x, 2, n)
            if x == n - 1:
                break
        else:
            return False
    return True


def prime(label: str, bits: int, e: int) -> int:
    candidate = int.from_bytes(derive(label, bits // 8), "big") | (3 << (bits - 2)) | 1
    while not (is_probable_prime(candidate) and (candidate - 1) % e != 0):
        candidate += 2
    return candidate


def rsa_key(label: str) -> rsa.RSAPrivateKey:
    e = 65537
    p, q = prime(label + "/p", 1024, e), prime(label + "/q", 1024, e)
    d = pow(e, -1, (p - 1) * (q - 1))
    numbers = rsa.RSAPrivateNumbers(
        p, q, d, rsa.rsa_crt_dmp1(d, p), rsa.rsa_crt_dmq1(d, q), rsa.rsa_crt_iqmp(p, q),
        rsa.RSAPublicNumbers(e, p * q))
    return numbers.private_key()


def sign(key, data: bytes) -> bytes:
    if isinstance(key, ec.EllipticCurvePrivateKey):
        return key.sign(data, ec.ECDSA(hashes.SHA256(), deterministic_signing=True))
    return key.sign(data, padding.PKCS1v15(), hashes.SHA256())


def cose_key(key):
    public = key.public_key()
    if isinstance(key, ec.EllipticCurvePrivateKey):
        return ES256.from_cryptography_key(public)
    return RS256.from_cryptography_key(public)


def name(ou: str | None) -> x509.Name:
    attributes = [
        x509.NameAttribute(NameOID.COUNTRY_NAME, "ZZ"),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Cognate test vectors"),
    ]
    if ou is not None:
        attributes.append(x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, ou))
    attributes.append(x509.NameAttribute(NameOID.COMMON_NAME, "Cognate test authenticator"))
    return x509.Name(attributes)


CA_KEY = ec_key("attestation CA")
CA_NAME = x509.Name([
    x509.NameAttribute(NameOID.COUNTRY_NAME, "ZZ"),
    x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Cognate test vectors"),
    x509.NameAttribute(NameOID.COMMON_NAME, "Cognate test attestation CA"),
])
CA_CERT = (
    x509.CertificateBuilder().subject_name(CA_NAME).issuer_name(CA_NAME).public_key(CA_KEY.public_key())
    .serial_number(int.from_bytes(derive("attestation CA serial", 16), "big") >> 1)
    .not_valid_before(NOT_BEFORE).not_valid_after(NOT_AFTER)
    .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
    .sign(CA_KEY, hashes.SHA256(), ecdsa_deterministic=True)
)


def attestation_cert(label: str, key, aaguid: bytes | None, ou: str | None = "Authenticator Attestation",
                     ca: bool = False) -> bytes:
    builder = (
        x509.CertificateBuilder().subject_name(name(ou)).issuer_name(CA_NAME).public_key(key.public_key())
        .serial_number(int.from_bytes(derive(label + " serial", 16), "big") >> 1)
        .not_valid_before(NOT_BEFORE).not_valid_after(NOT_AFTER)
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if aaguid is not None:
        builder = builder.add_extension(x509.UnrecognizedExtension(AAGUID_OID, b"\x04\x10" + aaguid), critical=False)
    certificate = builder.sign(CA_KEY, hashes.SHA256(), ecdsa_deterministic=True)
    return certificate.public_bytes(serialization.Encoding.DER)


def hexed(data: bytes) -> str:
    return data.hex()


def server() -> Fido2Server:
    def verify_packed(attestation_object, client_data_hash):
        if attestation_object.fmt == "packed":
            PackedAttestation().verify(attestation_object.att_stmt, attestation_object.auth_data, client_data_hash)

    return Fido2Server(PublicKeyCredentialRpEntity(name="Cognate", id=RP_ID), attestation="direct",
                       verify_attestation=verify_packed)


def make_case(label: str, kind: str, attestation: str, *, registration_flags, registration_counter: int,
              assertion_flags, assertion_counter: int, transports, extensions=None, cert_variant=None,
              attestation_kind: str | None = None, expect_python_fido2: str = "accepts") -> dict:
    """One credential: a registration, and an assertion made with it.

    attestation: "none", "packed-self" or "packed-x5c".
    cert_variant: for packed-x5c, None or one of "no-ou", "ca", "aaguid-mismatch" (a leaf that
    breaks one requirement of WebAuthn §8.2.1, everything else being valid).
    attestation_kind: for packed-x5c, "ec" (default) or "rsa": the attestation key's type.
    """
    key = ec_key(label + "/credential") if kind == "ES256" else rsa_key(label + "/credential")
    credential_id = derive(label + "/credential id", 32)
    aaguid = derive(label + "/aaguid", 16)
    user_handle = derive(label + "/user handle", 16)
    rp_id_hash = hashlib.sha256(RP_ID.encode()).digest()
    public_key = cose_key(key)

    registration_challenge = derive(label + "/registration challenge", 32)
    fido_server = server()
    _, state = fido_server.register_begin(
        {"id": user_handle, "name": "alice", "displayName": "Alice"}, challenge=registration_challenge,
        user_verification=UserVerificationRequirement.PREFERRED)
    client_data = CollectedClientData.create(CollectedClientData.TYPE.CREATE, registration_challenge, ORIGIN)
    credential_data = AttestedCredentialData.create(aaguid, credential_id, public_key)
    auth_data = AuthenticatorData.create(
        rp_id_hash, registration_flags | FLAG.AT | (FLAG.ED if extensions else 0), registration_counter,
        credential_data, extensions)
    signed = bytes(auth_data) + client_data.hash

    chain = []
    if attestation == "none":
        fmt, statement = "none", {}
    elif attestation == "packed-self":
        fmt, statement = "packed", {"alg": public_key.ALGORITHM, "sig": sign(key, signed)}
    else:
        attestation_key = rsa_key(label + "/attestation") if attestation_kind == "rsa" else ec_key(label + "/attestation")
        certified_aaguid = derive("another authenticator/aaguid", 16) if cert_variant == "aaguid-mismatch" else aaguid
        leaf = attestation_cert(label, attestation_key, certified_aaguid,
                                ou=None if cert_variant == "no-ou" else "Authenticator Attestation",
                                ca=cert_variant == "ca")
        chain = [leaf, CA_CERT.public_bytes(serialization.Encoding.DER)]
        alg = RS256.ALGORITHM if attestation_kind == "rsa" else ES256.ALGORITHM
        fmt, statement = "packed", {"alg": alg, "sig": sign(attestation_key, signed), "x5c": chain}
    attestation_object = AttestationObject.create(fmt, auth_data, statement)

    registration_response = {
        "id": websafe_encode(credential_id), "rawId": websafe_encode(credential_id), "type": "public-key",
        "response": {"clientDataJSON": websafe_encode(client_data),
                     "attestationObject": websafe_encode(attestation_object)},
    }
    try:
        fido_server.register_complete(state, registration_response)
        python_fido2 = "accepts"
    except Exception as error:  # the refusal cases
        python_fido2 = f"refuses: {error}"
    if not python_fido2.startswith(expect_python_fido2):
        sys.exit(f"{label}: python-fido2 {python_fido2}, expected it {expect_python_fido2}")

    assertion_challenge = derive(label + "/assertion challenge", 32)
    _, state = fido_server.authenticate_begin(challenge=assertion_challenge)
    assertion_client_data = CollectedClientData.create(CollectedClientData.TYPE.GET, assertion_challenge, ORIGIN)
    assertion_data = AuthenticatorData.create(rp_id_hash, assertion_flags, assertion_counter)
    signature = sign(key, bytes(assertion_data) + assertion_client_data.hash)
    if python_fido2 == "accepts":
        fido_server.authenticate_complete(state, [credential_data], {
            "id": websafe_encode(credential_id), "rawId": websafe_encode(credential_id), "type": "public-key",
            "response": {"clientDataJSON": websafe_encode(assertion_client_data),
                         "authenticatorData": websafe_encode(assertion_data),
                         "signature": websafe_encode(signature), "userHandle": websafe_encode(user_handle)},
        })

    return {
        "name": label,
        "algorithm": kind,
        "attestation": attestation + (f" ({cert_variant})" if cert_variant else ""),
        "pythonFido2": python_fido2,
        "registration": {
            "challenge": hexed(registration_challenge),
            "clientDataJSON": hexed(client_data),
            "attestationObject": hexed(attestation_object),
            "transports": transports,
        },
        "credential": {
            "id": hexed(credential_id),
            "publicKey": hexed(cbor.encode(public_key)),
            "aaguid": hexed(aaguid),
            "userHandle": hexed(user_handle),
            "signCount": registration_counter,
            "flags": int(auth_data.flags),
            "format": fmt,
            "x5c": [hexed(certificate) for certificate in chain],
        },
        "assertion": {
            "challenge": hexed(assertion_challenge),
            "clientDataJSON": hexed(assertion_client_data),
            "authenticatorData": hexed(assertion_data),
            "signature": hexed(signature),
            "userHandle": hexed(user_handle),
            "signCount": assertion_counter,
            "flags": int(assertion_data.flags),
        },
    }


def main() -> None:
    up, uv, be, bs = FLAG.UP, FLAG.UV, FLAG.BE, FLAG.BS
    cases = [
        # A synced passkey: UV, backup eligible and backed up, no counter.
        make_case("es256-none", "ES256", "none", registration_flags=up | uv | be | bs, registration_counter=0,
                  assertion_flags=up | uv | be | bs, assertion_counter=0, transports=["hybrid", "internal"]),
        # A security key without user verification, with a counter.
        make_case("rs256-none", "RS256", "none", registration_flags=up, registration_counter=5,
                  assertion_flags=up, assertion_counter=6, transports=["usb"]),
        make_case("es256-packed-self", "ES256", "packed-self", registration_flags=up | uv, registration_counter=1,
                  assertion_flags=up | uv, assertion_counter=2, transports=["usb", "nfc"]),
        make_case("rs256-packed-self", "RS256", "packed-self", registration_flags=up | uv, registration_counter=0,
                  assertion_flags=up | uv, assertion_counter=1, transports=["internal"]),
        make_case("es256-packed-x5c", "ES256", "packed-x5c", registration_flags=up | uv, registration_counter=10,
                  assertion_flags=up | uv, assertion_counter=11, transports=["usb"]),
        make_case("rs256-packed-x5c-rsa-attestation", "RS256", "packed-x5c", registration_flags=up | uv,
                  registration_counter=0, assertion_flags=up | uv, assertion_counter=0, transports=["usb"],
                  attestation_kind="rsa"),
        # Authenticator extension outputs (credProtect = 2) end the registration's authenticator data.
        make_case("es256-none-extensions", "ES256", "none", registration_flags=up | uv, registration_counter=3,
                  assertion_flags=up | uv, assertion_counter=4, transports=["usb"], extensions={"credProtect": 2}),
        # Leaves that break one requirement each of WebAuthn §8.2.1; python-fido2 refuses them too.
        make_case("es256-packed-x5c-no-ou", "ES256", "packed-x5c", registration_flags=up | uv, registration_counter=0,
                  assertion_flags=up | uv, assertion_counter=0, transports=["usb"], cert_variant="no-ou",
                  expect_python_fido2="refuses"),
        make_case("es256-packed-x5c-ca", "ES256", "packed-x5c", registration_flags=up | uv, registration_counter=0,
                  assertion_flags=up | uv, assertion_counter=0, transports=["usb"], cert_variant="ca",
                  expect_python_fido2="refuses"),
        make_case("es256-packed-x5c-aaguid-mismatch", "ES256", "packed-x5c", registration_flags=up | uv,
                  registration_counter=0, assertion_flags=up | uv, assertion_counter=0, transports=["usb"],
                  cert_variant="aaguid-mismatch", expect_python_fido2="refuses"),
    ]
    document = {
        "generator": "Tests/CognateWebAuthnTests/Vectors/generate_fido2_vectors.py",
        "pythonFido2Version": importlib.metadata.version("fido2"),
        "rpId": RP_ID,
        "origin": ORIGIN,
        "cases": cases,
    }
    json.dump(document, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
