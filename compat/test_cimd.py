"""Client ID Metadata Document (CIMD) policies through boto3: a policy maps HTTPS URL patterns
to one app client of the pool; it is created, described, listed in pages, updated and deleted;
its URL patterns are checked; it outlives its app client (then described without ClientId); the
URLs recorded for it are listed with their cache state, and UpdateClientMetadataURLState
invalidates or refreshes a cached document (CachedCIMDURLDoesNotExistException without one).
These tests record URLs in the database itself, with dates of their choosing; serving URL client
IDs, which records them for real, is compat/test_cimd_clients.py."""
import datetime
import json
import urllib.error
import urllib.parse
import urllib.request

import pytest

from helpers import cognito_error, new_client, unique

PATTERNS = ["https://*.clients.example/cimd.json", "https://mcp.example.org/*"]


def new_pool(idp):
    pool = idp.create_user_pool(PoolName=unique("cimd"))["UserPool"]
    return pool, new_client(idp, pool["Id"])


def create(idp, pool, client, **kwargs):
    arguments = {"UserPoolId": pool["Id"], "ClientId": client["ClientId"], "PolicyName": "mcp",
                 "URLPatterns": PATTERNS, **kwargs}
    return idp.create_cimd_policy(**arguments)["CIMDPolicy"]


def record_url(server, policy_id, url, cached_at, expires_at):
    """Writes a recorded URL with a cached document into the server's database (dates in the
    past and future that serving one could not give)."""
    server.execute("INSERT INTO cimd_urls (policy_id, url, cached_at, expires_at, document) VALUES (?, ?, ?, ?, ?)",
                   policy_id, url, cached_at, expires_at, '{"client_id":"%s"}' % url)


def test_a_policy_round_trips(idp):
    pool, client = new_pool(idp)
    policy = create(idp, pool, client)
    assert policy["UserPoolId"] == pool["Id"] and policy["ClientId"] == client["ClientId"]
    assert policy["PolicyName"] == "mcp" and policy["URLPatterns"] == PATTERNS
    assert policy["CacheDuration"] == 86400, "Cognito's default: a day"
    assert policy["CIMDPolicyId"].isalnum() and policy["CIMDPolicyId"] == policy["CIMDPolicyId"].lower()
    assert isinstance(policy["CreationDate"], datetime.datetime)
    assert policy["LastModifiedDate"] == policy["CreationDate"]
    described = idp.describe_cimd_policy(UserPoolId=pool["Id"], CIMDPolicyId=policy["CIMDPolicyId"])["CIMDPolicy"]
    assert described == policy

    other = new_client(idp, pool["Id"], name="other")
    updated = idp.update_cimd_policy(UserPoolId=pool["Id"], CIMDPolicyId=policy["CIMDPolicyId"],
                                     ClientId=other["ClientId"], CacheDuration=604800,
                                     URLPatterns=["https://tools.example/cimd/*"])["CIMDPolicy"]
    assert updated["ClientId"] == other["ClientId"] and updated["CacheDuration"] == 604800
    assert updated["PolicyName"] == "mcp", "a name not given stays"
    assert updated["URLPatterns"] == ["https://tools.example/cimd/*"]
    assert updated["LastModifiedDate"] >= updated["CreationDate"]
    renamed = idp.update_cimd_policy(UserPoolId=pool["Id"], CIMDPolicyId=policy["CIMDPolicyId"],
                                     ClientId=other["ClientId"], PolicyName="tools",
                                     URLPatterns=["https://tools.example/cimd/*"])["CIMDPolicy"]
    assert renamed["PolicyName"] == "tools" and renamed["CacheDuration"] == 604800

    idp.delete_cimd_policy(UserPoolId=pool["Id"], CIMDPolicyId=policy["CIMDPolicyId"])
    with cognito_error("ResourceNotFoundException"):
        idp.describe_cimd_policy(UserPoolId=pool["Id"], CIMDPolicyId=policy["CIMDPolicyId"])
    with cognito_error("ResourceNotFoundException"):
        idp.delete_cimd_policy(UserPoolId=pool["Id"], CIMDPolicyId=policy["CIMDPolicyId"])


def test_policies_list_in_pages(idp):
    pool, client = new_pool(idp)
    created = {create(idp, pool, client, PolicyName=f"p{n}", CacheDuration=86400 + n)["CIMDPolicyId"] for n in range(5)}
    seen, token = [], None
    while True:
        page = idp.list_cimd_policies(UserPoolId=pool["Id"], MaxResults=2, **({"NextToken": token} if token else {}))
        assert len(page["CIMDPolicies"]) <= 2
        seen += page["CIMDPolicies"]
        token = page.get("NextToken")
        if not token:
            break
    assert {p["CIMDPolicyId"] for p in seen} == created and len(seen) == 5
    summary = seen[0]
    assert set(summary) == {"CIMDPolicyId", "ClientId", "PolicyName", "CacheDuration", "CreationDate", "LastModifiedDate"}
    assert summary["ClientId"] == client["ClientId"]
    paginator = idp.get_paginator("list_cimd_policies")
    assert sum(len(p["CIMDPolicies"]) for p in paginator.paginate(UserPoolId=pool["Id"], PaginationConfig={"PageSize": 3})) == 5
    empty, _ = new_pool(idp)
    assert idp.list_cimd_policies(UserPoolId=empty["Id"])["CIMDPolicies"] == []


def test_a_policy_outlives_its_app_client(idp):
    pool, client = new_pool(idp)
    policy = create(idp, pool, client)
    idp.delete_user_pool_client(UserPoolId=pool["Id"], ClientId=client["ClientId"])
    described = idp.describe_cimd_policy(UserPoolId=pool["Id"], CIMDPolicyId=policy["CIMDPolicyId"])["CIMDPolicy"]
    assert "ClientId" not in described and described["URLPatterns"] == PATTERNS
    assert "ClientId" not in idp.list_cimd_policies(UserPoolId=pool["Id"])["CIMDPolicies"][0]
    with cognito_error("ResourceNotFoundException"):
        idp.update_cimd_policy(UserPoolId=pool["Id"], CIMDPolicyId=policy["CIMDPolicyId"],
                               ClientId=client["ClientId"], URLPatterns=PATTERNS)


def test_what_a_policy_refuses(idp):
    pool, client = new_pool(idp)
    for patterns in (["https://ex*ample.com/cimd.json"], ["https://a.*.example.com/cimd.json"],
                     ["https://example.com:x/cimd.json"], ["https://example.com/../cimd.json"],
                     ["https://example.com/a", "https://example.com/a"]):
        with cognito_error("InvalidParameterException"):
            create(idp, pool, client, URLPatterns=patterns)
    for patterns in (["http://example.com/cimd.json"], ["https://example.com/cimd.json?v=1"],
                     ["https://example.com/" + "a" * 250], [f"https://e{n}.example/x" for n in range(6)]):
        with cognito_error("InvalidParameterException", contains="failed to satisfy constraint"):
            create(idp, pool, client, URLPatterns=patterns)
    with cognito_error("InvalidParameterException", contains="failed to satisfy constraint"):
        create(idp, pool, client, CacheDuration=31556953)
    with cognito_error("ResourceNotFoundException"):
        create(idp, pool, {"ClientId": "nosuchclient"})
    elsewhere, elsewhere_client = new_pool(idp)
    with cognito_error("ResourceNotFoundException"):
        create(idp, pool, elsewhere_client)
    policy = create(idp, pool, client)
    with cognito_error("ResourceNotFoundException"):
        idp.describe_cimd_policy(UserPoolId=elsewhere["Id"], CIMDPolicyId=policy["CIMDPolicyId"])
    with cognito_error("ResourceNotFoundException"):
        idp.list_client_metadata_urls(UserPoolId=pool["Id"], CIMDPolicyId="0123abcd")
    with cognito_error("ResourceNotFoundException"):
        # Another id in the same region: the last character changed, never kept.
        other_id = pool["Id"][:-1] + ("1" if pool["Id"].endswith("0") else "0")
        idp.list_cimd_policies(UserPoolId=other_id)


def test_a_pool_has_at_most_twenty_policies(idp):
    pool, client = new_pool(idp)
    for n in range(20):
        create(idp, pool, client, PolicyName=f"p{n}")
    with cognito_error("LimitExceededException"):
        create(idp, pool, client)


def test_recorded_urls_list_with_their_cache_state(server, idp):
    pool, client = new_pool(idp)
    policy = create(idp, pool, client)
    policy_id = policy["CIMDPolicyId"]
    assert idp.list_client_metadata_urls(UserPoolId=pool["Id"], CIMDPolicyId=policy_id)["ClientMetadataURLs"] == []
    with cognito_error("CachedCIMDURLDoesNotExistException"):
        idp.update_client_metadata_url_state(UserPoolId=pool["Id"], CIMDPolicyId=policy_id,
                                             URL="https://a.clients.example/cimd.json", Action="INVALIDATE")

    cached = 1_800_000_000
    for label in ("c", "a", "b"):
        record_url(server, policy_id, f"https://{label}.clients.example/cimd.json", cached, cached + 86400)
    first = idp.list_client_metadata_urls(UserPoolId=pool["Id"], CIMDPolicyId=policy_id, MaxResults=2)
    assert [u["URL"] for u in first["ClientMetadataURLs"]] == [
        "https://a.clients.example/cimd.json", "https://b.clients.example/cimd.json"]
    entry = first["ClientMetadataURLs"][0]
    assert entry["CachedDate"].timestamp() == cached and entry["ExpirationDate"].timestamp() == cached + 86400
    rest = idp.list_client_metadata_urls(UserPoolId=pool["Id"], CIMDPolicyId=policy_id, NextToken=first["NextToken"])
    assert [u["URL"] for u in rest["ClientMetadataURLs"]] == ["https://c.clients.example/cimd.json"]
    assert "NextToken" not in rest

    idp.update_client_metadata_url_state(UserPoolId=pool["Id"], CIMDPolicyId=policy_id,
                                         URL="https://a.clients.example/cimd.json", Action="INVALIDATE")
    idp.update_client_metadata_url_state(UserPoolId=pool["Id"], CIMDPolicyId=policy_id,
                                         URL="https://b.clients.example/cimd.json", Action="REFRESH")
    by_url = {u["URL"]: u for u in idp.list_client_metadata_urls(
        UserPoolId=pool["Id"], CIMDPolicyId=policy_id)["ClientMetadataURLs"]}
    assert set(by_url["https://a.clients.example/cimd.json"]) == {"URL"}, "invalidated: listed, nothing cached"
    refreshed = by_url["https://b.clients.example/cimd.json"]
    assert refreshed["CachedDate"].timestamp() == cached and refreshed["ExpirationDate"].timestamp() <= cached + 86400
    with cognito_error("CachedCIMDURLDoesNotExistException"):
        idp.update_client_metadata_url_state(UserPoolId=pool["Id"], CIMDPolicyId=policy_id,
                                             URL="https://a.clients.example/cimd.json", Action="REFRESH")
    with cognito_error("InvalidParameterException", contains="failed to satisfy constraint"):
        idp.update_client_metadata_url_state(UserPoolId=pool["Id"], CIMDPolicyId=policy_id,
                                             URL="http://a.clients.example/cimd.json", Action="REFRESH")

    # New patterns forget the URLs they no longer admit; deleting the policy forgets them all.
    idp.update_cimd_policy(UserPoolId=pool["Id"], CIMDPolicyId=policy_id, ClientId=client["ClientId"],
                           URLPatterns=["https://c.clients.example/*"])
    assert [u["URL"] for u in idp.list_client_metadata_urls(
        UserPoolId=pool["Id"], CIMDPolicyId=policy_id)["ClientMetadataURLs"]] == ["https://c.clients.example/cimd.json"]
    idp.delete_cimd_policy(UserPoolId=pool["Id"], CIMDPolicyId=policy_id)
    assert server.rows("cimd_urls", policy_id=policy_id) == []


def test_deleting_the_pool_deletes_its_policies(server, idp):
    pool, client = new_pool(idp)
    policy = create(idp, pool, client)
    idp.delete_user_pool(UserPoolId=pool["Id"])
    assert server.rows("cimd_policies", policy_id=policy["CIMDPolicyId"]) == []


def test_a_url_client_id_is_not_taken_at_the_endpoints_yet(server, idp):
    """Documented in docs/oauth.md: /oauth2/authorize and /oauth2/token answer a URL client_id
    as an unknown client, fetch nothing and record no URL."""
    pool, client = new_pool(idp)
    policy = create(idp, pool, client)
    url = "https://a.clients.example/cimd.json"
    query = urllib.parse.urlencode({"client_id": url, "response_type": "code", "scope": "openid",
                                    "redirect_uri": "https://a.clients.example/callback"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{server.endpoint}/oauth2/authorize?{query}")
    assert refused.value.code == 400
    body = urllib.parse.urlencode({"grant_type": "authorization_code", "client_id": url, "code": "x",
                                   "redirect_uri": "https://a.clients.example/callback"}).encode()
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{server.endpoint}/oauth2/token", data=body)
    assert refused.value.code == 401 and json.load(refused.value)["error"] == "invalid_client"
    assert idp.list_client_metadata_urls(
        UserPoolId=pool["Id"], CIMDPolicyId=policy["CIMDPolicyId"])["ClientMetadataURLs"] == []
