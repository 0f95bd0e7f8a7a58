import CognateProtocol
import Foundation

extension Federation {
    /// CreateIdentityProvider: an OIDC provider (`client_id`, `client_secret`, `authorize_scopes`,
    /// `oidc_issuer`, and optionally `authorize_url`, `token_url`, `attributes_url` — discovered
    /// from the issuer otherwise) or a social provider named as its type (`client_id`,
    /// `client_secret`, `authorize_scopes`; Apple's `team_id`, `key_id`, `private_key` instead of
    /// the secret), whose endpoints Cognito fills in (`ProviderPreset`), or a SAML provider
    /// (`SAMLProviderDetails`: its metadata by URL or document, fetched and read here).
    /// `AttributeMapping` maps pool attributes to provider claims.
    public func createIdentityProvider(_ request: CreateIdentityProviderRequest) async throws -> CreateIdentityProviderResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        try Self.checkProvider(request.providerName, type: request.providerType, details: request.providerDetails)
        try Self.checkAttributeMapping(request.attributeMapping ?? [:], pool: pool)
        let now = time.now
        let details = request.providerType == .saml
            ? try await SAMLProviderDetails.completed(request.providerDetails, previous: nil, now: now, fetch: fetchMetadata)
            : ProviderPreset.completed(request.providerDetails, type: request.providerType)
        let provider = IdentityProviderRecord(
            poolId: pool.id, name: request.providerName, type: request.providerType,
            details: details,
            attributeMapping: ProviderPreset.completedMapping(request.attributeMapping ?? [:], type: request.providerType), identifiers: request.idpIdentifiers ?? [], createdAt: now,
            updatedAt: now)
        do {
            try await store.write { transaction in
                if provider.type == .saml, SAMLProviderDetails.isTrue(provider.details, SAMLProviderDetails.idpInitiated) {
                    try await IdPInitiatedClients.check(enabling: provider.name, poolId: provider.poolId, in: transaction)
                }
                try await transaction.insertIdentityProvider(provider)
            }
        } catch StoreError.conflict(.identityProvider) {
            throw CognitoError(.duplicateProvider, "A provider with the name \(request.providerName) already exists in this user pool.")
        }
        return CreateIdentityProviderResponse(identityProvider: provider.wire)
    }

    public func describeIdentityProvider(_ request: DescribeIdentityProviderRequest) async throws
        -> DescribeIdentityProviderResponse
    {
        DescribeIdentityProviderResponse(
            identityProvider: try await requireIdentityProvider(request.providerName, poolId: request.userPoolId).wire)
    }

    public func updateIdentityProvider(_ request: UpdateIdentityProviderRequest) async throws -> UpdateIdentityProviderResponse {
        var provider = try await requireIdentityProvider(request.providerName, poolId: request.userPoolId)
        if var details = request.providerDetails {
            // Apple's key is never shown, so an update made from a description keeps it.
            if provider.type == .signInWithApple, details["private_key"] == nil { details["private_key"] = provider.details["private_key"] }
            try Self.checkProvider(provider.name, type: provider.type, details: details)
            provider.details = provider.type == .saml
                ? try await SAMLProviderDetails.completed(details, previous: provider.details, now: time.now, fetch: fetchMetadata)
                : ProviderPreset.completed(details, type: provider.type)
        }
        if let mapping = request.attributeMapping {
            try Self.checkAttributeMapping(mapping, pool: try await directory.requirePool(request.userPoolId))
            provider.attributeMapping = ProviderPreset.completedMapping(mapping, type: provider.type)
        }
        if let identifiers = request.idpIdentifiers { provider.identifiers = identifiers }
        provider.updatedAt = time.now
        let updated = provider
        try await store.write { transaction in
            if updated.type == .saml, SAMLProviderDetails.isTrue(updated.details, SAMLProviderDetails.idpInitiated) {
                try await IdPInitiatedClients.check(enabling: updated.name, poolId: updated.poolId, in: transaction)
            }
            try await transaction.updateIdentityProvider(updated)
        }
        await discovery.drop(DiscoveryDocuments.Key(poolId: updated.poolId, provider: updated.name))
        return UpdateIdentityProviderResponse(identityProvider: updated.wire)
    }

    public func deleteIdentityProvider(_ request: DeleteIdentityProviderRequest) async throws -> EmptyResponse {
        let provider = try await requireIdentityProvider(request.providerName, poolId: request.userPoolId)
        try await store.write { try await $0.deleteIdentityProvider(poolId: provider.poolId, name: provider.name) }
        await discovery.drop(DiscoveryDocuments.Key(poolId: provider.poolId, provider: provider.name))
        return EmptyResponse()
    }

    public func listIdentityProviders(_ request: ListIdentityProvidersRequest) async throws -> ListIdentityProvidersResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let after = try PageToken.decode(request.nextToken)
        let page = try await store.read {
            try await $0.identityProviders(poolId: pool.id, after: after, limit: min(max(request.maxResults ?? 60, 1), 60))
        }
        return ListIdentityProvidersResponse(
            providers: page.items.map {
                ProviderDescription(providerName: $0.name, providerType: $0.type, lastModifiedDate: $0.updatedAt,
                                    creationDate: $0.createdAt)
            },
            nextToken: PageToken.encode(page.next))
    }

    public func getIdentityProviderByIdentifier(_ request: GetIdentityProviderByIdentifierRequest) async throws
        -> GetIdentityProviderByIdentifierResponse
    {
        let pool = try await directory.requirePool(request.userPoolId)
        var after: String?
        repeat {
            let start = after
            let page = try await store.read { try await $0.identityProviders(poolId: pool.id, after: start, limit: 60) }
            if let found = page.items.first(where: { $0.identifiers.contains(request.idpIdentifier) }) {
                return GetIdentityProviderByIdentifierResponse(identityProvider: found.wire)
            }
            after = page.next
        } while after != nil
        throw CognitoError.resourceNotFound("Identity provider with identifier \(request.idpIdentifier) does not exist.")
    }

    /// A SAML provider's metadata document from its `MetadataURL` (at most 1 MB, no redirects;
    /// the base `identity_provider_urls` gives its host, if any).
    @Sendable func fetchMetadata(_ url: URL) async throws -> String {
        let resolved = ProviderURLOverrides(bases: configuration.identityPools.providerURLs).resolve(url)
        let answer = try await upstream.send(method: "GET", url: resolved, headers: ["Accept": "application/samlmetadata+xml, application/xml, text/xml"], body: nil)
        guard answer.status == 200, answer.body.count <= 1_000_000, let text = String(data: answer.body, encoding: .utf8) else {
            throw ProviderFailure(reason: "\(url.path) answered \(answer.status)")
        }
        return text
    }

    func requireIdentityProvider(_ name: String, poolId: String) async throws -> IdentityProviderRecord {
        let pool = try await directory.requirePool(poolId)
        guard let provider = try await store.read({ try await $0.identityProvider(poolId: pool.id, name: name) }) else {
            throw CognitoError.resourceNotFound("Identity provider \(name) does not exist.")
        }
        return provider
    }

    /// AttributeMapping maps pool attributes (its keys) to provider claims. A key must be an
    /// attribute of the pool's schema, standard or custom, that a provider may set: not `sub`
    /// or `identities` (the pool's own), not a developer-only attribute (`dev:…`), nothing
    /// outside the schema (`cognito:…`); or `username`, which Cognito accepts (its OIDC
    /// providers map it to `sub`) and which names no attribute. Refused as Cognito refuses it:
    /// "AttributeMapping contains invalid mapping: [a, b]" (the offending keys).
    static func checkAttributeMapping(_ mapping: [String: String], pool: PoolRecord) throws {
        let invalid = mapping.keys.filter { $0 != "username" && !isMappable($0, pool: pool) }.sorted()
        guard invalid.isEmpty else {
            throw CognitoError.invalidParameter("AttributeMapping contains invalid mapping: [\(invalid.joined(separator: ", "))]")
        }
    }

    /// Whether a provider's claim may set the pool attribute `name` (see `checkAttributeMapping`).
    static func isMappable(_ name: String, pool: PoolRecord) -> Bool {
        guard name != "sub", name != "identities", !name.hasPrefix("dev:") else { return false }
        return (pool.settings.schemaAttributes ?? []).contains { $0.name == name }
    }

    private static func checkProvider(_ name: String, type: IdentityProviderTypeType, details: [String: String]) throws {
        guard name != "COGNITO", name != "Cognito" else { throw CognitoError.invalidParameter("The provider name \(name) is reserved.") }
        if type == .saml { return }   // SAMLProviderDetails checks its details
        if ProviderPreset.isSocial(type) {
            // Cognito: "Provider NameOfGP cannot be of type Google."; each social type once, by its name.
            guard name == type.rawValue else { throw CognitoError.invalidParameter("Provider \(name) cannot be of type \(type.rawValue).") }
            guard ProviderPreset.requiredKeys(of: type).allSatisfy({ !(details[$0] ?? "").isEmpty }) else {
                throw CognitoError.invalidParameter(ProviderPreset.missingKeyMessage(of: type))
            }
            if type == .facebook, let version = details["api_version"], !ProviderPreset.isGraphAPIVersion(version) {
                throw CognitoError.invalidParameter("ProviderDetails api_version \(version) is not a Facebook Graph API version (v17.0).")
            }
        }
        for key in ["client_id", "authorize_scopes"] where (details[key] ?? "").isEmpty {
            throw CognitoError.invalidParameter("ProviderDetails needs \(key).")
        }
        if type == .oidc, details["oidc_issuer"] == nil, details["authorize_url"] == nil || details["token_url"] == nil {
            throw CognitoError.invalidParameter("ProviderDetails needs oidc_issuer (or authorize_url and token_url).")
        }
    }
}

extension IdentityProviderRecord {
    /// The provider as the API shows it (the client secret included, as Cognito shows it to
    /// admins; Apple's private key never).
    var wire: IdentityProviderType {
        IdentityProviderType(
            userPoolId: poolId, providerName: name, providerType: type, providerDetails: type == .saml ? SAMLProviderDetails.shown(details) : ProviderPreset.shown(details, type: type),
            attributeMapping: attributeMapping, idpIdentifiers: identifiers, lastModifiedDate: updatedAt, creationDate: createdAt)
    }
}
