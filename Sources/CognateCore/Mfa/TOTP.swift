import Crypto
import Foundation

/// Time-based one-time passwords as authenticator apps make them (RFC 6238: HMAC-SHA1, 30 s
/// steps, 6 digits), the secret shown to users in base32 (RFC 4648, no padding) as Cognito's
/// AssociateSoftwareToken does.
enum TOTP {
    static let stepSeconds: Int64 = 30
    /// Cognito's secrets: 160 bits.
    static let secretLength = 20

    /// The 6-digit code of `step` (seconds since 1970 / 30).
    static func code(secret: [UInt8], step: Int64) -> String {
        var counter = UInt64(step).bigEndian
        let message = withUnsafeBytes(of: &counter) { Data($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let value = (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16)
            | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        let digits = String(value % 1_000_000)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    static func step(at date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) / stepSeconds }

    /// The step `code` belongs to, allowing one step of clock skew either way; nil when it is
    /// none of them. Every candidate is compared in constant time.
    static func matchingStep(_ code: String, secret: [UInt8], now: Date) -> Int64? {
        let current = step(at: now)
        var found: Int64?
        for candidate in [current - 1, current, current + 1] where ConstantTime.equals(self.code(secret: secret, step: candidate), code) {
            found = candidate
        }
        return found
    }
}

/// RFC 4648 base32 (A–Z, 2–7), without padding.
enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        var buffer = 0, bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
        }
        if bits > 0 { output.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return String(decoding: output, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer = 0, bits = 0
        for character in text.utf8 where character != UInt8(ascii: "=") {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = ((buffer << 5) | value) & 0xffff
            bits += 5
            if bits >= 8 {
                output.append(UInt8((buffer >> (bits - 8)) & 0xff))
                bits -= 8
            }
        }
        return output
    }
}
