import Foundation

/// The profile a health app completes at step 3 of its registration: names, birth date,
/// gender and three consents, stored as user attributes (consents as custom attributes holding
/// the time of consent).
public enum HealthProfile {
    public enum Kind: Sendable, Equatable {
        case text
        /// `YYYY-MM-DD`.
        case date
        case choice([String])
        /// Answered yes/no; stored as the ISO 8601 time of consent. Registration needs a yes.
        case consent
    }

    public struct Field: Sendable, Equatable {
        public var attribute: String
        public var prompt: String
        public var kind: Kind
    }

    public static let fields: [Field] = [
        Field(attribute: "given_name", prompt: "First name", kind: .text),
        Field(attribute: "family_name", prompt: "Last name", kind: .text),
        Field(attribute: "birthdate", prompt: "Date of birth (YYYY-MM-DD)", kind: .date),
        Field(attribute: "gender", prompt: "Gender", kind: .choice(["female", "male", "other"])),
        Field(attribute: "custom:accepted_tos", prompt: "Do you accept the terms of use?", kind: .consent),
        Field(attribute: "custom:accepted_privacy", prompt: "Do you accept the privacy policy?", kind: .consent),
        Field(attribute: "custom:accepted_hipaa", prompt: "Do you sign the HIPAA authorization?", kind: .consent),
    ]

    /// The attributes a complete profile has (the demo's `requiredAttributes`).
    public static var requiredAttributes: [String] { fields.map(\.attribute) }

    /// The field for an attribute; attributes the pool requires that the app does not know
    /// get a plain text prompt.
    public static func field(for attribute: String) -> Field {
        fields.first { $0.attribute == attribute } ?? Field(attribute: attribute, prompt: attribute, kind: .text)
    }

    /// How a consent time is written: `2026-05-01T09:30:00Z`.
    public static func consentTimestamp(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    /// Why `text` is no birth date (a user-facing sentence), or nil when it is one: the
    /// `YYYY-MM-DD` form, a day that exists (no 1985-02-30), not in the future.
    public static func problem(withDate text: String, today: Date) -> String? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return "Please write the date as YYYY-MM-DD, for example 1985-02-28." }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard (1...12).contains(month),
            let date = calendar.date(from: DateComponents(year: year, month: month, day: day)),
            calendar.component(.day, from: date) == day, calendar.component(.month, from: date) == month
        else { return "\(text) is not a date in the calendar." }
        guard date <= today else { return "A date of birth cannot be in the future." }
        return nil
    }
}
