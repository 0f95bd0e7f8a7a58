"""User attributes and their verification (issue 4, protocol doc §2.2, §7.4): UpdateUserAttributes
and AdminUpdateUserAttributes (codes to new addresses, unverified flags, the pool option that keeps
the old email until the new one is verified), GetUserAttributeVerificationCode, VerifyUserAttribute,
DeleteUserAttributes, schema constraints and formats, app-client read/write attributes; through
boto3 and pycognito."""
import jwt
import pytest
from botocore.exceptions import ClientError

from helpers import (
    ATTEMPT_LIMIT, CODE_EXPIRED, CODE_MISMATCH, PASSWORD, admin_user, attributes_of, cognito_error, confirmed_user,
    email_for, last_message, masked_email, masked_phone, messages, new_client, password_auth, pycognito_user,
    sign_in, sign_up, unique, wrong_code,
)

PHONE = "+15555551212"


def update(idp, tokens, *pairs):
    return idp.update_user_attributes(AccessToken=tokens["AccessToken"],
                                      UserAttributes=[{"Name": k, "Value": v} for k, v in pairs])


def admin_update(idp, pool_id, username, *pairs):
    return idp.admin_update_user_attributes(UserPoolId=pool_id, Username=username,
                                            UserAttributes=[{"Name": k, "Value": v} for k, v in pairs])


def user_attributes(idp, tokens):
    return attributes_of(idp.get_user(AccessToken=tokens["AccessToken"]))


def admin_attributes(idp, pool_id, username):
    return attributes_of(idp.admin_get_user(UserPoolId=pool_id, Username=username))


def verify(idp, tokens, attribute, code):
    return idp.verify_user_attribute(AccessToken=tokens["AccessToken"], AttributeName=attribute, Code=code)


def verification_code(server, pool_id, destination, attribute="email"):
    return last_message(server, pool_id, destination=destination, purpose=f"verify:{attribute}")["code"]


def deliveries(response):
    return response.get("CodeDeliveryDetailsList", [])


@pytest.fixture
def signed_in(server, idp, pool, app_client):
    """(username, email, tokens) of a confirmed user whose email is verified."""
    username, email, _ = confirmed_user(server, idp, pool, app_client)
    return username, email, sign_in(idp, app_client, username)


@pytest.fixture
def schema_pool(idp):
    return idp.create_user_pool(PoolName=unique("schema"), AutoVerifiedAttributes=["email"], Schema=[
        {"Name": "given_name", "AttributeDataType": "String", "Required": True, "Mutable": True},
        {"Name": "fixed", "AttributeDataType": "String", "Mutable": False},
        {"Name": "code", "AttributeDataType": "String", "Mutable": True,
         "StringAttributeConstraints": {"MinLength": "2", "MaxLength": "5"}},
        {"Name": "level", "AttributeDataType": "Number", "Mutable": True,
         "NumberAttributeConstraints": {"MinValue": "1", "MaxValue": "10"}},
        {"Name": "secret", "AttributeDataType": "String", "Mutable": True, "DeveloperOnlyAttribute": True},
    ])["UserPool"]


@pytest.fixture
def schema_user(idp, schema_pool):
    """(username, tokens) of a user of schema_pool with given_name and custom:fixed set."""
    client = new_client(idp, schema_pool["Id"])
    username = admin_user(idp, schema_pool["Id"], attributes=[("given_name", "Given"), ("custom:fixed", "first"),
                                                              ("email", "schema@example.com"),
                                                              ("email_verified", "true")])
    return username, sign_in(idp, client, username)


# --- UpdateUserAttributes and verification ----------------------------------------------------

def test_changing_email_sends_a_code_to_the_new_address(server, idp, pool, signed_in):
    username, old_email, tokens = signed_in
    new_email = email_for(unique("changed"))
    response = update(idp, tokens, ("email", new_email))
    assert deliveries(response) == [{"Destination": masked_email(new_email), "DeliveryMedium": "EMAIL",
                                     "AttributeName": "email"}]
    message = last_message(server, pool["Id"], destination=new_email)
    assert (message["purpose"], message["medium"], message["username"]) == ("verify:email", "EMAIL", username)
    assert message["code"] in message["body"]
    assert not messages(server, pool["Id"], destination=old_email, purpose="verify:email")

    current = user_attributes(idp, tokens)
    assert (current["email"], current["email_verified"]) == (new_email, "false")

    with cognito_error("CodeMismatchException", CODE_MISMATCH):
        verify(idp, tokens, "email", wrong_code(message["code"]))
    assert user_attributes(idp, tokens)["email_verified"] == "false"
    verify(idp, tokens, "email", message["code"])
    current = user_attributes(idp, tokens)
    assert (current["email"], current["email_verified"]) == (new_email, "true")


def test_other_attributes_need_no_verification(server, idp, pool, signed_in):
    _, email, tokens = signed_in
    before = len(server.outbox(pool["Id"]))
    response = update(idp, tokens, ("given_name", "Ada"), ("family_name", "Lovelace"), ("locale", "en-GB"))
    assert deliveries(response) == []
    current = user_attributes(idp, tokens)
    assert (current["given_name"], current["family_name"], current["locale"]) == ("Ada", "Lovelace", "en-GB")
    assert (current["email"], current["email_verified"]) == (email, "true")
    assert len(server.outbox(pool["Id"])) == before


def test_phone_that_is_not_auto_verified(server, idp, pool, signed_in):
    _, _, tokens = signed_in
    assert deliveries(update(idp, tokens, ("phone_number", PHONE))) == []
    assert not messages(server, pool["Id"], destination=PHONE)
    assert user_attributes(idp, tokens)["phone_number_verified"] == "false"

    details = idp.get_user_attribute_verification_code(AccessToken=tokens["AccessToken"],
                                                       AttributeName="phone_number")["CodeDeliveryDetails"]
    assert details == {"Destination": masked_phone(PHONE), "DeliveryMedium": "SMS", "AttributeName": "phone_number"}
    message = last_message(server, pool["Id"], destination=PHONE)
    assert (message["purpose"], message["medium"]) == ("verify:phone_number", "SMS")
    verify(idp, tokens, "phone_number", message["code"])
    assert user_attributes(idp, tokens)["phone_number_verified"] == "true"


def test_email_and_phone_both_auto_verified(server, idp):
    pool = idp.create_user_pool(PoolName=unique("both"), AutoVerifiedAttributes=["email", "phone_number"])["UserPool"]
    client = new_client(idp, pool["Id"])
    username = admin_user(idp, pool["Id"], attributes=[("email", "a@example.com"), ("email_verified", "true")])
    tokens = sign_in(idp, client, username)
    response = update(idp, tokens, ("email", "b@example.com"), ("phone_number", PHONE))
    assert sorted(deliveries(response), key=lambda d: d["AttributeName"]) == [
        {"Destination": "b***@e***", "DeliveryMedium": "EMAIL", "AttributeName": "email"},
        {"Destination": masked_phone(PHONE), "DeliveryMedium": "SMS", "AttributeName": "phone_number"}]
    current = user_attributes(idp, tokens)
    assert (current["email_verified"], current["phone_number_verified"]) == ("false", "false")
    verify(idp, tokens, "phone_number", verification_code(server, pool["Id"], PHONE, "phone_number"))
    verify(idp, tokens, "email", verification_code(server, pool["Id"], "b@example.com"))
    current = user_attributes(idp, tokens)
    assert (current["email_verified"], current["phone_number_verified"]) == ("true", "true")


def test_a_code_verifies_only_the_address_it_was_sent_to(server, idp):
    pool = idp.create_user_pool(PoolName=unique("both"), AutoVerifiedAttributes=["email", "phone_number"])["UserPool"]
    client = new_client(idp, pool["Id"])
    tokens = sign_in(idp, client, admin_user(idp, pool["Id"]))
    update(idp, tokens, ("email", "first@example.com"))
    first = verification_code(server, pool["Id"], "first@example.com")
    update(idp, tokens, ("email", "second@example.com"), ("phone_number", PHONE))
    second = verification_code(server, pool["Id"], "second@example.com")
    phone = verification_code(server, pool["Id"], PHONE, "phone_number")
    if first != second:
        with cognito_error(("ExpiredCodeException", "CodeMismatchException")):
            verify(idp, tokens, "email", first)        # sent to an address the user no longer has
    if phone != second:
        with cognito_error("CodeMismatchException", CODE_MISMATCH):
            verify(idp, tokens, "phone_number", second)   # the email's code
        with cognito_error("CodeMismatchException", CODE_MISMATCH):
            verify(idp, tokens, "email", phone)           # the phone's code
    current = user_attributes(idp, tokens)
    assert (current["email_verified"], current["phone_number_verified"]) == ("false", "false")
    verify(idp, tokens, "email", second)
    verify(idp, tokens, "phone_number", phone)
    current = user_attributes(idp, tokens)
    assert (current["email"], current["email_verified"]) == ("second@example.com", "true")
    assert current["phone_number_verified"] == "true"


def test_users_cannot_set_verified_flags(idp, signed_in):
    _, email, tokens = signed_in
    for flag in ("email_verified", "phone_number_verified"):
        with cognito_error("InvalidParameterException", contains=flag):
            update(idp, tokens, (flag, "true"))
    with cognito_error("InvalidParameterException"):
        update(idp, tokens, ("email", "sneaky@example.com"), ("email_verified", "true"))
    assert user_attributes(idp, tokens)["email"] == email    # nothing of a refused request applies


def test_get_verification_code_for_attributes_that_cannot_have_one(idp, signed_in):
    _, _, tokens = signed_in
    for attribute in ("phone_number", "given_name"):   # missing / not verifiable
        with cognito_error("InvalidParameterException"):
            idp.get_user_attribute_verification_code(AccessToken=tokens["AccessToken"], AttributeName=attribute)


@pytest.mark.fixed_window(3600)
def test_verification_code_limit_and_superseded_codes(server, idp, pool, signed_in):
    _, email, tokens = signed_in
    codes = []
    for _ in range(5):
        details = idp.get_user_attribute_verification_code(AccessToken=tokens["AccessToken"], AttributeName="email")
        assert details["CodeDeliveryDetails"]["Destination"] == masked_email(email)
        codes.append(verification_code(server, pool["Id"], email))
    with cognito_error("LimitExceededException", ATTEMPT_LIMIT):
        idp.get_user_attribute_verification_code(AccessToken=tokens["AccessToken"], AttributeName="email")
    assert len(messages(server, pool["Id"], destination=email, purpose="verify:email")) == 5
    if codes[0] != codes[-1]:   # one chance in a million that the random codes coincide
        # Superseded four times: refused (the server remembers only the code just replaced as "expired").
        with cognito_error(("ExpiredCodeException", "CodeMismatchException")):
            verify(idp, tokens, "email", codes[0])
    verify(idp, tokens, "email", codes[-1])


def test_superseded_verification_code_is_expired(server, idp, pool, signed_in):
    _, email, tokens = signed_in
    idp.get_user_attribute_verification_code(AccessToken=tokens["AccessToken"], AttributeName="email")
    old = verification_code(server, pool["Id"], email)
    idp.get_user_attribute_verification_code(AccessToken=tokens["AccessToken"], AttributeName="email")
    new = verification_code(server, pool["Id"], email)
    if old == new:
        pytest.skip("the random codes coincided")
    with cognito_error("ExpiredCodeException", CODE_EXPIRED):
        verify(idp, tokens, "email", old)


def test_verification_code_survives_restart_and_is_single_use(server, idp, pool, signed_in):
    _, _, tokens = signed_in
    new_email = email_for(unique("restart"))
    update(idp, tokens, ("email", new_email))
    code = verification_code(server, pool["Id"], new_email)
    server.restart()
    verify(idp, tokens, "email", code)
    assert user_attributes(idp, tokens)["email_verified"] == "true"

    update(idp, tokens, ("email", email_for(unique("again"))))
    with cognito_error(("ExpiredCodeException", "CodeMismatchException")):
        verify(idp, tokens, "email", code)
    assert user_attributes(idp, tokens)["email_verified"] == "false"


# --- keeping the old email until the new one is verified --------------------------------------

@pytest.fixture
def held_pool(idp):
    return idp.create_user_pool(PoolName=unique("held"), AliasAttributes=["email"], AutoVerifiedAttributes=["email"],
                                UserAttributeUpdateSettings={"AttributesRequireVerificationBeforeUpdate": ["email"]}
                                )["UserPool"]


def test_update_settings_are_kept(idp, held_pool):
    described = idp.describe_user_pool(UserPoolId=held_pool["Id"])["UserPool"]
    assert described["UserAttributeUpdateSettings"] == {"AttributesRequireVerificationBeforeUpdate": ["email"]}


def test_old_email_stays_until_the_new_one_is_verified(server, idp, held_pool):
    pool_id = held_pool["Id"]
    client = new_client(idp, pool_id)
    username, old_email, _ = confirmed_user(server, idp, held_pool, client)
    tokens = sign_in(idp, client, username)
    new_email = email_for(unique("new"))

    response = update(idp, tokens, ("email", new_email))
    assert deliveries(response) == [{"Destination": masked_email(new_email), "DeliveryMedium": "EMAIL",
                                     "AttributeName": "email"}]
    current = user_attributes(idp, tokens)
    assert (current["email"], current["email_verified"]) == (old_email, "true")
    assert sign_in(idp, client, old_email)["AccessToken"]          # still an alias
    with cognito_error("UserNotFoundException"):
        password_auth(idp, client, new_email)

    code = verification_code(server, pool_id, new_email)
    with cognito_error("CodeMismatchException", CODE_MISMATCH):
        verify(idp, tokens, "email", wrong_code(code))
    assert user_attributes(idp, tokens)["email"] == old_email
    verify(idp, tokens, "email", code)
    current = user_attributes(idp, tokens)
    assert (current["email"], current["email_verified"]) == (new_email, "true")
    assert admin_attributes(idp, pool_id, username)["email"] == new_email
    claims = jwt.decode(sign_in(idp, client, new_email)["IdToken"], options={"verify_signature": False})
    assert (claims["cognito:username"], claims["email"]) == (username, new_email)
    with cognito_error("UserNotFoundException"):
        password_auth(idp, client, old_email)


def test_held_email_does_not_hold_other_attributes(server, idp, held_pool):
    client = new_client(idp, held_pool["Id"])
    username = admin_user(idp, held_pool["Id"], attributes=[("email", "held@example.com"), ("email_verified", "true")])
    tokens = sign_in(idp, client, username)
    update(idp, tokens, ("email", "pending@example.com"), ("given_name", "Now"), ("phone_number", PHONE))
    current = user_attributes(idp, tokens)
    assert (current["email"], current["email_verified"]) == ("held@example.com", "true")
    assert (current["given_name"], current["phone_number"], current["phone_number_verified"]) == ("Now", PHONE, "false")


def test_held_email_through_admin_update(server, idp, held_pool):
    pool_id = held_pool["Id"]
    client = new_client(idp, pool_id)
    username = admin_user(idp, pool_id, attributes=[("email", "admin-held@example.com"), ("email_verified", "true")])
    # Without a verified flag the new value waits for verification, as for the user's own update.
    admin_update(idp, pool_id, username, ("email", "admin-pending@example.com"))
    current = admin_attributes(idp, pool_id, username)
    assert (current["email"], current["email_verified"]) == ("admin-held@example.com", "true")
    tokens = sign_in(idp, client, username)
    verify(idp, tokens, "email", verification_code(server, pool_id, "admin-pending@example.com"))
    assert admin_attributes(idp, pool_id, username)["email"] == "admin-pending@example.com"
    # With email_verified=true in the same request it applies at once (AdminUpdateUserAttributes API reference).
    admin_update(idp, pool_id, username, ("email", "admin-direct@example.com"), ("email_verified", "true"))
    current = admin_attributes(idp, pool_id, username)
    assert (current["email"], current["email_verified"]) == ("admin-direct@example.com", "true")
    assert sign_in(idp, client, "admin-direct@example.com")["AccessToken"]


def test_unverified_old_email_is_replaced_at_once(server, idp, held_pool):
    client = new_client(idp, held_pool["Id"])
    username = admin_user(idp, held_pool["Id"], attributes=[("email", "unverified@example.com")])
    tokens = sign_in(idp, client, username)
    update(idp, tokens, ("email", "replaced@example.com"))
    current = user_attributes(idp, tokens)
    assert (current["email"], current["email_verified"]) == ("replaced@example.com", "false")
    verify(idp, tokens, "email", verification_code(server, held_pool["Id"], "replaced@example.com"))
    assert user_attributes(idp, tokens)["email_verified"] == "true"


# --- schema: unknown, immutable, constraints, formats -----------------------------------------

@pytest.mark.parametrize("name", ["custom:nope", "nickname2", "sub", "custom:fixed", "dev:custom:secret"])
def test_user_cannot_write(idp, schema_pool, schema_user, name):
    username, tokens = schema_user
    before = user_attributes(idp, tokens)
    with cognito_error("InvalidParameterException"):
        update(idp, tokens, (name, "value"))
    assert user_attributes(idp, tokens) == before


@pytest.mark.parametrize("name", ["custom:nope", "nickname2", "sub", "custom:fixed"])
def test_admin_cannot_write(idp, schema_pool, schema_user, name):
    username, _ = schema_user
    before = admin_attributes(idp, schema_pool["Id"], username)
    with cognito_error("InvalidParameterException"):
        admin_update(idp, schema_pool["Id"], username, (name, "value"))
    assert admin_attributes(idp, schema_pool["Id"], username) == before


def test_admin_writes_developer_only_attributes(idp, schema_pool, schema_user):
    username, _ = schema_user
    admin_update(idp, schema_pool["Id"], username, ("dev:custom:secret", "s3cret"))
    assert admin_attributes(idp, schema_pool["Id"], username)["dev:custom:secret"] == "s3cret"


def test_immutable_attribute_is_set_at_creation(idp, schema_pool, schema_user):
    username, tokens = schema_user
    assert user_attributes(idp, tokens)["custom:fixed"] == "first"


@pytest.mark.parametrize("name, value, ok", [
    ("custom:code", "a", False), ("custom:code", "abcdef", False), ("custom:code", "ab", True),
    ("custom:code", "abcde", True),
    ("custom:level", "0", False), ("custom:level", "11", False), ("custom:level", "ten", False),
    ("custom:level", "1", True), ("custom:level", "10", True),
])
def test_custom_attribute_constraints(idp, schema_pool, schema_user, name, value, ok):
    username, tokens = schema_user
    calls = [lambda: update(idp, tokens, (name, value)),
             lambda: admin_update(idp, schema_pool["Id"], username, (name, value))]
    for call in calls:
        if ok:
            call()
            assert user_attributes(idp, tokens)[name] == value
        else:
            with cognito_error("InvalidParameterException"):
                call()
            assert name not in user_attributes(idp, tokens)


BAD_FORMATS = [
    ("email", "not-an-email"), ("email", "two@@example.com"), ("email", "spaces in@example.com"),
    ("phone_number", "5555551212"), ("phone_number", "+1 555 555 1212"), ("phone_number", "+1-555-555-1212"),
    ("phone_number", "+1555555121a"),
    ("birthdate", "1990/01/31"), ("birthdate", "1990-1-31"), ("birthdate", "1990-02-30"), ("birthdate", "1990-13-01"),
    ("birthdate", "31-01-1990"),
]
GOOD_FORMATS = [("email", "good.name+tag@example.co.uk"), ("phone_number", "+445555551212"),
                ("birthdate", "1992-02-29")]


@pytest.mark.parametrize("name, value", BAD_FORMATS)
def test_formats_are_validated(idp, pool, app_client, signed_in, name, value):
    username, _, tokens = signed_in
    before = user_attributes(idp, tokens)
    with cognito_error("InvalidParameterException"):
        update(idp, tokens, (name, value))
    with cognito_error("InvalidParameterException"):
        admin_update(idp, pool["Id"], username, (name, value))
    assert user_attributes(idp, tokens) == before


@pytest.mark.parametrize("name, value", [("email", "not-an-email"), ("phone_number", "5555551212"),
                                         ("birthdate", "1990-02-30")])
def test_formats_are_validated_at_sign_up(idp, app_client, name, value):
    username = unique()
    with cognito_error("InvalidParameterException"):
        sign_up(idp, app_client, username, email=value if name == "email" else None,
                attributes=[] if name == "email" else [(name, value)])
    with cognito_error("UserNotFoundException"):
        password_auth(idp, app_client, username)


def test_good_formats_are_accepted(idp, signed_in):
    _, _, tokens = signed_in
    update(idp, tokens, *GOOD_FORMATS)
    current = user_attributes(idp, tokens)
    assert [(name, current[name]) for name, _ in GOOD_FORMATS] == GOOD_FORMATS


# --- app client read/write attributes ---------------------------------------------------------

def test_client_write_attributes(idp, pool):
    client = new_client(idp, pool["Id"], "limited", WriteAttributes=["given_name"])
    username = admin_user(idp, pool["Id"], attributes=[("family_name", "Before")])
    tokens = sign_in(idp, client, username)
    with cognito_error("NotAuthorizedException", "A client attempted to write unauthorized attribute family_name"):
        update(idp, tokens, ("family_name", "After"))
    with cognito_error("NotAuthorizedException", contains="A client attempted to write unauthorized attribute"):
        update(idp, tokens, ("given_name", "Fine"), ("family_name", "After"))
    current = user_attributes(idp, tokens)
    assert current["family_name"] == "Before" and "given_name" not in current
    update(idp, tokens, ("given_name", "Fine"))
    assert user_attributes(idp, tokens)["given_name"] == "Fine"
    # The restriction is the client's, not the administrator's.
    admin_update(idp, pool["Id"], username, ("family_name", "Admin"))


def test_client_read_attributes(idp, pool):
    client = new_client(idp, pool["Id"], "reader", ReadAttributes=["given_name", "email"])
    username = admin_user(idp, pool["Id"], attributes=[("given_name", "G"), ("family_name", "F"),
                                                       ("email", "reader@example.com")])
    tokens = sign_in(idp, client, username)
    current = user_attributes(idp, tokens)
    assert current["given_name"] == "G" and current["email"] == "reader@example.com"
    assert "family_name" not in current
    assert set(current) <= {"sub", "given_name", "email"}
    assert "family_name" in admin_attributes(idp, pool["Id"], username)


def test_client_read_attributes_filter_the_id_token(idp, pool):
    client = new_client(idp, pool["Id"], "reader", ReadAttributes=["given_name", "email"])
    username = admin_user(idp, pool["Id"], attributes=[("given_name", "G"), ("family_name", "F"),
                                                       ("email", "reader@example.com")])
    claims = jwt.decode(sign_in(idp, client, username)["IdToken"], options={"verify_signature": False})
    assert claims["given_name"] == "G"
    assert "family_name" not in claims


# --- DeleteUserAttributes -----------------------------------------------------------------------

def test_delete_user_attributes(idp, schema_pool, schema_user):
    username, tokens = schema_user
    update(idp, tokens, ("family_name", "Drop"), ("custom:code", "abc"), ("nickname", "Nick"))
    idp.delete_user_attributes(AccessToken=tokens["AccessToken"], UserAttributeNames=["family_name", "custom:code"])
    current = user_attributes(idp, tokens)
    assert "family_name" not in current and "custom:code" not in current
    assert current["nickname"] == "Nick"

    with cognito_error("InvalidParameterException", contains="given_name"):   # required by the schema
        idp.delete_user_attributes(AccessToken=tokens["AccessToken"], UserAttributeNames=["given_name"])
    assert user_attributes(idp, tokens)["given_name"] == "Given"
    with cognito_error("InvalidParameterException"):
        idp.delete_user_attributes(AccessToken=tokens["AccessToken"], UserAttributeNames=["sub"])
    with cognito_error("InvalidParameterException"):
        idp.delete_user_attributes(AccessToken=tokens["AccessToken"], UserAttributeNames=["custom:nope"])

    # Deleting the email takes its verified flag with it.
    idp.delete_user_attributes(AccessToken=tokens["AccessToken"], UserAttributeNames=["email"])
    current = user_attributes(idp, tokens)
    assert "email" not in current and "email_verified" not in current


# --- AdminUpdateUserAttributes ----------------------------------------------------------------

def test_admin_changed_email_is_unverified_and_sent_a_code(server, idp, pool, signed_in):
    username, _, tokens = signed_in
    response = admin_update(idp, pool["Id"], username, ("email", "admin-set@example.com"))
    assert set(response) == {"ResponseMetadata"}
    current = admin_attributes(idp, pool["Id"], username)
    assert (current["email"], current["email_verified"]) == ("admin-set@example.com", "false")
    # The user verifies it with the code that was sent.
    verify(idp, tokens, "email", verification_code(server, pool["Id"], "admin-set@example.com"))
    assert admin_attributes(idp, pool["Id"], username)["email_verified"] == "true"


def test_admin_sets_verified_flags(server, idp, pool, signed_in):
    username, _, _ = signed_in
    admin_update(idp, pool["Id"], username, ("email", "trusted@example.com"), ("email_verified", "true"),
                 ("phone_number", PHONE), ("phone_number_verified", "true"))
    current = admin_attributes(idp, pool["Id"], username)
    assert (current["email"], current["email_verified"]) == ("trusted@example.com", "true")
    assert (current["phone_number"], current["phone_number_verified"]) == (PHONE, "true")
    assert not messages(server, pool["Id"], destination="trusted@example.com")
    assert not messages(server, pool["Id"], destination=PHONE)


# --- pycognito --------------------------------------------------------------------------------

def test_pycognito_update_profile_and_verification(server, idp, pool, app_client):
    username, _, _ = confirmed_user(server, idp, pool, app_client)
    user = pycognito_user(server, pool["Id"], app_client, username)
    user.authenticate(PASSWORD)
    user.update_profile({"given_name": "Grace", "email": "grace@example.com"})
    profile = user.get_user()
    # pycognito turns "true"/"false" into booleans.
    assert (profile.given_name, profile.email, profile.email_verified) == ("Grace", "grace@example.com", False)

    first = verification_code(server, pool["Id"], "grace@example.com")
    user.send_verification("email")
    code = verification_code(server, pool["Id"], "grace@example.com")
    assert len(messages(server, pool["Id"], destination="grace@example.com")) == 2
    with pytest.raises(ClientError) as info:
        user.validate_verification(wrong_code(code), "email")
    assert info.value.response["Error"]["Code"] == "CodeMismatchException"
    if first != code:
        with pytest.raises(ClientError) as info:
            user.validate_verification(first, "email")
        assert info.value.response["Error"]["Code"] == "ExpiredCodeException"
    user.validate_verification(code, "email")
    assert user.get_user().email_verified is True
