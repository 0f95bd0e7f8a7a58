"""The wire types in Sources/CognateProtocol/Generated (cognito-idp) and
Sources/CognateIdentityProtocol/Generated (cognito-identity) are exactly what the generator makes
from the pinned botocore's models: nobody edited them by hand, and nobody upgraded botocore without
generating them again."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_the_generated_wire_types_are_the_generators_output():
    result = subprocess.run([sys.executable, str(ROOT / "Scripts" / "generate-wire-types.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_both_apis_are_generated_into_modules_of_their_own():
    for module, enum, prefix in (("CognateProtocol", "CognitoAPI", None),
                                 ("CognateIdentityProtocol", "CognitoIdentityAPI", "AWSCognitoIdentityService.")):
        operations = (ROOT / "Sources" / module / "Generated" / "Operations.swift").read_text()
        assert f"public enum {enum} {{" in operations
        if prefix:
            assert f'public static let targetPrefix = "{prefix}"' in operations
