"""Regression tests of the review's Cognito-fidelity findings (issue 9), through boto3, PyJWT
and raw HTTP: answers shaped and worded as Cognito's."""
import json
import socket

import jwt
import pytest

from helpers import (
    PASSWORD, attributes_of, cognito_error, confirmed_user, email_for, new_client, sign_in, sign_up, unique,
)


def test_id_token_carries_unverified_addresses_as_false(server, idp, pool, app_client):
    username = unique()
    sign_up(idp, app_client, username, attributes=[("phone_number", "+15555550123")])
    idp.admin_confirm_sign_up(UserPoolId=pool["Id"], Username=username)
    claims = jwt.decode(sign_in(idp, app_client, username)["IdToken"], options={"verify_signature": False})
    assert claims["email_verified"] is False
    assert claims["phone_number_verified"] is False
    confirmed, _, _ = confirmed_user(server, idp, pool, app_client)
    claims = jwt.decode(sign_in(idp, app_client, confirmed)["IdToken"], options={"verify_signature": False})
    assert claims["email_verified"] is True
    assert "phone_number_verified" not in claims  # no phone number, no claim


def test_boolean_attributes_accept_any_letter_case_and_are_stored_normalized(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    idp.admin_update_user_attributes(UserPoolId=pool["Id"], Username=username,
                                     UserAttributes=[{"Name": "email_verified", "Value": "FALSE"}])
    assert attributes_of(idp.admin_get_user(UserPoolId=pool["Id"], Username=username))["email_verified"] == "false"
    idp.admin_update_user_attributes(UserPoolId=pool["Id"], Username=username,
                                     UserAttributes=[{"Name": "email_verified", "Value": "True"}])
    assert attributes_of(idp.admin_get_user(UserPoolId=pool["Id"], Username=username))["email_verified"] == "true"
    with cognito_error("InvalidParameterException"):
        idp.admin_update_user_attributes(UserPoolId=pool["Id"], Username=username,
                                         UserAttributes=[{"Name": "email_verified", "Value": "yes"}])


def test_describe_user_pool_shows_the_older_messages_equal_to_the_template(idp):
    created = idp.create_user_pool(
        PoolName=unique("messages"), EmailVerificationMessage="Code: {####}", EmailVerificationSubject="Your code",
        SmsVerificationMessage="SMS code {####}")["UserPool"]
    described = idp.describe_user_pool(UserPoolId=created["Id"])["UserPool"]
    template = described["VerificationMessageTemplate"]
    assert (described["EmailVerificationMessage"], described["EmailVerificationSubject"],
            described["SmsVerificationMessage"]) == ("Code: {####}", "Your code", "SMS code {####}")
    assert (template["EmailMessage"], template["EmailSubject"], template["SmsMessage"]) == (
        "Code: {####}", "Your code", "SMS code {####}")
    # Given as a template, shown at the top level too.
    idp.update_user_pool(UserPoolId=created["Id"], VerificationMessageTemplate={
        "EmailMessage": "New {####}", "EmailSubject": "New subject", "SmsMessage": "New sms {####}"})
    described = idp.describe_user_pool(UserPoolId=created["Id"])["UserPool"]
    assert (described["EmailVerificationMessage"], described["EmailVerificationSubject"],
            described["SmsVerificationMessage"]) == ("New {####}", "New subject", "New sms {####}")


def test_a_custom_attribute_needs_a_data_type(idp):
    with cognito_error("InvalidParameterException",
                       "Invalid AttributeDataType input, consider using the provided AttributeDataType enum."):
        idp.create_user_pool(PoolName=unique("schema"), Schema=[{"Name": "tier"}])


def test_forgot_password_for_an_unknown_user_is_worded_as_cognito_words_it(idp, pool, app_client):
    with cognito_error("UserNotFoundException", "Username/client id combination not found."):
        idp.forgot_password(ClientId=app_client["ClientId"], Username=unique("nobody"))


def test_unknown_read_or_write_attributes_are_worded_as_cognito_words_them(idp, pool):
    with cognito_error("InvalidParameterException", "Invalid read attributes specified while creating a client"):
        idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="c", ReadAttributes=["custom:nope"])
    with cognito_error("InvalidParameterException", "Invalid write attributes specified while creating a client"):
        idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="c", WriteAttributes=["custom:nope"])
    client = new_client(idp, pool["Id"])
    with cognito_error("InvalidParameterException", "Invalid write attributes specified while updating a client"):
        idp.update_user_pool_client(UserPoolId=pool["Id"], ClientId=client["ClientId"], WriteAttributes=["nope"])


def test_discovery_advertises_only_what_is_served(server, pool):
    import requests
    document = requests.get(f"{server.endpoint}/{pool['Id']}/.well-known/openid-configuration", timeout=10).json()
    for key, value in document.items():
        if key.endswith("_endpoint") or key.endswith("_uri"):
            assert requests.get(value, timeout=10).status_code != 404, (key, value)


@pytest.mark.parametrize("chunks", [
    b"zz\r\n{}\r\n0\r\n\r\n",                       # a chunk size that is not hex
    b"5\r\n{}\r\n0\r\n\r\n",                         # a chunk shorter than announced
    b"2\r\n{}XX0\r\n\r\n",                           # no CRLF after the chunk
    b"ffffffffffffffffffff\r\n{}\r\n0\r\n\r\n",      # a size that overflows
])
def test_malformed_chunked_bodies_answer_400_never_500(server, chunks):
    request = (b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.1\r\n"
               b"X-Amz-Target: AWSCognitoIdentityProviderService.ListUserPools\r\nTransfer-Encoding: chunked\r\n"
               b"Connection: close\r\n\r\n" + chunks)
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as connection:
        connection.sendall(request)
        connection.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    status_line = answer.split(b"\r\n", 1)[0]
    assert not status_line.startswith(b"HTTP/1.1 5"), answer[:300]
    assert status_line == b"" or status_line.startswith(b"HTTP/1.1 4"), answer[:300]


def test_an_impossible_birthdate_is_named_as_such(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    tokens = sign_in(idp, app_client, username)
    with cognito_error("InvalidParameterException", contains="1985-02-30 is not a date"):
        idp.update_user_attributes(AccessToken=tokens["AccessToken"],
                                   UserAttributes=[{"Name": "birthdate", "Value": "1985-02-30"}])
    with cognito_error("InvalidParameterException", contains="YYYY-MM-DD"):
        idp.update_user_attributes(AccessToken=tokens["AccessToken"],
                                   UserAttributes=[{"Name": "birthdate", "Value": "30.02.1985"}])
