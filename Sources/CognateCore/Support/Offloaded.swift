import Dispatch

/// Runs CPU-heavy cryptography (3072-bit modular exponentiations, RSA signatures: 0.25–0.85 ms
/// each) on Dispatch's global pool instead of the calling thread.
///
/// Contract: returns or throws what `body` does. The server hands Swift Concurrency to NIO's
/// event loops (the threads that read and write sockets); work this long on them would hold up
/// every connection of that loop, so sign-in, sign-up and token issuing call their cryptography
/// through here. Where no one took the executor over (tests, the SDK), it costs two thread
/// hand-offs, a few microseconds against the work.
func offloaded<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Swift.Result { try body() }) }
    }
}

/// ``offloaded(_:)`` for work that cannot fail.
func offloaded<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: body()) }
    }
}
