import CognateCore
import CognateProtocol
import Foundation

/// The operations this server implements, by name, each bound to its use case.
///
/// Registering an operation is the only step needed to serve it: the responder checks SigV4
/// when the model says so; the handler decodes the model's input type (collecting every
/// validation failure), calls the use case (on the connection's event loop, or where the
/// server's ``WorkPlacement`` puts `.cryptographic` work) and encodes the model's output type.
struct OperationTable: Sendable {
    /// What an operation's work is made of, which decides the thread it runs on.
    enum Work: Sendable {
        /// Reads, writes and light computation: runs on the event loop that read the request,
        /// with no thread hand-off. Two RS256 signatures (a refresh, 0.45 ms) count as light:
        /// measured, the hand-off to the pool and back cost more than they hold up the loop.
        case light
        /// Modular exponentiations or key generation (half a millisecond or more, often with
        /// signatures besides): on SQLite runs on Swift's cooperative pool, so that it spreads
        /// over the cores and does not hold up the other connections of the event loop; on
        /// PostgreSQL stays on the loop, where its statements are answered (``WorkPlacement``).
        case cryptographic
    }

    struct Handler: Sendable {
        /// How metrics, the access log and the audit log name it: the operation's name for the
        /// user-pool API, `cognito-identity:<name>` for the identity-pool API (both have a
        /// TagResource).
        let name: String
        let authorization: OperationAuthorization
        let invoke: @Sendable (_ body: Data, _ service: IdentityService, _ placement: WorkPlacement) async throws -> Data
    }

    /// By the whole `X-Amz-Target` value (`AWSCognitoIdentityProviderService.SignUp`).
    private(set) var handlers: [String: Handler] = [:]

    /// The user-pool operations served (README counts them).
    var operationNames: [String] { names(prefix: WireCoding.targetPrefix) }
    /// The identity-pool operations served.
    var identityOperationNames: [String] { names(prefix: WireCoding.identityTargetPrefix) }

    private func names(prefix: String) -> [String] {
        handlers.keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }.sorted()
    }

    /// The handler of an `X-Amz-Target` value.
    func handler(forTarget target: String?) -> Handler? { target.flatMap { handlers[$0] } }

    /// An operation's use case, called with the service and the decoded input. A call, not a
    /// method reference (`{ $0.signIn.initiateAuth }`): a partial application copies the use
    /// case's whole value into a closure on every request.
    typealias UseCase<Operation: CognitoOperation> =
        @Sendable (IdentityService, Operation.Input) async throws -> Operation.Output

    /// `authorization`: where the operation's own credentials authorize it although the model
    /// marks it signed (GetClientToken: the client secret; Cognito evaluates no IAM policy).
    mutating func register<Operation: CognitoOperation>(
        _ operation: Operation.Type,
        _ useCase: @escaping UseCase<Operation>,
        work: Work = .light, authorization: OperationAuthorization? = nil
    ) {
        register(operation, useCase, work: { _ in work }, authorization: authorization)
    }

    /// An operation whose work depends on its input (InitiateAuth: a refresh signs, a password
    /// sign-in exponentiates).
    mutating func register<Operation: CognitoOperation>(
        _ operation: Operation.Type,
        _ useCase: @escaping UseCase<Operation>,
        work: @escaping @Sendable (Operation.Input) -> Work, authorization: OperationAuthorization? = nil
    ) {
        let name = Operation.targetPrefix == WireCoding.targetPrefix ? Operation.name : "cognito-identity:" + Operation.name
        handlers[Operation.target] = Handler(
            name: name, authorization: authorization ?? Operation.authorization
        ) { body, service, placement in
            let input = try Self.decode(Operation.Input.self, from: body)
            let output = switch work(input) {
            case .light: try await useCase(service, input)
            case .cryptographic: try await placement.run { try await useCase(service, input) }
            }
            return try WireJSONEncoder.encode(output)
        }
    }

    /// Strict decoding: JSON syntax and type errors are SerializationException; missing members
    /// and constraint violations are one InvalidParameterException naming all of them.
    static func decode<Input: WireShape>(_ type: Input.Type, from body: Data) throws -> Input {
        let report = WireValidationReport()
        let input: Input
        do {
            input = try WireJSONDecoder.decode(type, from: body.isEmpty ? Data("{}".utf8) : body, report: report)
        } catch let error as DecodingError {
            throw WireFault.serialization(error)
        }
        if let message = report.message { throw CognitoError.invalidParameter(message) }
        return input
    }
}

extension OperationTable.Work {
    /// A sign-in's work by its flow: a refresh signs two tokens (light); every other flow
    /// starts with an exponentiation (SRP's g^b, a password's g^x) or may (custom flows).
    static func of(_ flow: AuthFlowType) -> Self {
        switch flow {
        case .refreshTokenAuth, .refreshToken: .light
        default: .cryptographic
        }
    }
}
