import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

/// A SAML provider's MetadataURL is read at creation and again once six hours have passed
/// (Cognito's longest cache), per node; an unreachable URL leaves the stored metadata in use.
struct SAMLMetadataRefreshTests {
    /// Serves one metadata document, which the test changes; counts the fetches.
    final class MetadataServer: UpstreamHTTP, @unchecked Sendable {
        private let lock = NSLock()
        private var document: String?
        private(set) var fetches = 0

        init(_ document: String) { self.document = document }
        func serve(_ document: String?) { lock.withLock { self.document = document } }
        var fetchCount: Int { lock.withLock { fetches } }

        func send(method: String, url: URL, headers: [String: String], body: Data?) async throws -> UpstreamAnswer {
            try lock.withLock {
                fetches += 1
                guard let document else { throw URLError(.cannotConnectToHost) }
                return UpstreamAnswer(status: 200, body: Data(document.utf8))
            }
        }
    }

    static let metadata = try! String(
        contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../CognateSAMLTests/Fixtures/metadata.xml"), encoding: .utf8)

    @Test func aMetadataURLIsReadAgainAfterSixHours() async throws {
        let server = MetadataServer(Self.metadata)
        try await TestEnvironment.with(upstream: server) { env in
            let pool = try await env.pool()
            _ = try await env.service.federation.createIdentityProvider(CreateIdentityProviderRequest(
                userPoolId: pool.id!, providerName: "Corp", providerType: .saml,
                providerDetails: ["MetadataURL": "https://idp.example.com/metadata"]))
            let client = try await env.service.clients.createUserPoolClient(CreateUserPoolClientRequest(
                userPoolId: pool.id!, clientName: "web", supportedIdentityProviders: ["Corp"],
                callbackURLs: ["https://app.example.com/cb"], allowedOAuthFlows: [.code], allowedOAuthScopes: ["openid"],
                allowedOAuthFlowsUserPoolClient: true)).userPoolClient!
            #expect(server.fetchCount == 1)

            func destination() async throws -> String {
                let request = try await env.service.oauth.authorizationRequest([
                    "client_id": client.clientId!, "redirect_uri": "https://app.example.com/cb", "response_type": "code",
                    "identity_provider": "Corp",
                ])
                let url = try await env.service.federation.beginFederatedSignIn(request, provider: "Corp", browser: .new())
                return String(url.prefix { $0 != "?" })
            }

            server.serve(Self.metadata.replacingOccurrences(of: "https://idp.example.com/sso", with: "https://idp.example.com/sso2"))
            #expect(try await destination() == "https://idp.example.com/sso")    // the stored document
            #expect(server.fetchCount == 1)

            env.time.advance(by: 6 * 3600 + 1)
            #expect(try await destination() == "https://idp.example.com/sso2")   // read again
            #expect(try await destination() == "https://idp.example.com/sso2")   // and kept
            #expect(server.fetchCount == 2)

            // A provider updated since reads its URL then; one that cannot be reached later keeps working.
            _ = try await env.service.federation.updateIdentityProvider(UpdateIdentityProviderRequest(
                userPoolId: pool.id!, providerName: "Corp", providerDetails: ["MetadataURL": "https://idp.example.com/metadata"]))
            server.serve(nil)
            env.time.advance(by: 6 * 3600 + 1)
            #expect(try await destination() == "https://idp.example.com/sso2")
        }
    }
}
