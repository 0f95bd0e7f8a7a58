import CognateProtocol
import Foundation

/// Where a pool sends a user's codes: rules of the pool's settings and the user's addresses.
extension PoolRecord {
    /// Where password reset codes go (AccountRecoverySetting in priority order; without it,
    /// a verified phone number, then a verified email). Nil when there is no verified channel.
    func recoveryDestination(for user: UserRecord) -> CodeDestination? {
        let mechanisms = settings.accountRecoverySetting?.recoveryMechanisms?
            .sorted { $0.priority < $1.priority }.map(\.name)
            ?? [.verifiedPhoneNumber, .verifiedEmail]
        for mechanism in mechanisms {
            let attribute: String
            switch mechanism {
            case .verifiedEmail: attribute = "email"
            case .verifiedPhoneNumber: attribute = "phone_number"
            default: continue
            }
            if user.attributes["\(attribute)_verified"] == "true", let destination = user.destination(for: attribute) {
                return destination
            }
        }
        return nil
    }

    /// Where sign-up and attribute codes go: the first auto-verified attribute the user has
    /// (email before phone number).
    func verificationDestination(for user: UserRecord) -> CodeDestination? {
        let autoVerified = Set(settings.autoVerifiedAttributes ?? [])
        for attribute in ["email", "phone_number"] where autoVerified.contains(VerifiedAttributeType(rawValue: attribute)) {
            if let destination = user.destination(for: attribute) { return destination }
        }
        return nil
    }
}
