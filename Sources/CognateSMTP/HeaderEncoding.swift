/// Turns header text into ASCII tokens (RFC 2047 encoded-words where needed) and folds them into
/// header lines. Unfolding a folded field (removing each CRLF) gives back the tokens joined by
/// single spaces, so folding never changes the text a reader decodes.
enum HeaderEncoding {
    /// Lines are folded to this length where a break is possible (RFC 5322's SHOULD); no line
    /// can reach the 998-octet limit because no token is longer than ``longestPlainWord``.
    static let foldingWidth = 78
    /// An ASCII word longer than this makes the whole text go out as encoded-words, which can
    /// be split anywhere.
    static let longestPlainWord = 200
    /// UTF-8 bytes per encoded-word: 39 bytes are 52 base64 characters, 64 with the
    /// `=?UTF-8?B?` and `?=` around them (RFC 2047 allows 75).
    static let bytesPerEncodedWord = 39

    /// Tokens for an unstructured field (`Subject`, extra headers): the text's words when it is
    /// printable ASCII that no decoder would mistake for an encoded-word, else encoded-words.
    static func unstructured(_ text: String) -> [String] {
        if let words = plainWords(text) { return words }
        return encodedWords(text)
    }

    /// Tokens for a display name before `<address>`: a quoted-string when the name is ASCII,
    /// else encoded-words (RFC 2047 §5(3)).
    static func phrase(_ name: String) -> [String] {
        var quoted = "\""
        for character in name {
            if character == "\\" || character == "\"" { quoted.append("\\") }
            quoted.append(character)
        }
        quoted.append("\"")
        if let words = plainWords(quoted) { return words }
        return encodedWords(name)
    }

    /// The words of `text` split at spaces (empty words keep runs of spaces), or nil when the
    /// text must be encoded: non-ASCII, control characters, a word too long to fold, `=?`, or
    /// a leading or trailing space (which readers drop from a header).
    private static func plainWords(_ text: String) -> [String]? {
        let bytes = text.utf8
        guard bytes.allSatisfy({ isVisibleASCII($0) || $0 == UInt8(ascii: " ") }), !text.contains("=?"),
              bytes.first != UInt8(ascii: " "), bytes.last != UInt8(ascii: " ")
        else { return nil }
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard words.allSatisfy({ $0.utf8.count <= longestPlainWord }) else { return nil }
        return words
    }

    /// `text` as base64 encoded-words of at most ``bytesPerEncodedWord`` UTF-8 bytes each, never
    /// splitting a character's bytes between two words (RFC 2047 §5). Whitespace between
    /// adjacent encoded-words is ignored by decoders, so the words decode to `text` exactly.
    static func encodedWords(_ text: String) -> [String] {
        var words: [String] = []
        var chunk: [UInt8] = []
        for scalar in text.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            if chunk.count + encoded.count > bytesPerEncodedWord {
                words.append(encodedWord(chunk))
                chunk = []
            }
            chunk += encoded
        }
        if !chunk.isEmpty || words.isEmpty { words.append(encodedWord(chunk)) }
        return words
    }

    private static func encodedWord(_ bytes: [UInt8]) -> String { "=?UTF-8?B?" + Base64.encode(bytes) + "?=" }

    /// `Name: token token` with a CRLF inserted before the space preceding a token whenever the
    /// line would pass ``foldingWidth``; never before an empty token, so no line is all space.
    /// Ends with CRLF.
    static func field(_ name: String, _ tokens: [String]) -> String {
        var result = name + ":"
        var lineLength = result.utf8.count
        for token in tokens {
            let length = token.utf8.count
            if lineLength + 1 + length > foldingWidth, length > 0, lineLength > name.utf8.count + 1 {
                result += "\r\n "
                lineLength = 1
            } else {
                result += " "
                lineLength += 1
            }
            result += token
            lineLength += length
        }
        return result + "\r\n"
    }

    /// Tokens for a list of mailboxes: `"Name" <address>, <address>`.
    static func mailboxList(_ mailboxes: [EmailAddress]) -> [String] {
        var tokens: [String] = []
        for (index, mailbox) in mailboxes.enumerated() {
            let separator = index < mailboxes.count - 1 ? "," : ""
            if let displayName = mailbox.displayName {
                tokens += phrase(displayName)
                tokens.append("<\(mailbox.address)>" + separator)
            } else {
                tokens.append(mailbox.address + separator)
            }
        }
        return tokens
    }
}
