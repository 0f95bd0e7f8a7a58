import CognateProtocol

/// ListUsers `Filter` syntax (cognito-protocol §2.3): `attribute = "value"` (exact) or
/// `attribute ^= "value"` (prefix), spaces around the operator optional, `\"` for a quote
/// inside the value; an empty filter lists everyone.
///
/// Searchable: `username` and `status` (`Enabled`/`Disabled`) case-sensitively; `email`,
/// `phone_number`, `name`, `given_name`, `family_name`, `preferred_username`, `sub` and
/// `cognito:user_status` case-insensitively. Anything else is InvalidParameterException.
enum UserFilterParser {
    static let caseInsensitiveAttributes: Set<String> = [
        "email", "phone_number", "name", "given_name", "family_name", "preferred_username",
    ]

    /// `names`: the pool's, whose username keys a `username` filter is searched by.
    static func parse(_ text: String?, names: SignInNames) throws -> UserFilter? {
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        var rest = Substring(text).drop(while: \.isWhitespace)
        let name = rest.prefix { !$0.isWhitespace && $0 != "=" && $0 != "^" }
        rest = rest.dropFirst(name.count).drop(while: \.isWhitespace)
        let match: UserFilter.Match
        if rest.hasPrefix("^=") {
            match = .prefix
            rest = rest.dropFirst(2)
        } else if rest.hasPrefix("=") {
            match = .equals
            rest = rest.dropFirst()
        } else {
            throw parseError
        }
        rest = rest.drop(while: \.isWhitespace)
        guard rest.first == "\"" else { throw parseError }
        rest = rest.dropFirst()
        var value = ""
        var closed = false
        while let character = rest.first {
            rest = rest.dropFirst()
            if character == "\\", let next = rest.first {
                value.append(next)
                rest = rest.dropFirst()
            } else if character == "\"" {
                closed = true
                break
            } else {
                value.append(character)
            }
        }
        guard closed, rest.allSatisfy(\.isWhitespace), !name.isEmpty else { throw parseError }
        return try filter(String(name), match, value, names: names)
    }

    /// A username filter's key is its value's key: keys are lower-cased usernames or the
    /// usernames themselves, and lower-casing maps a prefix to a prefix of the whole's.
    static func filter(_ name: String, _ match: UserFilter.Match, _ value: String, names: SignInNames) throws -> UserFilter {
        switch name {
        case "username":
            return UserFilter(field: .username(key: names.usernameKey(value)), match: match, value: value, caseInsensitive: false)
        case "sub": return UserFilter(field: .sub, match: match, value: value.lowercased(), caseInsensitive: false)
        case "status":
            // Only "Enabled" and "Disabled" exist; the filter names those it matches.
            let states = ["Enabled", "Disabled"].filter { match == .equals ? $0 == value : $0.hasPrefix(value) }
            return UserFilter(field: .enabled, match: .equals, value: states.count == 1 ? states[0] : states.isEmpty ? "" : "*",
                              caseInsensitive: false)
        case "cognito:user_status":
            return UserFilter(field: .status, match: match, value: value.uppercased(), caseInsensitive: false)
        case let attribute where caseInsensitiveAttributes.contains(attribute):
            return UserFilter(field: .attribute(attribute), match: match, value: value, caseInsensitive: true)
        default:
            throw CognitoError.invalidParameter("Invalid search attribute: \(name)")
        }
    }

    static let parseError = CognitoError.invalidParameter("Error while parsing filter.")
}
