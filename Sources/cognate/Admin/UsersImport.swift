import ArgumentParser
import CognateProtocol
import Foundation

extension Users {
    /// `cognate users import --pool P --file F [--format csv|jsonl]`.
    ///
    /// Contract: uses Cognito's import job API as an AWS user would: GetCSVHeader,
    /// CreateUserImportJob, a PUT of the CSV to the job's PreSignedUrl, StartUserImportJob, then
    /// DescribeUserImportJob until the job is Succeeded, Failed or Stopped. JSON lines are turned
    /// into CSV first (GetCSVHeader's columns). A file larger than one job takes (the server
    /// refuses uploads over 100 MB) goes in several jobs, one after the other, each with the
    /// header; the first job that fails or is stopped ends the import. Prints the summed counts;
    /// exit status 1 when a job failed or was stopped.
    /// Imported users are RESET_REQUIRED, as in Cognito. A user that JSON lines mark disabled
    /// (`"Enabled": false`, as `users export --format jsonl` writes) is disabled after its job
    /// (AdminDisableUser), if the job made it: its name had no user before the job, and has a
    /// RESET_REQUIRED one after. CSV has no column for it.
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import users from CSV or JSON lines with Cognito's user import jobs (through the running server).",
            discussion: """
                Runs GetCSVHeader, CreateUserImportJob, a PUT of the CSV to the job's PreSignedUrl, \
                StartUserImportJob, then DescribeUserImportJob until the job ends. JSON lines become \
                CSV first; a file over 64 MB goes in several jobs, one after another. Imported users \
                are RESET_REQUIRED, as in Cognito; users JSON lines mark disabled ("Enabled": false) \
                are disabled after the import. Prints the imported, skipped and failed counts; the \
                exit status is 1 when a job failed or was stopped (rows that fail are counted, and the \
                first are named on standard error).
                """)
        @OptionGroup var connection: AdminConnection
        @Option(help: "The pool id.") var pool: String
        @Option(help: "The file to read, - for standard input (CSV with GetCSVHeader's columns, or JSON lines as `users export` writes).")
        var file: String
        @Option(help: "csv or jsonl (default: jsonl for a .jsonl or .ndjson file, else csv).") var format: UserFileFormat?
        @Option(help: "The CloudWatchLogsRoleArn CreateUserImportJob requires (Cognate does not use it).")
        var roleArn = "arn:aws:iam::000000000000:role/CognateUserImport"
        @Option(help: ArgumentHelp("Largest upload per import job, in bytes.", visibility: .hidden))
        var maxJobBytes = 64 * 1024 * 1024

        func run() async throws {
            guard maxJobBytes > 0 else { throw ValidationError("--max-job-bytes must be positive.") }
            guard let handle = file == "-" ? FileHandle.standardInput : FileHandle(forReadingAtPath: file) else {
                throw StartupFailure("Cannot read \(file).")
            }
            defer { try? handle.close() }
            try await connection.withClient { try await importUsers(from: handle, with: $0) }
        }

        private func importUsers(from handle: FileHandle, with client: AdminClient) async throws {
            let format = UserFileFormat.resolve(format, file: file)
            let progress = ProgressLine()
            let header = try await client.call("GetCSVHeader", ["UserPoolId": .string(pool)])["CSVHeader"]?.array
                .compactMap(\.string) ?? []
            var chunks = try ImportChunks(handle: handle, format: format, maxBytes: maxJobBytes, header: header)
            var totals = ImportJobRunner.Counts()
            var jobs = 0
            var failures: [String] = []
            var disabled = 0
            let runner = ImportJobRunner(client: client, pool: pool, roleArn: roleArn)
            while let chunk = try chunks.next() {
                let toDisable = try await runner.withoutUser(chunks.disabledInChunk)
                jobs += 1
                func show(_ sum: ImportJobRunner.Counts, force: Bool = false) {
                    progress.update("Job \(jobs): imported \(sum.imported), skipped \(sum.skipped), failed \(sum.failed) "
                        + "of \(chunks.rowsRead) rows read", force: force)
                }
                let job = try await runner.run(chunk, name: "cognate-import-\(jobs)") { show(totals + $0) }
                totals = totals + job.counts
                disabled += try await runner.disableImported(toDisable)
                show(totals, force: true)
                if job.status != "Succeeded" {
                    failures.append("job \(job.id) \(job.status): \(job.message)")
                    break   // the next part would fail alike (a bad header) or was stopped on purpose
                } else if job.counts.failed > 0 {
                    progress.finish()
                    FileHandle.standardError.write(Data("Job \(job.id): \(job.message)\n".utf8))
                }
            }
            progress.finish()
            if !chunks.leftOut.isEmpty {
                FileHandle.standardError.write(Data(
                    "Attributes without an import column, left out: \(chunks.leftOut.sorted().joined(separator: ", "))\n".utf8))
            }
            print("Imported \(totals.imported), skipped \(totals.skipped), failed \(totals.failed) "
                + "(\(chunks.rowsRead) rows, \(jobs) import job\(jobs == 1 ? "" : "s"))"
                + (disabled > 0 ? "; disabled \(disabled), as the file marks them." : "."))
            guard failures.isEmpty else {
                throw AdminFailure(type: "ImportJobFailed", message: failures.joined(separator: "; "))
            }
        }
    }
}

/// Runs one import job from creation to its end state.
struct ImportJobRunner {
    struct Counts {
        var imported = 0, skipped = 0, failed = 0
        static func + (a: Counts, b: Counts) -> Counts {
            Counts(imported: a.imported + b.imported, skipped: a.skipped + b.skipped, failed: a.failed + b.failed)
        }
    }

    struct Outcome {
        var id: String
        var status: String
        var message: String
        var counts: Counts
    }

    let client: AdminClient
    let pool: String
    let roleArn: String
    var pollInterval: Duration = .milliseconds(300)

    /// The names in `usernames` that have no user in the pool now (AdminGetUser).
    func withoutUser(_ usernames: [String]) async throws -> [String] {
        var absent: [String] = []
        for name in usernames {
            do {
                _ = try await client.call("AdminGetUser", ["UserPoolId": .string(pool), "Username": .string(name)])
            } catch let failure as AdminFailure where failure.type == "UserNotFoundException" {
                absent.append(name)
            }
        }
        return absent
    }

    /// Disables each of `usernames` that is RESET_REQUIRED now (made by the import job that ran
    /// since ``withoutUser(_:)`` found no user of that name); returns how many.
    func disableImported(_ usernames: [String]) async throws -> Int {
        var disabled = 0
        for name in usernames {
            let user: JSONValue
            do {
                user = try await client.call("AdminGetUser", ["UserPoolId": .string(pool), "Username": .string(name)])
            } catch let failure as AdminFailure where failure.type == "UserNotFoundException" {
                continue   // its row failed
            }
            guard user["UserStatus"]?.string == "RESET_REQUIRED" else { continue }
            _ = try await client.call("AdminDisableUser", ["UserPoolId": .string(pool), "Username": .string(name)])
            disabled += 1
        }
        return disabled
    }

    /// Creates a job, uploads `csv` to its PreSignedUrl, starts it and polls until it is
    /// Succeeded, Failed or Stopped, reporting its counts to `progress` on every poll.
    func run(_ csv: Data, name: String, progress: (Counts) -> Void) async throws -> Outcome {
        let created = try await client.call("CreateUserImportJob", [
            "UserPoolId": .string(pool), "JobName": .string(name), "CloudWatchLogsRoleArn": .string(roleArn),
        ])["UserImportJob"]
        guard let id = created?["JobId"]?.string, let url = created?["PreSignedUrl"]?.string.flatMap(URL.init(string:)) else {
            throw AdminFailure(type: "UnexpectedResponse", message: "CreateUserImportJob returned no JobId or PreSignedUrl.")
        }
        try await client.upload(csv, to: url)
        _ = try await client.call("StartUserImportJob", ["UserPoolId": .string(pool), "JobId": .string(id)])
        while true {
            let job = try await client.call("DescribeUserImportJob", ["UserPoolId": .string(pool), "JobId": .string(id)])["UserImportJob"]
                ?? .object([:])
            let counts = Counts(imported: job["ImportedUsers"]?.int ?? 0, skipped: job["SkippedUsers"]?.int ?? 0,
                                failed: job["FailedUsers"]?.int ?? 0)
            progress(counts)
            let status = job["Status"]?.string ?? ""
            if ["Succeeded", "Failed", "Stopped", "Expired"].contains(status) {
                return Outcome(id: id, status: status, message: job["CompletionMessage"]?.string ?? "", counts: counts)
            }
            try await Task.sleep(for: pollInterval)
        }
    }
}

/// Cuts the input into import files of at most `maxBytes` (a single larger row still makes a
/// file of its own), each starting with the header: the CSV file's own first record, or
/// GetCSVHeader's columns for JSON lines, whose users become rows (see ``CSVFormat/row``).
struct ImportChunks {
    private var reader: RecordReader
    private let format: UserFileFormat
    private let maxBytes: Int
    private let columns: [String]
    private var headerBytes: [UInt8] = []
    private var pending: Row?
    /// The user names of the last file ``next()`` returned that its JSON lines mark disabled.
    private(set) var disabledInChunk: [String] = []
    private var line = 0
    private(set) var rowsRead = 0
    private(set) var leftOut = Set<String>()

    init(handle: FileHandle, format: UserFileFormat, maxBytes: Int, header: [String]) throws {
        reader = RecordReader(handle: handle, quoteAware: format == .csv)
        self.format = format
        self.maxBytes = maxBytes
        columns = header
        switch format {
        case .jsonl:
            headerBytes = Array(CSVFormat.record(header).utf8)
        case .csv:
            while let record = try reader.next() {
                line += 1
                if RecordReader.isBlank(record) { continue }
                headerBytes = record
                if headerBytes.last != UInt8(ascii: "\n") { headerBytes += Array("\r\n".utf8) }
                break
            }
            guard !headerBytes.isEmpty else { throw StartupFailure("The CSV file is empty: it needs a header line.") }
        }
    }

    /// One row of an import file: CSV bytes ending with a line break, and the user name when
    /// the JSON line marks the user disabled.
    private struct Row {
        var bytes: [UInt8]
        var disabled: String?
    }

    /// The next import file, or nil when every row is in one.
    mutating func next() throws -> Data? {
        var chunk = headerBytes
        var rows = 0
        disabledInChunk = []
        while let row = try pending ?? nextRow() {
            pending = nil
            if rows > 0, chunk.count + row.bytes.count > maxBytes {
                pending = row
                break
            }
            chunk += row.bytes
            if let name = row.disabled { disabledInChunk.append(name) }
            rows += 1
        }
        return rows == 0 ? nil : Data(chunk)
    }

    /// The next non-blank row.
    private mutating func nextRow() throws -> Row? {
        while let record = try reader.next() {
            line += 1
            if RecordReader.isBlank(record) { continue }
            rowsRead += 1
            switch format {
            case .csv:
                return Row(bytes: record.last == UInt8(ascii: "\n") ? record : record + Array("\r\n".utf8))
            case .jsonl:
                guard let user = try? JSONDecoder().decode(JSONValue.self, from: Data(record)), let name = user["Username"]?.string else {
                    throw StartupFailure("Line \(line) is not a user object with a Username (as `users export --format jsonl` writes).")
                }
                return Row(bytes: Array(CSVFormat.record(CSVFormat.row(user, header: columns, leftOut: &leftOut)).utf8),
                           disabled: user["Enabled"] == .bool(false) ? name : nil)
            }
        }
        return nil
    }
}
