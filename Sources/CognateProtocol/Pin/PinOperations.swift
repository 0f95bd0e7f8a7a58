import Foundation

/// Cognate's operations for PIN sign-in, on the same wire as Cognito's (`X-Amz-Target:
/// AWSCognitoIdentityProviderService.<name>`); Cognito has no counterpart. See docs/sdk.md and
/// docs/security.md for the protocol.
extension CognitoAPI {
    /// Sets (or, without `PinPolicy`, removes) a pool's PIN policy. Admin (SigV4).
    public enum SetUserPoolPinPolicy: CognitoOperation {
        public typealias Input = SetUserPoolPinPolicyRequest
        public typealias Output = PinPolicyResponse
        public static let name = "SetUserPoolPinPolicy"
        public static let authorization: OperationAuthorization = .sigV4
    }

    /// The PIN policy of an app client's pool, for the app to check PINs against. Public.
    public enum GetPinPolicy: CognitoOperation {
        public typealias Input = GetPinPolicyRequest
        public typealias Output = PinPolicyResponse
        public static let name = "GetPinPolicy"
        public static let authorization: OperationAuthorization = .unsigned
    }

    /// Registers (or replaces) the PIN verifier of the signed-in user's device: the SRP verifier
    /// of a secret the device derives from the PIN. Authorized by an access token issued to
    /// that device.
    public enum RegisterDevicePin: CognitoOperation {
        public typealias Input = RegisterDevicePinRequest
        public typealias Output = EmptyResponse
        public static let name = "RegisterDevicePin"
        public static let authorization: OperationAuthorization = .unsigned
    }
}

extension AuthFlowType {
    /// PIN sign-in (Cognate): AuthParameters USERNAME, DEVICE_KEY, SRP_A (SECRET_HASH when the
    /// client has a secret); answered with DEVICE_PASSWORD_VERIFIER over the device's PIN verifier.
    public static let devicePinAuth = AuthFlowType(rawValue: "DEVICE_PIN_AUTH")
    public static var extensionValues: [AuthFlowType] { [.devicePinAuth] }
}

public struct SetUserPoolPinPolicyRequest: WireShape {
    public var userPoolId: String
    public var pinPolicy: PinPolicy?

    public init(userPoolId: String, pinPolicy: PinPolicy?) {
        self.userPoolId = userPoolId
        self.pinPolicy = pinPolicy
    }

    public static var wirePlaceholder: SetUserPoolPinPolicyRequest { SetUserPoolPinPolicyRequest(userPoolId: "", pinPolicy: nil) }

    enum CodingKeys: String, CodingKey {
        case userPoolId = "UserPoolId"
        case pinPolicy = "PinPolicy"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let validator = WireValidator(decoder)
        if let value = try container.decodeIfPresent(String.self, forKey: .userPoolId) {
            validator.checkString(value, at: validator.path("userPoolId"), min: 1, max: 55, pattern: PinWirePatterns.userPoolId, sensitive: false)
            userPoolId = value
        } else {
            try validator.missing(.userPoolId, in: container, path: validator.path("userPoolId"))
            userPoolId = ""
        }
        pinPolicy = try container.decodeIfPresent(PinPolicy.self, forKey: .pinPolicy)
    }
}

public struct GetPinPolicyRequest: WireShape {
    public var clientId: String

    public init(clientId: String) { self.clientId = clientId }

    public static var wirePlaceholder: GetPinPolicyRequest { GetPinPolicyRequest(clientId: "") }

    enum CodingKeys: String, CodingKey {
        case clientId = "ClientId"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let validator = WireValidator(decoder)
        if let value = try container.decodeIfPresent(String.self, forKey: .clientId) {
            validator.checkString(value, at: validator.path("clientId"), min: 1, max: 128, sensitive: true)
            clientId = value
        } else {
            try validator.missing(.clientId, in: container, path: validator.path("clientId"))
            clientId = ""
        }
    }
}

/// The pool's PIN policy; absent when the pool does not offer PIN sign-in.
public struct PinPolicyResponse: WireShape {
    public var pinPolicy: PinPolicy?

    public init(pinPolicy: PinPolicy?) { self.pinPolicy = pinPolicy }

    public static var wirePlaceholder: PinPolicyResponse { PinPolicyResponse(pinPolicy: nil) }

    enum CodingKeys: String, CodingKey {
        case pinPolicy = "PinPolicy"
    }
}

public struct RegisterDevicePinRequest: WireShape {
    public var accessToken: String
    public var deviceKey: String
    public var pinVerifierConfig: DeviceSecretVerifierConfigType

    public init(accessToken: String, deviceKey: String, pinVerifierConfig: DeviceSecretVerifierConfigType) {
        self.accessToken = accessToken
        self.deviceKey = deviceKey
        self.pinVerifierConfig = pinVerifierConfig
    }

    public static var wirePlaceholder: RegisterDevicePinRequest {
        RegisterDevicePinRequest(accessToken: "", deviceKey: "", pinVerifierConfig: DeviceSecretVerifierConfigType())
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "AccessToken"
        case deviceKey = "DeviceKey"
        case pinVerifierConfig = "PinVerifierConfig"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let validator = WireValidator(decoder)
        if let value = try container.decodeIfPresent(String.self, forKey: .accessToken) {
            validator.checkString(value, at: validator.path("accessToken"), pattern: PinWirePatterns.accessToken, sensitive: true)
            accessToken = value
        } else {
            try validator.missing(.accessToken, in: container, path: validator.path("accessToken"))
            accessToken = ""
        }
        if let value = try container.decodeIfPresent(String.self, forKey: .deviceKey) {
            validator.checkString(value, at: validator.path("deviceKey"), min: 1, max: 55, sensitive: false)
            deviceKey = value
        } else {
            try validator.missing(.deviceKey, in: container, path: validator.path("deviceKey"))
            deviceKey = ""
        }
        if let value = try container.decodeIfPresent(DeviceSecretVerifierConfigType.self, forKey: .pinVerifierConfig) {
            pinVerifierConfig = value
        } else {
            try validator.missing(.pinVerifierConfig, in: container, path: validator.path("pinVerifierConfig"))
            pinVerifierConfig = DeviceSecretVerifierConfigType()
        }
    }
}
