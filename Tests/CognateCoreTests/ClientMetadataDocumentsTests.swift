import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

/// CIMD policies: their URL patterns, and the URLs recorded for them.
struct ClientMetadataDocumentsTests {
    static func admits(_ pattern: String, _ url: String) throws -> Bool {
        try CIMDURLPattern.parse(pattern).get().admits(url)
    }

    @Test func patternsAdmitTheirHostsAndPaths() throws {
        #expect(try Self.admits("https://example.com/client.json", "https://example.com/client.json"))
        #expect(try Self.admits("https://example.com/client.json", "https://EXAMPLE.com/client.json"))
        #expect(try !Self.admits("https://example.com/client.json", "https://example.com/Client.json"))
        #expect(try !Self.admits("https://example.com/client.json", "https://example.com:8443/client.json"))
        #expect(try Self.admits("https://example.com:8443/*", "https://example.com:8443/a/b.json"))
        // A path wildcard spans segments; the host's stands for one label.
        #expect(try Self.admits("https://example.com/clients/*", "https://example.com/clients/a/b.json"))
        #expect(try !Self.admits("https://example.com/clients/*", "https://example.com/other/b.json"))
        #expect(try Self.admits("https://*.example.com/cimd.json", "https://app.example.com/cimd.json"))
        #expect(try !Self.admits("https://*.example.com/cimd.json", "https://a.b.example.com/cimd.json"))
        #expect(try !Self.admits("https://*.example.com/cimd.json", "https://example.com/cimd.json"))
        #expect(try !Self.admits("https://*.example.com/cimd.json", "https://evilexample.com/cimd.json"))
        #expect(try Self.admits("https://example.com/*/cimd.json", "https://example.com/v1/cimd.json"))
        // URLs that are no document URLs are refused whatever the pattern.
        for url in ["http://example.com/c.json", "https://example.com/", "https://user@example.com/c.json",
                    "https://example.com/c.json?x=1", "https://example.com/c.json#f", "https://example.com/a/../c.json",
                    "https://example.com/%2E%2E/c.json", "https://example.com@evil.com/c.json"] {
            #expect(try !Self.admits("https://*.example.com/*", url) && !Self.admits("https://example.com/*", url), "\(url)")
        }
    }

    @Test func malformedPatternsAreRefused() {
        for pattern in ["https://ex*ample.com/a", "https://*/a", "https://a.*.example.com/a", "https://example.com",
                        "https://user@example.com/a", "https://example.com/a?b", "https://example.com:x/a",
                        "https://example.com/../a", "ftp://example.com/a", "https://*.com/a", "https://*.localhost:8443/a"] {
            if case .success = CIMDURLPattern.parse(pattern) { Issue.record("\(pattern) was accepted") }
        }
    }

    @Test func policiesRoundTripAndOutliveTheirClient() async throws {
        try await TestEnvironment.with { env in
            let cimd = env.service.clientMetadataDocuments
            let pool = try await env.pool()
            let client = try await env.client(pool: pool.id!)
            let created = try await cimd.createCIMDPolicy(CreateCIMDPolicyRequest(
                userPoolId: pool.id!, clientId: client.clientId!, policyName: "mcp",
                urlPatterns: ["https://*.clients.example/cimd.json"])).cimdPolicy
            #expect(created.cacheDuration == 86_400 && created.clientId == client.clientId)
            #expect(created.cimdPolicyId.allSatisfy { $0.isHexDigit && !$0.isUppercase })
            await expectCognitoError(.invalidParameter) {
                _ = try await cimd.createCIMDPolicy(CreateCIMDPolicyRequest(
                    userPoolId: pool.id!, clientId: client.clientId!, policyName: "x", urlPatterns: ["https://a.*.b/c"]))
            }
            await expectCognitoError(.resourceNotFound) {
                _ = try await cimd.createCIMDPolicy(CreateCIMDPolicyRequest(
                    userPoolId: pool.id!, clientId: "nope", policyName: "x", urlPatterns: ["https://a.example/c"]))
            }

            // URLs recorded for the policy: listed; INVALIDATE drops the document, REFRESH makes it due.
            let t = env.time.now
            try await env.store.write { tx in
                for label in ["a", "b", "c"] {
                    try await tx.saveClientMetadataURL(ClientMetadataURLRecord(
                        policyId: created.cimdPolicyId, url: "https://\(label).clients.example/cimd.json", cachedAt: t,
                        expiresAt: t + 86_400, document: "{}"))
                }
            }
            let listed = try await cimd.listClientMetadataURLs(ListClientMetadataURLsRequest(
                userPoolId: pool.id!, cimdPolicyId: created.cimdPolicyId, maxResults: 2))
            #expect(listed.clientMetadataURLs.map(\.url) == ["https://a.clients.example/cimd.json", "https://b.clients.example/cimd.json"])
            #expect(listed.clientMetadataURLs[0].expirationDate == t + 86_400)
            let rest = try await cimd.listClientMetadataURLs(ListClientMetadataURLsRequest(
                userPoolId: pool.id!, cimdPolicyId: created.cimdPolicyId, nextToken: listed.nextToken))
            #expect(rest.clientMetadataURLs.count == 1 && rest.nextToken == nil)
            env.time.advance(by: 10)
            _ = try await cimd.updateClientMetadataURLState(UpdateClientMetadataURLStateRequest(
                userPoolId: pool.id!, cimdPolicyId: created.cimdPolicyId, url: "https://a.clients.example/cimd.json",
                action: .refresh))
            _ = try await cimd.updateClientMetadataURLState(UpdateClientMetadataURLStateRequest(
                userPoolId: pool.id!, cimdPolicyId: created.cimdPolicyId, url: "https://b.clients.example/cimd.json",
                action: .invalidate))
            let states = try await cimd.listClientMetadataURLs(ListClientMetadataURLsRequest(
                userPoolId: pool.id!, cimdPolicyId: created.cimdPolicyId)).clientMetadataURLs
            #expect(states[0].cachedDate == t && states[0].expirationDate == env.time.now)
            #expect(states[1].cachedDate == nil && states[1].expirationDate == nil)
            for (url, action) in [("https://b.clients.example/cimd.json", CIMDCacheActionType.refresh),
                                  ("https://z.clients.example/cimd.json", .invalidate)] {
                await expectCognitoError(.cachedCIMDURLDoesNotExist) {
                    _ = try await cimd.updateClientMetadataURLState(UpdateClientMetadataURLStateRequest(
                        userPoolId: pool.id!, cimdPolicyId: created.cimdPolicyId, url: url, action: action))
                }
            }

            // New patterns forget the URLs they no longer admit; name and duration stay unless given.
            let other = try await env.client(pool: pool.id!)
            let updated = try await cimd.updateCIMDPolicy(UpdateCIMDPolicyRequest(
                userPoolId: pool.id!, cimdPolicyId: created.cimdPolicyId, clientId: other.clientId!,
                urlPatterns: ["https://a.clients.example/*"])).cimdPolicy
            #expect(updated.policyName == "mcp" && updated.clientId == other.clientId && updated.cacheDuration == 86_400)
            #expect(try await cimd.listClientMetadataURLs(ListClientMetadataURLsRequest(
                userPoolId: pool.id!, cimdPolicyId: created.cimdPolicyId)).clientMetadataURLs.map(\.url)
                == ["https://a.clients.example/cimd.json"])

            // The client's deletion leaves the policy, described without it.
            _ = try await env.service.clients.deleteUserPoolClient(
                DeleteUserPoolClientRequest(userPoolId: pool.id!, clientId: other.clientId!))
            let described = try await cimd.describeCIMDPolicy(
                DescribeCIMDPolicyRequest(userPoolId: pool.id!, cimdPolicyId: created.cimdPolicyId)).cimdPolicy
            #expect(described.clientId == nil && described.urlPatterns == ["https://a.clients.example/*"])
            #expect(try await cimd.listCIMDPolicies(ListCIMDPoliciesRequest(userPoolId: pool.id!)).cimdPolicies
                .map(\.clientId) == [nil])

            // Another pool does not see it; deletion is once.
            let elsewhere = try await env.pool()
            await expectCognitoError(.resourceNotFound) {
                _ = try await cimd.describeCIMDPolicy(
                    DescribeCIMDPolicyRequest(userPoolId: elsewhere.id!, cimdPolicyId: created.cimdPolicyId))
            }
            _ = try await cimd.deleteCIMDPolicy(DeleteCIMDPolicyRequest(userPoolId: pool.id!, cimdPolicyId: created.cimdPolicyId))
            await expectCognitoError(.resourceNotFound) {
                _ = try await cimd.deleteCIMDPolicy(DeleteCIMDPolicyRequest(userPoolId: pool.id!, cimdPolicyId: created.cimdPolicyId))
            }
            #expect(try await env.store.read {
                try await $0.clientMetadataURL(policyId: created.cimdPolicyId, url: "https://a.clients.example/cimd.json")
            } == nil)
        }
    }

    @Test func aPoolHasAtMostTwentyPolicies() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.client(pool: pool.id!)
            let request = CreateCIMDPolicyRequest(
                userPoolId: pool.id!, clientId: client.clientId!, policyName: "p", urlPatterns: ["https://c.example/x"])
            for _ in 0..<ClientMetadataDocuments.policiesPerPool {
                _ = try await env.service.clientMetadataDocuments.createCIMDPolicy(request)
            }
            await expectCognitoError(.limitExceeded) { _ = try await env.service.clientMetadataDocuments.createCIMDPolicy(request) }
        }
    }
}
