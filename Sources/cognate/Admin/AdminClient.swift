import CognateProtocol
import CognateServer
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Calls Cognito operations on a running server: a POST of the input as
/// `application/x-amz-json-1.1` with `X-Amz-Target: AWSCognitoIdentityProviderService.<Operation>`,
/// signed with SigV4 when a signer is configured; or, with `--database`, in this process on the
/// database itself (``DirectOperations``: same operations, same rules).
///
/// Contract: ``call(_:_:)`` returns the operation's output document, or throws
/// ``AdminFailure`` carrying the server's `__type` and message (printed as
/// `Error: <type>: <message>`, exit status 1).
struct AdminClient: Sendable {
    enum Transport: Sendable {
        case server(endpoint: URL, signer: SigV4Signer?)
        case database(DirectOperations)
    }

    let transport: Transport
    var session: URLSession = .shared
    var timeout: TimeInterval = 120

    func call(_ operation: String, _ input: [String: JSONValue] = [:]) async throws -> JSONValue {
        let body = try JSONEncoder().encode(JSONValue.object(input))
        switch transport {
        case .server(let endpoint, let signer): return try await callServer(endpoint, signer, operation, body)
        case .database(let operations): return try await Self.callDirectly(operations, operation, body)
        }
    }

    private func callServer(_ endpoint: URL, _ signer: SigV4Signer?, _ operation: String, _ body: Data) async throws -> JSONValue {
        var headers = ["Content-Type": WireCoding.contentType, "X-Amz-Target": WireCoding.targetPrefix + operation]
        if let signer {
            headers.merge(signer.sign(method: "POST", url: endpoint, headers: headers, body: body), uniquingKeysWith: { $1 })
        }
        let (status, data) = try await send("POST", endpoint, headers: headers, body: body)
        let document = try? JSONDecoder().decode(JSONValue.self, from: data)
        guard (200..<300).contains(status) else {
            let type = document?["__type"]?.string.map { $0.split(separator: "#").last.map(String.init) ?? $0 }
            let message = document?["message"]?.string ?? document?["Message"]?.string
            throw AdminFailure(type: type ?? "HTTP \(status)", message: message ?? String(decoding: data.prefix(500), as: UTF8.self))
        }
        return document ?? .object([:])
    }

    /// Calls a paginated operation until it returns no token, handing each page to `page`.
    /// - Parameters:
    ///   - token: the name of the pagination member (`NextToken`, or `PaginationToken` for ListUsers).
    func paginate(_ operation: String, _ input: [String: JSONValue], token: String = "NextToken",
                  page: (JSONValue) async throws -> Void) async throws {
        var input = input
        while true {
            let output = try await call(operation, input)
            try await page(output)
            guard let next = output[token]?.string, !next.isEmpty else { return }
            input[token] = .string(next)
        }
    }

    /// Every item of the list member `items` over all pages.
    func all(_ operation: String, _ input: [String: JSONValue], items: String, token: String = "NextToken") async throws
        -> [JSONValue]
    {
        var collected: [JSONValue] = []
        try await paginate(operation, input, token: token) { collected += $0[items]?.array ?? [] }
        return collected
    }

    /// PUTs `body` to a pre-signed URL (an import job's upload URL); throws unless the answer is 2xx.
    /// Allows ten minutes: an upload may be 64 MB.
    func upload(_ body: Data, to url: URL, contentType: String = "text/csv") async throws {
        if case .database(let operations) = transport {
            do {
                return try await operations.upload(importFile: body, to: url)
            } catch let failure as DirectOperations.OperationFailure {
                throw AdminFailure(type: "UploadFailed", message: failure.message)
            }
        }
        let (status, data) = try await send("PUT", url, headers: ["Content-Type": contentType], body: body, timeout: 600)
        guard (200..<300).contains(status) else {
            let message = (try? JSONDecoder().decode(JSONValue.self, from: data))?["message"]?.string
            throw AdminFailure(type: "UploadFailed", message: "HTTP \(status) from \(url.host ?? ""): \(message ?? "")")
        }
    }

    /// Closes the database of `--database` mode; nothing to do for a server.
    func close() async {
        if case .database(let operations) = transport { await operations.close() }
    }

    private static func callDirectly(_ operations: DirectOperations, _ operation: String, _ body: Data) async throws -> JSONValue {
        do {
            let output = try await operations.call(operation, body: body)
            return (try? JSONDecoder().decode(JSONValue.self, from: output)) ?? .object([:])
        } catch let failure as DirectOperations.OperationFailure {
            throw AdminFailure(type: failure.type, message: failure.message)
        }
    }

    private func send(_ method: String, _ url: URL, headers: [String: String], body: Data, timeout: TimeInterval? = nil)
        async throws -> (Int, Data)
    {
        var request = URLRequest(url: url, timeoutInterval: timeout ?? self.timeout)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
            return (http.statusCode, data)
        } catch let error as URLError {
            throw AdminFailure(type: "ConnectionFailed", message: "Cannot reach \(url.absoluteString): \(error.localizedDescription). "
                + "Is the server running? (--endpoint, env COGNATE_ENDPOINT)")
        }
    }
}

/// A failed admin call: the server's error type and message, or why the server was not reached.
struct AdminFailure: Error, CustomStringConvertible {
    let type: String
    let message: String
    var description: String { "\(type): \(message)" }
}
