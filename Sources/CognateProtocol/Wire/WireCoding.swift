import Foundation

/// The JSON conventions of AWS JSON 1.1 as Cognito uses them: timestamps are epoch seconds
/// (fractional allowed), absent members are omitted.
public enum WireCoding {
    public static let contentType = "application/x-amz-json-1.1"
    /// The user-pool API's operations (`cognito-idp`).
    public static let targetPrefix = "AWSCognitoIdentityProviderService."
    /// The identity-pool API's operations (`cognito-identity`), served on the same endpoint.
    public static let identityTargetPrefix = "AWSCognitoIdentityService."

    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }

    /// A decoder for responses (lenient) or, with `validating`, for requests: constraint
    /// failures are collected into the report instead of thrown.
    public static func makeDecoder(validating report: WireValidationReport? = nil) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        if let report { decoder.userInfo[.wireValidation] = report }
        return decoder
    }
}
