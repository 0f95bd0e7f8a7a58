import CognateProtocol
import Foundation

/// What a correct first factor leads to, decided in the transaction that records the sign-in.
enum FirstFactorResult: Sendable {
    /// A new token family was stored; its JWTs are minted after the commit. `newDevice`: the
    /// device the tokens go to, seen for the first time (NewDeviceMetadata).
    case tokens(TokenFamilyRecord, refreshToken: String, user: UserRecord, groups: [GroupRecord], newDevice: DeviceRecord?)
    /// The next challenge (NEW_PASSWORD_REQUIRED, an MFA code, the device's proof), its session
    /// stored; `code`: the SMS or email code it sent, queued, to send after the commit.
    case challenge(AuthOutcome, code: QueuedSignInCode? = nil)
}
