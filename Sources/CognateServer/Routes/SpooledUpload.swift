import Foundation
import Hummingbird
import NIOCore
import NIOPosix

/// A request body written to a private temporary file as it arrives, so that a large upload
/// costs disk, not memory.
///
/// Contract: the file is created new (`O_EXCL`), readable by this process's user only (0600),
/// in the system's temporary directory (`TMPDIR`); the body goes to it in pieces of at most
/// `chunkBytes`, written on NIO's thread pool, never on an event loop. A body longer than
/// `limit` stops being read at the first piece past it (`TooLarge`), and the file is removed.
/// Whoever receives a `SpooledUpload` removes it with `discard()`.
struct SpooledUpload: Sendable {
    let path: String
    let byteCount: Int

    /// The body was longer than the limit.
    struct TooLarge: Error {}

    static let chunkBytes = 1 << 20

    static func receive(_ body: RequestBody, limit: Int) async throws -> SpooledUpload {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("cognate-upload-\(UUID().uuidString).part").path
        let files = NonBlockingFileIO(threadPool: .singleton)
        var received = 0
        do {
            try await files.withFileHandle(
                _deprecatedPath: path, mode: .write, flags: .posix(flags: O_CREAT | O_EXCL, mode: 0o600)
            ) { handle in
                var pending = ByteBuffer()
                for try await var buffer in body {
                    received += buffer.readableBytes
                    guard received <= limit else { throw TooLarge() }
                    pending.writeBuffer(&buffer)
                    if pending.readableBytes >= chunkBytes {
                        try await files.write(fileHandle: handle, buffer: pending)
                        pending.clear()
                    }
                }
                try await files.write(fileHandle: handle, buffer: pending)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
        return SpooledUpload(path: path, byteCount: received)
    }

    /// The file's bytes, mapped rather than read when the system allows.
    func contents() throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
    }

    func discard() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
