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
}
