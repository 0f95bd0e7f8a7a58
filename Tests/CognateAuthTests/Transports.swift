import CognateAuth
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Counts requests by operation (and refreshes separately) and keeps their bodies on their way
/// to a real transport; refreshes can be slowed down so concurrent callers certainly overlap.
final class CountingTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    private var bodies: [String: [Data]] = [:]
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
            bodies[request.operationName ?? "?", default: []].append(request.body)
            if isRefresh { refreshes += 1 }
        }
        if isRefresh && refreshDelay > .zero { try await Task.sleep(for: refreshDelay) }
        return try await inner.send(request)
    }

    var refreshCount: Int { lock.withLock { refreshes } }
    func count(_ operation: String) -> Int { lock.withLock { counts[operation] ?? 0 } }

    /// The JSON bodies sent for an operation, oldest first.
    func sentBodies(_ operation: String) -> [[String: Any]] {
        lock.withLock { bodies[operation] ?? [] }.map {
            (try? JSONSerialization.jsonObject(with: $0)) as? [String: Any] ?? [:]
        }
    }
}

/// Holds every request until its task is cancelled, then fails it as the wrapped transport
/// would: URLSession with `URLError(.cancelled)`, others with `CancellationError`. Each request
/// that arrives is announced on ``arrivals`` (so a test cancels while one is in flight).
final class HoldingTransport: HTTPTransport, Sendable {
    let cancellationError: any Error & Sendable
    let arrivals: AsyncStream<String>
    private let arrived: AsyncStream<String>.Continuation

    init(cancellationError: any Error & Sendable) {
        self.cancellationError = cancellationError
        (arrivals, arrived) = AsyncStream.makeStream(of: String.self)
    }

    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        arrived.yield(request.operationName ?? "?")
        do {
            try await Task.sleep(nanoseconds: 3_600_000_000_000)
        } catch {
            throw cancellationError
        }
        throw URLError(.timedOut)
    }
}

/// A server that cannot be reached.
struct UnreachableTransport: HTTPTransport {
    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        throw URLError(.cannotConnectToHost)
    }
}

/// Fails the first request of one operation as an unreachable server would, then passes every
/// request to a real transport.
final class FailingOnceTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var failed = false
    let operation: String
    let inner: any HTTPTransport

    init(failing operation: String, _ inner: any HTTPTransport = URLSessionTransport()) {
        self.operation = operation
        self.inner = inner
    }

    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        let fails = lock.withLock {
            guard request.operationName == operation, !failed else { return false }
            failed = true
            return true
        }
        if fails { throw URLError(.networkConnectionLost) }
        return try await inner.send(request)
    }
}
