"""Hostile and unusual input over raw HTTP (no client-side validation): every answer is a
Cognito-shaped 400, never a 5xx, and the server stays up."""
import json
import random

import pytest
import requests

from helpers import (
    PASSWORD, admin_user, attributes_of, assert_healthy, assert_raw_error, email_for, raw_call, sign_in, unique,
    run_concurrently, verify_token,
)


@pytest.fixture(autouse=True)
def still_healthy(server):
    yield
    assert_healthy(server)


@pytest.fixture
def client_id(app_client):
    return app_client["ClientId"]


def sign_up_body(client_id, username=None, **extra):
    username = username or unique()
    return {"ClientId": client_id, "Username": username, "Password": PASSWORD,
            "UserAttributes": [{"Name": "email", "Value": email_for("u")}], **extra}


# --- protocol -----------------------------------------------------------------------------------

def test_success_response_shape(server, client_id):
    response = raw_call(server, "SignUp", sign_up_body(client_id))
    assert response.status_code == 200, response.text
    assert response.headers["Content-Type"] == "application/x-amz-json-1.1"
    assert response.headers["x-amzn-RequestId"]
    assert response.json()["UserConfirmed"] is False


def test_error_response_shape(server):
    response = raw_call(server, "DescribeUserPool", {"UserPoolId": "us-east-1_NoSuchPool"})
    assert_raw_error(response, "ResourceNotFoundException")
    assert response.headers["Content-Type"] == "application/x-amz-json-1.1"
    assert response.headers["x-amzn-RequestId"]
    assert response.headers["x-amzn-ErrorType"] == "ResourceNotFoundException"


@pytest.mark.parametrize("content_type", ["application/json", "application/x-amz-json-1.1; charset=utf-8",
                                          "application/json; charset=UTF-8"])
def test_other_content_types_are_accepted(server, client_id, content_type):
    response = raw_call(server, "SignUp", sign_up_body(client_id), content_type=content_type)
    assert response.status_code == 200, response.text


@pytest.mark.parametrize("target", [
    "AWSCognitoIdentityProviderService.NoSuchOperation",
    "AWSCognitoIdentityProviderService.",
    "SomeOtherService.SignUp",
    "awscognitoidentityproviderservice.SignUp",
    "SignUp",
    "",
])
def test_unknown_target(server, client_id, target):
    assert_raw_error(raw_call(server, None, sign_up_body(client_id), target=target), "UnknownOperationException")


def test_missing_target(server, client_id):
    assert_raw_error(raw_call(server, None, sign_up_body(client_id)), "UnknownOperationException")


@pytest.mark.parametrize("data", [
    b'{"ClientId": ',
    b"{'ClientId': 'x'}",
    b"not json at all",
    b"\xff\xfe\x00garbage",
    b'{"Username": "\xff\xfe"}',
])
def test_malformed_json(server, data):
    assert_raw_error(raw_call(server, "SignUp", data=data), "SerializationException")


@pytest.mark.parametrize("data", [b"[]", b'"a string"', b"42", b"true", b'[{"ClientId": "x"}]'])
def test_json_that_is_not_an_object(server, data):
    assert_raw_error(raw_call(server, "SignUp", data=data), "SerializationException")


def test_empty_body_reports_missing_members(server):
    message = assert_raw_error(raw_call(server, "SignUp", data=b""), "InvalidParameterException")
    assert message.startswith("2 validation errors detected: ")


# --- member types and validation ----------------------------------------------------------------

@pytest.mark.parametrize("member, value", [
    ("ClientId", 12345),
    ("ClientId", True),
    ("Username", {"nested": "object"}),
    ("Username", ["list"]),
    ("UserAttributes", "a string"),
    ("UserAttributes", {"Name": "email"}),
    ("UserAttributes", [{"Name": "email", "Value": 5}]),
    ("UserAttributes", ["not-an-attribute"]),
    ("ClientMetadata", ["not", "a", "map"]),
    ("ClientMetadata", {"key": 1}),
])
def test_wrong_member_types(server, client_id, member, value):
    body = {**sign_up_body(client_id), member: value}
    assert_raw_error(raw_call(server, "SignUp", body), "SerializationException")


@pytest.mark.parametrize("value", ["2", 2.5, 1e400, 10 ** 30, True])
def test_wrong_number_types(server, value):
    data = '{"MaxResults": %s}' % (json.dumps(value) if value != 1e400 else "1e400")
    response = raw_call(server, "ListUserPools", data=data)
    assert response.status_code == 400, response.text
    assert response.json()["__type"] in ("SerializationException", "InvalidParameterException")


def test_integers_are_32_bits(server, idp, pool):
    """Smithy's Integer is 32 bits: 2**31 is refused before it reaches a 32-bit column (it was a
    500 on PostgreSQL), 2**31 - 1 is taken."""
    for operation in ("CreateGroup", "UpdateGroup"):
        body = {"UserPoolId": pool["Id"], "GroupName": "wide", "Precedence": 2 ** 31}
        response = raw_call(server, operation, body)
        assert response.status_code == 400 and response.json()["__type"] == "SerializationException", response.text
    created = raw_call(server, "CreateGroup", {"UserPoolId": pool["Id"], "GroupName": "widest", "Precedence": 2 ** 31 - 1})
    assert created.status_code == 200 and created.json()["Group"]["Precedence"] == 2 ** 31 - 1, created.text
    assert idp.get_group(UserPoolId=pool["Id"], GroupName="widest")["Group"]["Precedence"] == 2 ** 31 - 1


def test_missing_required_members_are_all_reported(server):
    message = assert_raw_error(raw_call(server, "SignUp", {"Password": PASSWORD}), "InvalidParameterException")
    assert message == (
        "2 validation errors detected: "
        "Value null at 'clientId' failed to satisfy constraint: Member must not be null; "
        "Value null at 'username' failed to satisfy constraint: Member must not be null")


def test_null_values_count_as_missing(server):
    message = assert_raw_error(raw_call(server, "SignUp", {"ClientId": None, "Username": None, "Password": None}),
                               "InvalidParameterException")
    assert message.startswith("2 validation errors detected: Value null at 'clientId'")


def test_null_optional_members_are_ignored(server, client_id):
    body = {**sign_up_body(client_id), "SecretHash": None, "ClientMetadata": None, "ValidationData": None}
    assert raw_call(server, "SignUp", body).status_code == 200


def test_null_inside_a_list(server, client_id):
    response = raw_call(server, "SignUp", {**sign_up_body(client_id), "UserAttributes": [None]})
    assert response.status_code == 400, response.text
    assert response.json()["__type"] in ("SerializationException", "InvalidParameterException")


def test_unknown_members_are_ignored(server, client_id):
    body = {**sign_up_body(client_id), "NoSuchMember": {"deep": [1, 2, 3]}, "AnotherOne": None}
    assert raw_call(server, "SignUp", body).status_code == 200


def test_username_too_long(server, client_id):
    message = assert_raw_error(raw_call(server, "SignUp", sign_up_body(client_id, "u" * 129)),
                               "InvalidParameterException")
    assert message == ("1 validation error detected: Value at 'username' failed to satisfy constraint: "
                       "Member must have length less than or equal to 128")
    assert raw_call(server, "SignUp", sign_up_body(client_id, "u" * 128)).status_code == 200


def test_pool_name_too_long(server):
    name = "p" * 129
    message = assert_raw_error(raw_call(server, "CreateUserPool", {"PoolName": name}), "InvalidParameterException")
    assert message == (f"1 validation error detected: Value '{name}' at 'poolName' failed to satisfy constraint: "
                       "Member must have length less than or equal to 128")


def test_several_constraint_failures(server, client_id):
    body = {"ClientId": client_id, "Username": "", "Password": "has space"}
    message = assert_raw_error(raw_call(server, "SignUp", body), "InvalidParameterException")
    assert message.startswith("3 validation errors detected: ")   # username min length + pattern, password pattern
    assert "'username'" in message and "'password'" in message


def test_username_pattern(server, client_id):
    message = assert_raw_error(raw_call(server, "SignUp", sign_up_body(client_id, "has space")),
                               "InvalidParameterException")
    assert message == ("1 validation error detected: Value at 'username' failed to satisfy constraint: "
                       "Member must satisfy regular expression pattern: [\\p{L}\\p{M}\\p{S}\\p{N}\\p{P}]+")


def test_password_too_long(server, client_id):
    body = sign_up_body(client_id, Password="Aa1!" + "x" * 253)
    message = assert_raw_error(raw_call(server, "SignUp", body), "InvalidParameterException")
    assert message == ("1 validation error detected: Value at 'password' failed to satisfy constraint: "
                       "Member must have length less than or equal to 256")


def test_nested_member_paths(server):
    body = {"PoolName": "nested", "Policies": {"PasswordPolicy": {"MinimumLength": 1000}}}
    message = assert_raw_error(raw_call(server, "CreateUserPool", body), "InvalidParameterException")
    assert message == ("1 validation error detected: Value '1000' at 'policies.passwordPolicy.minimumLength' "
                       "failed to satisfy constraint: Member must have value less than or equal to 99")
    body = {"PoolName": "nested", "Schema": [{"Name": "ok", "AttributeDataType": "String"},
                                             {"Name": "n" * 21, "AttributeDataType": "Strange"}]}
    message = assert_raw_error(raw_call(server, "CreateUserPool", body), "InvalidParameterException")
    assert message.startswith("2 validation errors detected: ")
    assert "'schema.2.member.name'" in message and "'schema.2.member.attributeDataType'" in message


def test_attribute_value_too_long(server, client_id):
    body = sign_up_body(client_id, UserAttributes=[{"Name": "email", "Value": "x" * 2049}])
    assert_raw_error(raw_call(server, "SignUp", body), "InvalidParameterException", contains="2048")


def test_invalid_enum(server, client_id):
    body = {"ClientId": client_id, "AuthFlow": "NOPE", "AuthParameters": {"USERNAME": "a", "PASSWORD": "b"}}
    message = assert_raw_error(raw_call(server, "InitiateAuth", body), "InvalidParameterException")
    assert message.startswith("1 validation error detected: Value 'NOPE' at 'authFlow' failed to satisfy "
                              "constraint: Member must satisfy enum value set: [")
    assert "USER_PASSWORD_AUTH" in message


@pytest.mark.parametrize("size", [1024 * 1024, 16 * 1024 * 1024])
def test_body_over_one_mebibyte(server, client_id, size):
    body = sign_up_body(client_id, Padding="x" * size)
    try:
        response = raw_call(server, "SignUp", body)
    except requests.ConnectionError:
        pytest.fail("the server dropped the connection instead of answering 400")
    assert_raw_error(response, "InvalidParameterException")


def test_chunked_bodies(server, client_id):
    def chunks(*parts):
        yield from parts

    small = json.dumps(sign_up_body(client_id)).encode()
    response = raw_call(server, "SignUp", data=chunks(small[:10], small[10:]))
    assert response.status_code == 200, response.text
    oversize = chunks(b'{"ClientId": "abc", "Username": "x", "Padding": "', *[b"x" * 65536] * 32, b'"}')
    assert_raw_error(raw_call(server, "SignUp", data=oversize), "InvalidParameterException")


def test_body_just_under_the_limit_is_read(server, client_id):
    body = sign_up_body(client_id, Padding="x" * (1024 * 1024 - 2048))   # an unknown member: ignored
    assert raw_call(server, "SignUp", body).status_code == 200


@pytest.mark.parametrize("depth", [1000, 100_000])
def test_deeply_nested_json(server, client_id, depth):
    nested = "[" * depth + "]" * depth
    data = '{"ClientId": "%s", "Username": "deep", "Password": "%s", "ClientMetadata": %s}' % (
        client_id, PASSWORD, nested)
    response = raw_call(server, "SignUp", data=data)
    assert response.status_code == 400, response.text
    assert response.json()["__type"] in ("SerializationException", "InvalidParameterException")


@pytest.mark.parametrize("depth", [100_000])
def test_deeply_nested_unknown_member(server, client_id, depth):
    data = '{"ClientId": "%s", "Username": "%s", "Password": "%s", "Unknown": %s}' % (
        client_id, unique(), PASSWORD, "[" * depth + "]" * depth)
    response = raw_call(server, "SignUp", data=data)
    assert response.status_code in (200, 400), response.text
    if response.status_code == 400:
        assert response.json()["__type"] == "SerializationException"


def test_lone_surrogate_escape(server, client_id):
    data = '{"ClientId": "%s", "Username": "bad\\ud800name", "Password": "%s"}' % (client_id, PASSWORD)
    response = raw_call(server, "SignUp", data=data)
    assert response.status_code == 400, response.text
    assert response.json()["__type"] in ("SerializationException", "InvalidParameterException")


def test_public_operation_ignores_bearer_authorization(server, client_id):
    """pycognito sends `Authorization: Bearer <token>` on some public calls."""
    response = requests.post(server.endpoint + "/", data=json.dumps(sign_up_body(client_id)), timeout=30, headers={
        "X-Amz-Target": "AWSCognitoIdentityProviderService.SignUp", "Content-Type": "application/x-amz-json-1.1",
        "Authorization": "Bearer abc.def.ghi"})
    assert response.status_code == 200, response.text


def test_get_on_the_api_endpoint(server):
    response = requests.get(server.endpoint + "/", timeout=10)
    assert response.status_code < 500


# --- unicode ------------------------------------------------------------------------------------

@pytest.mark.parametrize("username", ["ユーザー", "用户名😀", "ñandú-é", "e\u0301clair", "Ωμέγα"])
@pytest.mark.parametrize("ensure_ascii", [True, False])
def test_unicode_usernames_and_attributes_round_trip(server, idp, pool, app_client, username, ensure_ascii):
    username = f"{username}-{unique('')[1:5]}"
    name = "名前 😀 — Zoë"
    body = {"ClientId": app_client["ClientId"], "Username": username, "Password": PASSWORD,
            "UserAttributes": [{"Name": "email", "Value": email_for("unicode")}, {"Name": "name", "Value": name}]}
    data = json.dumps(body, ensure_ascii=ensure_ascii).encode("utf-8")
    response = raw_call(server, "SignUp", data=data)
    assert response.status_code == 200, response.text

    user = idp.admin_get_user(UserPoolId=pool["Id"], Username=username)
    assert user["Username"] == username
    assert attributes_of(user)["name"] == name
    idp.admin_confirm_sign_up(UserPoolId=pool["Id"], Username=username)
    tokens = sign_in(idp, app_client, username)
    claims = verify_token(server, pool["Id"], tokens["IdToken"], "id", app_client["ClientId"])
    assert claims["cognito:username"] == username
    assert claims["name"] == name
    assert idp.get_user(AccessToken=tokens["AccessToken"])["Username"] == username


def test_attribute_values_with_json_syntax_round_trip(server, idp, pool, app_client):
    """Users are read with their attributes as one JSON object the database builds: values full
    of JSON syntax and escapes come back unchanged through GetUser, AdminGetUser and tokens."""
    username = unique("json")
    values = {"name": 'Zoë "Z" O\'Neil \\ {"a": [1, "b\\"], "c": null}', "family_name": "tab\there\u0001end",
              "given_name": "\\u00e9 is not é, \\ud83d\\ude00 is not 😀"}
    idp.sign_up(ClientId=app_client["ClientId"], Username=username, Password=PASSWORD,
                UserAttributes=[{"Name": "email", "Value": email_for("json")}]
                + [{"Name": name, "Value": value} for name, value in values.items()])
    idp.admin_confirm_sign_up(UserPoolId=pool["Id"], Username=username)
    tokens = sign_in(idp, app_client, username)
    for attributes in (attributes_of(idp.get_user(AccessToken=tokens["AccessToken"])),
                       attributes_of(idp.admin_get_user(UserPoolId=pool["Id"], Username=username))):
        assert {name: attributes.get(name) for name in values} == values
    refreshed = idp.initiate_auth(ClientId=app_client["ClientId"], AuthFlow="REFRESH_TOKEN_AUTH",
                                  AuthParameters={"REFRESH_TOKEN": tokens["RefreshToken"]})["AuthenticationResult"]
    claims = verify_token(server, pool["Id"], refreshed["IdToken"], "id", app_client["ClientId"])
    assert {name: claims.get(name) for name in values} == values


def test_values_with_the_nul_character_are_refused(server, idp, pool, app_client):
    """U+0000 fits no record (PostgreSQL's text cannot hold it): whatever the value is for, the
    answer is InvalidParameterException on every store, and nothing is written."""
    username = unique("nul")
    body = sign_up_body(app_client["ClientId"], username)
    body["UserAttributes"].append({"Name": "name", "Value": "a\u0000b"})
    assert_raw_error(raw_call(server, "SignUp", body), "InvalidParameterException", "NUL")
    assert_raw_error(raw_call(server, "AdminGetUser", {"UserPoolId": pool["Id"], "Username": username}),
                     "UserNotFoundException")
    assert_raw_error(raw_call(server, "InitiateAuth", {
        "ClientId": app_client["ClientId"], "AuthFlow": "USER_PASSWORD_AUTH",
        "AuthParameters": {"USERNAME": "a\u0000b", "PASSWORD": PASSWORD}}), "InvalidParameterException", "NUL")
    assert_raw_error(raw_call(server, "ListUsers", {"UserPoolId": pool["Id"], "Filter": 'email = "a\u0000b"'}),
                     "InvalidParameterException", "NUL")

    idp.sign_up(ClientId=app_client["ClientId"], Username=username, Password=PASSWORD,
                UserAttributes=[{"Name": "email", "Value": email_for("nul")}, {"Name": "name", "Value": "Before"}])
    idp.admin_confirm_sign_up(UserPoolId=pool["Id"], Username=username)
    tokens = sign_in(idp, app_client, username)
    assert_raw_error(raw_call(server, "UpdateUserAttributes", {
        "AccessToken": tokens["AccessToken"], "UserAttributes": [{"Name": "name", "Value": "After\u0000"}]}),
        "InvalidParameterException", "NUL")
    assert attributes_of(idp.admin_get_user(UserPoolId=pool["Id"], Username=username))["name"] == "Before"

    # The OAuth token endpoint: a form field with %00 is the caller's error too.
    response = requests.post(server.endpoint + "/oauth2/token", timeout=30, data={
        "grant_type": "authorization_code", "client_id": "a\x00b", "code": "c\x00", "redirect_uri": "https://x.test/cb"})
    assert 400 <= response.status_code < 500, response.text
    assert response.json()["error"] in ("invalid_request", "invalid_client"), response.text


def test_unicode_in_error_messages(server):
    name = "プール" * 50
    message = assert_raw_error(raw_call(server, "CreateUserPool", {"PoolName": name}), "InvalidParameterException")
    assert name in message


# --- concurrency --------------------------------------------------------------------------------

def test_concurrent_sign_up_of_one_username(server, pool, app_client):
    username = unique("race")
    outcomes = run_concurrently(server, 20, lambda idp, _: idp.sign_up(
        ClientId=app_client["ClientId"], Username=username, Password=PASSWORD,
        UserAttributes=[{"Name": "email", "Value": email_for(username)}]))
    assert all(status < 500 for status, _ in outcomes), outcomes
    assert outcomes.count((200, None)) == 1, outcomes
    assert outcomes.count((400, "UsernameExistsException")) == 19, outcomes


def test_concurrent_confirmation(server, idp, pool, app_client):
    username = unique("race")
    idp.sign_up(ClientId=app_client["ClientId"], Username=username, Password=PASSWORD,
                UserAttributes=[{"Name": "email", "Value": email_for(username)}])
    code = server.last_code(pool["Id"], email_for(username))
    outcomes = run_concurrently(server, 20, lambda c, _: c.confirm_sign_up(
        ClientId=app_client["ClientId"], Username=username, ConfirmationCode=code))
    assert all(status < 500 for status, _ in outcomes), outcomes
    assert outcomes.count((200, None)) == 1, outcomes
    assert {error for _, error in outcomes if error} <= {
        "NotAuthorizedException", "ExpiredCodeException", "CodeMismatchException"}, outcomes
    assert idp.admin_get_user(UserPoolId=pool["Id"], Username=username)["UserStatus"] == "CONFIRMED"


def test_concurrent_sign_ups_of_different_users(server, idp, pool, app_client):
    names = [unique("many") for _ in range(20)]
    outcomes = run_concurrently(server, 20, lambda c, i: c.sign_up(
        ClientId=app_client["ClientId"], Username=names[i], Password=PASSWORD,
        UserAttributes=[{"Name": "email", "Value": email_for(names[i])}]))
    assert outcomes == [(200, None)] * 20, outcomes
    for name in names:
        assert idp.admin_get_user(UserPoolId=pool["Id"], Username=name)["UserStatus"] == "UNCONFIRMED"


def test_concurrent_sign_ins_and_refreshes(server, idp, pool, app_client):
    username = unique("busy")
    idp.sign_up(ClientId=app_client["ClientId"], Username=username, Password=PASSWORD,
                UserAttributes=[{"Name": "email", "Value": email_for(username)}])
    idp.admin_confirm_sign_up(UserPoolId=pool["Id"], Username=username)
    refresh_token = sign_in(idp, app_client, username)["RefreshToken"]

    def work(c, i):
        if i % 2:
            sign_in(c, app_client, username)
        else:
            c.initiate_auth(ClientId=app_client["ClientId"], AuthFlow="REFRESH_TOKEN_AUTH",
                            AuthParameters={"REFRESH_TOKEN": refresh_token})

    assert run_concurrently(server, 20, work) == [(200, None)] * 20


def test_every_kind_of_write_to_one_user_at_once(server, idp, pool, app_client):
    """Twenty different operations on one user released together, in a new order each round
    (deletion, attribute and password writes, groups, sign-out, sign-ins, refresh, revocation):
    each answers a Cognito error or succeeds, none a 5xx, and what is left is consistent."""
    order = random.Random(7)
    for _ in range(3):
        name = admin_user(idp, pool["Id"], attributes=[("email", email_for("one"))])
        group = unique("g")
        idp.create_group(UserPoolId=pool["Id"], GroupName=group)
        tokens = sign_in(idp, app_client, name)
        admin = {"UserPoolId": pool["Id"], "Username": name}
        operations = [
            lambda c: c.admin_delete_user(**admin),
            lambda c: c.admin_update_user_attributes(**admin, UserAttributes=[{"Name": "name", "Value": "x"}]),
            lambda c: c.admin_set_user_password(**admin, Password=PASSWORD + "x", Permanent=True),
            lambda c: c.admin_add_user_to_group(**admin, GroupName=group),
            lambda c: c.admin_user_global_sign_out(**admin),
            lambda c: c.admin_disable_user(**admin),
            lambda c: c.admin_enable_user(**admin),
            lambda c: c.admin_reset_user_password(**admin),
            lambda c: c.admin_set_user_mfa_preference(**admin, EmailMfaSettings={"Enabled": True}),
            lambda c: c.admin_list_groups_for_user(**admin),
            lambda c: c.initiate_auth(ClientId=app_client["ClientId"], AuthFlow="REFRESH_TOKEN_AUTH",
                                      AuthParameters={"REFRESH_TOKEN": tokens["RefreshToken"]}),
            lambda c: sign_in(c, app_client, name),
            lambda c: c.update_user_attributes(AccessToken=tokens["AccessToken"], UserAttributes=[
                {"Name": "email", "Value": email_for("other")}]),
            lambda c: c.get_user(AccessToken=tokens["AccessToken"]),
            lambda c: c.delete_user(AccessToken=tokens["AccessToken"]),
            lambda c: c.forgot_password(ClientId=app_client["ClientId"], Username=name),
            lambda c: c.delete_group(UserPoolId=pool["Id"], GroupName=group),
            lambda c: c.revoke_token(ClientId=app_client["ClientId"], Token=tokens["RefreshToken"]),
            lambda c: c.list_users(UserPoolId=pool["Id"]),
            lambda c: c.admin_user_global_sign_out(**admin),
        ]
        order.shuffle(operations)
        outcomes = run_concurrently(server, len(operations), lambda c, i: operations[i](c))
        assert all(status < 500 for status, _ in outcomes), outcomes
        try:
            user = idp.admin_get_user(**admin)
        except idp.exceptions.UserNotFoundException:
            continue
        assert {"Name": "email", "Value": email_for("one")} in user["UserAttributes"] or \
            {"Name": "email", "Value": email_for("other")} in user["UserAttributes"], user


def test_a_group_deleted_while_its_members_are(server, idp, pool):
    """DeleteGroup while each member is deleted or removed from it at once (both remove the
    same membership rows, from opposite ends): no 5xx, and nothing of either is left."""
    for _ in range(3):
        group = unique("g")
        idp.create_group(UserPoolId=pool["Id"], GroupName=group)
        names = [admin_user(idp, pool["Id"]) for _ in range(12)]
        for name in names:
            idp.admin_add_user_to_group(UserPoolId=pool["Id"], Username=name, GroupName=group)

        def work(c, i):
            if i == 0:
                c.delete_group(UserPoolId=pool["Id"], GroupName=group)
            elif i <= len(names):
                c.admin_delete_user(UserPoolId=pool["Id"], Username=names[i - 1])
            else:
                c.admin_remove_user_from_group(UserPoolId=pool["Id"], Username=names[i - 1 - len(names)],
                                               GroupName=group)

        outcomes = run_concurrently(server, 1 + 2 * len(names), work)
        assert all(status < 500 for status, _ in outcomes), outcomes
        assert outcomes[0] == (200, None), outcomes
        assert outcomes[1:1 + len(names)] == [(200, None)] * len(names), outcomes
        with pytest.raises(idp.exceptions.ResourceNotFoundException):
            idp.get_group(UserPoolId=pool["Id"], GroupName=group)
