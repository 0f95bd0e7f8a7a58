import CognateProtocol
import Foundation

/// Where a code was sent: show "We sent a code to j***@e***.com".
public struct CodeDelivery: Sendable, Equatable, Codable {
    public enum Medium: String, Sendable, Equatable, Codable {
        case email = "EMAIL"
        case sms = "SMS"
        case unknown
    }

    /// The masked address (`j***@e***.com`, `+*******1212`).
    public var destination: String
    public var medium: Medium
    /// The attribute the code verifies (`email`, `phone_number`).
    public var attributeName: String

    public init(destination: String, medium: Medium, attributeName: String) {
        self.destination = destination
        self.medium = medium
        self.attributeName = attributeName
    }

    init(_ details: CodeDeliveryDetailsType) {
        self.init(
            destination: details.destination ?? "",
            medium: details.deliveryMedium.flatMap { Medium(rawValue: $0.rawValue) } ?? .unknown,
            attributeName: details.attributeName ?? "")
    }
}
