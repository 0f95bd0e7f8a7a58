import CognateProtocol
import Foundation

/// What a device's SRP exchange remembers between DEVICE_SRP_AUTH and DEVICE_PASSWORD_VERIFIER.
struct DeviceSRPSessionState: Codable, Sendable {
    var username: String
    var deviceKey: String
    var serverSecret: String?   // b (hex), once DEVICE_SRP_AUTH was answered
    var serverPublic: String?   // B (hex)
    var clientPublic: String?   // A (hex)
    /// PIN sign-in (DEVICE_PIN_AUTH): the claim is checked against the device's PIN verifier.
    var pin: Bool?
    /// The pending DEVICE_SRP_AUTH step this exchange answers (the hashes of its records): used
    /// up only by a right claim, so no one but the device can spend the user's step.
    var stepTokenHashes: [String]?
}
