/// `ResidentKeyRequirement` (§5.4.6): whether the credential must be discoverable (a passkey
/// that signs in without a user name first).
public enum ResidentKeyRequirement: String, Codable, Sendable {
    case discouraged, preferred, required
}

/// `UserVerificationRequirement` (§5.8.6). With `required`, verify with
/// `requireUserVerification: true`: the client's promise is not enough.
public enum UserVerificationRequirement: String, Codable, Sendable {
    case required, preferred, discouraged
}

/// `AuthenticatorAttachment` (§5.4.5).
public enum AuthenticatorAttachment: String, Codable, Sendable {
    case platform
    case crossPlatform = "cross-platform"
}
