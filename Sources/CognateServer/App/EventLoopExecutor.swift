import NIOCore
import NIOPosix

extension CognateServer {
    /// Makes NIO's event loops (the threads that read and write the sockets of HTTP requests
    /// and PostgreSQL connections) Swift Concurrency's global executor, so a request's handler
    /// runs where its bytes arrive instead of hopping to the cooperative pool and back for
    /// every await on I/O.
    ///
    /// Contract: call once, first thing in `main`, on the main thread, before any task runs;
    /// returns false (and changes nothing) when that is too late. Nothing may then block an
    /// event loop: SQLite's COMMIT (the fsync) runs on its own queue, and the cryptography of
    /// sign-ins, sign-ups and tokens on Dispatch's pool (`offloaded`); `EventLoopFuture.wait()`
    /// would trap.
    @discardableResult
    public static func runConcurrencyOnEventLoops() -> Bool {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
