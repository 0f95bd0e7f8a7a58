import CognateProtocol
import Foundation

/// Checks attribute writes against a pool's schema (cognito-protocol §7.4).
///
/// Contract: unknown names, values outside the schema's constraints, badly formatted email,
/// phone numbers (E.164) and birthdates (YYYY-MM-DD) are refused with
/// InvalidParameterException "Attributes did not conform to the schema: …".
struct AttributeRules {
    enum Writer {
        /// A user writing their own attributes (SignUp, UpdateUserAttributes).
        case user
        /// An administrator (AdminCreateUser, AdminUpdateUserAttributes): may also write
        /// developer-only attributes and the verified flags.
        case admin
    }

    let schema: [String: SchemaAttributeType]

    init(pool: UserPoolType) {
        var schema: [String: SchemaAttributeType] = [:]
        for attribute in pool.schemaAttributes ?? [] {
            if let name = attribute.name { schema[name] = attribute }
        }
        self.schema = schema
    }

    static func nonConforming(_ name: String, _ reason: String) -> CognitoError {
        .invalidParameter("Attributes did not conform to the schema: \(name): \(reason)")
    }

    /// Checks new values and returns them by name. `isCreation` allows immutable attributes.
    func validated(_ attributes: [AttributeType], writer: Writer, isCreation: Bool) throws -> [String: String] {
        var result: [String: String] = [:]
        for attribute in attributes {
            let name = attribute.name
            guard let definition = schema[name] else {
                throw Self.nonConforming(name, "Attribute does not exist in the schema.")
            }
            guard name != "sub" else { throw Self.nonConforming(name, "Attribute cannot be updated.") }
            if name.hasPrefix("dev:") && writer != .admin {
                throw Self.nonConforming(name, "Developer-only attributes can only be written by an administrator.")
            }
            if definition.mutable == false && !isCreation {
                throw Self.nonConforming(name, "Attribute cannot be updated. (changing an immutable attribute)")
            }
            result[name] = try checked(attribute.value ?? "", name: name, definition: definition)
        }
        return result
    }

    /// Names of required attributes missing from `attributes`.
    func missingRequired(in attributes: [String: String]) -> [String] {
        schema.values.filter { $0.required == true && $0.name != "sub" }.compactMap(\.name)
            .filter { (attributes[$0] ?? "").isEmpty }.sorted()
    }

    /// The value as stored: checked against the definition, Booleans normalized to `true` /
    /// `false` (Cognito accepts any letter case).
    func checked(_ value: String, name: String, definition: SchemaAttributeType) throws -> String {
        switch definition.attributeDataType {
        case .boolean?:
            let folded = value.lowercased()
            guard folded == "true" || folded == "false" || value.isEmpty else {
                throw Self.nonConforming(name, "Value must be true or false.")
            }
            return folded
        case .number?:
            guard let number = Double(value) else { throw Self.nonConforming(name, "Value must be a number.") }
            if let min = definition.numberAttributeConstraints?.minValue.flatMap(Double.init), number < min {
                throw Self.nonConforming(name, "Number must be greater than or equal to \(Self.format(min)).")
            }
            if let max = definition.numberAttributeConstraints?.maxValue.flatMap(Double.init), number > max {
                throw Self.nonConforming(name, "Number must be less than or equal to \(Self.format(max)).")
            }
        case .dateTime?:
            guard Double(value) != nil || ISO8601DateFormatter().date(from: value) != nil else {
                throw Self.nonConforming(name, "Value must be a date-time.")
            }
        default:
            let length = value.count
            let min = definition.stringAttributeConstraints?.minLength.flatMap(Int.init) ?? 0
            let max = definition.stringAttributeConstraints?.maxLength.flatMap(Int.init) ?? 2048
            if length > max || value.utf8.count > 2048 {
                throw Self.nonConforming(name, "String must be no longer than \(max) characters.")
            }
            if length < min, !(value.isEmpty && definition.required != true) {
                throw Self.nonConforming(name, "String must be at least \(min) characters.")
            }
        }
        try checkFormat(value, name: name)
        return value
    }

    func checkFormat(_ value: String, name: String) throws {
        switch name {
        case "email" where !value.isEmpty:
            guard Self.isEmail(value) else { throw CognitoError.invalidParameter("Invalid email address format.") }
        case "phone_number" where !value.isEmpty:
            guard Self.isPhoneNumber(value) else { throw CognitoError.invalidParameter("Invalid phone number format.") }
        case "birthdate" where !value.isEmpty:
            guard let date = Self.birthdateParts(value) else {
                throw Self.nonConforming(name, "The birthdate must be in YYYY-MM-DD format.")
            }
            guard Self.isCalendarDate(date) else {
                throw Self.nonConforming(name, "\(value) is not a date: there is no day \(date.day) in that month.")
            }
        default:
            break
        }
    }

    /// `local@domain.tld`: one @, no whitespace, a dot in a domain of non-empty labels.
    static func isEmail(_ value: String) -> Bool {
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !value.contains(where: \.isWhitespace) else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
    }

    /// E.164: `+` then 1–15 digits, the first not zero.
    static func isPhoneNumber(_ value: String) -> Bool {
        let digits = value.dropFirst()
        return value.first == "+" && (1...15).contains(digits.count) && digits.allSatisfy(\.isASCIIDigit)
            && digits.first != "0"
    }

    /// Year, month and day of a `YYYY-MM-DD` text (month 01–12, day 01–31), or nil.
    static func birthdateParts(_ value: String) -> (year: Int, month: Int, day: Int)? {
        let parts = value.split(separator: "-", omittingEmptySubsequences: false)
        guard value.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            value.allSatisfy({ $0 == "-" || $0.isASCIIDigit }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        return (year, month, day)
    }

    /// Whether the day exists in that month (leap years included).
    static func isCalendarDate(_ date: (year: Int, month: Int, day: Int)) -> Bool {
        let leap = date.year % 4 == 0 && (date.year % 100 != 0 || date.year % 400 == 0)
        let daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return date.day <= daysInMonth[date.month - 1]
    }

    private static func format(_ number: Double) -> String {
        number == number.rounded() ? String(Int(number)) : String(number)
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
