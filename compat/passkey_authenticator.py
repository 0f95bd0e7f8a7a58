"""A software passkey authenticator for the compat suites: it answers WebAuthn creation and
request options (the JSON Cognito's StartWebAuthnRegistration and WEB_AUTHN challenge give) as
a browser with a platform authenticator would, building every structure with python-fido2's
WebAuthn types (client data, authenticator data, attestation object, COSE keys) and signing
with `cryptography`. Its outputs are RegistrationResponseJSON and AuthenticationResponseJSON.

Knobs let a test misbehave the way an attacker or a broken client would: another origin, another
RP ID, no user verification, a counter that goes back."""
import hashlib
import json
import os

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from fido2.cose import ES256, RS256
from fido2.utils import websafe_decode, websafe_encode
from fido2.webauthn import (AttestationObject, AttestedCredentialData, AuthenticatorData, CollectedClientData)

AAGUID = bytes.fromhex("6e0c1d2ab5a34f1c9a2b3c4d5e6f7081")


class Passkey:
    """One credential: its ID, private key, owner's user handle and signature counter."""

    def __init__(self, algorithm, rp_id, user_handle):
        self.id = os.urandom(32)
        self.algorithm = algorithm
        self.rp_id = rp_id
        self.user_handle = user_handle
        self.counter = 0
        if algorithm == "RS256":
            self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            self.cose = RS256.from_cryptography_key(self.key.public_key())
        else:
            self.key = ec.generate_private_key(ec.SECP256R1())
            self.cose = ES256.from_cryptography_key(self.key.public_key())

    def sign(self, data):
        if self.algorithm == "RS256":
            return self.key.sign(data, padding.PKCS1v15(), hashes.SHA256())
        return self.key.sign(data, ec.ECDSA(hashes.SHA256()))


class SoftAuthenticator:
    """A platform authenticator with the passkeys it created, used at `origin`."""

    def __init__(self, origin, algorithm="ES256", attestation="none", user_verified=True, backup_eligible=True):
        self.origin = origin
        self.algorithm = algorithm
        self.attestation = attestation
        self.user_verified = user_verified
        self.backup_eligible = backup_eligible
        self.passkeys = []

    def _flags(self, attested=False):
        flags = AuthenticatorData.FLAG.UP
        if self.user_verified:
            flags |= AuthenticatorData.FLAG.UV
        if self.backup_eligible:
            flags |= AuthenticatorData.FLAG.BE | AuthenticatorData.FLAG.BS
        if attested:
            flags |= AuthenticatorData.FLAG.AT
        return flags

    @staticmethod
    def _options(options):
        return json.loads(options) if isinstance(options, str) else options

    def create(self, options, origin=None, rp_id=None):
        """navigator.credentials.create(): a new passkey for the options' RP and user."""
        options = self._options(options)
        rp_id = rp_id or options["rp"]["id"]
        passkey = Passkey(self.algorithm, rp_id, websafe_decode(options["user"]["id"]))
        client_data = CollectedClientData.create(
            type="webauthn.create", challenge=websafe_decode(options["challenge"]), origin=origin or self.origin)
        credential = AttestedCredentialData.create(AAGUID, passkey.id, passkey.cose)
        auth_data = AuthenticatorData.create(
            hashlib.sha256(rp_id.encode()).digest(), self._flags(attested=True), passkey.counter, credential)
        if self.attestation == "packed":
            statement = {"alg": passkey.cose.ALGORITHM,
                         "sig": passkey.sign(bytes(auth_data) + client_data.hash)}
        else:
            statement = {}
        attestation = AttestationObject.create(self.attestation, auth_data, statement)
        self.passkeys.append(passkey)
        return {
            "id": websafe_encode(passkey.id), "rawId": websafe_encode(passkey.id), "type": "public-key",
            "authenticatorAttachment": "platform", "clientExtensionResults": {},
            "response": {
                "clientDataJSON": websafe_encode(bytes(client_data)),
                "attestationObject": websafe_encode(bytes(attestation)),
                "transports": ["internal", "hybrid"],
            },
        }

    def get(self, options, origin=None, rp_id=None, passkey=None, counter_step=1):
        """navigator.credentials.get(): an assertion by the first of the allowed passkeys this
        authenticator holds (or `passkey`)."""
        options = self._options(options)
        allowed = {websafe_decode(c["id"]) for c in options.get("allowCredentials", [])}
        passkey = passkey or next(p for p in self.passkeys if not allowed or p.id in allowed)
        passkey.counter += counter_step
        rp_id = rp_id or options["rpId"]
        client_data = CollectedClientData.create(
            type="webauthn.get", challenge=websafe_decode(options["challenge"]), origin=origin or self.origin)
        auth_data = AuthenticatorData.create(hashlib.sha256(rp_id.encode()).digest(), self._flags(), passkey.counter)
        signature = passkey.sign(bytes(auth_data) + client_data.hash)
        return {
            "id": websafe_encode(passkey.id), "rawId": websafe_encode(passkey.id), "type": "public-key",
            "authenticatorAttachment": "platform", "clientExtensionResults": {},
            "response": {
                "clientDataJSON": websafe_encode(bytes(client_data)),
                "authenticatorData": websafe_encode(bytes(auth_data)),
                "signature": websafe_encode(signature),
                "userHandle": websafe_encode(passkey.user_handle),
            },
        }
