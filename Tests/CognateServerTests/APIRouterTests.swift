import CognateAssembly
import CognateProtocol
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import CognateServer

/// The API responder in-process: protocol-level errors and dispatch, without a socket.
struct APIRouterTests {
    static func withServer(mode: ServerConfiguration.Mode = .dev, maxBody: Int = 1 << 20,
                           _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        var config = ServerConfiguration()
        config.database = FileManager.default.temporaryDirectory.appendingPathComponent("cognate-\(UUID().uuidString).sqlite").path
        config.mode = mode
        config.maxBodyBytes = maxBody
        config.adminCredentials = ["AKID": "SECRET"]
        // No socket: any free port passes prepare's check, and the issuer stays the default's.
        config.port = 0
        config.publicBaseURL = "http://127.0.0.1:9229"
        let server = try await ServerAssembly.prepare(config, logger: Logger(label: "test"))
        let app = Application(router: server.makeRouter())
        do {
            try await app.test(.router, body)
        } catch {
            await server.close()
            throw error
        }
        await server.close()
    }

    static func call(_ client: any TestClientProtocol, _ target: String?, _ json: String,
                     contentType: String = "application/x-amz-json-1.1") async throws -> (Int, WireErrorBody?, Data) {
        var headers: HTTPFields = [.contentType: contentType]
        if let target { headers[HTTPField.Name("x-amz-target")!] = target }
        return try await client.execute(uri: "/", method: .post, headers: headers, body: ByteBuffer(string: json)) { response in
            let data = Data(buffer: response.body)
            #expect(response.headers[HTTPField.Name("x-amzn-RequestId")!] != nil)
            return (response.status.code, try? JSONDecoder().decode(WireErrorBody.self, from: data), data)
        }
    }

    @Test func protocolErrorsAreCognitoShaped() async throws {
        try await Self.withServer { client in
            var (status, error, _) = try await Self.call(client, "AWSCognitoIdentityProviderService.Nope", "{}")
            #expect(status == 400 && error?.type == "UnknownOperationException")
            (status, error, _) = try await Self.call(client, nil, "{}")
            #expect(status == 400 && error?.type == "UnknownOperationException")
            (status, error, _) = try await Self.call(client, "AWSCognitoIdentityProviderService.SignUp", "{not json")
            #expect(status == 400 && error?.type == "SerializationException")
            (status, error, _) = try await Self.call(client, "AWSCognitoIdentityProviderService.SignUp", #"{"ClientId":5,"Username":"u"}"#)
            #expect(status == 400 && error?.type == "SerializationException")
            (status, error, _) = try await Self.call(client, "AWSCognitoIdentityProviderService.SignUp", "[]")
            #expect(status == 400 && error?.type == "SerializationException")
            (status, error, _) = try await Self.call(client, "AWSCognitoIdentityProviderService.SignUp", "")
            #expect(status == 400 && error?.type == "InvalidParameterException")
            #expect(error?.message?.hasPrefix("2 validation errors detected") == true)
            (status, error, _) = try await Self.call(
                client, "AWSCognitoIdentityProviderService.SignUp", #"{"ClientId":"nope","Username":"u","Password":"p"}"#,
                contentType: "application/json")
            #expect(status == 400 && error?.type == "ResourceNotFoundException")
        }
    }

    @Test func oversizeBodiesAreRefused() async throws {
        try await Self.withServer(maxBody: 1024) { client in
            let big = #"{"PoolName":""# + String(repeating: "x", count: 2000) + #""}"#
            let (status, error, _) = try await Self.call(client, "AWSCognitoIdentityProviderService.CreateUserPool", big)
            #expect(status == 400 && error?.type == "InvalidParameterException")
        }
    }

    @Test func productionModeRequiresSignaturesOnAdminOperationsOnly() async throws {
        try await Self.withServer(mode: .production) { client in
            var (status, error, _) = try await Self.call(client, "AWSCognitoIdentityProviderService.ListUserPools", #"{"MaxResults":10}"#)
            #expect(status == 400 && error?.type == "MissingAuthenticationTokenException")
            (status, error, _) = try await Self.call(
                client, "AWSCognitoIdentityProviderService.SignUp", #"{"ClientId":"nope","Username":"u","Password":"p"}"#)
            #expect(error?.type == "ResourceNotFoundException")  // public: no signature needed
        }
    }

    @Test func devModeServesTheFlowAndWellKnownDocuments() async throws {
        try await Self.withServer { client in
            let (status, _, data) = try await Self.call(
                client, "AWSCognitoIdentityProviderService.CreateUserPool", #"{"PoolName":"p"}"#)
            #expect(status == 200)
            let pool = try WireCoding.makeDecoder().decode(CreateUserPoolResponse.self, from: data).userPool!
            try await client.execute(uri: "/\(pool.id!)/.well-known/jwks.json", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("\"RS256\""))
            }
            try await client.execute(uri: "/\(pool.id!)/.well-known/openid-configuration", method: .get) { response in
                #expect(String(buffer: response.body).contains("\"issuer\":\"http:\\/\\/127.0.0.1:9229\\/\(pool.id!)\""))
            }
            try await client.execute(uri: "/us-east-1_missing/.well-known/jwks.json", method: .get) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/ready", method: .get) { response in #expect(response.status == .ok) }
            try await client.execute(uri: "/_dev/outbox", method: .get) { response in #expect(response.status == .ok) }
        }
    }
}
