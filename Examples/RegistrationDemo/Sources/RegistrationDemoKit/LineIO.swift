import Foundation

/// Where the demo reads answers and writes prompts: the terminal, or a script in tests.
public protocol LineIO: Sendable {
    /// The next line the user typed, without its newline; nil at end of input.
    func readLine() async -> String?
    func write(_ text: String) async
}

/// Standard input and output.
public struct StandardLineIO: LineIO {
    public init() {}

    public func readLine() async -> String? { Swift.readLine(strippingNewline: true) }

    public func write(_ text: String) async {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
