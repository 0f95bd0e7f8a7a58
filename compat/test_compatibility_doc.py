"""docs/compatibility.md is current, and says the truth: every operation it lists as served is
answered by the server, every other operation of the model answers UnknownOperationException;
for the user-pool API (cognito-idp) and, in its own section, the identity-pool API
(cognito-identity)."""
import pathlib
import re
import subprocess
import sys

import botocore.session
import requests

from helpers import AMZ_JSON, TARGET_PREFIX

ROOT = pathlib.Path(__file__).resolve().parent.parent


IDENTITY_SECTION = "## The identity-pool API (`cognito-identity`)"
IDENTITY_TARGET_PREFIX = "AWSCognitoIdentityService."


def documented(identity=False):
    user_pools, identity_pools = (ROOT / "docs" / "compatibility.md").read_text().split(IDENTITY_SECTION)
    rows = re.findall(r"^\| `(\w+)` \| (served|not yet[^|]*) \|", identity_pools if identity else user_pools, re.M)
    return {name: status == "served" for name, status in rows}


def test_the_document_is_generated_from_the_current_model_and_table():
    result = subprocess.run([sys.executable, str(ROOT / "Scripts" / "generate-compatibility.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_every_operation_of_the_model_is_listed():
    model = botocore.session.get_session().get_service_model("cognito-idp")
    assert set(documented()) == set(model.operation_names)
    identity_model = botocore.session.get_session().get_service_model("cognito-identity")
    assert set(documented(identity=True)) == set(identity_model.operation_names)


def test_the_server_answers_exactly_the_operations_listed_as_served(server):
    for name, served in documented().items():
        response = requests.post(server.endpoint + "/", data="{}", timeout=10, headers={
            "Content-Type": AMZ_JSON, "X-Amz-Target": TARGET_PREFIX + name})
        assert response.status_code == 400, (name, response.status_code, response.text)
        unknown = response.json()["__type"] == "UnknownOperationException"
        assert unknown != served, (name, response.json())


def test_the_server_answers_exactly_the_identity_operations_listed_as_served(server):
    for name, served in documented(identity=True).items():
        response = requests.post(server.endpoint + "/", data="{}", timeout=10, headers={
            "Content-Type": AMZ_JSON, "X-Amz-Target": IDENTITY_TARGET_PREFIX + name})
        assert response.status_code == 400, (name, response.status_code, response.text)
        unknown = response.json()["__type"] == "UnknownOperationException"
        assert unknown != served, (name, response.json())
