import CognateProtocol
import Foundation

extension AuthError {
    /// What makes two errors the same (see ``AuthError``'s equality): a server error is its
    /// `__type` and message; an SDK failure its kind and detail, underlying errors reduced to
    /// their domain and code.
    enum Identity: Equatable {
        case server(type: String, message: String)
        case network(domain: String, code: Int)
        case storage(domain: String, code: Int)
        case invalidResponse(String)
        case notSignedIn
        case sessionExpired(String)
        case unsupportedChallenge(String)
        case invalidState(String)
        case pinPolicyViolation([PinPolicyViolation])
        case incorrectPIN(Int)
        case pinAttemptsExhausted
        case pinNotRegistered
        case webSignIn(String, String)
        case factorNotOffered(FirstFactor, [FirstFactor])
        case authenticator(domain: String, code: Int)
    }

    var identity: Identity {
        if let serverError { return .server(type: serverError.type, message: serverError.message) }
        switch self {
        case .network(let error): return .network(domain: (error as NSError).domain, code: (error as NSError).code)
        case .storage(let error): return .storage(domain: (error as NSError).domain, code: (error as NSError).code)
        case .invalidResponse(let detail): return .invalidResponse(detail)
        case .notSignedIn: return .notSignedIn
        case .sessionExpired(let message): return .sessionExpired(message)
        case .unsupportedChallenge(let name): return .unsupportedChallenge(name)
        case .invalidState(let detail): return .invalidState(detail)
        case .pinPolicyViolation(let violations): return .pinPolicyViolation(violations)
        case .incorrectPIN(let left): return .incorrectPIN(left)
        case .pinAttemptsExhausted: return .pinAttemptsExhausted
        case .pinNotRegistered: return .pinNotRegistered
        case .webSignIn(let error, let description): return .webSignIn(error, description)
        case .factorNotOffered(let factor, let offered): return .factorNotOffered(factor, offered)
        case .authenticator(let error):
            return .authenticator(domain: (error as NSError).domain, code: (error as NSError).code)
        default: preconditionFailure("every server error has a serverError")
        }
    }
}
