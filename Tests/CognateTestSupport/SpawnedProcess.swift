import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`. Foundation's `Process.run()` on Linux reads past
/// a buffer while it lists `/proc/self/fd` and crashes the whole test run now and then when many
/// descriptors are open (swift-corelibs-foundation's findMaximumOpenFromProcSelfFD), so these
/// tests launch their helpers themselves.
///
/// Contract: the child gets `stdin` (or /dev/null) and `output` as its standard output and
/// error (or /dev/null); it runs `arguments` looked up on PATH, in `directory` when given, with
/// no signal blocked.
public final class SpawnedProcess: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let pid: pid_t
    private let lock = NSLock()
    private var exitStatus: Int32?

    private init(pid: pid_t) { self.pid = pid }

    public static func spawn(_ arguments: [String], in directory: URL? = nil, stdin: Int32? = nil, output: Int32? = nil) throws
        -> SpawnedProcess
    {
        var command = arguments
        if let directory {
            // `sh` changes into the directory and replaces itself with the command.
            command = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory.path] + arguments
        }
        let nullInput = open("/dev/null", O_RDONLY | O_CLOEXEC)
        let nullOutput = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer {
            if nullInput >= 0 { close(nullInput) }
            if nullOutput >= 0 { close(nullOutput) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin ?? nullInput, 0)
        posix_spawn_file_actions_adddup2(&actions, output ?? nullOutput, 1)
        posix_spawn_file_actions_adddup2(&actions, output ?? nullOutput, 2)
        closeInheritedDescriptors(&actions)
        // The child starts with no signal blocked and default handlers: it inherits the test
        // process's mask otherwise (SIGTERM blocked there), and would never hear terminate().
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, command[0], &actions, &attributes, argv, environ)
        guard result == 0 else { throw Failure(description: "cannot run \(command[0]): \(String(cString: strerror(result)))") }
        return SpawnedProcess(pid: pid)
    }

    /// The child keeps only its standard streams: every other descriptor of the test process
    /// (a test's listening socket, a server's connections) would otherwise stay open in it,
    /// holding ports after the test closed them. glibc's `posix_spawn_file_actions_addclosefrom_np`
    /// where it has one (looked up at run time: Swift's Glibc module does not declare it), else
    /// each descriptor open now.
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
            return
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap(Int32.init) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
    }

    /// The exit status once the child ended (128 + the signal for a signalled child); nil while
    /// it runs.
    public var status: Int32? {
        lock.withLock {
            if let exitStatus { return exitStatus }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return nil }
            let signal = raw & 0x7f
            exitStatus = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
            return exitStatus
        }
    }

    public var isRunning: Bool { status == nil }

    /// Waits for the child to end, without blocking a thread.
    public func exit() async -> Int32 {
        while true {
            if let status { return status }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    public func terminate() { _ = kill(pid, SIGTERM) }

    /// Ends the child at once (SIGKILL).
    public func killNow() { _ = kill(pid, SIGKILL) }
}
