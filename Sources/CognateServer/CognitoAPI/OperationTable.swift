import CognateCore
import CognateProtocol
import Foundation

/// The operations this server implements, by name, each bound to its use case.
///
/// Registering an operation is the only step needed to serve it: the responder decodes the
/// model's input type (collecting every validation failure), checks SigV4 when the model says
/// so, calls the use case (on the connection's event loop, or on the shared pool for
/// `.cryptographic` operations) and encodes the model's output type.
struct OperationTable: Sendable {
    /// What an operation's work is made of, which decides the thread it runs on.
    enum Work: Sendable {
        /// Reads, writes and light computation (well under a millisecond): runs on the event loop
        /// that read the request, with no thread hand-off.
        case light
        /// Modular exponentiations, RSA signatures or key generation (a millisecond or more):
        /// runs on Swift's cooperative pool, so that it spreads over the cores and does not hold
        /// up the other connections of the event loop (`SharedPool`).
        case cryptographic
    }

    struct Handler: Sendable {
        let authorization: OperationAuthorization
        let work: Work
        let invoke: @Sendable (_ body: Data, _ service: IdentityService) async throws -> Data
    }

    private(set) var handlers: [String: Handler] = [:]

    var operationNames: [String] { handlers.keys.sorted() }

    mutating func register<Operation: CognitoOperation>(
        _ operation: Operation.Type,
        _ useCase: @escaping @Sendable (IdentityService) -> (Operation.Input) async throws -> Operation.Output,
        work: Work = .light
    ) {
        handlers[Operation.name] = Handler(authorization: Operation.authorization, work: work) { body, service in
            let input = try Self.decode(Operation.Input.self, from: body)
            let output = try await useCase(service)(input)
            return try WireJSONEncoder.encode(output)
        }
    }

    /// Strict decoding: JSON syntax and type errors are SerializationException; missing members
    /// and constraint violations are one InvalidParameterException naming all of them.
    static func decode<Input: WireShape>(_ type: Input.Type, from body: Data) throws -> Input {
        let report = WireValidationReport()
        let input: Input
        do {
            input = try WireCoding.makeDecoder(validating: report).decode(type, from: body.isEmpty ? Data("{}".utf8) : body)
        } catch let error as DecodingError {
            throw WireFault.serialization(error)
        }
        if let message = report.message { throw CognitoError.invalidParameter(message) }
        return input
    }
}
