import CognateProtocol
import Foundation

extension ManagedLogin {
    /// CreateUserPoolDomain: the name the pool's hosted pages and OAuth endpoints answer to
    /// (one per pool, unique on the server). Cognate serves every domain itself, at its public
    /// URL: a request whose Host names a domain is for that domain's pool (docs/oauth.md); a
    /// custom domain's certificate settings are not used (TLS is the proxy's or the server's).
    /// Where Cognito answers the CloudFront host a custom domain's DNS must point at
    /// (`CloudFrontDomain`), Cognate answers its own public host; a prefix domain gets none, as
    /// in Cognito.
    public func createUserPoolDomain(_ request: CreateUserPoolDomainRequest) async throws -> CreateUserPoolDomainResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let now = time.now
        do {
            try await store.write { try await $0.insertDomain(DomainRecord(domain: request.domain, poolId: pool.id, createdAt: now)) }
        } catch StoreError.conflict(.domain) {
            let existing = try await store.read { try await $0.domain(named: request.domain) }
            throw CognitoError.invalidParameter(existing == nil || existing?.poolId != pool.id
                ? "Domain already associated with another user pool."
                : "User pool already has a domain configured.")
        }
        return CreateUserPoolDomainResponse(
            managedLoginVersion: request.managedLoginVersion ?? 1,
            cloudFrontDomain: request.customDomainConfig == nil ? nil : servingHost)
    }

    /// The host that serves every domain (the public URL's): what a custom domain's DNS names.
    private var servingHost: String { URL(string: configuration.publicBaseURL)?.host ?? "localhost" }

    /// DescribeUserPoolDomain: an unknown domain is described as nothing, as Cognito answers.
    public func describeUserPoolDomain(_ request: DescribeUserPoolDomainRequest) async throws -> DescribeUserPoolDomainResponse {
        guard let domain = try await store.read({ try await $0.domain(named: request.domain) }) else {
            return DescribeUserPoolDomainResponse(domainDescription: DomainDescriptionType())
        }
        return DescribeUserPoolDomainResponse(domainDescription: DomainDescriptionType(
            userPoolId: domain.poolId, awsAccountId: configuration.accountId, domain: domain.domain,
            cloudFrontDistribution: servingHost, version: Self.domainVersion(domain.createdAt), status: .active,
            managedLoginVersion: 1))
    }

    public func updateUserPoolDomain(_ request: UpdateUserPoolDomainRequest) async throws -> UpdateUserPoolDomainResponse {
        _ = try await requireDomain(request.domain, of: request.userPoolId)
        return UpdateUserPoolDomainResponse(
            managedLoginVersion: request.managedLoginVersion ?? 1,
            cloudFrontDomain: request.customDomainConfig == nil ? nil : servingHost)
    }

    /// A domain's `Version`: its creation time as Cognito writes versions (`20190128175402`).
    static func domainVersion(_ created: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: created)
        return String(format: "%04d%02d%02d%02d%02d%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
                      parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    public func deleteUserPoolDomain(_ request: DeleteUserPoolDomainRequest) async throws -> DeleteUserPoolDomainResponse {
        _ = try await requireDomain(request.domain, of: request.userPoolId)
        try await store.write { try await $0.deleteDomain(named: request.domain) }
        return DeleteUserPoolDomainResponse()
    }

    /// The pool whose domain is `name`, if any (the hosted pages' Host check).
    public func poolOfDomain(_ name: String) async throws -> String? {
        try await store.read { try await $0.domain(named: name)?.poolId }
    }

    /// Whether `clientId` is an app client of `poolId`.
    public func clientBelongs(_ clientId: String, toPool poolId: String) async throws -> Bool {
        try await directory.cachedClient(clientId)?.poolId == poolId
    }

    /// The pool's domain named `name`.
    private func requireDomain(_ name: String, of poolId: String) async throws -> DomainRecord {
        let pool = try await directory.requirePool(poolId)
        guard let domain = try await store.read({ try await $0.domain(named: name) }), domain.poolId == pool.id else {
            throw CognitoError.invalidParameter("No such domain or user pool exists.")
        }
        return domain
    }
}
