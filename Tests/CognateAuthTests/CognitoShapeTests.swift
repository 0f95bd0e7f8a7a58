import CognateAuth
import Foundation
import Testing

/// The transport that holds the SDK to Cognito's shape (API at the endpoint, OAuth at the
/// domain), and that `COGNATE_SDK_COGNITO_SHAPE=1` puts under every LiveServer client.
struct CognitoShapeTests {
    final class Answering: HTTPTransport, @unchecked Sendable {
        func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
            HTTPTransportResponse(statusCode: 200, body: Data("{}".utf8))
        }
    }

    @Test func requestsToTheWrongHostAreRefused() async throws {
        let shape = CognitoShapeTransport(inner: Answering(), apiHost: "127.0.0.1", domainHost: "localhost")
        let api = ["X-Amz-Target": "AWSCognitoIdentityProviderService.InitiateAuth"]
        _ = try await shape.send(HTTPTransportRequest(url: URL(string: "http://127.0.0.1:1/")!, headers: api, body: Data()))
        _ = try await shape.send(HTTPTransportRequest(url: URL(string: "http://localhost:1/oauth2/token")!, headers: [:], body: Data()))
        await #expect(throws: CognitoShapeTransport.Refused.self) {
            _ = try await shape.send(HTTPTransportRequest(url: URL(string: "http://localhost:1/")!, headers: api, body: Data()))
        }
        await #expect(throws: CognitoShapeTransport.Refused.self) {
            _ = try await shape.send(HTTPTransportRequest(url: URL(string: "http://127.0.0.1:1/oauth2/token")!, headers: [:], body: Data()))
        }
    }

    @Test func theModeConfiguresEveryLiveClientSo() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let configuration = live.configuration(pool: pool, client: try await live.makeClient(pool: pool))
            #expect((configuration.oauthDomain?.host == "localhost") == CognitoShapeTransport.enabled)
            #expect((configuration.transport is CognitoShapeTransport) == CognitoShapeTransport.enabled)
        }
    }
}
