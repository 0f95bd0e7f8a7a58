import CognateProtocol

/// How a pool lets users name themselves at sign-in (cognito-protocol §7.3), and the keys under
/// which the store indexes those names.
///
/// - Every user is found by username (its key lower-cased when the pool is case-insensitive).
/// - In pools with `UsernameAttributes`, the email / phone number *is* the sign-in name: it is
///   indexed whether verified or not, and unique in the pool.
/// - In pools with `AliasAttributes`, verified emails and phone numbers and any
///   `preferred_username` are indexed, and unique in the pool.
struct SignInNames {
    let usernameAttributes: Set<UsernameAttributeType>
    let aliasAttributes: Set<AliasAttributeType>
    let caseSensitive: Bool

    init(pool: UserPoolType) {
        usernameAttributes = Set(pool.usernameAttributes ?? [])
        aliasAttributes = Set(pool.aliasAttributes ?? [])
        caseSensitive = pool.usernameConfiguration?.caseSensitive ?? true
    }

    /// Whether users sign up with an email or phone number and get a UUID username.
    var usesAttributeAsUsername: Bool { !usernameAttributes.isEmpty }

    func usernameKey(_ username: String) -> String { caseSensitive ? username : username.lowercased() }

    func key(_ kind: String, _ value: String) -> String {
        // Phone numbers have no case; emails and preferred usernames follow the pool's setting.
        "\(kind):" + (kind == "phone_number" || caseSensitive ? value : value.lowercased())
    }

    /// The indexed sign-in names of a user with these attributes.
    func names(for attributes: [String: String]) -> [String] {
        var names: [String] = []
        for kind in ["email", "phone_number"] {
            guard let value = attributes[kind], !value.isEmpty else { continue }
            let asUsername = usernameAttributes.contains(UsernameAttributeType(rawValue: kind))
            let asAlias = aliasAttributes.contains(AliasAttributeType(rawValue: kind)) && attributes["\(kind)_verified"] == "true"
            if asUsername || asAlias { names.append(key(kind, value)) }
        }
        if aliasAttributes.contains(.preferredUsername), let value = attributes["preferred_username"], !value.isEmpty {
            names.append(key("preferred_username", value))
        }
        return names
    }

    /// The internal username of a new user who typed `typed`: in pools where the email or phone
    /// number is the username, the sub (and `typed` becomes that attribute); otherwise `typed`,
    /// which must not look like an alias.
    func newUsername(_ typed: String, sub: String, attributes: inout [String: String]) throws -> String {
        guard usesAttributeAsUsername else {
            try checkUsernameFormat(typed)
            return typed
        }
        if usernameAttributes.contains(.email), AttributeRules.isEmail(typed) {
            attributes["email"] = typed
        } else if usernameAttributes.contains(.phoneNumber), AttributeRules.isPhoneNumber(typed) {
            attributes["phone_number"] = typed
        } else {
            switch (usernameAttributes.contains(.email), usernameAttributes.contains(.phoneNumber)) {
            case (true, true): throw CognitoError.invalidParameter("Username should be either an email or a phone number.")
            case (true, false): throw CognitoError.invalidParameter("Username should be an email.")
            default: throw CognitoError.invalidParameter("Username should be a phone number.")
            }
        }
        return sub
    }

    /// With email or phone aliases, a username must not look like one (it could shadow
    /// another user's alias).
    func checkUsernameFormat(_ username: String) throws {
        if aliasAttributes.contains(.email), AttributeRules.isEmail(username) {
            throw CognitoError.invalidParameter("Username cannot be of email format, since user pool is configured for email alias.")
        }
        if aliasAttributes.contains(.phoneNumber), AttributeRules.isPhoneNumber(username) {
            throw CognitoError.invalidParameter(
                "Username cannot be of phone number format, since user pool is configured for phone_number alias.")
        }
    }

    /// The keys a name typed at sign-in may be stored under, most likely first.
    func candidateKeys(for typed: String) -> [String] {
        var keys: [String] = []
        if typed.contains("@") {
            if usernameAttributes.contains(.email) || aliasAttributes.contains(.email) { keys.append(key("email", typed)) }
        } else if typed.hasPrefix("+") {
            if usernameAttributes.contains(.phoneNumber) || aliasAttributes.contains(.phoneNumber) {
                keys.append(key("phone_number", typed))
            }
        }
        if aliasAttributes.contains(.preferredUsername) { keys.append(key("preferred_username", typed)) }
        return keys
    }
}
