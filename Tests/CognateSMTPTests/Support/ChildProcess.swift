import CognateTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program to completion without blocking a thread of the test's executor.
enum ChildProcess {
    struct Failure: Error, CustomStringConvertible {
        let command: [String]
        let status: Int32
        let output: String
        var description: String { "\(command.joined(separator: " ")) exited with \(status): \(output)" }
    }

    /// Runs `arguments` (looked up on PATH) in `directory`; throws ``Failure`` with its output
    /// unless it exits with status 0.
    static func run(_ arguments: [String], in directory: URL) async throws {
        let outputFile = directory.appendingPathComponent("command-\(UUID().uuidString).log")
        let output = open(outputFile.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw Failure(command: arguments, status: -1, output: "cannot create \(outputFile.path)") }
        let process: SpawnedProcess
        do {
            defer { close(output) }
            process = try SpawnedProcess.spawn(arguments, in: directory, output: output)
        }
        let status = await process.exit()
        guard status == 0 else {
            let text = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
            throw Failure(command: arguments, status: status, output: text)
        }
    }
}
