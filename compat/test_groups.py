"""Groups through boto3 (protocol doc §2.4) and the claims they put in tokens (§6.2, §6.3),
checked in JWTs verified with PyJWT against the served JWKS."""
import datetime

import pytest

from helpers import (
    admin_user, cognito_error, refresh, sign_in, srp_for, unique, verify_token,
)

ROLE = "arn:aws:iam::123456789012:role/{}".format


def group_names(groups):
    return [g["GroupName"] for g in groups]


def id_and_access_claims(server, pool, client, tokens):
    return (verify_token(server, pool["Id"], tokens["IdToken"], "id", client["ClientId"]),
            verify_token(server, pool["Id"], tokens["AccessToken"], "access", client["ClientId"]))


# --- CRUD -----------------------------------------------------------------------------------

def test_create_get_update_delete(idp, pool):
    pool_id = pool["Id"]
    created = idp.create_group(UserPoolId=pool_id, GroupName="admins", Description="The admins",
                               RoleArn=ROLE("Admin"), Precedence=5)["Group"]
    assert {k: created[k] for k in ("GroupName", "UserPoolId", "Description", "RoleArn", "Precedence")} == {
        "GroupName": "admins", "UserPoolId": pool_id, "Description": "The admins", "RoleArn": ROLE("Admin"),
        "Precedence": 5}
    assert isinstance(created["CreationDate"], datetime.datetime)
    assert created["LastModifiedDate"] == created["CreationDate"]

    with cognito_error("GroupExistsException"):
        idp.create_group(UserPoolId=pool_id, GroupName="admins")
    assert idp.get_group(UserPoolId=pool_id, GroupName="admins")["Group"] == created

    bare = idp.create_group(UserPoolId=pool_id, GroupName="bare")["Group"]
    assert "Precedence" not in bare and "RoleArn" not in bare and "Description" not in bare

    # UpdateGroup changes the properties it is given and keeps the others.
    updated = idp.update_group(UserPoolId=pool_id, GroupName="admins", Description="Still the admins")["Group"]
    assert (updated["Description"], updated["RoleArn"], updated["Precedence"]) == \
        ("Still the admins", ROLE("Admin"), 5)
    assert updated["CreationDate"] == created["CreationDate"]
    assert updated["LastModifiedDate"] >= created["LastModifiedDate"]
    updated = idp.update_group(UserPoolId=pool_id, GroupName="admins", Precedence=0, RoleArn=ROLE("Root"))["Group"]
    assert (updated["Description"], updated["RoleArn"], updated["Precedence"]) == \
        ("Still the admins", ROLE("Root"), 0)
    assert idp.get_group(UserPoolId=pool_id, GroupName="admins")["Group"] == updated

    idp.delete_group(UserPoolId=pool_id, GroupName="admins")
    for call in (idp.get_group, idp.delete_group):
        with cognito_error("ResourceNotFoundException"):
            call(UserPoolId=pool_id, GroupName="admins")
    with cognito_error("ResourceNotFoundException"):
        idp.update_group(UserPoolId=pool_id, GroupName="admins", Description="x")
    # The name is free again.
    idp.create_group(UserPoolId=pool_id, GroupName="admins")


def test_groups_belong_to_their_pool(idp, pool):
    other = idp.create_user_pool(PoolName=unique("other"))["UserPool"]
    idp.create_group(UserPoolId=pool["Id"], GroupName="shared-name", Precedence=1)
    idp.create_group(UserPoolId=other["Id"], GroupName="shared-name", Precedence=2)
    assert idp.get_group(UserPoolId=other["Id"], GroupName="shared-name")["Group"]["Precedence"] == 2
    idp.delete_group(UserPoolId=other["Id"], GroupName="shared-name")
    assert idp.get_group(UserPoolId=pool["Id"], GroupName="shared-name")["Group"]["Precedence"] == 1
    with cognito_error("ResourceNotFoundException"):
        idp.create_group(UserPoolId="us-east-1_NoSuchPool", GroupName="x")


def test_list_groups_pagination(idp, pool):
    expected = {f"group-{i}" for i in range(7)}
    for name in sorted(expected):
        idp.create_group(UserPoolId=pool["Id"], GroupName=name)
    seen, sizes, token = [], [], None
    while True:
        page = idp.list_groups(UserPoolId=pool["Id"], Limit=3, **({"NextToken": token} if token else {}))
        seen += group_names(page["Groups"])
        sizes.append(len(page["Groups"]))
        token = page.get("NextToken")
        if not token:
            break
    assert sizes == [3, 3, 1]
    assert len(seen) == len(set(seen)) and set(seen) == expected
    everything = idp.list_groups(UserPoolId=pool["Id"])
    assert set(group_names(everything["Groups"])) == expected and "NextToken" not in everything


# --- membership -----------------------------------------------------------------------------

def test_membership(idp, pool):
    pool_id = pool["Id"]
    for name, precedence in (("readers", 10), ("writers", 5)):
        idp.create_group(UserPoolId=pool_id, GroupName=name, Precedence=precedence)
    alice, bob = admin_user(idp, pool_id), admin_user(idp, pool_id)

    idp.admin_add_user_to_group(UserPoolId=pool_id, Username=alice, GroupName="readers")
    idp.admin_add_user_to_group(UserPoolId=pool_id, Username=alice, GroupName="readers")  # idempotent
    idp.admin_add_user_to_group(UserPoolId=pool_id, Username=alice, GroupName="writers")
    idp.admin_add_user_to_group(UserPoolId=pool_id, Username=bob, GroupName="readers")

    assert set(group_names(idp.admin_list_groups_for_user(UserPoolId=pool_id, Username=alice)["Groups"])) == \
        {"readers", "writers"}
    assert group_names(idp.admin_list_groups_for_user(UserPoolId=pool_id, Username=bob)["Groups"]) == ["readers"]
    readers = idp.list_users_in_group(UserPoolId=pool_id, GroupName="readers")["Users"]
    assert {u["Username"] for u in readers} == {alice, bob}
    assert all(u["UserStatus"] == "CONFIRMED" and u["Enabled"] for u in readers)

    # Pagination of both listings.
    first = idp.list_users_in_group(UserPoolId=pool_id, GroupName="readers", Limit=1)
    second = idp.list_users_in_group(UserPoolId=pool_id, GroupName="readers", Limit=1, NextToken=first["NextToken"])
    assert {first["Users"][0]["Username"], second["Users"][0]["Username"]} == {alice, bob}
    assert "NextToken" not in second
    first = idp.admin_list_groups_for_user(UserPoolId=pool_id, Username=alice, Limit=1)
    second = idp.admin_list_groups_for_user(UserPoolId=pool_id, Username=alice, Limit=1, NextToken=first["NextToken"])
    assert set(group_names(first["Groups"] + second["Groups"])) == {"readers", "writers"}
    assert "NextToken" not in second

    idp.admin_remove_user_from_group(UserPoolId=pool_id, Username=alice, GroupName="readers")
    assert group_names(idp.admin_list_groups_for_user(UserPoolId=pool_id, Username=alice)["Groups"]) == ["writers"]
    assert [u["Username"] for u in idp.list_users_in_group(UserPoolId=pool_id, GroupName="readers")["Users"]] == [bob]

    # Deleting a group ends its memberships; deleting a user ends theirs.
    idp.delete_group(UserPoolId=pool_id, GroupName="writers")
    assert idp.admin_list_groups_for_user(UserPoolId=pool_id, Username=alice)["Groups"] == []
    idp.admin_delete_user(UserPoolId=pool_id, Username=bob)
    assert idp.list_users_in_group(UserPoolId=pool_id, GroupName="readers")["Users"] == []


def test_membership_errors(idp, pool):
    pool_id = pool["Id"]
    idp.create_group(UserPoolId=pool_id, GroupName="readers")
    user = admin_user(idp, pool_id)
    nobody = unique("nobody")
    for call in (idp.admin_add_user_to_group, idp.admin_remove_user_from_group):
        with cognito_error("ResourceNotFoundException"):
            call(UserPoolId=pool_id, Username=user, GroupName="no-such-group")
        with cognito_error("UserNotFoundException"):
            call(UserPoolId=pool_id, Username=nobody, GroupName="readers")
    with cognito_error("UserNotFoundException"):
        idp.admin_list_groups_for_user(UserPoolId=pool_id, Username=nobody)
    with cognito_error("ResourceNotFoundException"):
        idp.list_users_in_group(UserPoolId=pool_id, GroupName="no-such-group")


# --- claims ---------------------------------------------------------------------------------

@pytest.fixture
def grouped(idp, pool):
    """A user in four groups: precedence 1 (no role), 5 (Admin), 10 (User), none (no role)."""
    pool_id = pool["Id"]
    idp.create_group(UserPoolId=pool_id, GroupName="top", Precedence=1)
    idp.create_group(UserPoolId=pool_id, GroupName="admins", Precedence=5, RoleArn=ROLE("Admin"))
    idp.create_group(UserPoolId=pool_id, GroupName="users", Precedence=10, RoleArn=ROLE("User"))
    idp.create_group(UserPoolId=pool_id, GroupName="unranked")
    username = admin_user(idp, pool_id)
    for name in ("unranked", "users", "admins", "top"):  # not in precedence order
        idp.admin_add_user_to_group(UserPoolId=pool_id, Username=username, GroupName=name)
    return username


def test_group_claims(server, idp, pool, app_client, grouped):
    id_claims, access_claims = id_and_access_claims(server, pool, app_client, sign_in(idp, app_client, grouped))
    order = ["top", "admins", "users", "unranked"]  # lowest precedence first, none last
    assert id_claims["cognito:groups"] == order
    assert access_claims["cognito:groups"] == order
    assert sorted(id_claims["cognito:roles"]) == sorted([ROLE("Admin"), ROLE("User")])
    assert id_claims["cognito:preferred_role"] == ROLE("Admin")  # the best-ranked group with a role
    assert "cognito:roles" not in access_claims and "cognito:preferred_role" not in access_claims


def test_group_claims_with_srp(server, idp, pool, app_client, grouped):
    tokens = srp_for(idp, pool["Id"], app_client, grouped).authenticate_user()["AuthenticationResult"]
    id_claims, access_claims = id_and_access_claims(server, pool, app_client, tokens)
    assert id_claims["cognito:groups"] == access_claims["cognito:groups"] == ["top", "admins", "users", "unranked"]
    assert id_claims["cognito:preferred_role"] == ROLE("Admin")


def test_no_group_claims_without_groups(server, idp, pool, app_client):
    idp.create_group(UserPoolId=pool["Id"], GroupName="roleless", Precedence=1)
    loner = admin_user(idp, pool["Id"])
    for claims in id_and_access_claims(server, pool, app_client, sign_in(idp, app_client, loner)):
        assert not {"cognito:groups", "cognito:roles", "cognito:preferred_role"} & set(claims)

    member = admin_user(idp, pool["Id"])
    idp.admin_add_user_to_group(UserPoolId=pool["Id"], Username=member, GroupName="roleless")
    id_claims, _ = id_and_access_claims(server, pool, app_client, sign_in(idp, app_client, member))
    assert id_claims["cognito:groups"] == ["roleless"]
    assert "cognito:roles" not in id_claims and "cognito:preferred_role" not in id_claims


def test_refreshed_tokens_follow_group_changes(server, idp, pool, app_client, grouped):
    pool_id = pool["Id"]
    refresh_token = sign_in(idp, app_client, grouped)["RefreshToken"]

    idp.admin_remove_user_from_group(UserPoolId=pool_id, Username=grouped, GroupName="admins")
    id_claims, access_claims = id_and_access_claims(server, pool, app_client,
                                                    refresh(idp, app_client, refresh_token))
    assert id_claims["cognito:groups"] == access_claims["cognito:groups"] == ["top", "users", "unranked"]
    assert id_claims["cognito:roles"] == [ROLE("User")]
    assert id_claims["cognito:preferred_role"] == ROLE("User")

    idp.update_group(UserPoolId=pool_id, GroupName="unranked", Precedence=0, RoleArn=ROLE("Boss"))
    idp.delete_group(UserPoolId=pool_id, GroupName="top")
    id_claims, access_claims = id_and_access_claims(server, pool, app_client,
                                                    refresh(idp, app_client, refresh_token))
    assert id_claims["cognito:groups"] == access_claims["cognito:groups"] == ["unranked", "users"]
    assert sorted(id_claims["cognito:roles"]) == sorted([ROLE("Boss"), ROLE("User")])
    assert id_claims["cognito:preferred_role"] == ROLE("Boss")

    for name in ("unranked", "users"):
        idp.admin_remove_user_from_group(UserPoolId=pool_id, Username=grouped, GroupName=name)
    for claims in id_and_access_claims(server, pool, app_client, refresh(idp, app_client, refresh_token)):
        assert not {"cognito:groups", "cognito:roles", "cognito:preferred_role"} & set(claims)


def test_equal_precedence_with_the_same_role(server, idp, pool, app_client):
    """Cognito: two groups of equal precedence with the same role ARN give that preferred role."""
    for name in ("left", "right"):
        idp.create_group(UserPoolId=pool["Id"], GroupName=name, Precedence=3, RoleArn=ROLE("Shared"))
    username = admin_user(idp, pool["Id"])
    for name in ("left", "right"):
        idp.admin_add_user_to_group(UserPoolId=pool["Id"], Username=username, GroupName=name)
    id_claims, _ = id_and_access_claims(server, pool, app_client, sign_in(idp, app_client, username))
    assert sorted(id_claims["cognito:groups"]) == ["left", "right"]
    assert set(id_claims["cognito:roles"]) == {ROLE("Shared")}
    assert id_claims["cognito:preferred_role"] == ROLE("Shared")


def test_equal_precedence_with_different_roles(server, idp, pool, app_client):
    """Cognito (CreateGroup, Precedence): if two groups with the same precedence have different
    role ARNs, the cognito:preferred_role claim isn't set."""
    idp.create_group(UserPoolId=pool["Id"], GroupName="left", Precedence=3, RoleArn=ROLE("Left"))
    idp.create_group(UserPoolId=pool["Id"], GroupName="right", Precedence=3, RoleArn=ROLE("Right"))
    username = admin_user(idp, pool["Id"])
    for name in ("left", "right"):
        idp.admin_add_user_to_group(UserPoolId=pool["Id"], Username=username, GroupName=name)
    id_claims, _ = id_and_access_claims(server, pool, app_client, sign_in(idp, app_client, username))
    assert sorted(id_claims["cognito:roles"]) == sorted([ROLE("Left"), ROLE("Right")])
    assert "cognito:preferred_role" not in id_claims
