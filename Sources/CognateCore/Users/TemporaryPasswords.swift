import CognateProtocol

/// Temporary passwords Cognate generates for AdminCreateUser: random, and always meeting the
/// pool's policy (one character of each class, at least 12 long).
enum TemporaryPasswords {
    static let upper = "ABCDEFGHJKLMNPQRSTUVWXYZ", lower = "abcdefghijkmnopqrstuvwxyz", digits = "23456789"
    static let symbols = "!@#%&*-_=+?"

    static func generate(policy: PasswordPolicyType?, random: any RandomSource) -> String {
        let length = max(policy?.minimumLength ?? 8, 12)
        var characters = Array(random.string(1, from: upper) + random.string(1, from: lower)
            + random.string(1, from: digits) + random.string(1, from: symbols)
            + random.string(length - 4, from: upper + lower + digits + symbols))
        // Shuffle with the injected randomness so the classes are not in fixed places.
        for index in characters.indices.reversed() where index > 0 {
            let other = Int(random.bytes(1)[0]) % (index + 1)
            characters.swapAt(index, other)
        }
        return String(characters)
    }
}
