"""CONFIRM_WITH_LINK (issue 11): a pool whose VerificationMessageTemplate says so emails a
link instead of a code, `<public URL>/confirmUser?client_id=…&user_name=…&confirmation_code=…`
as Cognito builds it; opening it (requests, as a browser would) confirms the sign-up."""
import re

import requests

from helpers import (attributes_of, last_message, new_client, sign_in, sign_up, unique, user_status, wrong_code)

TEMPLATE = {"DefaultEmailOption": "CONFIRM_WITH_LINK", "EmailSubjectByLink": "Confirm your account",
            "EmailMessageByLink": "Welcome {username}! {##Confirm my account##}"}


def link_pool(idp):
    return idp.create_user_pool(PoolName=unique("link"), AutoVerifiedAttributes=["email"],
                                VerificationMessageTemplate=TEMPLATE)["UserPool"]


def emailed_link(server, pool_id, username, label="Confirm my account"):
    message = last_message(server, pool_id, username=username)
    found = re.search(rf'<a href="([^"]+)">{re.escape(label)}</a>', message["body"])
    assert found, message["body"]
    return message, found.group(1)


def test_a_sign_up_is_confirmed_by_opening_its_emailed_link(server, idp):
    pool = link_pool(idp)
    client = new_client(idp, pool["Id"], GenerateSecret=True)   # the link needs no SECRET_HASH
    username = "ada+" + unique()
    sign_up(idp, client, username, secret=client["ClientSecret"])
    message, link = emailed_link(server, pool["Id"], username)
    assert message["subject"] == "Confirm your account"
    assert message["body"].startswith(f"Welcome {username}! ")
    assert link.startswith(server.endpoint + "/confirmUser?client_id=" + client["ClientId"])

    page = requests.get(link, timeout=10)
    assert page.status_code == 200, page.text
    assert "Your registration has been confirmed!" in page.text
    assert page.headers["Content-Type"].startswith("text/html")
    assert user_status(idp, pool["Id"], username) == "CONFIRMED"
    user = attributes_of(idp.admin_get_user(UserPoolId=pool["Id"], Username=username))
    assert user["email_verified"] == "true"
    assert sign_in(idp, client, username, secret=client["ClientSecret"])["AccessToken"]

    again = requests.get(link, timeout=10)
    assert again.status_code == 400
    assert "User cannot be confirmed. Current status is CONFIRMED" in again.text


def test_a_wrong_or_incomplete_link_confirms_nothing(server, idp):
    pool = link_pool(idp)
    client = new_client(idp, pool["Id"])
    username = unique()
    sign_up(idp, client, username)
    _, link = emailed_link(server, pool["Id"], username)
    code = re.search(r"confirmation_code=(\d+)", link).group(1)
    wrong = requests.get(link.replace(f"confirmation_code={code}", f"confirmation_code={wrong_code(code)}"), timeout=10)
    assert wrong.status_code == 400 and "Invalid verification code provided" in wrong.text
    assert requests.get(server.endpoint + "/confirmUser?client_id=x", timeout=10).status_code == 400
    unknown = requests.get(link.replace(client["ClientId"], "1" * 26), timeout=10)
    assert unknown.status_code == 404
    hostile = requests.get(link.replace(f"user_name={username}", "user_name=%3Cscript%3E"), timeout=10)
    assert hostile.status_code == 400 and "<script>" not in hostile.text
    assert user_status(idp, pool["Id"], username) == "UNCONFIRMED"


def test_resent_codes_carry_a_link_too_and_codes_stay_codes_elsewhere(server, idp):
    pool = idp.create_user_pool(
        PoolName=unique("link"), AutoVerifiedAttributes=["email"],
        VerificationMessageTemplate={"DefaultEmailOption": "CONFIRM_WITH_LINK"})["UserPool"]
    client = new_client(idp, pool["Id"])
    username = unique()
    sign_up(idp, client, username)
    idp.resend_confirmation_code(ClientId=client["ClientId"], Username=username)
    message, link = emailed_link(server, pool["Id"], username, label="Verify Email")
    assert message["subject"] == "Your verification link"     # Cognito's default texts
    assert requests.get(link, timeout=10).status_code == 200
    # Password resets still send a code.
    idp.forgot_password(ClientId=client["ClientId"], Username=username)
    reset = last_message(server, pool["Id"], username=username)
    assert "<a href" not in reset["body"] and re.search(r"\d{6}", reset["body"])
