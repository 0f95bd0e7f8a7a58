import Synchronization

/// The import jobs this node is receiving a file for, so that one job takes one upload at a
/// time: a pre-signed URL's holder cannot make a node hold many copies of a file at once.
final class UploadsInProgress: Sendable {
    private let jobs = Mutex<Set<String>>([])

    /// Marks `job` as receiving; false when it already is.
    func begin(_ job: String) -> Bool {
        jobs.withLock { $0.insert(job).inserted }
    }

    func end(_ job: String) {
        _ = jobs.withLock { $0.remove(job) }
    }
}
