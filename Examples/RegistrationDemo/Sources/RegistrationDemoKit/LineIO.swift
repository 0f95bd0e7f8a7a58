import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the demo reads answers and writes prompts: the terminal, or a script in tests.
public protocol LineIO: Sendable {
    /// The next line the user typed, without its newline; nil at end of input.
    func readLine() async -> String?
    /// As `readLine`, for a secret: not shown on the screen while typed.
    func readSecret() async -> String?
    func write(_ text: String) async
}

extension LineIO {
    public func readSecret() async -> String? { await readLine() }
}

/// Standard input and output.
public struct StandardLineIO: LineIO {
    public init() {}

    public func readLine() async -> String? { Swift.readLine(strippingNewline: true) }

    /// Turns the terminal's echo off while the secret is typed (when input is a terminal).
    public func readSecret() async -> String? {
        var saved = termios()
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 else { return await readLine() }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            FileHandle.standardOutput.write(Data("\n".utf8))
        }
        return Swift.readLine(strippingNewline: true)
    }

    public func write(_ text: String) async {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
