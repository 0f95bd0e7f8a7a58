import CognateProtocol
import Foundation

/// A user's MFA settings as GetUser and AdminGetUser show them.
struct UserMfaView: Sendable {
    let store: any Store
    let snapshots: any UserSnapshots
}

extension UserMfaView {
    /// The MFA settings GetUser and AdminGetUser show: the factors the user enabled (nil when
    /// none, or the pool has MFA off), the preferred one, and — for SMS — the older
    /// `MFAOptions` form. `onlyToAnswer`: as for ``authenticator.authenticatedUser(_:onlyToAnswer:)``.
    func mfaSettings(of user: UserRecord, pool: PoolRecord, onlyToAnswer: Bool = false) async throws
        -> (list: [String]?, preferred: String?, options: [MFAOptionType]?)
    {
        guard (pool.settings.mfaConfiguration ?? .off) != .off else { return (nil, nil, nil) }
        let found = if onlyToAnswer {
            try await snapshots.mfa(poolId: pool.id, sub: user.sub)
        } else {
            try await store.read { try await $0.userMfa(poolId: pool.id, sub: user.sub) }
        }
        guard let record = found else { return (nil, nil, nil) }
        var list: [String] = []
        if record.totpEnabled, record.totpSecret != nil { list.append(ChallengeNameType.softwareTokenMfa.rawValue) }
        if record.smsEnabled { list.append(ChallengeNameType.smsMfa.rawValue) }
        if record.emailEnabled { list.append(ChallengeNameType.emailOtp.rawValue) }
        let options = record.smsEnabled ? [MFAOptionType(deliveryMedium: .sms, attributeName: "phone_number")] : nil
        return (list.isEmpty ? nil : list, list.isEmpty ? nil : record.preferred, options)
    }
}
