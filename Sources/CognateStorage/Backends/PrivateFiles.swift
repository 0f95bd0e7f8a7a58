import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files only the server's own user may read: the SQLite database holds signing keys and
/// password verifiers.
///
/// Contract: a directory the server creates for the database is `0700`; the database file is
/// created `0600` before SQLite opens it (SQLite gives its `-wal` and `-shm` files the
/// database's mode). An existing database, WAL or shared-memory file that others may read is
/// narrowed to `0600`, with a warning naming it.
enum PrivateFiles {
    static func prepareDatabase(at path: String, logger: Logger) throws {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: directory.path) {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        if !FileManager.default.fileExists(atPath: path) {
            let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
            if descriptor >= 0 { close(descriptor) }
        }
        for file in [path, path + "-wal", path + "-shm"] { try narrow(file, logger: logger) }
    }

    /// Removes group and other permissions from an existing file.
    static func narrow(_ path: String, logger: Logger) throws {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue, mode & 0o077 != 0
        else { return }
        try FileManager.default.setAttributes([.posixPermissions: mode & 0o700], ofItemAtPath: path)
        logger.warning("\(path) was readable by other users; it is now \(String(mode & 0o700, radix: 8)).")
    }
}
