import CognateProtocol

/// The one rule set for attributes users write about themselves, on every path that lets them:
/// SignUp, UpdateUserAttributes, DeleteUserAttributes, the answer to NEW_PASSWORD_REQUIRED and
/// the address an MFA_SETUP answer gives (`EMAIL`, made the user's only by the code sent to it)
/// (and, later, hosted sign-up pages). Administrators go through `AttributeRules` with
/// `.admin` instead.
///
/// Contract: a user may write an attribute only when it is in the pool's schema, conforms to
/// it, is not developer-only (`dev:`), is not a verified flag (`email_verified`,
/// `phone_number_verified`: only a code proves an address) and is writable by the app client
/// (`WriteAttributes`, every attribute when the client names none). A changed email or phone
/// number is then applied by `applyAttributeChanges`, which marks it unverified and sends a
/// code; nothing here can mark an address verified.
struct UserAttributeWrites {
    static let verifiedFlags: Set<String> = ["email_verified", "phone_number_verified"]

    let rules: AttributeRules
    let client: ClientRecord

    init(pool: PoolRecord, client: ClientRecord) {
        self.rules = AttributeRules(pool: pool.settings)
        self.client = client
    }

    /// Values a user sets, by name, normalized (`True` → `true`). `isCreation` (SignUp) allows
    /// immutable attributes.
    func checked(_ attributes: [AttributeType], isCreation: Bool) throws -> [String: String] {
        let values = try rules.validated(attributes, writer: .user, isCreation: isCreation)
        try checkWritable(values.keys)
        return values
    }

    /// Names a user deletes, as the changes that delete them (empty values).
    func checkedDeletion(_ names: [String]) throws -> [String: String] {
        try rules.checkDeletable(names)
        for name in names where rules.schema[name]?.mutable == false {
            throw AttributeRules.nonConforming(name, "Attribute cannot be updated. (changing an immutable attribute)")
        }
        try checkWritable(names)
        return Dictionary(names.map { ($0, "") }, uniquingKeysWith: { first, _ in first })
    }

    private func checkWritable<Names: Sequence<String>>(_ names: Names) throws {
        let sorted = names.sorted()
        if let writable = client.settings.writeAttributes.map(Set.init),
            let refused = sorted.first(where: { !writable.contains($0) })
        {
            throw CognitoError.notAuthorized("A client attempted to write unauthorized attribute \(refused)")
        }
        if let flag = sorted.first(where: Self.verifiedFlags.contains) {
            throw AttributeRules.nonConforming(flag, "Attribute cannot be set by users.")
        }
    }
}
