import CognateAuth
import Foundation

/// One input of an Authenticator screen: what it holds (`key`: a user attribute's name, or one
/// of the model's own keys such as ``Key/username``), how it is entered and checked (`kind`),
/// and whether it may stay empty.
///
/// Sign-up asks for the pool's required attributes through the fields the app gives:
///
/// ```swift
/// AuthenticatorModel(auth: auth, signUpFields: [.email(), .password(), .confirmPassword(),
///                                               .text("given_name"), .date("birthdate", isRequired: false)])
/// ```
public struct AuthenticatorField: Sendable, Equatable, Identifiable {
    public enum Kind: Sendable, Equatable {
        /// Free text (a name, an address).
        case text
        /// A username as the pool takes it.
        case username
        /// An email address (`name@domain.tld`).
        case email
        /// A phone number in E.164 form (`+` and 8 to 15 digits), as Cognito stores them.
        case phone
        /// A secret; the server checks its policy.
        case password
        /// Must equal the field named `key` (a password typed again).
        case confirmation(of: String)
        /// A date as Cognito stores `birthdate`: `YYYY-MM-DD`.
        case date
        /// A one-time code: digits only.
        case code
        /// A PIN: digits only, checked against the pool's PIN policy when it has one.
        case pin
    }

    /// The model's own keys; any other key is a user attribute sent at sign-up or with a new password.
    public enum Key {
        public static let username = "username"
        public static let password = "password"
        public static let confirmPassword = "confirm_password"
        public static let newPassword = "new_password"
        public static let code = "code"
        public static let answer = "answer"
        public static let pin = "pin"
        public static let confirmPIN = "confirm_pin"
        public static let mfaEmail = "mfa_email"
        static let all: Set<String> = [username, password, confirmPassword, newPassword, code, answer, pin, confirmPIN, mfaEmail]
    }

    public var key: String
    public var kind: Kind
    public var isRequired: Bool
    /// The label the app gives; nil: the ``AuthenticatorStrings`` label of the key.
    public var label: String?

    public var id: String { key }

    public init(key: String, kind: Kind, isRequired: Bool = true, label: String? = nil) {
        self.key = key
        self.kind = kind
        self.isRequired = isRequired
        self.label = label
    }

    /// Whether the field holds a user attribute (sent to the pool) rather than a key of the model.
    public var isAttribute: Bool { !Key.all.contains(key) }

    public static func username(label: String? = nil) -> Self { Self(key: Key.username, kind: .username, label: label) }
    public static func email(isRequired: Bool = true, label: String? = nil) -> Self {
        Self(key: "email", kind: .email, isRequired: isRequired, label: label)
    }
    public static func phone(isRequired: Bool = true, label: String? = nil) -> Self {
        Self(key: "phone_number", kind: .phone, isRequired: isRequired, label: label)
    }
    public static func password(label: String? = nil) -> Self { Self(key: Key.password, kind: .password, label: label) }
    public static func confirmPassword(label: String? = nil) -> Self {
        Self(key: Key.confirmPassword, kind: .confirmation(of: Key.password), label: label)
    }
    public static func text(_ attribute: String, isRequired: Bool = true, label: String? = nil) -> Self {
        Self(key: attribute, kind: .text, isRequired: isRequired, label: label)
    }
    public static func date(_ attribute: String, isRequired: Bool = true, label: String? = nil) -> Self {
        Self(key: attribute, kind: .date, isRequired: isRequired, label: label)
    }

    /// A field for a user attribute, its kind guessed from the standard attribute's name
    /// (a new password's required attributes arrive as names only).
    public static func attribute(_ name: String) -> Self {
        switch name {
        case "email": .email()
        case "phone_number": .phone()
        case "birthdate": .date(name)
        default: .text(name)
        }
    }

    /// Whether the field should be entered hidden.
    public var isSecure: Bool {
        switch kind {
        case .password, .confirmation, .pin: true
        case .text, .username, .email, .phone, .date, .code: false
        }
    }

    /// The label shown for it.
    public func label(in strings: AuthenticatorStrings) -> String {
        if let label { return label }
        switch key {
        case Key.username: return strings.usernameLabel
        case Key.password: return strings.passwordLabel
        case Key.confirmPassword: return strings.confirmPasswordLabel
        case Key.newPassword: return strings.newPasswordLabel
        case Key.code: return strings.codeLabel
        case Key.answer: return strings.answerLabel
        case Key.pin: return strings.pinLabel
        case Key.confirmPIN: return strings.confirmPINLabel
        case Key.mfaEmail: return strings.emailLabel
        default: return strings.label(ofAttribute: key)
        }
    }

    /// What is wrong with `value` (nil: nothing). `values` holds the screen's other fields (a
    /// confirmation compares with its original), `pinPolicy` the pool's PIN rules.
    public func problem(
        with value: String, values: [String: String], strings: AuthenticatorStrings,
        pinPolicy: PinPolicy? = nil
    ) -> String? {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty {
            if case .confirmation(let original) = kind, !(values[original] ?? "").isEmpty {
                return strings.requiredField(label(in: strings))
            }
            return isRequired ? strings.requiredField(label(in: strings)) : nil
        }
        switch kind {
        case .text, .username, .password:
            return nil
        case .email:
            return Self.isEmail(trimmed) ? nil : strings.invalidEmail
        case .phone:
            return Self.isPhone(trimmed) ? nil : strings.invalidPhone
        case .date:
            return Self.isDate(trimmed) ? nil : strings.invalidDate
        case .code:
            return trimmed.allSatisfy(\.isASCIIDigit) && (4...10).contains(trimmed.count) ? nil : strings.invalidCode
        case .confirmation(let original):
            guard value == values[original] else {
                return original == Key.pin ? strings.pinsDoNotMatch : strings.passwordsDoNotMatch
            }
            return nil
        case .pin:
            guard value.allSatisfy(\.isASCIIDigit) else { return strings.pinDigitsOnly }
            return pinPolicy?.violations(of: value).first.map(strings.pinViolation)
        }
    }

    static func isEmail(_ value: String) -> Bool {
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !value.contains(where: \.isWhitespace) else { return false }
        let domain = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return domain.count >= 2 && domain.allSatisfy { !$0.isEmpty }
    }

    static func isPhone(_ value: String) -> Bool {
        guard value.first == "+" else { return false }
        let digits = value.dropFirst()
        return digits.allSatisfy(\.isASCIIDigit) && (8...15).contains(digits.count)
    }

    static func isDate(_ value: String) -> Bool {
        let parts = value.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month)
        else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
