"""ListUsers through boto3: Filter (protocol doc §2.3), AttributesToGet, Limit and
PaginationToken."""
import types

import pytest
from botocore.exceptions import ClientError

from helpers import PASSWORD, USER_FLOWS, admin_user, attributes_of, cognito_error, unique

PARSE_ERROR = "Error while parsing filter."


@pytest.fixture(scope="module")
def directory(idp):
    """One pool with users of every status (module-scoped: the filter tests only read it)."""
    pool_id = idp.create_user_pool(PoolName=unique("directory"), AutoVerifiedAttributes=["email"],
                                   Schema=[{"Name": "tier", "AttributeDataType": "String",
                                            "Mutable": True}])["UserPool"]["Id"]
    client = idp.create_user_pool_client(UserPoolId=pool_id, ClientName="app",
                                         ExplicitAuthFlows=USER_FLOWS)["UserPoolClient"]
    admin_user(idp, pool_id, "Alice", attributes=[
        ("email", "Alice.Smith@Example.com"), ("given_name", "Alice"), ("family_name", "Smith"),
        ("name", "Alice Smith"), ("phone_number", "+15550001111"), ("preferred_username", "ally"),
        ("custom:tier", "gold")])
    idp.admin_create_user(UserPoolId=pool_id, Username="alice2", MessageAction="SUPPRESS",
                          UserAttributes=[{"Name": "email", "Value": "alice2@example.com"},
                                          {"Name": "name", "Value": 'Quote "Q" Name'},
                                          {"Name": "family_name", "Value": "Smithers"}])
    admin_user(idp, pool_id, "bob", attributes=[("email", "bob@example.com"), ("given_name", "Robert")])
    idp.admin_disable_user(UserPoolId=pool_id, Username="bob")
    idp.sign_up(ClientId=client["ClientId"], Username="carol", Password=PASSWORD,
                UserAttributes=[{"Name": "email", "Value": "carol@example.org"},
                                {"Name": "phone_number", "Value": "+15550002222"}])
    subs = {u["Username"]: attributes_of({"UserAttributes": u["Attributes"]})["sub"]
            for u in idp.list_users(UserPoolId=pool_id)["Users"]}
    return types.SimpleNamespace(pool_id=pool_id, subs=subs)


def names(idp, pool_id, filter_text, **kwargs):
    response = idp.list_users(UserPoolId=pool_id, Filter=filter_text, **kwargs)
    assert "PaginationToken" not in response
    usernames = [u["Username"] for u in response["Users"]]
    assert len(usernames) == len(set(usernames))
    return set(usernames)


@pytest.mark.parametrize("filter_text, expected", [
    ('username = "Alice"', {"Alice"}),
    ('username = "alice"', set()),  # usernames: case-sensitive
    ('username ^= "ali"', {"alice2"}),
    ('username ^= "Ali"', {"Alice"}),
    ('email = "alice.smith@example.com"', {"Alice"}),  # the rest: case-insensitive
    ('email = "ALICE.SMITH@EXAMPLE.COM"', {"Alice"}),
    ('email ^= "ALICE"', {"Alice", "alice2"}),
    ('email ^= "alice.smith@"', {"Alice"}),
    ('email = "alice"', set()),  # = is exact, not a prefix
    ('phone_number = "+15550001111"', {"Alice"}),
    ('phone_number ^= "+1555000"', {"Alice", "carol"}),
    ('name = "alice smith"', {"Alice"}),
    ('name ^= "ALI"', {"Alice"}),
    ('given_name = "ALICE"', {"Alice"}),
    ('given_name ^= "rob"', {"bob"}),
    ('family_name = "smith"', {"Alice"}),
    ('family_name ^= "SMITH"', {"Alice", "alice2"}),
    ('preferred_username = "ALLY"', {"Alice"}),
    ('preferred_username ^= "al"', {"Alice"}),
    ('cognito:user_status = "Unconfirmed"', {"carol"}),
    ('cognito:user_status = "CONFIRMED"', {"Alice", "bob"}),
    ('cognito:user_status = "force_change_password"', {"alice2"}),
    ('status = "Enabled"', {"Alice", "alice2", "carol"}),
    ('status = "Disabled"', {"bob"}),
    ('name = "Quote \\"Q\\" Name"', {"alice2"}),  # escaped quotes inside the value
    ('name ^= "Quote \\""', {"alice2"}),
    ('email="bob@example.com"', {"bob"}),  # whitespace around the operator is optional
    ('email^="bob"', {"bob"}),
    ('email   =   "bob@example.com"', {"bob"}),
    ('email ^= "nobody"', set()),
    ("", {"Alice", "alice2", "bob", "carol"}),
])
def test_filter(idp, directory, filter_text, expected):
    assert names(idp, directory.pool_id, filter_text) == expected


@pytest.mark.parametrize("value", ["disabled", "ENABLED", "enabled", "Unknown"])
def test_status_filter_only_matches_its_exact_values(idp, directory, value):
    """No user's status is any of these values: no match (or a refusal of the value)."""
    try:
        found = names(idp, directory.pool_id, f'status = "{value}"')
    except ClientError as error:
        assert error.response["Error"]["Code"] == "InvalidParameterException"
    else:
        assert found == set()


def test_filter_by_sub(idp, directory):
    sub = directory.subs["carol"]
    assert names(idp, directory.pool_id, f'sub = "{sub}"') == {"carol"}
    assert names(idp, directory.pool_id, f'sub = "{sub.upper()}"') == {"carol"}
    assert names(idp, directory.pool_id, f'sub ^= "{sub[:13]}"') == {"carol"}


def test_username_filter_in_a_case_insensitive_pool(idp):
    """A username matches as it is written in a pool whose usernames sign in in any case too
    (the filter finds it through the pool's case-folded username keys)."""
    pool_id = idp.create_user_pool(PoolName=unique("folded"),
                                   UsernameConfiguration={"CaseSensitive": False})["UserPool"]["Id"]
    for username in ("Dora", "dorian", "DORIS", "ed"):
        idp.admin_create_user(UserPoolId=pool_id, Username=username, MessageAction="SUPPRESS")
    assert names(idp, pool_id, 'username = "Dora"') == {"Dora"}
    assert names(idp, pool_id, 'username = "dora"') == set()
    assert names(idp, pool_id, 'username ^= "Dor"') == {"Dora"}
    assert names(idp, pool_id, 'username ^= "dor"') == {"dorian"}
    assert names(idp, pool_id, 'username ^= "DOR"') == {"DORIS"}
    assert names(idp, pool_id, 'username ^= ""') == {"Dora", "dorian", "DORIS", "ed"}


@pytest.mark.parametrize("filter_text", ['custom:tier = "gold"', 'nickname = "x"', 'email_verified = "true"'])
def test_attributes_that_cannot_be_searched(idp, directory, filter_text):
    with cognito_error("InvalidParameterException"):
        idp.list_users(UserPoolId=directory.pool_id, Filter=filter_text)


@pytest.mark.parametrize("filter_text", [
    "email", 'email = alice', 'email ~ "alice"', 'email = "alice', '= "alice"',
    'email = "a" and name = "b"', 'email == "alice"',
])
def test_unparseable_filters(idp, directory, filter_text):
    with cognito_error("InvalidParameterException", PARSE_ERROR):
        idp.list_users(UserPoolId=directory.pool_id, Filter=filter_text)


def test_filter_longer_than_256_characters(idp, directory):
    with cognito_error("InvalidParameterException"):
        idp.list_users(UserPoolId=directory.pool_id, Filter='email = "' + "a" * 250 + '"')


def test_unknown_pool(idp):
    with cognito_error("ResourceNotFoundException"):
        idp.list_users(UserPoolId="us-east-1_NoSuchPool")


def test_user_shape(idp, directory):
    [user] = idp.list_users(UserPoolId=directory.pool_id, Filter='username = "bob"')["Users"]
    assert set(user) == {"Username", "Attributes", "UserCreateDate", "UserLastModifiedDate", "Enabled", "UserStatus"}
    assert user["Enabled"] is False
    assert user["UserStatus"] == "CONFIRMED"
    assert {a["Name"]: a["Value"] for a in user["Attributes"]} == {
        "sub": directory.subs["bob"], "email": "bob@example.com", "given_name": "Robert"}


def test_attributes_to_get(idp, directory):
    users = idp.list_users(UserPoolId=directory.pool_id, AttributesToGet=["email"])["Users"]
    assert len(users) == 4
    for user in users:
        assert [a["Name"] for a in user["Attributes"]] == ["email"]
        assert user["UserStatus"] and "Enabled" in user  # only the attributes are narrowed

    [alice] = idp.list_users(UserPoolId=directory.pool_id, Filter='username = "Alice"',
                             AttributesToGet=["custom:tier", "given_name"])["Users"]
    assert {a["Name"]: a["Value"] for a in alice["Attributes"]} == {"custom:tier": "gold", "given_name": "Alice"}

    with cognito_error("InvalidParameterException"):
        idp.list_users(UserPoolId=directory.pool_id, AttributesToGet=["no_such_attribute"])


# --- pagination -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def crowd(idp):
    """A pool of 25 users, 12 of them named team-…"""
    pool_id = idp.create_user_pool(PoolName=unique("crowd"))["UserPool"]["Id"]
    usernames = set()
    for index in range(25):
        username = f"{'team' if index % 2 else 'solo'}-{index:02d}"
        # Teams share a mail domain, written in either case: an attribute filter matches both.
        domain = ("Team.Example" if index % 4 == 1 else "team.example") if index % 2 else "solo.example"
        idp.admin_create_user(UserPoolId=pool_id, Username=username, MessageAction="SUPPRESS",
                              UserAttributes=[{"Name": "email", "Value": f"{username}@{domain}"}])
        usernames.add(username)
    return types.SimpleNamespace(pool_id=pool_id, usernames=usernames)


def pages(idp, pool_id, **kwargs):
    """Every page of ListUsers as (usernames, token)."""
    result, token = [], None
    while True:
        response = idp.list_users(UserPoolId=pool_id, **kwargs, **({"PaginationToken": token} if token else {}))
        token = response.get("PaginationToken")
        result.append(([u["Username"] for u in response["Users"]], token))
        if not token:
            return result
        assert len(result) < 20, "pagination does not end"


def test_pagination(idp, crowd):
    listed = pages(idp, crowd.pool_id, Limit=10)
    assert [len(page) for page, _ in listed] == [10, 10, 5]
    assert [token is None for _, token in listed] == [False, False, True]
    everyone = [name for page, _ in listed for name in page]
    assert len(everyone) == len(set(everyone)) == 25
    assert set(everyone) == crowd.usernames

    # Tokens are stable: the same token gives the same page again.
    first_token = listed[0][1]
    again = idp.list_users(UserPoolId=crowd.pool_id, Limit=10, PaginationToken=first_token)
    assert [u["Username"] for u in again["Users"]] == listed[1][0]
    assert again["PaginationToken"] == listed[1][1]
    # And a full second run gives the same pages.
    assert pages(idp, crowd.pool_id, Limit=10) == listed


def test_pagination_of_an_exact_multiple(idp, crowd):
    listed = pages(idp, crowd.pool_id, Limit=25)
    assert len(listed) == 1 or listed[-1][0] == []  # either no token, or one empty last page
    assert {name for page, _ in listed for name in page} == crowd.usernames


def test_pagination_with_a_filter(idp, crowd):
    listed = pages(idp, crowd.pool_id, Limit=5, Filter='username ^= "team-"')
    assert [len(page) for page, _ in listed] == [5, 5, 2]
    found = [name for page, _ in listed for name in page]
    assert len(found) == len(set(found)) == 12
    assert set(found) == {name for name in crowd.usernames if name.startswith("team-")}


def test_pagination_with_an_attribute_filter(idp, crowd):
    """An attribute filter pages in username order like any other (it is looked up through the
    index of folded values, whatever the pool's size)."""
    listed = pages(idp, crowd.pool_id, Limit=5, Filter='email ^= "TEAM-"')
    found = [name for page, _ in listed for name in page]
    assert [len(page) for page, _ in listed] == [5, 5, 2]
    assert found == sorted(name for name in crowd.usernames if name.startswith("team-"))
    [only] = idp.list_users(UserPoolId=crowd.pool_id, Filter='email = "team-01@team.example"')["Users"]
    assert only["Username"] == "team-01"  # written as team-01@Team.Example


def test_without_limit_everything_fits_one_page(idp, crowd):
    response = idp.list_users(UserPoolId=crowd.pool_id)
    assert len(response["Users"]) == 25
    assert "PaginationToken" not in response


def test_pagination_errors(idp, crowd):
    with cognito_error("InvalidParameterException"):
        idp.list_users(UserPoolId=crowd.pool_id, Limit=61)
    with cognito_error("InvalidParameterException"):
        idp.list_users(UserPoolId=crowd.pool_id, Limit=10, PaginationToken="not-a-token")
