import Foundation
import CognateProtocol

/// An error of the AWS JSON protocol itself, outside Cognito's model (unknown operation,
/// unparseable body, bad signature), shaped like Cognito's errors: `__type`, `message`, status.
struct WireFault: Error, Sendable {
    let type: String
    let message: String
    let status: Int

    static func unknownOperation(_ target: String?) -> WireFault {
        guard let target, !target.isEmpty else {
            return WireFault(type: "UnknownOperationException", message: "Missing X-Amz-Target header.", status: 400)
        }
        return WireFault(type: "UnknownOperationException", message: "Unknown operation \(target).", status: 400)
    }

    static func serialization(_ message: String) -> WireFault {
        WireFault(type: "SerializationException", message: message, status: 400)
    }

    static func bodyTooLarge(limit: Int) -> WireFault {
        WireFault(
            type: "InvalidParameterException", message: "Request body exceeds the maximum size of \(limit) bytes.",
            status: 400)
    }

    // SigV4 failures, as AWS front ends name them.
    static let missingAuthentication = WireFault(
        type: "MissingAuthenticationTokenException", message: "Missing Authentication Token", status: 400)
    static let unknownAccessKey = WireFault(
        type: "UnrecognizedClientException", message: "The security token included in the request is invalid.",
        status: 400)
    static let signatureMismatch = WireFault(
        type: "InvalidSignatureException",
        message: "The request signature we calculated does not match the signature you provided. "
            + "Check your AWS Secret Access Key and signing method.",
        status: 400)
    static func incompleteSignature(_ detail: String) -> WireFault {
        WireFault(type: "IncompleteSignatureException", message: detail, status: 400)
    }
    static func invalidSignature(_ detail: String) -> WireFault {
        WireFault(type: "InvalidSignatureException", message: detail, status: 400)
    }
    static let signatureExpired = WireFault(
        type: "InvalidSignatureException", message: "Signature expired: the request time is too far from the server time.",
        status: 400)

    /// Describes a decoding failure by the member it happened at.
    static func serialization(_ error: DecodingError) -> WireFault {
        func path(_ keys: [any CodingKey]) -> String {
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return text.isEmpty ? "the request body" : "'\(text)'"
        }
        switch error {
        case .typeMismatch(let type, let context):
            return .serialization("Expected \(Self.wireTypeName(type)) at \(path(context.codingPath)).")
        case .valueNotFound(let type, let context):
            return .serialization("Expected \(Self.wireTypeName(type)) at \(path(context.codingPath)), found null.")
        case .keyNotFound(let key, let context):
            return .serialization("Missing member \(key.stringValue) at \(path(context.codingPath)).")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return .serialization("The request body is not valid JSON.") }
            return .serialization("Invalid value at \(path(context.codingPath)).")
        @unknown default:
            return .serialization("The request body could not be read.")
        }
    }

    private static func wireTypeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is any BinaryInteger.Type, is any BinaryFloatingPoint.Type: "a number"
        case is Bool.Type: "a boolean"
        case is Date.Type: "a timestamp (epoch seconds)"
        default:
            String(describing: type).hasPrefix("Array") ? "a list" : String(describing: type).hasPrefix("Dictionary") ? "a map" : "a structure"
        }
    }
}
