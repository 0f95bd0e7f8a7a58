/// An additional header field of an ``EmailMessage``, such as `Reply-To`, `List-Unsubscribe`
/// or `X-Cognate-Pool`.
///
/// The name is checked to be a valid field name and not one the message renders itself; the
/// value may be any text without line breaks or other control characters (tab allowed). A value
/// that is not plain ASCII is sent as RFC 2047 encoded-words, which suits unstructured fields;
/// structured fields (`Reply-To`) should hold ASCII only.
public struct EmailHeader: Sendable, Hashable {
    public let name: String
    public let value: String

    /// Fields ``EmailMessage`` writes itself; an extra header of the same name is refused so it
    /// cannot contradict or duplicate them.
    public static let reservedNames: Set<String> = [
        "from", "sender", "to", "cc", "bcc", "subject", "date", "message-id",
        "mime-version", "content-type", "content-transfer-encoding",
    ]

    /// - Throws: ``SMTPError/invalidMessage(_:)`` for an invalid or reserved name, or a value
    ///   with a line break or another control character.
    public init(name: String, value: String) throws {
        guard (1...76).contains(name.utf8.count), name.utf8.allSatisfy({ isVisibleASCII($0) && $0 != UInt8(ascii: ":") }) else {
            throw SMTPError.invalidMessage("\(name.debugDescription) is not a valid header field name")
        }
        guard !Self.reservedNames.contains(name.lowercased()) else {
            throw SMTPError.invalidMessage("the \(name) header is written by EmailMessage itself")
        }
        try HeaderText.requireSingleLine(value, what: "the value of the \(name) header")
        self.name = name
        self.value = value
    }
}

enum HeaderText {
    /// Refuses text that could end a header line early or hide one: CR, LF and every other
    /// control character except horizontal tab.
    static func requireSingleLine(_ text: String, what: String) throws {
        let forbidden = text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\t" }
        if forbidden {
            throw SMTPError.invalidMessage("\(what) contains a line break or another control character")
        }
    }
}
