import CognateProtocol
import Foundation

struct AttributeEditor: Sendable {
    let time: any TimeSource
    let codes: CodeBook
    let users: UserDirectory
    let messenger: Messenger
}

extension AttributeEditor {
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
                pending.append(try await messenger.issueCode(
                    .verifyAttribute(kind), for: user, to: destination, pool: pool, pendingValue: value, in: transaction))
                continue
            }
            updated["\(kind)_verified"] = "false"
            if autoVerified.contains(attribute) {
                pending.append(try await messenger.issueCode(.verifyAttribute(kind), for: user, to: destination, pool: pool, in: transaction))
            }
        }
        // A code sent to an address that changed or went away proves nothing any more.
        for kind in ["email", "phone_number"] where changes[kind] != nil && updated[kind] != user.attributes[kind]
            && !pending.contains(where: { $0.purpose == .verifyAttribute(kind) })
        {
            try await transaction.deleteCode(poolId: user.poolId, userSub: user.sub, purpose: .verifyAttribute(kind))
        }
        for kind in ["email", "phone_number"] where updated[kind] == nil { updated["\(kind)_verified"] = nil }
        if let missing = AttributeRules(pool: pool.settings).missingRequired(in: updated).first {
            throw AttributeRules.nonConforming(missing, "The attribute \(missing) is required")
        }
        user.attributes = updated
        user.updatedAt = time.now
        try await transaction.updateUser(user)
        try await users.updateSignInNames(of: user, pool: pool, in: transaction)
        return pending
    }
}
