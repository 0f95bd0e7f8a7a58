import Foundation
import Testing

@testable import CognateCore

struct TOTPTests {
    /// RFC 6238 appendix B (SHA-1 secret "12345678901234567890"), last six digits.
    @Test func rfc6238Vectors() {
        let secret = Array("12345678901234567890".utf8)
        let vectors: [(Int64, String)] = [
            (59, "287082"), (1_111_111_109, "081804"), (1_111_111_111, "050471"), (1_234_567_890, "005924"),
            (2_000_000_000, "279037"), (20_000_000_000, "353130"),
        ]
        for (seconds, code) in vectors {
            #expect(TOTP.code(secret: secret, step: seconds / 30) == code)
        }
    }

    @Test func acceptsOneStepOfSkewAndNoMore() {
        let secret = Array("12345678901234567890".utf8)
        let now = Date(timeIntervalSince1970: 1_234_567_890)
        let step = TOTP.step(at: now)
        for offset: Int64 in [-1, 0, 1] {
            #expect(TOTP.matchingStep(TOTP.code(secret: secret, step: step + offset), secret: secret, now: now) == step + offset)
        }
        #expect(TOTP.matchingStep(TOTP.code(secret: secret, step: step + 2), secret: secret, now: now) == nil)
        #expect(TOTP.matchingStep("12345", secret: secret, now: now) == nil)
    }

    /// RFC 4648 vectors, and round trips of Cognito-sized secrets.
    @Test func base32() {
        for (text, encoded) in [("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"),
                                ("fooba", "MZXW6YTB"), ("foobar", "MZXW6YTBOI")] {
            #expect(Base32.encode(Array(text.utf8)) == encoded)
            #expect(Base32.decode(encoded) == Array(text.utf8))
        }
        #expect(Base32.decode("MZXW6YTBOI======") == Array("foobar".utf8))
        #expect(Base32.decode("mzxw") == nil)
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<20).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        #expect(Base32.encode(secret).count == 32)
        #expect(Base32.decode(Base32.encode(secret)) == secret)
    }
}
