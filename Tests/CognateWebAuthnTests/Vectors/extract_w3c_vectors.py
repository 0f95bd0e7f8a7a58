#!/usr/bin/env python3
"""Writes w3c-vectors.json: the test vectors of the W3C WebAuthn Level 3 specification (§16).

Reads the specification's Bikeshed source (index.bs of https://github.com/w3c/webauthn) and keeps,
for each example credential, the relying party's inputs and the client's and authenticator's
outputs of its registration and authentication: challenge, clientDataJSON, attestationObject,
authenticatorData, signature, plus the credential ID, and the attestation CA certificate. The
keys, seeds and flag bytes the examples were derived from are left out: a relying party never
sees them.

Usage: python3 extract_w3c_vectors.py path/to/index.bs [commit] > w3c-vectors.json
"""

import json
import re
import sys

KEPT = {"challenge", "clientDataJSON", "attestationObject", "authenticatorData", "signature", "credential_id",
        "attestation_ca_cert"}
SECTION = re.compile(r"^##+ (.+?) ## \{#(sctn-test-vectors[\w-]*)\}")
CEREMONY = re.compile(r"^\[=(registration|authentication) ceremon")
ASSIGNMENT = re.compile(r"^(\w+) = h'([0-9a-f]*)'")


def main() -> None:
    source = open(sys.argv[1], encoding="utf-8").read().splitlines()
    commit = sys.argv[2] if len(sys.argv) > 2 else None
    examples, current, ceremony, ca_certificate = [], None, None, None
    for line in source:
        if line.startswith("<!-- END GENERATED CONTENT"):
            break
        if match := SECTION.match(line):
            current = {"title": match.group(1), "id": match.group(2), "registration": {}, "authentication": {}}
            examples.append(current)
            ceremony = "registration"
        elif match := CEREMONY.match(line):
            ceremony = match.group(1)
        elif current is not None and (match := ASSIGNMENT.match(line)) and match.group(1) in KEPT:
            if match.group(1) == "attestation_ca_cert":
                ca_certificate = match.group(2)
                continue
            key = "credentialId" if match.group(1) == "credential_id" else match.group(1)
            current[ceremony][key] = match.group(2)
    examples = [example for example in examples if example["registration"]]
    document = {
        "source": "W3C Web Authentication Level 3, section Test Vectors (index.bs of github.com/w3c/webauthn)",
        "commit": commit,
        "rpId": "example.org",
        "origin": "https://example.org",
        "topOrigin": "https://example.com",
        "attestationCACertificate": ca_certificate,
        "examples": examples,
    }
    json.dump(document, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
