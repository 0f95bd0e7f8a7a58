/// Random challenges for ceremonies (WebAuthn §13.4.3: at least 16 bytes, never reused).
public enum WebAuthnChallenge {
    /// `byteCount` bytes from the system's cryptographically secure generator.
    public static func random(byteCount: Int = 32) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<max(byteCount, 16)).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
