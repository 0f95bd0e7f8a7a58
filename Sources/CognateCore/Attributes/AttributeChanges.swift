import CognateProtocol
import Foundation

/// A verification code to send once the transaction that created it has committed.
struct PendingCode: Sendable {
    var user: UserRecord
    var destination: CodeDestination
    var code: String
    var purpose: CodePurpose
}

extension IdentityService {
    /// Applies attribute changes to a user (cognito-protocol §2.2), inside `transaction`, and
    /// returns the verification codes to send.
    ///
    /// Changing `email` or `phone_number` marks it unverified and, when the pool auto-verifies
    /// it, sends a code to the new address — unless an administrator sets the verified flag in
    /// the same request. With `UserAttributeUpdateSettings.AttributesRequireVerificationBeforeUpdate`
    /// the old, verified address stays in place (and usable for sign-in) until the new one is
    /// verified; the new one waits in the code. An empty value removes the attribute.
    func applyAttributeChanges(_ changes: [String: String], to user: inout UserRecord, pool: PoolRecord,
                               writer: AttributeRules.Writer, in transaction: any StoreTransaction) async throws -> [PendingCode]
    {
        let autoVerified = Set(pool.settings.autoVerifiedAttributes ?? [])
        let holdUntilVerified = Set(pool.settings.userAttributeUpdateSettings?.attributesRequireVerificationBeforeUpdate ?? [])
        var updated = user.attributes
        var pending: [PendingCode] = []
        let now = time.now
        for (name, value) in changes.sorted(by: { $0.key < $1.key }) {
            updated[name] = value.isEmpty ? nil : value
        }
        for kind in ["email", "phone_number"] {
            guard let value = changes[kind], !value.isEmpty, value != user.attributes[kind] else { continue }
            if writer == .admin, changes["\(kind)_verified"] != nil { continue }
            let attribute = VerifiedAttributeType(rawValue: kind)
            let destination = CodeDestination(attribute: kind, address: value)
            if holdUntilVerified.contains(attribute), autoVerified.contains(attribute),
                user.attributes["\(kind)_verified"] == "true"
            {
                updated[kind] = user.attributes[kind]   // the verified address stays until the new one is verified
                updated["\(kind)_verified"] = "true"
                let issued = codes.issue(
                    for: user, purpose: .verifyAttribute(kind), deliveredTo: kind, pendingValue: value, now: now,
                    lifetime: configuration.confirmationCodeLifetime)
                try await transaction.saveCode(issued.record)
                pending.append(PendingCode(user: user, destination: destination, code: issued.code, purpose: .verifyAttribute(kind)))
                continue
            }
            updated["\(kind)_verified"] = "false"
            if autoVerified.contains(attribute) {
                let issued = codes.issue(
                    for: user, purpose: .verifyAttribute(kind), deliveredTo: kind, now: now,
                    lifetime: configuration.confirmationCodeLifetime)
                try await transaction.saveCode(issued.record)
                pending.append(PendingCode(user: user, destination: destination, code: issued.code, purpose: .verifyAttribute(kind)))
            }
        }
        for kind in ["email", "phone_number"] where updated[kind] == nil { updated["\(kind)_verified"] = nil }
        if let missing = AttributeRules(pool: pool.settings).missingRequired(in: updated).first {
            throw AttributeRules.nonConforming(missing, "The attribute \(missing) is required")
        }
        user.attributes = updated
        user.updatedAt = now
        try await transaction.updateUser(user)
        try await updateSignInNames(of: user, pool: pool, in: transaction)
        return pending
    }

    /// Sends codes after their transaction committed; returns their delivery details.
    func send(_ pending: [PendingCode], pool: PoolRecord) async throws -> [CodeDeliveryDetailsType] {
        var details: [CodeDeliveryDetailsType] = []
        for item in pending {
            details.append(try await deliverVerificationCode(
                item.code, to: item.destination, user: item.user, pool: pool, purpose: item.purpose))
        }
        return details
    }
}
