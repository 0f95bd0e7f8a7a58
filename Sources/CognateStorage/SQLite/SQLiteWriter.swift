import Foundation

/// The one connection that writes, with group commit.
///
/// Contract: write transactions run one at a time, in arrival order, each in a SAVEPOINT of a
/// shared SQLite transaction: those that arrive while a COMMIT is on its way to the disk form
/// the next batch, so many transactions share one fsync. A transaction's caller is answered
/// only after the COMMIT that made it durable returned; a transaction that throws is rolled
/// back to its savepoint and leaves the others of its batch untouched; a failed COMMIT fails
/// every transaction of its batch. The COMMIT (the fsync) runs on a thread of its own, never
/// on Swift's cooperative pool; statements run on the caller's task. Work that manages its own
/// transactions runs alone between batches (``exclusive(_:)``); a look at the connection
/// outside any transaction runs before the next batch without splitting it (``dataVersion()``).
final class SQLiteWriter: @unchecked Sendable {
    /// Transactions per batch at most (bounds how long one fsync makes callers wait).
    static let maximumBatch = 64

    private let connection: SQLiteConnection
    private let committer = DispatchQueue(label: "cognate.sqlite.commit")
    private let lock = NSLock()
    private var pending: [Job] = []
    private var draining = false

    private enum Work {
        /// A transaction body, run inside the batch's transaction.
        case transaction(@Sendable (SQLiteSession) async throws -> any Sendable)
        /// Work that manages its own transactions (migrations), run alone between batches.
        case exclusive(@Sendable (SQLiteSession) async throws -> any Sendable)
        /// A look at the connection outside any transaction (its data version), run before the
        /// next batch begins: transactions queued behind it still join that batch.
        case observation(@Sendable (SQLiteSession) async throws -> any Sendable)
    }

    private struct Job {
        let work: Work
        let continuation: CheckedContinuation<any Sendable, any Error>
    }

    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    func write<Result: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> Result) async throws -> Result {
        try await submit(.transaction { try await body($0) }) as! Result
    }

    func exclusive<Result: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> Result) async throws -> Result {
        try await submit(.exclusive { try await body($0) }) as! Result
    }

    /// The connection's `PRAGMA data_version` (``SQLiteChangeWatcher``), read between two
    /// batches without splitting the batch that forms behind it (unlike ``exclusive(_:)``).
    /// Throws inside a transaction (a COMMIT and its ROLLBACK failed), where it cannot change.
    func dataVersion() async throws -> Int {
        try await submit(.observation { session in
            guard !session.connection.isInTransaction else {
                throw ObservationError("the writer's connection is inside a transaction between writes")
            }
            guard let version = try session.connection.execute("PRAGMA data_version").first?.int("data_version") else {
                throw ObservationError("PRAGMA data_version answered no row")
            }
            return version
        }) as! Int
    }

    private func submit(_ work: Work) async throws -> any Sendable {
        try await withCheckedThrowingContinuation { continuation in
            let leads = lock.withLock {
                pending.append(Job(work: work, continuation: continuation))
                defer { draining = true }
                return !draining
            }
            if leads { Task { await self.drain() } }
        }
    }

    private func drain() async {
        while true {
            let (observations, batch): ([Job], [Job]) = lock.withLock {
                var observations: [Job] = [], batch: [Job] = []
                while let next = pending.first, batch.count < Self.maximumBatch {
                    if case .observation = next.work {   // before the batch, which it does not split
                        observations.append(pending.removeFirst())
                        continue
                    }
                    if case .exclusive = next.work, !batch.isEmpty { break }  // alone, after this batch
                    batch.append(pending.removeFirst())
                    if case .exclusive = next.work { break }
                }
                if observations.isEmpty && batch.isEmpty { draining = false }
                return (observations, batch)
            }
            for job in observations {
                if case .observation(let body) = job.work { await runAlone(job, body) }
            }
            guard let first = batch.first else {
                if observations.isEmpty { return }
                continue
            }
            if case .exclusive(let body) = first.work {
                await runAlone(first, body)
            } else {
                await commit(batch)
            }
        }
    }

    /// Runs a job outside the batches' transaction and answers its caller.
    private func runAlone(_ job: Job, _ body: @Sendable (SQLiteSession) async throws -> any Sendable) async {
        do {
            job.continuation.resume(returning: try await body(SQLiteSession(connection: connection)))
        } catch {
            job.continuation.resume(throwing: error)
        }
    }

    private func commit(_ batch: [Job]) async {
        let session = SQLiteSession(connection: connection)
        do {
            try connection.run("BEGIN IMMEDIATE")
        } catch {
            for job in batch { job.continuation.resume(throwing: error) }
            return
        }
        var outcomes: [Result<any Sendable, any Error>] = []
        for job in batch {
            guard case .transaction(let body) = job.work else { continue }
            do {
                try connection.run("SAVEPOINT job")
                let value = try await body(session)
                try connection.run("RELEASE job")
                outcomes.append(.success(value))
            } catch {
                try? connection.run("ROLLBACK TO job")
                try? connection.run("RELEASE job")
                outcomes.append(.failure(error))
            }
        }
        let connection = self.connection
        let committed: Result<Void, any Error> = await withCheckedContinuation { continuation in
            committer.async { continuation.resume(returning: Result { try connection.run("COMMIT") }) }
        }
        if case .failure(let error) = committed {
            try? connection.run("ROLLBACK")
            for job in batch { job.continuation.resume(throwing: error) }  // nothing of the batch is durable
            return
        }
        for (job, outcome) in zip(batch, outcomes) { job.continuation.resume(with: outcome) }
    }
}

/// Why the writer's connection could not be observed between batches.
struct ObservationError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
