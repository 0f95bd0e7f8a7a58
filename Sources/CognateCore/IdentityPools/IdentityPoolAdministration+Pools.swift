import CognateIdentityProtocol
import CognateProtocol
import Foundation

extension IdentityPoolAdministration {
    /// The social providers SupportedLoginProviders may name (Cognito's list); Cognate verifies
    /// logins of the first four (docs/identity-pools.md).
    static let socialProviders: Set<String> = [
        "graph.facebook.com", "accounts.google.com", "www.amazon.com", "appleid.apple.com", "api.twitter.com", "www.digits.com",
    ]

    public func createIdentityPool(_ request: CreateIdentityPoolInput) async throws -> IdentityPool {
        let now = time.now
        let id = IdentityPoolLookup.newId(region: configuration.region, random: random)
        let settings = IdentityPool(
            identityPoolId: id, identityPoolName: request.identityPoolName,
            allowUnauthenticatedIdentities: request.allowUnauthenticatedIdentities,
            allowClassicFlow: request.allowClassicFlow ?? false, supportedLoginProviders: request.supportedLoginProviders ?? [:],
            developerProviderName: request.developerProviderName, openIdConnectProviderARNs: request.openIdConnectProviderARNs ?? [],
            cognitoIdentityProviders: request.cognitoIdentityProviders ?? [], samlProviderARNs: request.samlProviderARNs ?? [],
            identityPoolTags: request.identityPoolTags ?? [:])
        try Self.check(settings)
        try await store.write { transaction in
            try await transaction.insertIdentityPool(IdentityPoolRecord(id: id, createdAt: now, updatedAt: now, settings: settings))
        }
        return settings
    }

    public func describeIdentityPool(_ request: DescribeIdentityPoolInput) async throws -> IdentityPool {
        try await lookup.pool(request.identityPoolId).settings
    }

    /// UpdateIdentityPool replaces the pool's settings with the request's (members it leaves
    /// out are cleared, as in Cognito), but the developer provider name, once set, stays.
    public func updateIdentityPool(_ request: IdentityPool) async throws -> IdentityPool {
        let id = request.identityPoolId
        return try await store.write { transaction in
            guard var pool = try await transaction.identityPool(id: id) else { throw CognitoIdentityError.identityPoolNotFound(id) }
            if let old = pool.settings.developerProviderName, request.developerProviderName != old {
                throw CognitoIdentityError.invalidParameter("The developer provider name cannot be changed once set.")
            }
            var settings = request
            settings.allowClassicFlow = request.allowClassicFlow ?? false
            settings.supportedLoginProviders = request.supportedLoginProviders ?? [:]
            settings.openIdConnectProviderARNs = request.openIdConnectProviderARNs ?? []
            settings.cognitoIdentityProviders = request.cognitoIdentityProviders ?? []
            settings.samlProviderARNs = request.samlProviderARNs ?? []
            settings.identityPoolTags = request.identityPoolTags ?? pool.settings.identityPoolTags ?? [:]
            try Self.check(settings)
            pool.settings = settings
            pool.updatedAt = time.now
            try await transaction.updateIdentityPool(pool)
            return settings
        }
    }

    public func deleteIdentityPool(_ request: DeleteIdentityPoolInput) async throws -> EmptyResponse {
        let id = request.identityPoolId
        try await store.write { transaction in
            guard try await transaction.deleteIdentityPool(id: id) else { throw CognitoIdentityError.identityPoolNotFound(id) }
        }
        return EmptyResponse()
    }

    public func listIdentityPools(_ request: ListIdentityPoolsInput) async throws -> ListIdentityPoolsResponse {
        let page = try await store.read { try await $0.identityPools(after: request.nextToken, limit: request.maxResults) }
        return ListIdentityPoolsResponse(
            identityPools: page.items.map {
                IdentityPoolShortDescription(identityPoolId: $0.id, identityPoolName: $0.settings.identityPoolName)
            },
            nextToken: page.next)
    }

    /// What the model cannot say of a pool's settings.
    static func check(_ settings: IdentityPool) throws {
        for name in (settings.supportedLoginProviders ?? [:]).keys where !socialProviders.contains(name) {
            throw CognitoIdentityError.invalidParameter(
                "SupportedLoginProviders: \(name) is not a supported login provider; use one of "
                    + socialProviders.sorted().joined(separator: ", ") + ".")
        }
        for provider in settings.cognitoIdentityProviders ?? [] {
            guard let name = provider.providerName, UserPoolLoginName(name) != nil else {
                throw CognitoIdentityError.invalidParameter(
                    "CognitoIdentityProviders: the ProviderName must be cognito-idp.<region>.amazonaws.com/<user pool id>.")
            }
            guard provider.clientId != nil else {
                throw CognitoIdentityError.invalidParameter("CognitoIdentityProviders: \(name) needs a ClientId.")
            }
        }
        for arn in settings.openIdConnectProviderARNs ?? [] where OpenIdConnectProviderName.name(arn: arn) == nil {
            throw CognitoIdentityError.invalidParameter(
                "OpenIdConnectProviderARNs: \(arn) is not an ARN of the form arn:aws:iam::<account>:oidc-provider/<issuer host and path>.")
        }
    }
}
