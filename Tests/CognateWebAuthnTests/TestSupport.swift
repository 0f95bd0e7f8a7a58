import Foundation
import Testing

@testable import CognateWebAuthn

/// Reading the committed vectors and writing bytes in tests.
enum TestSupport {
    static let vectorsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Vectors")

    static func load<T: Decodable>(_ type: T.Type, from file: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(contentsOf: vectorsFolder.appendingPathComponent(file)))
    }
}

extension Array where Element == UInt8 {
    /// Bytes from hex text; a test's literal, so malformed text is a test bug and traps.
    init(hex: String) {
        let digits = Array(hex.utf8)
        precondition(digits.count % 2 == 0, "odd hex length")
        self = stride(from: 0, to: digits.count, by: 2).map { index in
            UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16)!
        }
    }

    /// Bytes from base64url text in a vector file.
    init(base64URL text: String) {
        self = WebAuthnBase64URL.decode(text)!
    }

    /// The same bytes with the one at `index` (negative: from the end) XORed with `mask`.
    func flipping(at index: Int, mask: UInt8 = 0x01) -> [UInt8] {
        var copy = self
        copy[index >= 0 ? index : count + index] ^= mask
        return copy
    }
}
