import Foundation

/// An error of the Cognito User Pools API: the `__type` and `message` a client receives.
///
/// The server throws these from its use cases and encodes them as Cognito does (HTTP 400 for
/// client errors, 500 for server faults); the SDK decodes them from responses.
public struct CognitoError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: CognitoErrorCode
    public let message: String

    public init(_ code: CognitoErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Cognito answers 400 for every client error (NotAuthorized and TooManyRequests included)
    /// and 500 for its internal errors; clients dispatch on `__type`, not on the status.
    public var httpStatus: Int { code.isServerFault ? 500 : 400 }

    public var description: String { "\(code.rawValue): \(message)" }
}

extension CognitoError {
    public static func invalidParameter(_ message: String) -> CognitoError { .init(.invalidParameter, message) }
    public static func notAuthorized(_ message: String) -> CognitoError { .init(.notAuthorized, message) }
    public static func resourceNotFound(_ message: String) -> CognitoError { .init(.resourceNotFound, message) }
    public static func internalError(_ message: String = "Internal error.") -> CognitoError { .init(.internalError, message) }

    // Messages clients match on, as Cognito words them.
    public static let incorrectCredentials = notAuthorized("Incorrect username or password.")
    public static let userNotFound = CognitoError(.userNotFound, "User does not exist.")
    public static let userNotConfirmed = CognitoError(.userNotConfirmed, "User is not confirmed.")
    public static let userDisabled = notAuthorized("User is disabled.")
    public static let codeMismatch = CognitoError(.codeMismatch, "Invalid verification code provided, please try again.")
    public static let expiredCode = CognitoError(.expiredCode, "Invalid code provided, please request a code again.")
    public static let attemptLimitExceeded = CognitoError(.limitExceeded, "Attempt limit exceeded, please try after some time.")
    public static let invalidAccessToken = notAuthorized("Invalid Access Token")
    public static let expiredAccessToken = notAuthorized("Access Token has expired")
    public static let revokedAccessToken = notAuthorized("Access Token has been revoked")
    public static let invalidRefreshToken = notAuthorized("Invalid Refresh Token")
    public static let revokedRefreshToken = notAuthorized("Refresh Token has been revoked")
    public static let passwordResetRequired = CognitoError(.passwordResetRequired, "Password reset required for the user")
}

/// The JSON body of an error response: `{"__type": "...", "message": "..."}`.
public struct WireErrorBody: Codable, Sendable, Equatable {
    /// The error shape name; other AWS front ends may prefix `namespace#` or suffix `:detail`.
    public var type: String
    public var message: String?

    public init(type: String, message: String?) {
        self.type = type
        self.message = message
    }

    enum CodingKeys: String, CodingKey {
        case type = "__type"
        case message
        case upperMessage = "Message"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        message = try container.decodeIfPresent(String.self, forKey: .message)
            ?? container.decodeIfPresent(String.self, forKey: .upperMessage)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encodeIfPresent(message, forKey: .message)
    }

    /// The bare shape name: `aws.cognito#NotAuthorizedException:http://…` → `NotAuthorizedException`.
    public var shapeName: String {
        var name = Substring(type)
        if let hash = name.lastIndex(of: "#") { name = name[name.index(after: hash)...] }
        if let colon = name.firstIndex(of: ":") { name = name[..<colon] }
        return String(name)
    }
}
