import CognateCore
import CognateProtocol
import Foundation

extension SQLTransaction: ImportJobRepository {
    func insertImportJob(_ job: ImportJobRecord) async throws {
        try await run(
            """
            INSERT INTO user_import_jobs (job_id, pool_id, record, upload_token_hash, created_at) VALUES \
            (\(bind: job.jobId), \(bind: job.poolId), \(bind: try Columns.json(job.job)), \(bind: job.uploadTokenHash), \
            \(bind: Columns.time(job.createdAt)))
            """)
    }

    func importJob(id: String) async throws -> ImportJobRecord? {
        try await first("SELECT job_id, pool_id, record, upload_token_hash, created_at FROM user_import_jobs WHERE job_id = \(bind: id)")
            .map(Self.importJob(from:))
    }

    func updateImportJob(_ job: ImportJobRecord) async throws {
        try await run("UPDATE user_import_jobs SET record = \(bind: try Columns.json(job.job)) WHERE job_id = \(bind: job.jobId)")
    }

    func setImportCSV(jobId: String, csv: String?) async throws {
        try await run("UPDATE user_import_jobs SET csv = \(bind: csv) WHERE job_id = \(bind: jobId)")
    }

    func importCSV(jobId: String) async throws -> String? {
        try await first("SELECT csv FROM user_import_jobs WHERE job_id = \(bind: jobId)")?.optionalString("csv")
    }

    func importJobs(poolId: String, after: String?, limit: Int) async throws -> Page<ImportJobRecord> {
        let rows = try await all(
            """
            SELECT job_id, pool_id, record, upload_token_hash, created_at FROM user_import_jobs \
            WHERE pool_id = \(bind: poolId) AND job_id > \(bind: after ?? "") ORDER BY job_id LIMIT \(bind: limit + 1)
            """)
        return try Self.page(rows.map(Self.importJob(from:)), limit: limit, key: \.jobId)
    }

    static func importJob(from row: SQLRow) throws -> ImportJobRecord {
        ImportJobRecord(
            jobId: try row.string("job_id"), poolId: try row.string("pool_id"),
            job: try Columns.decodeJSON(UserImportJobType.self, row.string("record")),
            uploadTokenHash: try row.string("upload_token_hash"), createdAt: try row.date("created_at"))
    }
}
