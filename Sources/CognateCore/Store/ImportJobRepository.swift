import CognateProtocol
import Foundation

/// A user import job: what the API shows (`job`, its wire form), the hash of its upload URL's
/// token, and the CSV uploaded to it (dropped once it ran).
public struct ImportJobRecord: Sendable, Equatable {
    public var jobId: String
    public var poolId: String
    public var job: UserImportJobType
    public var uploadTokenHash: String
    public var createdAt: Date

    public init(jobId: String, poolId: String, job: UserImportJobType, uploadTokenHash: String, createdAt: Date) {
        self.jobId = jobId
        self.poolId = poolId
        self.job = job
        self.uploadTokenHash = uploadTokenHash
        self.createdAt = createdAt
    }
}

public protocol ImportJobRepository: Sendable {
    func insertImportJob(_ job: ImportJobRecord) async throws
    func importJob(id: String) async throws -> ImportJobRecord?
    /// Saves the job's state (status, counts, dates, message).
    func updateImportJob(_ job: ImportJobRecord) async throws
    func setImportCSV(jobId: String, csv: String?) async throws
    func importCSV(jobId: String) async throws -> String?
    /// The pool's jobs by id, starting after `after`.
    func importJobs(poolId: String, after: String?, limit: Int) async throws -> Page<ImportJobRecord>
}
