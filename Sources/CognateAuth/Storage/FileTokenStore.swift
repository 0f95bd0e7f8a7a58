import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``TokenStore`` in one JSON file (every profile of the store), for Linux and for Apple
/// platforms where the Keychain is not wanted (command-line tools, tests). Apps on Apple
/// platforms use ``KeychainTokenStore``.
///
/// The directory is created with mode 0700 and the file with mode 0600. Every write replaces
/// the file atomically: the new content goes to a temporary file in the same directory, which
/// is flushed and renamed over the old one, so a crash leaves the old or the new file, never a
/// torn one. Writes within one process are serialized; two processes writing the same store at
/// once may lose one write (use one store file per process or per app).
///
/// On Apple platforms each file is created excluded from backups (tokens are this device's)
/// and, on iOS, tvOS, watchOS and visionOS, with the data protection class ``protection``
/// (set before anything is written to it). A read the protection refuses (a locked device)
/// surfaces as ``AuthState/storageUnavailable``.
public actor FileTokenStore: TokenStore {
    /// The data protection class of the file (Apple's `FileProtectionType`; without effect on
    /// macOS, where FileVault protects the disk, and on Linux).
    public enum Protection: Sendable {
        /// Readable from the first unlock after a restart (background refreshes work).
        case completeUntilFirstUserAuthentication
        /// Readable only while the device is unlocked.
        case complete
    }

    public nonisolated let fileURL: URL
    public nonisolated let protection: Protection

    /// - Parameters:
    ///   - directory: where the file lives (created if missing).
    ///   - name: the store's name; the file is `<name>.json`.
    ///   - protection: the file's data protection class on iOS, tvOS, watchOS and visionOS.
    public init(directory: URL, name: String = "cognate-auth", protection: Protection = .completeUntilFirstUserAuthentication) {
        self.fileURL = directory.appendingPathComponent("\(name).json")
        self.protection = protection
    }

    struct Contents: Codable {
        var version = 1
        var profiles: [String: ProfileRecord] = [:]
    }

    public func profiles() throws -> [String] { try read().profiles.keys.sorted() }

    public func load(profile: String) throws -> ProfileRecord? { try read().profiles[profile] }

    public func save(_ record: ProfileRecord, profile: String) throws {
        var contents = try read()
        contents.profiles[profile] = record
        try write(contents)
    }

    public func remove(profile: String) throws {
        var contents = try read()
        guard contents.profiles.removeValue(forKey: profile) != nil else { return }
        try write(contents)
    }

    private func read() throws -> Contents {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return Contents() }
        let data = try Data(contentsOf: fileURL)
        return try ProfileRecordCoding.makeDecoder().decode(Contents.self, from: data)
    }

    private func write(_ contents: Contents) throws {
        let encoder = ProfileRecordCoding.makeEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data = try encoder.encode(contents)
        let directory = fileURL.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = directory.appendingPathComponent(".\(fileURL.lastPathComponent).\(UUID().uuidString).tmp")
        try Self.writeNewFile(data, path: temporary.path, mode: 0o600, protection: protection)
        guard rename(temporary.path, fileURL.path) == 0 else {
            let error = Self.posixError("rename")
            unlink(temporary.path)
            throw error
        }
    }

    /// Creates `path` (which must not exist) with `mode` and the platform's protection from
    /// the start, writes and flushes it.
    private static func writeNewFile(_ data: Data, path: String, mode: mode_t, protection: Protection) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard descriptor >= 0 else { throw posixError("open") }
        defer { close(descriptor) }
        do {
            try FileTokenStore.protect(path: path, with: protection)
        } catch {
            unlink(path)
            throw error
        }
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = posixWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                guard written > 0 else {
                    if written < 0 && errno == EINTR { continue }
                    unlink(path)
                    throw posixError("write")
                }
                offset += written
            }
        }
        guard fsync(descriptor) == 0 else { throw posixError("fsync") }
    }

    private static func posixError(_ call: String) -> Error {
        NSError(domain: NSPOSIXErrorDomain, code: Int(errno), userInfo: [NSLocalizedDescriptionKey: "\(call) failed: \(String(cString: strerror(errno)))"])
    }
}

/// `write(2)`, named apart from the store's own `write`.
private func posixWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #elseif canImport(Musl)
    Musl.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}
