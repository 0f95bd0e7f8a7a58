import CognateProtocol

/// Where a code goes: an email address or a phone number of the user.
struct CodeDestination: Sendable {
    var attribute: String       // "email" or "phone_number"
    var address: String

    var medium: DeliveryMediumType { attribute == "email" ? .email : .sms }

    /// `CodeDeliveryDetails` with the address masked as Cognito masks it:
    /// `j***@e***` for email (first letters of the local part and the domain), `+*******1212`
    /// for phone numbers (every digit but the last four).
    var details: CodeDeliveryDetailsType {
        CodeDeliveryDetailsType(destination: masked, deliveryMedium: medium, attributeName: attribute)
    }

    var masked: String { Self.mask(address, attribute: attribute) }

    static func mask(_ address: String, attribute: String) -> String {
        if attribute == "email" {
            let parts = address.split(separator: "@", maxSplits: 1)
            guard parts.count == 2, let local = parts[0].first, let domain = parts[1].first else { return "***" }
            return "\(local)***@\(domain)***"
        }
        let digits = Array(address)
        guard digits.count > 4 else { return String(repeating: "*", count: digits.count) }
        let head = digits.first == "+" ? "+" : ""
        let hidden = digits.count - 4 - head.count
        return head + String(repeating: "*", count: max(hidden, 0)) + String(digits.suffix(4))
    }
}
