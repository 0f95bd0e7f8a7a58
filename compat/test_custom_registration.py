"""Custom registration (Cognate's own operations on Cognito's wire): the app's data goes to the
pool's CustomRegistration function (a signed webhook, compat/trigger_service.py's bank
activation), the function answers with challenges carrying its own data, and the right answer
creates the account, signed in, with the function's information. Driven over raw JSON 1.1
(boto3 has no such operations), checked with boto3 and PyJWT."""
import base64
import hashlib
import hmac
import json

from helpers import assert_raw_error, new_client, raw_call, run_concurrently, unique, verify_token
from test_triggers import bind, hooks, idp, server  # noqa: F401 (fixtures: a server of this module's own)


def call(server, operation, body):
    response = raw_call(server, operation, body)
    assert response.status_code == 200, response.text
    return response.json()


def bank_pool(server, idp, hooks, **client_options):
    pool = idp.create_user_pool(PoolName=unique("bank"), AutoVerifiedAttributes=["email"])["UserPool"]
    arn = bind(server, hooks, "custom-registration")
    configured = call(server, "SetUserPoolCustomRegistration",
                      {"UserPoolId": pool["Id"], "CustomRegistration": {"LambdaArn": arn}})
    assert configured == {"CustomRegistration": {"LambdaArn": arn}}
    return pool, new_client(idp, pool["Id"], **client_options)


def start(server, client, contract, email, **extra):
    return raw_call(server, "StartCustomRegistration", {
        "ClientId": client["ClientId"], "Data": json.dumps({"contract": contract, "email": email}), **extra})


def test_a_challenge_answered_creates_a_confirmed_user_signed_in(server, idp, hooks):
    pool, client = bank_pool(server, idp, hooks)
    contract, email = unique("C-"), unique("bank") + "@example.com"
    first = start(server, client, contract, email, ClientMetadata={"app": "bank-ios"})
    assert first.status_code == 200, first.text
    body = first.json()
    assert set(body) == {"RegistrationSession", "ChallengeData"}
    assert json.loads(body["ChallengeData"]) == {"question": "last four digits of your card"}

    wrong = call(server, "RespondToCustomRegistration", {
        "ClientId": client["ClientId"], "RegistrationSession": body["RegistrationSession"], "Data": "1111"})
    assert json.loads(wrong["ChallengeData"])["retry"] is True
    done = call(server, "RespondToCustomRegistration", {
        "ClientId": client["ClientId"], "RegistrationSession": wrong["RegistrationSession"], "Data": "4242",
        "ClientMetadata": {"app": "bank-ios"}})
    assert json.loads(done["CustomInformation"]) == {"welcome": contract, "metadata": {"app": "bank-ios"}}
    claims = verify_token(server, pool["Id"], done["AuthenticationResult"]["IdToken"], "id", client["ClientId"])
    assert claims["sub"] == done["UserSub"]
    assert claims["cognito:username"] == f"contract-{contract}"
    assert claims["email"] == email and claims["email_verified"] is True
    # The access token works with boto3, and the user is confirmed, without a password.
    user = idp.get_user(AccessToken=done["AuthenticationResult"]["AccessToken"])
    assert user["Username"] == f"contract-{contract}"
    assert idp.admin_get_user(UserPoolId=pool["Id"], Username=f"contract-{contract}")["UserStatus"] == "CONFIRMED"

    # The function saw Cognito-shaped, signed events: its rounds and what it kept private.
    events = [event for event in hooks.events("custom-registration") if event["userPoolId"] == pool["Id"]]
    assert [event["triggerSource"] for event in events] == [
        "CustomRegistration_Start", "CustomRegistration_Respond", "CustomRegistration_Respond"]
    assert events[0]["callerContext"]["clientId"] == client["ClientId"]
    assert events[0]["request"]["clientMetadata"] == {"app": "bank-ios"}
    assert events[2]["request"]["session"] == [
        {"challengeData": body["ChallengeData"], "answer": "1111"},
        {"challengeData": wrong["ChallengeData"], "answer": "4242"}]
    assert events[2]["request"]["privateChallengeParameters"]["digits"] == "4242"
    assert all(valid for path, _, valid, _ in hooks.received if path == "custom-registration")


def test_a_session_is_used_once_even_by_concurrent_answers(server, idp, hooks):
    pool, client = bank_pool(server, idp, hooks)
    contract = unique("C-")
    session = start(server, client, contract, unique("bank") + "@example.com").json()["RegistrationSession"]

    answers = []

    def answer(_, index):
        response = raw_call(server, "RespondToCustomRegistration", {
            "ClientId": client["ClientId"], "RegistrationSession": session, "Data": "4242"})
        answers.append((response.status_code, response.json().get("__type")))

    run_concurrently(server, 6, answer)
    assert sorted(answers) == [(200, None)] + [(400, "NotAuthorizedException")] * 5, answers
    assert len(idp.list_users(UserPoolId=pool["Id"])["Users"]) == 1
    assert_raw_error(raw_call(server, "RespondToCustomRegistration", {
        "ClientId": client["ClientId"], "RegistrationSession": session, "Data": "4242"}),
        "NotAuthorizedException", "Invalid session for the user.")


def test_refusals_and_bad_input_get_cognitos_errors_and_create_nothing(server, idp, hooks):
    pool, client = bank_pool(server, idp, hooks)
    email = unique("bank") + "@example.com"
    assert_raw_error(start(server, client, "C-0000", email), "UserLambdaValidationException",
                     "CustomRegistration failed with error Unknown contract.")
    assert_raw_error(raw_call(server, "StartCustomRegistration", {"ClientId": client["ClientId"], "Data": "no"}),
                     "NotAuthorizedException", "Registration failed.")
    session = start(server, client, unique("C-"), email).json()["RegistrationSession"]
    for attempt in ("1", "2"):
        session = call(server, "RespondToCustomRegistration", {
            "ClientId": client["ClientId"], "RegistrationSession": session, "Data": attempt})["RegistrationSession"]
    assert_raw_error(raw_call(server, "RespondToCustomRegistration", {
        "ClientId": client["ClientId"], "RegistrationSession": session, "Data": "3"}),
        "NotAuthorizedException", "Registration failed.")
    # Another client of the pool cannot answer this client's challenge.
    other = new_client(idp, pool["Id"], name="other")
    session = start(server, client, unique("C-"), email).json()["RegistrationSession"]
    assert_raw_error(raw_call(server, "RespondToCustomRegistration", {
        "ClientId": other["ClientId"], "RegistrationSession": session, "Data": "4242"}),
        "NotAuthorizedException", "Invalid session for the user.")
    # Malformed requests.
    assert_raw_error(raw_call(server, "StartCustomRegistration", {"ClientId": client["ClientId"], "Data": "x" * 16385}),
                     "InvalidParameterException", "Member must have length less than or equal to 16384")
    assert_raw_error(raw_call(server, "StartCustomRegistration", {"Data": "x"}), "InvalidParameterException",
                     "Member must not be null")
    assert_raw_error(raw_call(server, "StartCustomRegistration", {"ClientId": client["ClientId"], "Data": 5}),
                     "SerializationException")
    assert_raw_error(raw_call(server, "RespondToCustomRegistration", {
        "ClientId": client["ClientId"], "RegistrationSession": "x" * 40, "Data": "4242"}),
        "NotAuthorizedException", "Invalid session for the user.")
    assert_raw_error(raw_call(server, "SetUserPoolCustomRegistration", {
        "UserPoolId": pool["Id"], "CustomRegistration": {"LambdaArn": "not an arn"}}), "InvalidParameterException")
    assert idp.list_users(UserPoolId=pool["Id"])["Users"] == []
    # Removed, the pool has none, and says so.
    assert call(server, "SetUserPoolCustomRegistration", {"UserPoolId": pool["Id"]}) == {}
    assert call(server, "GetUserPoolCustomRegistration", {"UserPoolId": pool["Id"]}) == {}
    assert_raw_error(start(server, client, unique("C-"), email), "InvalidParameterException",
                     "Custom registration is not configured for the user pool.")


def test_only_the_clients_the_configuration_names_and_that_offer_the_pools_sign_in_register(server, idp, hooks):
    pool, client = bank_pool(server, idp, hooks)
    other = new_client(idp, pool["Id"], name="other")
    arn = call(server, "GetUserPoolCustomRegistration", {"UserPoolId": pool["Id"]})["CustomRegistration"]["LambdaArn"]
    call(server, "SetUserPoolCustomRegistration", {"UserPoolId": pool["Id"], "CustomRegistration": {
        "LambdaArn": arn, "ClientIds": [client["ClientId"]]}})
    email = unique("bank") + "@example.com"
    assert start(server, client, unique("C-"), email).status_code == 200
    assert_raw_error(start(server, other, unique("C-"), email), "NotAuthorizedException",
                     "Custom registration is not enabled for this app client.")
    # A client offering only an identity provider never registers users of the pool's own.
    idp.create_identity_provider(UserPoolId=pool["Id"], ProviderName="Corp", ProviderType="OIDC", ProviderDetails={
        "client_id": "corp", "client_secret": "s", "authorize_scopes": "openid", "oidc_issuer": "https://corp.example",
        "attributes_request_method": "GET", "authorize_url": "https://corp.example/authorize",
        "token_url": "https://corp.example/token", "attributes_url": "https://corp.example/userinfo",
        "jwks_uri": "https://corp.example/jwks"})
    idp.update_user_pool_client(UserPoolId=pool["Id"], ClientId=client["ClientId"], SupportedIdentityProviders=["Corp"],
                                CallbackURLs=["https://app.example/cb"], AllowedOAuthFlows=["code"],
                                AllowedOAuthScopes=["openid"], AllowedOAuthFlowsUserPoolClient=True)
    assert_raw_error(start(server, client, unique("C-"), email), "NotAuthorizedException",
                     "Custom registration is not enabled for this app client.")
    assert_raw_error(raw_call(server, "SetUserPoolCustomRegistration", {"UserPoolId": pool["Id"], "CustomRegistration": {
        "LambdaArn": arn, "ClientIds": []}}), "InvalidParameterException", "Member must have length greater than or equal to 1")


def test_a_client_with_a_secret_needs_the_secret_hash_of_an_empty_username(server, idp, hooks):
    pool, client = bank_pool(server, idp, hooks, GenerateSecret=True)
    email = unique("bank") + "@example.com"
    assert_raw_error(start(server, client, unique("C-"), email), "NotAuthorizedException",
                     "is configured with secret but SECRET_HASH was not received")
    digest = hmac.new(client["ClientSecret"].encode(), client["ClientId"].encode(), hashlib.sha256).digest()
    response = start(server, client, unique("C-"), email, SecretHash=base64.b64encode(digest).decode())
    assert response.status_code == 200, response.text
    assert "RegistrationSession" in response.json()
