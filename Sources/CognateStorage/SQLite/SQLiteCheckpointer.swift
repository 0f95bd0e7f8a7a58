import CSQLite
import Foundation
import Synchronization

/// Copies the write-ahead log back into the database file mostly beside the writer, on a
/// connection and a thread of its own.
///
/// SQLite's automatic checkpoint runs inside the COMMIT that takes the log past 1,000 pages:
/// every write of the group commit then waits for it (copying those pages and an fsync of the
/// database file), which made sign-up's p99 grow with the database (more distinct pages per
/// commit, so longer checkpoints more often). Here the writer's COMMIT reports the log's size
/// (`sqlite3_wal_hook`, which replaces the automatic checkpoint), and past the same 1,000
/// pages this connection runs a PASSIVE checkpoint, which neither waits for nor blocks the
/// writer or the readers. The log can start over only once a checkpoint has copied all of it,
/// which one running beside a busy writer never does (the writer appends meanwhile: the log
/// reached 12 GB while a million users were synthesized). So the writer's next commit after
/// it finishes copies the rest itself: the frames appended meanwhile, a fraction of the
/// whole; its next write starts the log over. Past `writerCheckpointPages` the writer tries a
/// checkpoint in every commit: a backstop for a checkpoint here that has not started yet (its
/// thread not scheduled); while one is copying, the writer's attempt fails at once.
///
/// Contract: durability is unchanged — a transaction is durable once its COMMIT fsynced the
/// log; a checkpoint only copies committed pages, and fsyncs the database file before the
/// log may be reused (`synchronous = FULL` on this connection).
final class SQLiteCheckpointer: @unchecked Sendable {
    /// Log pages after which a checkpoint starts: SQLite's own default.
    static let logPagesThreshold: Int32 = 1000
    /// Log pages after which the writer tries a checkpoint in each commit (see the type's doc).
    static let writerCheckpointPages: Int32 = 8000

    private enum Phase {
        case idle
        case copying
        /// A checkpoint here finished; the writer copies what came after it.
        case copied
    }

    private let connection: SQLiteConnection
    private let queue = DispatchQueue(label: "cognate.sqlite.checkpoint")
    private let phase = Mutex(Phase.idle)

    init(path: String) throws {
        connection = try SQLiteConnection(path: path, readOnly: false)
        try connection.run("PRAGMA synchronous = FULL")
    }

    /// Makes `writer`'s commits report the log's size here instead of checkpointing themselves
    /// (the writer keeps this checkpointer alive).
    func watch(_ writer: SQLiteConnection) {
        writer.onCommit(self) { context, database, name, logPages in
            guard let context else { return SQLITE_OK }
            let checkpointer = Unmanaged<SQLiteCheckpointer>.fromOpaque(context).takeUnretainedValue()
            if checkpointer.writerCopies(logPages: logPages) {
                // Fails at once (and a later commit tries again) while a checkpoint runs here.
                _ = sqlite3_wal_checkpoint_v2(database, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            }
            return SQLITE_OK
        }
    }

    /// Called on the writer's thread after each commit with the log's size: true when the
    /// writer should checkpoint now; starts a checkpoint here when the log is past the
    /// threshold and none runs.
    private func writerCopies(logPages pages: Int32) -> Bool {
        let (writerCopies, startsHere) = phase.withLock { phase -> (Bool, Bool) in
            switch phase {
            case .copied:
                phase = .idle
                return (true, false)
            case .copying:
                return (pages >= Self.writerCheckpointPages, false)
            case .idle:
                guard pages >= Self.logPagesThreshold else { return (false, false) }
                phase = .copying
                return (false, true)
            }
        }
        if startsHere {
            queue.async {
                // A failure (another process's checkpoint holds the lock) leaves the pages to the writer.
                _ = try? self.connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
                self.phase.withLock { $0 = .copied }
            }
        }
        return writerCopies
    }

    /// Waits for a running checkpoint, then closes the connection (after the writer's).
    func close() {
        queue.sync { connection.close() }
    }
}
