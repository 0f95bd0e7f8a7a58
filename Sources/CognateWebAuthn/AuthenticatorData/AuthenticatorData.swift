/// Authenticator data (WebAuthn §6.1): RP ID hash, flags, signature counter, then attested
/// credential data when AT is set and an extensions map when ED is set, and nothing else.
public struct AuthenticatorData: Equatable, Sendable {
    /// SHA-256 of the RP ID the authenticator scoped the credential to.
    public let rpIdHash: [UInt8]
    public let flags: AuthenticatorFlags
    public let signCount: UInt32
    /// Present exactly when AT is set.
    public let attestedCredentialData: AttestedCredentialData?
    /// The authenticator extension outputs, a CBOR map; present exactly when ED is set.
    public let extensions: CBORMap?
    /// The bytes it was parsed from: what signatures cover.
    public let bytes: [UInt8]

    /// The fixed part: 32 bytes of hash, 1 of flags, 4 of counter.
    public static let minimumLength = 37

    /// Parses authenticator data; every byte must belong to a part its flags announce.
    /// Also refuses BS without BE, which WebAuthn §6.1.3 rules out.
    public init(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count >= Self.minimumLength else {
            throw .malformed(.authenticatorData, "\(bytes.count) bytes; at least \(Self.minimumLength) needed")
        }
        rpIdHash = Array(bytes[0..<32])
        flags = AuthenticatorFlags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard !flags.contains(.backedUp) || flags.contains(.backupEligible) else {
            throw .malformed(.authenticatorData, "BS is set without BE")
        }
        var offset = Self.minimumLength
        if flags.contains(.attestedCredentialData) {
            let (data, length) = try AttestedCredentialData.read(bytes[offset...])
            attestedCredentialData = data
            offset += length
        } else {
            attestedCredentialData = nil
        }
        if flags.contains(.extensionData) {
            let value: CBORValue
            do { value = try CBORDecoder().decode(bytes[offset...]) } catch { throw .malformedCBOR(.extensions, error) }
            guard let map = value.mapValue else { throw .malformed(.extensions, "extensions are not a CBOR map") }
            extensions = map
            offset = bytes.count
        } else {
            extensions = nil
        }
        guard offset == bytes.count else {
            throw .malformed(.authenticatorData, "\(bytes.count - offset) bytes follow what the flags announce")
        }
        self.bytes = bytes
    }
}
