"""The wire types in Sources/CognateProtocol/Generated are exactly what the generator makes from
the pinned botocore's model: nobody edited them by hand, and nobody upgraded botocore without
generating them again."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_the_generated_wire_types_are_the_generators_output():
    result = subprocess.run([sys.executable, str(ROOT / "Scripts" / "generate-wire-types.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
