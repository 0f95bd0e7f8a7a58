import CognateProtocol

/// A pool's password policy (cognito-protocol §7.2): length, and Basic Latin upper/lower
/// letters, digits and symbols when required.
enum PasswordRules {
    static let symbols = Set("^$*.[]{}()?\"!@#%&/\\,><':;|_~`=+- ")

    static func check(_ password: String, policy: PasswordPolicyType?) throws {
        let policy = policy ?? PoolSettings.defaultPasswordPolicy
        func fail(_ reason: String) -> CognitoError {
            CognitoError(.invalidPassword, "Password did not conform with policy: \(reason)")
        }
        if password.count < (policy.minimumLength ?? 8) { throw fail("Password not long enough") }
        if policy.requireUppercase == true, !password.contains(where: { ("A"..."Z").contains($0) }) {
            throw fail("Password must have uppercase characters")
        }
        if policy.requireLowercase == true, !password.contains(where: { ("a"..."z").contains($0) }) {
            throw fail("Password must have lowercase characters")
        }
        if policy.requireNumbers == true, !password.contains(where: { ("0"..."9").contains($0) }) {
            throw fail("Password must have numeric characters")
        }
        if policy.requireSymbols == true, !password.contains(where: symbols.contains) {
            throw fail("Password must have symbol characters")
        }
    }
}
