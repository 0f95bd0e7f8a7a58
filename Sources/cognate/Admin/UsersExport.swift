import ArgumentParser
import CognateProtocol
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Users {
    /// `cognate users export --pool P [--format csv|jsonl] [--file F]`.
    ///
    /// Contract: pages through ListUsers and writes every user once: as Cognito's import CSV
    /// (GetCSVHeader's columns; `users import` or Cognito's own import job reads it back) or as
    /// JSON lines (each line a ListUsers user object). Standard output unless `--file`. A
    /// progress line on standard error only when it is a terminal; the count at the end always.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write all of a pool's users to CSV (Cognito's import columns) or JSON lines (through the running server).",
            discussion: """
                CSV holds what an import can restore: the attributes and the user name. Passwords, \
                MFA settings, devices, groups and the sub are not exported: Cognito's import does not \
                take them either (imported users are RESET_REQUIRED). JSON lines hold each user as \
                ListUsers returns it, Enabled included: `users import` disables the users marked \
                disabled; CSV has no column for it (the export says how many are disabled).
                """)
        @OptionGroup var connection: AdminConnection
        @Option(help: "The pool id.") var pool: String
        @Option(help: "csv or jsonl (default: jsonl for a .jsonl or .ndjson file, else csv).") var format: UserFileFormat?
        @Option(help: "The file to write (default: standard output).") var file: String?

        func run() async throws {
            try await connection.withClient { try await export(with: $0) }
        }

        private func export(with client: AdminClient) async throws {
            let format = UserFileFormat.resolve(format, file: file)
            let output = try OutputFile(path: file)
            // Not over users written to the same terminal.
            let progress = file == nil && isatty(STDOUT_FILENO) == 1 ? ProgressLine(enabled: false) : ProgressLine()
            var estimate: Int?
            if progress.enabled {
                estimate = try? await client.call("DescribeUserPool", ["UserPoolId": .string(pool)])["UserPool"]?["EstimatedNumberOfUsers"]?.int
            }
            var header: [String] = []
            if format == .csv {
                header = try await client.call("GetCSVHeader", ["UserPoolId": .string(pool)])["CSVHeader"]?.array.compactMap(\.string) ?? []
                try output.write(CSVFormat.record(header))
            }
            var count = 0
            var disabled = 0
            var leftOut = Set<String>()
            try await client.paginate("ListUsers", ["UserPoolId": .string(pool), "Limit": .number(60)], token: "PaginationToken") { page in
                for user in page["Users"]?.array ?? [] {
                    switch format {
                    case .csv: try output.write(CSVFormat.record(CSVFormat.row(user, header: header, leftOut: &leftOut)))
                    case .jsonl: try output.write(user.compactJSON + "\n")
                    }
                    count += 1
                    if user["Enabled"] == .bool(false) { disabled += 1 }
                }
                progress.update("Exported \(count)" + (estimate.map { " of about \($0)" } ?? "") + " users")
            }
            progress.update("Exported \(count)" + (estimate.map { " of about \($0)" } ?? "") + " users", force: true)
            try output.close()
            progress.finish()
            if !leftOut.isEmpty {
                FileHandle.standardError.write(Data("Attributes without an import column, left out: \(leftOut.sorted().joined(separator: ", "))\n".utf8))
            }
            if disabled > 0 && format == .csv {
                FileHandle.standardError.write(Data(("\(disabled) of the users \(disabled == 1 ? "is" : "are") disabled: CSV (Cognito's "
                    + "import columns) cannot say so, and an import of it enables them; --format jsonl keeps it.\n").utf8))
            }
            FileHandle.standardError.write(Data("Exported \(count) user\(count == 1 ? "" : "s") of \(pool) as \(format.rawValue)\(file.map { " to \($0)" } ?? "").\n".utf8))
        }
    }
}

/// A file (or standard output) written through a 1 MB buffer.
final class OutputFile {
    private let handle: FileHandle
    private let owned: Bool
    private var buffer = Data()

    init(path: String?) throws {
        guard let path else {
            handle = .standardOutput
            owned = false
            return
        }
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw StartupFailure("Cannot write \(path).")
        }
        self.handle = handle
        owned = true
    }

    func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { try flush() }
    }

    func flush() throws {
        guard !buffer.isEmpty else { return }
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws {
        try flush()
        if owned { try handle.close() }
    }
}
