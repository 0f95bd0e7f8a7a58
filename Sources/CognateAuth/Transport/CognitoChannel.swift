import CognateProtocol
import Foundation

/// Sends operations of the Cognito JSON 1.1 protocol (unsigned: the SDK only calls public
/// operations) and turns every failure into an ``AuthError``.
struct CognitoChannel: Sendable {
    let endpoint: URL
    let transport: any HTTPTransport

    /// Sends `input` as `Operation` and decodes its output.
    ///
    /// Contract: throws `CancellationError` when the calling task is cancelled before a response
    /// arrived, and otherwise only ``AuthError``: `.network` when no response arrived, the mapped
    /// Cognito error for an error body, `.invalidResponse` for anything unreadable. A response
    /// that arrives is used even if the task was cancelled meanwhile (the server acted on it).
    func send<Operation: CognitoOperation>(_ operation: Operation.Type, _ input: Operation.Input) async throws
        -> Operation.Output
    {
        let body: Data
        do {
            body = try WireJSONEncoder.encode(input)
        } catch {
            throw AuthError.invalidResponse("Could not encode \(Operation.name): \(error)")
        }
        let request = HTTPTransportRequest(
            url: endpoint,
            headers: ["Content-Type": WireCoding.contentType, "X-Amz-Target": Operation.target],
            body: body)
        try Task.checkCancellation()
        let response: HTTPTransportResponse
        do {
            response = try await transport.send(request)
        } catch {
            // URLSession reports a cancelled task as URLError(.cancelled); others throw CancellationError.
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            throw AuthError.network(error)
        }
        guard (200..<300).contains(response.statusCode) else { throw Self.error(from: response) }
        let data = response.body.isEmpty ? Data("{}".utf8) : response.body
        do {
            return try WireCoding.makeDecoder().decode(Operation.Output.self, from: data)
        } catch {
            throw AuthError.invalidResponse("\(Operation.name) answered with an unreadable body: \(error)")
        }
    }

    /// The error a non-2xx response carries in its `__type` and `message`.
    static func error(from response: HTTPTransportResponse) -> AuthError {
        guard let body = try? JSONDecoder().decode(WireErrorBody.self, from: response.body) else {
            let text = String(decoding: response.body.prefix(200), as: UTF8.self)
            return .invalidResponse("HTTP \(response.statusCode) without a Cognito error body: \(text)")
        }
        return AuthError(type: body.shapeName, message: body.message ?? "")
    }
}
