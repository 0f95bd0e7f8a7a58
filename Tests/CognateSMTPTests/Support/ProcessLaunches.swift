import Foundation

/// Launches child processes one at a time. Foundation's `Process.run()` on Linux is not safe
/// to call from two threads at once (it crashed copying the launch's arguments while another
/// test launched its own), so every launch in these tests goes through here.
enum ProcessLaunches {
    private static let lock = NSLock()

    static func run(_ process: Process) throws {
        try lock.withLock { try process.run() }
    }
}
