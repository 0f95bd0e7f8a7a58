"""GetDerivedToken (OAuth 2.0 Token Exchange, RFC 8693) through boto3: a service exchanges a
user's token for one bound to a downstream audience, impersonating the user or acting for them
(`act`), with the scopes the user's token, the request and the client all have; a sign-out ends
the derived token too. Verified with PyJWT against the pool's JWKS."""
import jwt

from helpers import PASSWORD, cognito_error, issuer, jwks, password_auth, sign_up, unique


def decoded(server, pool_id, token):
    keys = {k["kid"]: k for k in jwks(server, pool_id)["keys"]}
    return jwt.decode(token, jwt.PyJWK(keys[jwt.get_unverified_header(token)["kid"]]), algorithms=["RS256"],
                      issuer=issuer(server, pool_id), options={"verify_aud": False})


def exchange_setup(idp):
    pool = idp.create_user_pool(PoolName=unique("exchange"))["UserPool"]
    idp.create_resource_server(UserPoolId=pool["Id"], Identifier="orders", Name="Orders", Scopes=[
        {"ScopeName": "read", "ScopeDescription": "read"}])
    app = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="app", ExplicitAuthFlows=[
        "ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"])["UserPoolClient"]
    service = idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="gateway", GenerateSecret=True,
        ExplicitAuthFlows=["ALLOW_TOKEN_EXCHANGE_IMPERSONATION", "ALLOW_TOKEN_EXCHANGE_DELEGATION"],
        AllowedOAuthScopes=["orders/read"], AllowedOAuthFlows=["client_credentials"],
        AllowedOAuthFlowsUserPoolClient=True)["UserPoolClient"]
    return pool, app, service


def signed_in(idp, pool, app):
    username = unique()
    sign_up(idp, app, username)
    idp.admin_confirm_sign_up(UserPoolId=pool["Id"], Username=username)
    return username, password_auth(idp, app, username, PASSWORD)["AuthenticationResult"]


def test_impersonation_and_delegation(server, idp):
    pool, app, service = exchange_setup(idp)
    username, tokens = signed_in(idp, pool, app)
    user = decoded(server, pool["Id"], tokens["AccessToken"])

    derived = idp.get_derived_token(
        ClientId=service["ClientId"], ClientSecret=service["ClientSecret"], SubjectToken=tokens["AccessToken"],
        SubjectTokenType="ACCESS_TOKEN", Audiences=["billing-service"])
    assert derived["IssuedTokenType"] == "ACCESS_TOKEN" and derived["TokenType"] == "Bearer" and derived["ExpiresIn"] == 3600
    claims = decoded(server, pool["Id"], derived["IssuedToken"])
    assert claims["sub"] == user["sub"] and claims["username"] == username and claims["client_id"] == service["ClientId"]
    assert claims["aud"] == "billing-service" and claims["origin_jti"] == user["origin_jti"] and "act" not in claims
    assert claims["scope"] == "aws.cognito.signin.user.admin" and derived["Scopes"] == ["aws.cognito.signin.user.admin"]
    # The derived token is the user's: it reads the user as the original does.
    assert idp.get_user(AccessToken=derived["IssuedToken"])["Username"] == username

    # An ID token as subject, an ID token asked for, a resource server as audience.
    as_id = idp.get_derived_token(
        ClientId=service["ClientId"], ClientSecret=service["ClientSecret"], SubjectToken=tokens["IdToken"],
        SubjectTokenType="ID_TOKEN", Resources=["orders"], Scopes=["orders/read"], RequestedTokenType="ID_TOKEN")
    id_claims = decoded(server, pool["Id"], as_id["IssuedToken"])
    assert as_id["IssuedTokenType"] == "ID_TOKEN" and id_claims["token_use"] == "id" and id_claims["sub"] == user["sub"]

    # Delegation: the gateway's own token as actor; the new token names it in `act`.
    actor = idp.get_client_token(ClientId=service["ClientId"], Secret=service["ClientSecret"])["ClientAuthenticationResult"]
    delegated = idp.get_derived_token(
        ClientId=service["ClientId"], ClientSecret=service["ClientSecret"], SubjectToken=tokens["AccessToken"],
        SubjectTokenType="ACCESS_TOKEN", ActorToken=actor["AccessToken"], ActorTokenType="ACCESS_TOKEN")
    act = decoded(server, pool["Id"], delegated["IssuedToken"])["act"]
    assert act == {"sub": service["ClientId"], "client_id": service["ClientId"]}

    # Signing the user out ends the sign-in, the derived tokens with it.
    idp.global_sign_out(AccessToken=tokens["AccessToken"])
    with cognito_error("NotAuthorizedException"):
        idp.get_user(AccessToken=derived["IssuedToken"])
    with cognito_error("NotAuthorizedException"):
        idp.get_derived_token(ClientId=service["ClientId"], ClientSecret=service["ClientSecret"],
                              SubjectToken=tokens["AccessToken"], SubjectTokenType="ACCESS_TOKEN")


def test_refusals(server, idp):
    pool, app, service = exchange_setup(idp)
    _, tokens = signed_in(idp, pool, app)
    subject = dict(SubjectToken=tokens["AccessToken"], SubjectTokenType="ACCESS_TOKEN")
    with cognito_error("NotAuthorizedException", contains="secret"):
        idp.get_derived_token(ClientId=service["ClientId"], ClientSecret="wrongSecret" + "x" * 30, **subject)
    with cognito_error("NotAuthorizedException", contains="ALLOW_TOKEN_EXCHANGE_IMPERSONATION"):
        idp.get_derived_token(ClientId=app["ClientId"], **subject)
    with cognito_error("InvalidParameterException", "You can't request both Audiences and Resources."):
        idp.get_derived_token(ClientId=service["ClientId"], ClientSecret=service["ClientSecret"], Audiences=["a"],
                              Resources=["orders"], **subject)
    with cognito_error("ResourceNotFoundException"):
        idp.get_derived_token(ClientId=service["ClientId"], ClientSecret=service["ClientSecret"], Resources=["nope"], **subject)
    with cognito_error("InvalidParameterException"):
        idp.get_derived_token(ClientId=service["ClientId"], ClientSecret=service["ClientSecret"], Scopes=["orders/write"],
                              **subject)
    with cognito_error("InvalidParameterException"):
        idp.get_derived_token(ClientId=service["ClientId"], ClientSecret=service["ClientSecret"],
                              SubjectToken="assertion", SubjectTokenType="SAML2")
    with cognito_error("NotAuthorizedException"):
        idp.get_derived_token(ClientId=service["ClientId"], ClientSecret=service["ClientSecret"],
                              SubjectToken=tokens["AccessToken"][:-4] + "AAAA", SubjectTokenType="ACCESS_TOKEN")
    # A token of another pool is no subject here.
    other_pool, other_app, _ = exchange_setup(idp)
    _, other = signed_in(idp, other_pool, other_app)
    with cognito_error("NotAuthorizedException"):
        idp.get_derived_token(ClientId=service["ClientId"], ClientSecret=service["ClientSecret"],
                              SubjectToken=other["AccessToken"], SubjectTokenType="ACCESS_TOKEN")
