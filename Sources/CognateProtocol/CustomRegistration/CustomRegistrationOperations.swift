import Foundation

/// Cognate's operations for custom registration, on the same wire as Cognito's (`X-Amz-Target:
/// AWSCognitoIdentityProviderService.<name>`); Cognito has no counterpart. An app sends what it
/// has (an activation code, a contract number), the pool's CustomRegistration function answers
/// with a challenge carrying its own data, the app answers, and so on until the function
/// creates the account: the user is signed in and the function's custom information comes
/// back. See docs/triggers.md ("Custom registration") and docs/sdk.md.
extension CognitoAPI {
    /// Sets (or, without `CustomRegistration`, removes) a pool's custom-registration function.
    /// Admin (SigV4).
    public enum SetUserPoolCustomRegistration: CognitoOperation {
        public typealias Input = SetUserPoolCustomRegistrationRequest
        public typealias Output = CustomRegistrationConfigurationResponse
        public static let name = "SetUserPoolCustomRegistration"
        public static let authorization: OperationAuthorization = .sigV4
    }

    /// A pool's custom-registration function. Admin (SigV4).
    public enum GetUserPoolCustomRegistration: CognitoOperation {
        public typealias Input = GetUserPoolCustomRegistrationRequest
        public typealias Output = CustomRegistrationConfigurationResponse
        public static let name = "GetUserPoolCustomRegistration"
        public static let authorization: OperationAuthorization = .sigV4
    }

    /// Starts a custom registration with the app's first data. Public, like SignUp.
    public enum StartCustomRegistration: CognitoOperation {
        public typealias Input = StartCustomRegistrationRequest
        public typealias Output = CustomRegistrationResponse
        public static let name = "StartCustomRegistration"
        public static let authorization: OperationAuthorization = .unsigned
    }

    /// Answers a custom registration's challenge. Public, like RespondToAuthChallenge.
    public enum RespondToCustomRegistration: CognitoOperation {
        public typealias Input = RespondToCustomRegistrationRequest
        public typealias Output = CustomRegistrationResponse
        public static let name = "RespondToCustomRegistration"
        public static let authorization: OperationAuthorization = .unsigned
    }
}

/// The function a pool's custom registrations run through: a Lambda ARN bound to a webhook
/// (`cognate functions put`), like the ARNs of `LambdaConfig`.
public struct CustomRegistrationConfiguration: WireShape {
    public var lambdaArn: String
    /// The app clients that may register users this way; nil: every app client of the pool
    /// that offers the pool's own sign-in.
    public var clientIds: [String]?

    public init(lambdaArn: String, clientIds: [String]? = nil) {
        self.lambdaArn = lambdaArn
        self.clientIds = clientIds
    }

    public static var wirePlaceholder: CustomRegistrationConfiguration { CustomRegistrationConfiguration(lambdaArn: "") }

    enum CodingKeys: String, CodingKey {
        case lambdaArn = "LambdaArn"
        case clientIds = "ClientIds"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let validator = WireValidator(decoder)
        if let value = try container.decodeIfPresent(String.self, forKey: .lambdaArn) {
            validator.checkString(value, at: validator.path("lambdaArn"), min: 20, max: 2048, pattern: WirePatterns.p10, sensitive: false)
            lambdaArn = value
        } else {
            try validator.missing(.lambdaArn, in: container, path: validator.path("lambdaArn"))
            lambdaArn = ""
        }
        clientIds = try container.decodeIfPresent([String].self, forKey: .clientIds)
        if let clientIds {
            validator.checkCount(clientIds.count, of: clientIds, at: validator.path("clientIds"), min: 1, max: 50)
            for (index, id) in clientIds.enumerated() {
                validator.checkString(
                    id, at: validator.path("clientIds") + ".\(index + 1)", min: 1, max: 128, pattern: WirePatterns.p2,
                    sensitive: true)
            }
        }
    }
}

public struct SetUserPoolCustomRegistrationRequest: WireShape {
    public var userPoolId: String
    public var customRegistration: CustomRegistrationConfiguration?

    public init(userPoolId: String, customRegistration: CustomRegistrationConfiguration?) {
        self.userPoolId = userPoolId
        self.customRegistration = customRegistration
    }

    public static var wirePlaceholder: SetUserPoolCustomRegistrationRequest {
        SetUserPoolCustomRegistrationRequest(userPoolId: "", customRegistration: nil)
    }

    enum CodingKeys: String, CodingKey {
        case userPoolId = "UserPoolId"
        case customRegistration = "CustomRegistration"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let validator = WireValidator(decoder)
        userPoolId = try CustomRegistrationWire.userPoolId(container, .userPoolId, validator)
        customRegistration = try container.decodeIfPresent(CustomRegistrationConfiguration.self, forKey: .customRegistration)
    }
}

public struct GetUserPoolCustomRegistrationRequest: WireShape {
    public var userPoolId: String

    public init(userPoolId: String) { self.userPoolId = userPoolId }

    public static var wirePlaceholder: GetUserPoolCustomRegistrationRequest { GetUserPoolCustomRegistrationRequest(userPoolId: "") }

    enum CodingKeys: String, CodingKey {
        case userPoolId = "UserPoolId"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        userPoolId = try CustomRegistrationWire.userPoolId(container, .userPoolId, WireValidator(decoder))
    }
}

/// The pool's custom-registration function; absent when the pool has none.
public struct CustomRegistrationConfigurationResponse: WireShape {
    public var customRegistration: CustomRegistrationConfiguration?

    public init(customRegistration: CustomRegistrationConfiguration?) { self.customRegistration = customRegistration }

    public static var wirePlaceholder: CustomRegistrationConfigurationResponse {
        CustomRegistrationConfigurationResponse(customRegistration: nil)
    }

    enum CodingKeys: String, CodingKey {
        case customRegistration = "CustomRegistration"
    }
}

public struct StartCustomRegistrationRequest: WireShape {
    public var clientId: String
    /// SECRET_HASH for an app client with a secret, computed as Cognito's with an empty
    /// username: Base64(HMAC-SHA256(secret, clientId)).
    public var secretHash: String?
    /// The app's data for the function (any text: JSON, an activation code …).
    public var data: String?
    public var clientMetadata: [String: String]?

    public init(clientId: String, secretHash: String? = nil, data: String? = nil, clientMetadata: [String: String]? = nil) {
        self.clientId = clientId
        self.secretHash = secretHash
        self.data = data
        self.clientMetadata = clientMetadata
    }

    public static var wirePlaceholder: StartCustomRegistrationRequest { StartCustomRegistrationRequest(clientId: "") }

    enum CodingKeys: String, CodingKey {
        case clientId = "ClientId"
        case secretHash = "SecretHash"
        case data = "Data"
        case clientMetadata = "ClientMetadata"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let validator = WireValidator(decoder)
        clientId = try CustomRegistrationWire.clientId(container, .clientId, validator)
        secretHash = try CustomRegistrationWire.secretHash(container, .secretHash, validator)
        data = try CustomRegistrationWire.data(container, .data, validator)
        clientMetadata = try CustomRegistrationWire.clientMetadata(container, .clientMetadata, validator)
    }
}

public struct RespondToCustomRegistrationRequest: WireShape {
    public var clientId: String
    /// The `RegistrationSession` of the challenge answered.
    public var registrationSession: String
    public var secretHash: String?
    /// The app's answer to the challenge.
    public var data: String?
    public var clientMetadata: [String: String]?

    public init(clientId: String, registrationSession: String, secretHash: String? = nil, data: String? = nil,
                clientMetadata: [String: String]? = nil) {
        self.clientId = clientId
        self.registrationSession = registrationSession
        self.secretHash = secretHash
        self.data = data
        self.clientMetadata = clientMetadata
    }

    public static var wirePlaceholder: RespondToCustomRegistrationRequest {
        RespondToCustomRegistrationRequest(clientId: "", registrationSession: "")
    }

    enum CodingKeys: String, CodingKey {
        case clientId = "ClientId"
        case registrationSession = "RegistrationSession"
        case secretHash = "SecretHash"
        case data = "Data"
        case clientMetadata = "ClientMetadata"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let validator = WireValidator(decoder)
        clientId = try CustomRegistrationWire.clientId(container, .clientId, validator)
        if let value = try container.decodeIfPresent(String.self, forKey: .registrationSession) {
            validator.checkString(value, at: validator.path("registrationSession"), min: 20, max: 4096, sensitive: true)
            registrationSession = value
        } else {
            try validator.missing(.registrationSession, in: container, path: validator.path("registrationSession"))
            registrationSession = ""
        }
        secretHash = try CustomRegistrationWire.secretHash(container, .secretHash, validator)
        data = try CustomRegistrationWire.data(container, .data, validator)
        clientMetadata = try CustomRegistrationWire.clientMetadata(container, .clientMetadata, validator)
    }
}

/// What a custom registration step answers: either another challenge of the function
/// (`RegistrationSession` and `ChallengeData`), or the account it created (`UserSub`,
/// `CustomInformation`) with the sign-in's result — tokens (`AuthenticationResult`), or a step
/// of Cognito's sign-in to answer with RespondToAuthChallenge (`ChallengeName`,
/// `ChallengeParameters`, `Session`), such as MFA_SETUP in a pool that requires MFA.
public struct CustomRegistrationResponse: WireShape {
    public var registrationSession: String?
    public var challengeData: String?
    public var userSub: String?
    public var customInformation: String?
    public var authenticationResult: AuthenticationResultType?
    public var challengeName: ChallengeNameType?
    public var challengeParameters: [String: String]?
    public var session: String?

    public init(registrationSession: String? = nil, challengeData: String? = nil, userSub: String? = nil,
                customInformation: String? = nil, authenticationResult: AuthenticationResultType? = nil,
                challengeName: ChallengeNameType? = nil, challengeParameters: [String: String]? = nil, session: String? = nil) {
        self.registrationSession = registrationSession
        self.challengeData = challengeData
        self.userSub = userSub
        self.customInformation = customInformation
        self.authenticationResult = authenticationResult
        self.challengeName = challengeName
        self.challengeParameters = challengeParameters
        self.session = session
    }

    public static var wirePlaceholder: CustomRegistrationResponse { CustomRegistrationResponse() }

    enum CodingKeys: String, CodingKey {
        case registrationSession = "RegistrationSession"
        case challengeData = "ChallengeData"
        case userSub = "UserSub"
        case customInformation = "CustomInformation"
        case authenticationResult = "AuthenticationResult"
        case challengeName = "ChallengeName"
        case challengeParameters = "ChallengeParameters"
        case session = "Session"
    }
}

/// The members the custom-registration requests share, checked as the model checks Cognito's.
enum CustomRegistrationWire {
    /// The most text one step's `Data` (and a function's `ChallengeData`) may hold.
    static let maximumData = 16_384

    static func userPoolId<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key, _ validator: WireValidator) throws -> String {
        guard let value = try container.decodeIfPresent(String.self, forKey: key) else {
            try validator.missing(key, in: container, path: validator.path("userPoolId"))
            return ""
        }
        validator.checkString(value, at: validator.path("userPoolId"), min: 1, max: 55, pattern: PinWirePatterns.userPoolId, sensitive: false)
        return value
    }

    static func clientId<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key, _ validator: WireValidator) throws -> String {
        guard let value = try container.decodeIfPresent(String.self, forKey: key) else {
            try validator.missing(key, in: container, path: validator.path("clientId"))
            return ""
        }
        validator.checkString(value, at: validator.path("clientId"), min: 1, max: 128, pattern: WirePatterns.p2, sensitive: true)
        return value
    }

    static func secretHash<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key, _ validator: WireValidator) throws -> String? {
        let value = try container.decodeIfPresent(String.self, forKey: key)
        if let value { validator.checkString(value, at: validator.path("secretHash"), min: 1, max: 128, sensitive: true) }
        return value
    }

    static func data<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key, _ validator: WireValidator) throws -> String? {
        let value = try container.decodeIfPresent(String.self, forKey: key)
        if let value { validator.checkString(value, at: validator.path("data"), min: 0, max: maximumData, sensitive: true) }
        return value
    }

    static func clientMetadata<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key, _ validator: WireValidator) throws
        -> [String: String]?
    {
        let value = try container.decodeIfPresent([String: String].self, forKey: key)
        for (name, member) in value ?? [:] {
            let path = validator.path("clientMetadata") + "." + name
            validator.checkString(name, at: path, min: 0, max: 131072, sensitive: false)
            validator.checkString(member, at: path, min: 0, max: 131072, sensitive: false)
        }
        return value
    }
}
