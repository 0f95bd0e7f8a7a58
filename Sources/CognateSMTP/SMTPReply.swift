/// A complete reply of an SMTP server: its three-digit code and the text of each line
/// (a multi-line reply, `250-…` continued up to `250 …`, has several).
public struct SMTPReply: Sendable, Hashable, CustomStringConvertible {
    /// 200–599: 2xx success, 3xx intermediate (354 after `DATA`, 334 during `AUTH`),
    /// 4xx transient failure, 5xx permanent failure.
    public let code: Int
    /// The text after the code and separator of each line, without line endings. Control
    /// characters sent by the server are replaced by U+FFFD.
    public let lines: [String]

    public init(code: Int, lines: [String]) {
        self.code = code
        self.lines = lines
    }

    /// The lines joined with spaces, as one human-readable text.
    public var text: String { lines.joined(separator: " ") }

    /// "550 5.1.1 No such user".
    public var description: String { text.isEmpty ? "\(code)" : "\(code) \(text)" }

    var isPositiveCompletion: Bool { (200..<300).contains(code) }
    var isTransientFailure: Bool { (400..<500).contains(code) }
    var isPermanentFailure: Bool { (500..<600).contains(code) }
}
