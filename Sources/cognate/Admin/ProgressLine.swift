import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One status line on standard error, redrawn in place (carriage return, clear to end of line)
/// at most ten times a second. Silent when standard error is not a terminal, so logs and pipes
/// get only the final summary the command prints itself.
final class ProgressLine {
    let enabled: Bool
    private var lastDraw = Date.distantPast
    private var drawn = false

    init(enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.enabled = enabled
    }

    /// Shows `text` unless the line was drawn less than 0.1 s ago (`force` draws anyway).
    func update(_ text: @autoclosure () -> String, force: Bool = false) {
        guard enabled else { return }
        let now = Date()
        guard force || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        drawn = true
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + text()).utf8))
    }

    /// Ends the line (the next output starts on a fresh line).
    func finish() {
        guard enabled, drawn else { return }
        FileHandle.standardError.write(Data("\n".utf8))
        drawn = false
    }
}
