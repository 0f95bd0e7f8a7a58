import CognateIdentityProtocol
import CognateProtocol
import Foundation

/// Every way an ``AuthClient`` call can fail, as cases a UI can switch on. (A cancelled task is
/// not a failure: calls then throw `CancellationError`, as Apple's own APIs do.)
///
/// Errors the server sent keep its message (Cognito's wording: show it, or match your own text
/// on the case); `localizedDescription` is that message. Each Cognito error type (`__type`) has
/// a case of its own when an app can meet it through the public API; the rest arrive as
/// ``service(_:_:)`` with their typed code, and a type this SDK does not know (another
/// server's extension) as ``unexpected(code:message:)``.
///
/// Two errors are equal when they are the same Cognito error type with the same message, or
/// the same failure of the SDK; `network`, `storage` and `authenticator` compare their
/// underlying errors by domain and code (`URLError(.timedOut)` equals any other
/// `URLError(.timedOut)`).
public enum AuthError: Error, Sendable, Equatable, LocalizedError, CustomStringConvertible {
    // MARK: Account and sign-up
    case usernameExists(String)
    case userNotConfirmed(String)
    case userNotFound(String)
    case aliasExists(String)
    case passwordResetRequired(String)
    /// The password does not meet the pool's policy; the message says which rule failed.
    case invalidPassword(String)
    case passwordHistoryPolicyViolation(String)
    // MARK: Codes
    case codeMismatch(String)
    case expiredCode(String)
    case codeDeliveryFailure(String)
    case tooManyFailedAttempts(String)
    // MARK: Authorization
    /// Wrong credentials, disabled user, wrong secret hash, revoked or expired token, … (see message).
    case notAuthorized(String)
    case unauthorized(String)
    case refreshTokenReuse(String)
    // MARK: Requests and configuration
    case invalidParameter(String)
    case resourceNotFound(String)
    case invalidUserPoolConfiguration(String)
    case unsupportedOperation(String)
    case unsupportedTokenType(String)
    case mfaMethodNotFound(String)
    case softwareTokenMFANotFound(String)
    /// A wrong code while setting up an authenticator app; the set-up stays open.
    case enableSoftwareTokenMFA(String)
    // MARK: Passkeys (registering one)
    /// The pool does not allow passkeys (WEB_AUTHN is not among its first factors).
    case webAuthnNotEnabled(String)
    /// The pool has no relying party for passkeys (no RelyingPartyId, no domain).
    case webAuthnConfigurationMissing(String)
    /// No registration was started for the user, or it expired (or was answered already).
    case webAuthnChallengeNotFound(String)
    /// The registration was started by another app client.
    case webAuthnClientMismatch(String)
    /// The authenticator made the passkey for another relying party.
    case webAuthnRelyingPartyMismatch(String)
    /// The passkey's origin (in its client data) may not speak for the relying party.
    case webAuthnOriginNotAllowed(String)
    /// The passkey's key type or attestation is not one the pool accepts.
    case webAuthnCredentialNotSupported(String)
    // MARK: Limits
    case limitExceeded(String)
    case tooManyRequests(String)
    // MARK: Lambda triggers
    /// A pre-sign-up (or other) check refused the request; the message is the trigger's.
    case userLambdaValidation(String)
    case unexpectedLambda(String)
    case invalidLambdaResponse(String)
    // MARK: Identity pools (AWS credentials)
    /// A service the server relies on failed: for identity pools, no STS is configured or it
    /// did not answer (`ExternalServiceException`, with the server's message).
    case externalService(String)
    /// The identity pool lacks the IAM role it needs, or the STS refused the role or token
    /// (`InvalidIdentityPoolConfigurationException`).
    case invalidIdentityPoolConfiguration(String)
    /// Another error of the identity-pool API (`ResourceConflictException`, …).
    case identityService(CognitoIdentityErrorCode, String)
    // MARK: Server
    case internalError(String)
    /// Another Cognito error type (admin-side errors an app does not normally meet).
    case service(CognitoErrorCode, String)
    /// An error type this SDK does not know, with the server's message.
    case unexpected(code: String, message: String)

    // MARK: Raised by the SDK itself
    /// No response arrived (server unreachable, timeout, connection lost).
    case network(any Error)
    /// The ``TokenStore`` failed to read or write this profile.
    case storage(any Error)
    /// The response could not be read as the operation's output.
    case invalidResponse(String)
    /// The call needs a signed-in user and this profile has no tokens.
    case notSignedIn
    /// The server refused to refresh the session (signed out elsewhere, revoked, expired, user
    /// disabled); local tokens are gone and the user must sign in again. The server's message.
    case sessionExpired(String)
    /// The server asked for a challenge this SDK does not answer (a custom challenge inside
    /// ``RegistrationFlow``, for instance).
    case unsupportedChallenge(String)
    /// The call does not fit the current step (e.g. `confirmSignIn` with no pending challenge).
    case invalidState(String)
    /// The PIN breaks the pool's PIN policy (``PinPolicy``): every rule it breaks.
    case pinPolicyViolation([PinPolicyViolation])
    /// A wrong PIN; after `remainingAttempts` more the server forgets the device.
    case incorrectPIN(remainingAttempts: Int)
    /// Too many wrong PINs: the server forgot this device and ended its sessions, and the
    /// profile was wiped here. The user signs in with the password again.
    case pinAttemptsExhausted
    /// The hosted sign-in or its token exchange refused (OAuth's `error` and
    /// `error_description`: `access_denied`, `invalid_scope`, `invalid_grant` …).
    case webSignIn(error: String, description: String)
    /// This profile cannot sign in with a PIN: none was registered, or the server no longer
    /// knows the device (forgotten elsewhere). Sign in with the password (and register a PIN).
    case pinNotRegistered
    /// The first factor chosen is not among those the choice-based sign-in offers the user
    /// (`offered`); the choice is still open.
    case factorNotOffered(FirstFactor, offered: [FirstFactor])
    /// The ``PasskeyAuthenticator`` produced no passkey or signature — the user cancelled, no
    /// passkey of this relying party is on the device, the platform refused — with its error.
    case authenticator(any Error)

    /// The error for a Cognito error type and message.
    public init(code: CognitoErrorCode, message: String) {
        switch code {
        case .usernameExists: self = .usernameExists(message)
        case .userNotConfirmed: self = .userNotConfirmed(message)
        case .userNotFound: self = .userNotFound(message)
        case .aliasExists: self = .aliasExists(message)
        case .passwordResetRequired: self = .passwordResetRequired(message)
        case .invalidPassword: self = .invalidPassword(message)
        case .passwordHistoryPolicyViolation: self = .passwordHistoryPolicyViolation(message)
        case .codeMismatch: self = .codeMismatch(message)
        case .expiredCode: self = .expiredCode(message)
        case .codeDeliveryFailure: self = .codeDeliveryFailure(message)
        case .tooManyFailedAttempts: self = .tooManyFailedAttempts(message)
        case .notAuthorized: self = .notAuthorized(message)
        case .unauthorized: self = .unauthorized(message)
        case .refreshTokenReuse: self = .refreshTokenReuse(message)
        case .invalidParameter: self = .invalidParameter(message)
        case .resourceNotFound: self = .resourceNotFound(message)
        case .invalidUserPoolConfiguration: self = .invalidUserPoolConfiguration(message)
        case .unsupportedOperation: self = .unsupportedOperation(message)
        case .unsupportedTokenType: self = .unsupportedTokenType(message)
        case .mfaMethodNotFound: self = .mfaMethodNotFound(message)
        case .softwareTokenMFANotFound: self = .softwareTokenMFANotFound(message)
        case .enableSoftwareTokenMFA: self = .enableSoftwareTokenMFA(message)
        case .webAuthnNotEnabled: self = .webAuthnNotEnabled(message)
        case .webAuthnConfigurationMissing: self = .webAuthnConfigurationMissing(message)
        case .webAuthnChallengeNotFound: self = .webAuthnChallengeNotFound(message)
        case .webAuthnClientMismatch: self = .webAuthnClientMismatch(message)
        case .webAuthnRelyingPartyMismatch: self = .webAuthnRelyingPartyMismatch(message)
        case .webAuthnOriginNotAllowed: self = .webAuthnOriginNotAllowed(message)
        case .webAuthnCredentialNotSupported: self = .webAuthnCredentialNotSupported(message)
        case .limitExceeded: self = .limitExceeded(message)
        case .tooManyRequests: self = .tooManyRequests(message)
        case .userLambdaValidation: self = .userLambdaValidation(message)
        case .unexpectedLambda: self = .unexpectedLambda(message)
        case .invalidLambdaResponse: self = .invalidLambdaResponse(message)
        case .internalError, .internalServer: self = .internalError(message)
        default: self = .service(code, message)
        }
    }

    /// The error for an error body's `__type` (prefixes stripped) and message. Types both APIs
    /// share (`NotAuthorizedException`, `ResourceNotFoundException` …) take the user-pool cases.
    public init(type: String, message: String) {
        if let code = CognitoErrorCode(rawValue: type) {
            self.init(code: code, message: message)
        } else if let code = CognitoIdentityErrorCode(rawValue: type) {
            switch code {
            case .externalService: self = .externalService(message)
            case .invalidIdentityPoolConfiguration: self = .invalidIdentityPoolConfiguration(message)
            default: self = .identityService(code, message)
            }
        } else {
            self = .unexpected(code: type, message: message)
        }
    }

    /// The Cognito error type, for errors the server sent (nil for SDK-side errors and unknown types).
    public var cognitoCode: CognitoErrorCode? { serverError?.code }

    /// The identity-pool API's error type, for errors it can send (shared types such as
    /// `NotAuthorizedException` included); nil otherwise.
    public var identityCode: CognitoIdentityErrorCode? { serverError.flatMap { CognitoIdentityErrorCode(rawValue: $0.type) } }

    /// The server's message, or a description of what the SDK saw.
    public var message: String {
        if let serverError { return serverError.message }
        switch self {
        case .network(let error): return "The server could not be reached: \(error)"
        case .storage(let error): return "The token store failed: \(error)"
        case .invalidResponse(let detail): return "Unexpected response: \(detail)"
        case .notSignedIn: return "No user is signed in."
        case .sessionExpired(let message): return "The session has expired; sign in again. (\(message))"
        case .unsupportedChallenge(let name): return "The challenge \(name) is not supported by this SDK yet."
        case .invalidState(let detail): return detail
        case .pinPolicyViolation(let violations): return "The PIN breaks the PIN policy: \(violations)."
        case .incorrectPIN(let left): return "Incorrect PIN. \(left) attempt\(left == 1 ? "" : "s") left."
        case .pinAttemptsExhausted: return "Too many incorrect PINs: this device was forgotten. Sign in with your password."
        case .pinNotRegistered: return "No PIN is registered for this profile on this device."
        case .webSignIn(let error, let description): return description.isEmpty ? error : "\(error): \(description)"
        case .factorNotOffered(let factor, let offered):
            return "\(factor.rawValue) is not offered; choose one of \(offered.map(\.rawValue).joined(separator: ", "))."
        case .authenticator(let error): return "The passkey authenticator failed: \(error)"
        default: return ""
        }
    }

    public var description: String {
        guard let serverError else { return message }
        return "\(serverError.code?.rawValue ?? serverError.type): \(serverError.message)"
    }

    /// What `localizedDescription` shows: ``message``.
    public var errorDescription: String? { message }

    public static func == (lhs: AuthError, rhs: AuthError) -> Bool { lhs.identity == rhs.identity }

    /// Errors the server sent: their code (nil when unknown), `__type` and message. The inverse
    /// of ``init(code:message:)``.
    var serverError: (code: CognitoErrorCode?, type: String, message: String)? {
        func known(_ code: CognitoErrorCode, _ message: String) -> (CognitoErrorCode?, String, String) {
            (code, code.rawValue, message)
        }
        switch self {
        case .usernameExists(let m): return known(.usernameExists, m)
        case .userNotConfirmed(let m): return known(.userNotConfirmed, m)
        case .userNotFound(let m): return known(.userNotFound, m)
        case .aliasExists(let m): return known(.aliasExists, m)
        case .passwordResetRequired(let m): return known(.passwordResetRequired, m)
        case .invalidPassword(let m): return known(.invalidPassword, m)
        case .passwordHistoryPolicyViolation(let m): return known(.passwordHistoryPolicyViolation, m)
        case .codeMismatch(let m): return known(.codeMismatch, m)
        case .expiredCode(let m): return known(.expiredCode, m)
        case .codeDeliveryFailure(let m): return known(.codeDeliveryFailure, m)
        case .tooManyFailedAttempts(let m): return known(.tooManyFailedAttempts, m)
        case .notAuthorized(let m): return known(.notAuthorized, m)
        case .unauthorized(let m): return known(.unauthorized, m)
        case .refreshTokenReuse(let m): return known(.refreshTokenReuse, m)
        case .invalidParameter(let m): return known(.invalidParameter, m)
        case .resourceNotFound(let m): return known(.resourceNotFound, m)
        case .invalidUserPoolConfiguration(let m): return known(.invalidUserPoolConfiguration, m)
        case .unsupportedOperation(let m): return known(.unsupportedOperation, m)
        case .unsupportedTokenType(let m): return known(.unsupportedTokenType, m)
        case .mfaMethodNotFound(let m): return known(.mfaMethodNotFound, m)
        case .softwareTokenMFANotFound(let m): return known(.softwareTokenMFANotFound, m)
        case .enableSoftwareTokenMFA(let m): return known(.enableSoftwareTokenMFA, m)
        case .webAuthnNotEnabled(let m): return known(.webAuthnNotEnabled, m)
        case .webAuthnConfigurationMissing(let m): return known(.webAuthnConfigurationMissing, m)
        case .webAuthnChallengeNotFound(let m): return known(.webAuthnChallengeNotFound, m)
        case .webAuthnClientMismatch(let m): return known(.webAuthnClientMismatch, m)
        case .webAuthnRelyingPartyMismatch(let m): return known(.webAuthnRelyingPartyMismatch, m)
        case .webAuthnOriginNotAllowed(let m): return known(.webAuthnOriginNotAllowed, m)
        case .webAuthnCredentialNotSupported(let m): return known(.webAuthnCredentialNotSupported, m)
        case .limitExceeded(let m): return known(.limitExceeded, m)
        case .tooManyRequests(let m): return known(.tooManyRequests, m)
        case .userLambdaValidation(let m): return known(.userLambdaValidation, m)
        case .unexpectedLambda(let m): return known(.unexpectedLambda, m)
        case .invalidLambdaResponse(let m): return known(.invalidLambdaResponse, m)
        case .internalError(let m): return known(.internalError, m)
        case .externalService(let m): return (nil, CognitoIdentityErrorCode.externalService.rawValue, m)
        case .invalidIdentityPoolConfiguration(let m):
            return (nil, CognitoIdentityErrorCode.invalidIdentityPoolConfiguration.rawValue, m)
        case .identityService(let code, let m): return (CognitoErrorCode(rawValue: code.rawValue), code.rawValue, m)
        case .service(let code, let m): return known(code, m)
        case .unexpected(let type, let m): return (nil, type, m)
        case .network, .storage, .invalidResponse, .notSignedIn, .sessionExpired, .unsupportedChallenge, .invalidState,
            .pinPolicyViolation, .incorrectPIN, .pinAttemptsExhausted, .pinNotRegistered, .webSignIn, .factorNotOffered,
            .authenticator:
            return nil
        }
    }
}
