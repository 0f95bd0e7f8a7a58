import CognateCore
import CognateIdentityProtocol
import CognateProtocol
import Foundation

/// What a failed operation answers on the wire: Cognito's error type, its message and the HTTP
/// status. One mapping for the HTTP API and for operations called in process
/// (``DirectOperations``).
///
/// Contract: the caller's mistakes are 400s with their Cognito type; anything the mapping does
/// not know is InternalErrorException, 500, with a message that reveals nothing (the caller logs
/// the error itself when ``isServerFault``).
struct WireError: Error, CustomStringConvertible {
    let type: String
    let message: String
    let status: Int
    /// A fault of the server rather than of the request: worth logging.
    let isServerFault: Bool
    /// Not a known error type at all (logged with its full reflection).
    let isUnexpected: Bool

    init(_ error: any Error) {
        switch error {
        case let error as CognitoError:
            self.init(type: error.code.rawValue, message: error.message, status: error.httpStatus, isServerFault: error.code.isServerFault)
        case let error as CognitoIdentityError:
            self.init(type: error.code.rawValue, message: error.message, status: error.httpStatus, isServerFault: error.code.isServerFault)
        case let fault as WireFault:
            self.init(type: fault.type, message: fault.message, status: fault.status)
        case StoreError.referenceMissing:
            // The pool, client or user was deleted (maybe on another node) while this request ran.
            self.init(
                type: CognitoErrorCode.resourceNotFound.rawValue, message: "The user pool, app client or user no longer exists.",
                status: 400)
        case StoreError.unstorableText:
            self.init(
                type: CognitoErrorCode.invalidParameter.rawValue,
                message: StoreError.unstorableTextMessage, status: 400)
        default:
            self.init(
                type: CognitoErrorCode.internalError.rawValue, message: "An internal error occurred.", status: 500,
                isServerFault: true, isUnexpected: true)
        }
    }

    private init(type: String, message: String, status: Int, isServerFault: Bool = false, isUnexpected: Bool = false) {
        self.type = type
        self.message = message
        self.status = status
        self.isServerFault = isServerFault
        self.isUnexpected = isUnexpected
    }

    var description: String { "\(type): \(message)" }
}
