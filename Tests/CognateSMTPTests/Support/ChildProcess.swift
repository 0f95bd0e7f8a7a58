import Foundation

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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let outputFile = directory.appendingPathComponent("command-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputFile)
        defer { try? output.close() }
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try ProcessLaunches.run(process)
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        guard status == 0 else {
            let text = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
            throw Failure(command: arguments, status: status, output: text)
        }
    }
}
