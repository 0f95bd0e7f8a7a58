import CognateProtocol
import Crypto
import Foundation

public struct UserImport: Sendable {
    let store: any Store
    let time: any TimeSource
    let random: any RandomSource
    let configuration: CoreConfiguration
    let directory: PoolDirectory
    let users: UserDirectory
}

/// User import jobs in Cognito's CSV format (GetCSVHeader's columns): create a job, upload the
/// file to its pre-signed URL (served by Cognate: `PUT /import/<job>?token=…`; good for 15
/// minutes from the job's creation, as Cognito's), start it. Each
/// row becomes a user with status RESET_REQUIRED (no password: the user resets it at the first
/// sign-in, as with Cognito); a row that cannot be imported is counted as failed and logged with
/// its line and reason, and the job goes on. Progress is saved every 100 rows.
extension UserImport {
    /// The largest file a job takes.
    public static let maximumImportBytes = 100 * 1024 * 1024

    /// How long a job's pre-signed URL takes an upload, from the job's creation: Cognito's
    /// PreSignedUrl is valid for 15 minutes. DescribeUserImportJob and ListUserImportJobs show
    /// the URL after that; it is refused.
    public static let importUploadLifetime: TimeInterval = 15 * 60

    public func createUserImportJob(_ request: CreateUserImportJobRequest) async throws -> CreateUserImportJobResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let now = time.now
        let jobId = "import-" + random.string(10, from: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let token = Base64URL.encode(random.bytes(32))
        let job = UserImportJobType(
            jobName: request.jobName, jobId: jobId, userPoolId: pool.id,
            preSignedUrl: "\(configuration.publicBaseURL)/import/\(jobId)?token=\(token)", creationDate: now,
            status: .created, cloudWatchLogsRoleArn: request.cloudWatchLogsRoleArn, importedUsers: 0, skippedUsers: 0,
            failedUsers: 0)
        try await store.write { transaction in
            try await transaction.insertImportJob(ImportJobRecord(
                jobId: jobId, poolId: pool.id, job: job, uploadTokenHash: AuthSessions.hash(token), createdAt: now))
        }
        return CreateUserImportJobResponse(userImportJob: job)
    }

    /// Whether an upload to `PUT /import/<job>?token=…` may begin, asked before a byte of its
    /// body is read: throws `NotAuthorizedException` for an unknown job, a wrong token or an
    /// expired URL, `InvalidParameterException` once the job has started.
    public func authorizeImportUpload(jobId: String, token: String) async throws {
        try checkImportUpload(try await store.read { try await $0.importJob(id: jobId) }, token: token)
    }

    /// `PUT /import/<job>?token=…`: the job's CSV, before it starts (checked again in the
    /// transaction that stores it).
    public func uploadImportFile(jobId: String, token: String, csv: Data) async throws {
        guard csv.count <= Self.maximumImportBytes else { throw CognitoError.invalidParameter("The file is over 100 MB.") }
        guard let text = String(data: csv, encoding: .utf8) else { throw CognitoError.invalidParameter("The file is not UTF-8.") }
        try await store.write { transaction in
            try self.checkImportUpload(try await transaction.importJob(id: jobId), token: token)
            try await transaction.setImportCSV(jobId: jobId, csv: text)
        }
    }

    /// The job exists, `token` is its upload token, its URL has not expired and it has not started.
    private func checkImportUpload(_ record: ImportJobRecord?, token: String) throws {
        guard let record, ConstantTime.equals(record.uploadTokenHash, AuthSessions.hash(token)) else {
            throw CognitoError.notAuthorized("The upload URL is not valid.")
        }
        guard time.now < record.createdAt.addingTimeInterval(Self.importUploadLifetime) else {
            throw CognitoError.notAuthorized(
                "The upload URL has expired: it is good for 15 minutes after the job is created. Create a new job.")
        }
        guard record.job.status == .created else {
            throw CognitoError.invalidParameter("The job has started; its file can no longer change.")
        }
    }

    public func startUserImportJob(_ request: StartUserImportJobRequest) async throws -> StartUserImportJobResponse {
        let now = time.now
        let job = try await editImportJob(request.jobId, poolId: request.userPoolId) { job, transaction in
            guard job.status == .created else {
                throw CognitoError.invalidParameter("Job \(request.jobId) is \(job.status?.rawValue ?? "") and cannot start.")
            }
            guard try await transaction.importCSV(jobId: request.jobId) != nil else {
                throw CognitoError.invalidParameter("No file was uploaded to the job's pre-signed URL.")
            }
            job.status = .pending
            job.startDate = now
        }
        let pool = try await directory.requirePool(request.userPoolId)
        Task { await self.runImport(request.jobId, pool: pool) }
        return StartUserImportJobResponse(userImportJob: job)
    }

    public func stopUserImportJob(_ request: StopUserImportJobRequest) async throws -> StopUserImportJobResponse {
        let now = time.now
        let job = try await editImportJob(request.jobId, poolId: request.userPoolId) { job, _ in
            switch job.status {
            case .pending?:
                job.status = .stopped
                job.completionDate = now
                job.completionMessage = "The job was stopped before it ran."
            case .inProgress?: job.status = .stopping
            default: throw CognitoError.invalidParameter("Job \(request.jobId) is not running.")
            }
        }
        return StopUserImportJobResponse(userImportJob: job)
    }

    public func describeUserImportJob(_ request: DescribeUserImportJobRequest) async throws -> DescribeUserImportJobResponse {
        DescribeUserImportJobResponse(userImportJob: try await importJob(request.jobId, poolId: request.userPoolId).job)
    }

    public func listUserImportJobs(_ request: ListUserImportJobsRequest) async throws -> ListUserImportJobsResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let after = try PageToken.decode(request.paginationToken)
        let page = try await store.read {
            try await $0.importJobs(poolId: pool.id, after: after, limit: min(max(request.maxResults, 1), 60))
        }
        return ListUserImportJobsResponse(userImportJobs: page.items.map(\.job), paginationToken: PageToken.encode(page.next))
    }

    // MARK: - Running a job

    /// Imports every row, saving progress every 100 rows and stopping when asked.
    func runImport(_ jobId: String, pool: PoolRecord) async {
        do {
            guard let csv = try await store.read({ try await $0.importCSV(jobId: jobId) }) else { return }
            _ = try await editImportJob(jobId, poolId: pool.id) { job, _ in job.status = .inProgress }
            var counts = (imported: 0, failed: 0)
            var errors: [String] = []
            let (header, rows) = try Self.importRows(csv, pool: pool)
            for (index, row) in rows.enumerated() {
                if index % 100 == 0, index > 0 {
                    let stopping = try await saveProgress(jobId, pool: pool, counts: counts)
                    if stopping { return try await finishImport(jobId, pool: pool, counts: counts, errors: errors, stopped: true) }
                }
                do {
                    try await importUser(Dictionary(uniqueKeysWithValues: zip(header, row)), pool: pool)
                    counts.imported += 1
                } catch let error as CognitoError {
                    counts.failed += 1
                    errors.append("line \(index + 2): \(error.message)")
                }
            }
            try await finishImport(jobId, pool: pool, counts: counts, errors: errors, stopped: false)
        } catch {
            let message = (error as? CognitoError)?.message ?? "\(error)"
            _ = try? await editImportJob(jobId, poolId: pool.id) { job, transaction in
                job.status = .failed
                job.completionDate = self.time.now
                job.completionMessage = message
                try await transaction.setImportCSV(jobId: jobId, csv: nil)
            }
        }
    }

    /// The header's columns and the rows (each as long as the header), or why the file is unusable.
    static func importRows(_ csv: String, pool: PoolRecord) throws -> ([String], [[String]]) {
        guard let records = CSVRows.parse(csv), let header = records.first else {
            throw CognitoError.invalidParameter("The file is not CSV (a quoted field is never closed, or it is empty).")
        }
        let custom = (pool.settings.schemaAttributes ?? []).compactMap(\.name).filter { $0.hasPrefix("custom:") }
        let known = Set(PoolAdministration.csvStandardColumns + custom)
        if let unknown = header.first(where: { !known.contains($0) }) {
            throw CognitoError.invalidParameter("The header has a column this pool does not know: \(unknown).")
        }
        guard header.contains("cognito:username") else {
            throw CognitoError.invalidParameter("The header needs the cognito:username column.")
        }
        let rows = records.dropFirst().map { row in
            row.count >= header.count ? Array(row.prefix(header.count)) : row + Array(repeating: "", count: header.count - row.count)
        }
        return (header, rows)
    }

    /// One row: a user with status RESET_REQUIRED and the row's attributes (empty cells left out).
    private func importUser(_ row: [String: String], pool: PoolRecord) async throws {
        guard let typed = row["cognito:username"], !typed.isEmpty else {
            throw CognitoError.invalidParameter("cognito:username is empty.")
        }
        let given = row.filter { !$0.value.isEmpty && !$0.key.hasPrefix("cognito:") }
            .map { AttributeType(name: $0.key, value: $0.value) }
        var attributes = try AttributeRules(pool: pool.settings).validated(given, writer: .admin, isCreation: true)
        let names = SignInNames(pool: pool.settings)
        let sub = random.uuid()
        let username = try names.newUsername(typed, sub: sub, attributes: &attributes)
        let now = time.now
        let user = UserRecord(
            poolId: pool.id, sub: sub, username: username, usernameKey: names.usernameKey(username), status: .resetRequired,
            enabled: true, createdAt: now, updatedAt: now, password: nil, passwordUpdatedAt: nil, attributes: attributes)
        do {
            try await store.write { transaction in
                try await transaction.insertUser(user)
                try await users.updateSignInNames(of: user, pool: pool, in: transaction, newUser: true)
            }
        } catch StoreError.conflict(.username) {  // around the write: the insert may go out with what follows it
            throw CognitoError(.usernameExists, "User account already exists: \(typed)")
        }
    }

    /// Saves the counts; true when the job was asked to stop.
    private func saveProgress(_ jobId: String, pool: PoolRecord, counts: (imported: Int, failed: Int)) async throws -> Bool {
        let job = try await editImportJob(jobId, poolId: pool.id) { job, _ in
            job.importedUsers = counts.imported
            job.failedUsers = counts.failed
        }
        return job.status == .stopping
    }

    private func finishImport(_ jobId: String, pool: PoolRecord, counts: (imported: Int, failed: Int), errors: [String],
                              stopped: Bool) async throws {
        let summary = errors.prefix(20).joined(separator: "; ") + (errors.count > 20 ? "; …" : "")
        _ = try await editImportJob(jobId, poolId: pool.id) { job, transaction in
            job.importedUsers = counts.imported
            job.failedUsers = counts.failed
            job.completionDate = self.time.now
            job.status = stopped ? .stopped : .succeeded
            job.completionMessage = (stopped ? "The job was stopped." : "Import Job Completed Successfully.")
                + (errors.isEmpty ? "" : " Failed rows: \(summary)")
            try await transaction.setImportCSV(jobId: jobId, csv: nil)
        }
    }

    private func importJob(_ jobId: String, poolId: String) async throws -> ImportJobRecord {
        let pool = try await directory.requirePool(poolId)
        guard let record = try await store.read({ try await $0.importJob(id: jobId) }), record.poolId == pool.id else {
            throw CognitoError.resourceNotFound("Import job \(jobId) does not exist.")
        }
        return record
    }

    /// Reads a job, lets `change` edit its wire form in the transaction, saves it.
    private func editImportJob(
        _ jobId: String, poolId: String,
        _ change: @escaping @Sendable (inout UserImportJobType, any StoreTransaction) async throws -> Void
    ) async throws -> UserImportJobType {
        try await store.write { transaction in
            guard var record = try await transaction.importJob(id: jobId), record.poolId == poolId else {
                throw CognitoError.resourceNotFound("Import job \(jobId) does not exist.")
            }
            try await change(&record.job, transaction)
            try await transaction.updateImportJob(record)
            return record.job
        }
    }
}
