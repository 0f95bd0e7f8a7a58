import CognateAuth
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Counts requests by operation (and refreshes separately) on their way to a real transport;
/// refreshes can be slowed down so concurrent callers certainly overlap.
final class CountingTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    private var refreshes = 0
    let inner: any HTTPTransport
    let refreshDelay: Duration

    init(_ inner: any HTTPTransport = URLSessionTransport(), refreshDelay: Duration = .zero) {
        self.inner = inner
        self.refreshDelay = refreshDelay
    }

    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        let isRefresh = request.operationName == "InitiateAuth"
            && String(decoding: request.body, as: UTF8.self).contains("REFRESH_TOKEN_AUTH")
        lock.withLock {
            counts[request.operationName ?? "?", default: 0] += 1
            if isRefresh { refreshes += 1 }
        }
        if isRefresh && refreshDelay > .zero { try await Task.sleep(for: refreshDelay) }
        return try await inner.send(request)
    }

    var refreshCount: Int { lock.withLock { refreshes } }
    func count(_ operation: String) -> Int { lock.withLock { counts[operation] ?? 0 } }
}

/// A server that cannot be reached.
struct UnreachableTransport: HTTPTransport {
    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        throw URLError(.cannotConnectToHost)
    }
}

/// Answers chosen operations with a canned error body; passes the rest on.
struct CannedErrorTransport: HTTPTransport {
    let inner: any HTTPTransport
    let errors: [String: (type: String, message: String)]

    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        guard let operation = request.operationName, let error = errors[operation] else {
            return try await inner.send(request)
        }
        let body = try JSONSerialization.data(withJSONObject: ["__type": error.type, "message": error.message])
        return HTTPTransportResponse(statusCode: 400, body: body)
    }
}
