import CognateProtocol
import Foundation

/// An error of the Cognito Identity (identity pools) API: the `__type` and `message` a client
/// receives. Worded as Cognito words them where that is known (clients and people search for
/// these messages).
public struct CognitoIdentityError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: CognitoIdentityErrorCode
    public let message: String

    public init(_ code: CognitoIdentityErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// 400 for the client's errors, 500 for the server's own faults (as the user-pool API).
    public var httpStatus: Int { code.isServerFault ? 500 : 400 }

    public var description: String { "\(code.rawValue): \(message)" }
}

extension CognitoIdentityError {
    public static func invalidParameter(_ message: String) -> Self { .init(.invalidParameter, message) }
    public static func notAuthorized(_ message: String) -> Self { .init(.notAuthorized, message) }
    public static func resourceNotFound(_ message: String) -> Self { .init(.resourceNotFound, message) }
    public static func resourceConflict(_ message: String) -> Self { .init(.resourceConflict, message) }
    public static func externalService(_ message: String) -> Self { .init(.externalService, message) }

    public static func identityPoolNotFound(_ id: String) -> Self { resourceNotFound("IdentityPool '\(id)' not found.") }
    public static func identityNotFound(_ id: String) -> Self { resourceNotFound("Identity '\(id)' not found.") }

    // Cognito's words, as apps and their users meet them.
    public static let unauthenticatedNotSupported = notAuthorized(
        "Unauthenticated access is not supported for this identity pool.")
    public static let loginsDoNotMatch = notAuthorized(
        "Logins don't match. Please include at least one valid login for this identity or identity pool.")
    public static let unsupportedProvider = notAuthorized("Token is not from a supported provider of this identity pool.")
    public static let invalidRoles = CognitoIdentityError(
        .invalidIdentityPoolConfiguration, "Invalid identity pool configuration. Check assigned IAM roles for this pool.")
    /// A login token that does not verify: `detail` says why ("Token expired", "Issuer doesn't
    /// match providerName" …), after Cognito's "Invalid login token." prefix.
    public static func invalidLoginToken(_ detail: String) -> Self { notAuthorized("Invalid login token. \(detail)") }
}
