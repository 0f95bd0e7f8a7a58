import CognateProtocol
import Foundation

extension ManagedLogin {
    /// CreateTerms: an app client's terms of use or privacy policy (`terms-of-use`,
    /// `privacy-policy`), as links by language (`cognito:english`, `cognito:default` …); the hosted
    /// sign-up page shows them. One of each name per client.
    public func createTerms(_ request: CreateTermsRequest) async throws -> CreateTermsResponse {
        let (pool, client) = try await directory.requireClient(request.clientId, poolId: request.userPoolId)
        let links = try Self.checkedTerms(name: request.termsName, source: request.termsSource, links: request.links ?? [:])
        let now = time.now
        let terms = TermsType(
            termsId: random.uuid().lowercased(), userPoolId: pool.id, clientId: client.clientId, termsName: request.termsName,
            termsSource: request.termsSource, enforcement: request.enforcement, links: links, creationDate: now,
            lastModifiedDate: now)
        do {
            try await store.write { try await $0.insertTerms(terms) }
        } catch StoreError.conflict(.terms) {
            throw CognitoError(.termsExists, "Terms named \(request.termsName) already exist for client \(client.clientId).")
        }
        return CreateTermsResponse(terms: terms)
    }

    public func describeTerms(_ request: DescribeTermsRequest) async throws -> DescribeTermsResponse {
        DescribeTermsResponse(terms: try await requireTerms(request.termsId, poolId: request.userPoolId))
    }

    /// DescribeTermsByClient: the terms of an app client, by their name.
    public func describeTermsByClient(_ request: DescribeTermsByClientRequest) async throws -> DescribeTermsByClientResponse {
        let (pool, client) = try await directory.requireClient(request.clientId, poolId: request.userPoolId)
        let terms = try await store.read { try await $0.terms(clientId: client.clientId) }
        guard let found = terms.first(where: { $0.termsName == request.termsName && $0.userPoolId == pool.id }) else {
            throw CognitoError.resourceNotFound("No terms named \(request.termsName) for client \(client.clientId).")
        }
        return DescribeTermsByClientResponse(terms: found)
    }

    public func updateTerms(_ request: UpdateTermsRequest) async throws -> UpdateTermsResponse {
        var terms = try await requireTerms(request.termsId, poolId: request.userPoolId)
        if let name = request.termsName { terms.termsName = name }
        if let source = request.termsSource { terms.termsSource = source }
        if let enforcement = request.enforcement { terms.enforcement = enforcement }
        if let links = request.links { terms.links = links }
        terms.links = try Self.checkedTerms(name: terms.termsName, source: terms.termsSource, links: terms.links)
        terms.lastModifiedDate = time.now
        let updated = terms
        do {
            try await store.write { try await $0.updateTerms(updated) }
        } catch StoreError.conflict(.terms) {
            throw CognitoError(.termsExists, "Terms named \(updated.termsName) already exist for client \(updated.clientId).")
        }
        return UpdateTermsResponse(terms: updated)
    }

    public func deleteTerms(_ request: DeleteTermsRequest) async throws -> EmptyResponse {
        let terms = try await requireTerms(request.termsId, poolId: request.userPoolId)
        try await store.write { try await $0.deleteTerms(id: terms.termsId) }
        return EmptyResponse()
    }

    public func listTerms(_ request: ListTermsRequest) async throws -> ListTermsResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let after = try PageToken.decode(request.nextToken)
        let page = try await store.read { try await $0.terms(poolId: pool.id, after: after, limit: min(max(request.maxResults ?? 10, 1), 10)) }
        return ListTermsResponse(
            terms: page.items.map {
                TermsDescriptionType(termsId: $0.termsId, termsName: $0.termsName, enforcement: $0.enforcement,
                                     creationDate: $0.creationDate, lastModifiedDate: $0.lastModifiedDate)
            },
            nextToken: PageToken.encode(page.next))
    }

    /// The links the hosted sign-up page shows for a client: (terms name, English or default URL).
    public func termsLinks(clientId: String) async throws -> [(name: String, url: String)] {
        try await store.read { try await $0.terms(clientId: clientId) }.compactMap { terms in
            (terms.links["cognito:english"] ?? terms.links["cognito:default"] ?? terms.links.values.sorted().first)
                .map { (terms.termsName, $0) }
        }
    }

    private func requireTerms(_ id: String, poolId: String) async throws -> TermsType {
        let pool = try await directory.requirePool(poolId)
        guard let terms = try await store.read({ try await $0.terms(id: id) }), terms.userPoolId == pool.id else {
            throw CognitoError.resourceNotFound("Terms \(id) do not exist.")
        }
        return terms
    }

    /// Names Cognito knows, links as https (or http on loopback) URLs, at least one.
    private static func checkedTerms(name: String, source: TermsSourceType, links: [String: String]) throws -> [String: String] {
        guard ["terms-of-use", "privacy-policy"].contains(name) else {
            throw CognitoError.invalidParameter("TermsName must be terms-of-use or privacy-policy.")
        }
        guard source == .link, !links.isEmpty else { throw CognitoError.invalidParameter("Terms need at least one link (TermsSource LINK).") }
        for url in links.values {
            guard let parsed = URL(string: url), ["https", "http"].contains(parsed.scheme ?? ""), parsed.host != nil else {
                throw CognitoError.invalidParameter("Terms links must be http(s) URLs: \(url)")
            }
        }
        return links
    }
}
