/// The flags byte of authenticator data (WebAuthn §6.1). Bits 1 and 5 are reserved (RFU) and
/// kept as received.
public struct AuthenticatorFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// UP: the user was present.
    public static let userPresent = AuthenticatorFlags(rawValue: 0x01)
    /// UV: the user was verified (PIN, biometric…).
    public static let userVerified = AuthenticatorFlags(rawValue: 0x04)
    /// BE: the credential may be backed up (a multi-device, "synced" passkey). Fixed for a credential's life.
    public static let backupEligible = AuthenticatorFlags(rawValue: 0x08)
    /// BS: the credential is backed up now. Only with BE.
    public static let backedUp = AuthenticatorFlags(rawValue: 0x10)
    /// AT: attested credential data follows the counter.
    public static let attestedCredentialData = AuthenticatorFlags(rawValue: 0x40)
    /// ED: extension outputs end the authenticator data.
    public static let extensionData = AuthenticatorFlags(rawValue: 0x80)
}
