import CognateProtocol
import CognateStorage
import Foundation
import Logging

@testable import CognateCore

/// A clock tests move by hand.
final class ManualTime: TimeSource, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = Date(timeIntervalSince1970: 1_795_000_000)) { current = start }

    var now: Date { lock.withLock { current } }
    func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }
}

/// Keeps every message "sent", so tests can read codes.
final class CapturingDelivery: MessageDelivery, @unchecked Sendable {
    private let lock = NSLock()
    private var sent: [OutboundMessage] = []

    func deliver(_ message: OutboundMessage) async throws { lock.withLock { sent.append(message) } }
    var messages: [OutboundMessage] { lock.withLock { sent } }
    var lastCode: String? { messages.last?.code }
}

/// A service over a fresh SQLite database in a temporary directory.
struct TestEnvironment {
    let service: IdentityService
    let time: ManualTime
    let delivery: CapturingDelivery
    let store: SQLStore

    /// Runs `body` with a fresh environment and closes its database afterwards.
    static func with(configuration: CoreConfiguration = CoreConfiguration(), upstream: (any UpstreamHTTP)? = nil,
                     _ body: (TestEnvironment) async throws -> Void) async throws {
        let env = try await make(configuration: configuration, upstream: upstream)
        do {
            try await body(env)
        } catch {
            await env.store.close()
            throw error
        }
        await env.store.close()
    }

    private static func make(configuration: CoreConfiguration, upstream: (any UpstreamHTTP)?) async throws -> TestEnvironment {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cognate-core-\(UUID().uuidString)")
        let store = try await SQLStore.open(directory.appendingPathComponent("test.sqlite").path, logger: Logger(label: "test"))
        let time = ManualTime()
        let delivery = CapturingDelivery()
        let service: IdentityService
        if let upstream {
            service = try await IdentityService.start(
                store: store, channels: DeliveryChannels(delivery), configuration: configuration, time: time, upstream: upstream)
        } else {
            service = try await IdentityService.start(store: store, delivery: delivery, configuration: configuration, time: time)
        }
        return TestEnvironment(service: service, time: time, delivery: delivery, store: store)
    }

    func pool(_ request: CreateUserPoolRequest = CreateUserPoolRequest(poolName: "test", autoVerifiedAttributes: [.email]))
        async throws -> UserPoolType
    {
        try await service.pools.createUserPool(request).userPool!
    }

    func client(pool: String, secret: Bool = false, flows: [ExplicitAuthFlowsType] = [.allowUserPasswordAuth, .allowRefreshTokenAuth],
                prevent: PreventUserExistenceErrorTypes? = nil) async throws -> UserPoolClientType
    {
        try await service.clients.createUserPoolClient(CreateUserPoolClientRequest(
            userPoolId: pool, clientName: "app", generateSecret: secret, explicitAuthFlows: flows,
            preventUserExistenceErrors: prevent)).userPoolClient!
    }

    /// Signs a user up and confirms them with the delivered code.
    func confirmedUser(_ username: String, password: String = "Passw0rd!", email: String = "u@example.com",
                       client: UserPoolClientType) async throws {
        _ = try await service.registration.signUp(SignUpRequest(
            clientId: client.clientId!, username: username, password: password,
            userAttributes: [AttributeType(name: "email", value: email)]))
        _ = try await service.registration.confirmSignUp(ConfirmSignUpRequest(
            clientId: client.clientId!, username: username, confirmationCode: delivery.lastCode!))
    }

    func passwordSignIn(_ username: String, _ password: String = "Passw0rd!", client: UserPoolClientType)
        async throws -> AuthenticationResultType
    {
        try await service.signIn.initiateAuth(InitiateAuthRequest(
            authFlow: .userPasswordAuth, authParameters: ["USERNAME": username, "PASSWORD": password],
            clientId: client.clientId!)).authenticationResult!
    }
}

/// The payload of a JWT, unverified (tests check claims; signatures are checked elsewhere).
func claims(of token: String) -> [String: Any] {
    let payload = token.split(separator: ".")[1]
    let data = Base64URL.decode(payload)!
    return try! JSONSerialization.jsonObject(with: data) as! [String: Any]
}

/// Asserts the use case fails with this Cognito error code.
func expectCognitoError(_ code: CognitoErrorCode, _ body: () async throws -> Void,
                        sourceLocation: Testing.SourceLocation = #_sourceLocation) async {
    do {
        try await body()
        Issue.record("expected \(code.rawValue), got success", sourceLocation: sourceLocation)
    } catch let error as CognitoError {
        #expect(error.code == code, "\(error.message)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(code.rawValue), got \(error)", sourceLocation: sourceLocation)
    }
}

import Testing
