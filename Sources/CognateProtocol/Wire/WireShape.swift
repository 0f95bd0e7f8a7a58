import Foundation

/// A structure of the Cognito wire protocol (an input, output or nested shape of the model).
///
/// Generated shapes decode leniently for the SDK (constraints are not checked) and strictly for
/// the server: when the decoder's `userInfo[.wireValidation]` holds a ``WireValidationReport``,
/// every missing required member and every violated constraint is recorded there instead of
/// failing at the first one, so the server can answer with all of them, as Cognito does.
public protocol WireShape: Codable, Sendable, Equatable, WireJSONWritable {
    /// A value used in place of a missing required member of this type while validation
    /// collects errors. Never leaves the decoder: a report with failures rejects the request.
    static var wirePlaceholder: Self { get }
}

/// A string enumeration of the model. Unknown values decode (forward compatibility); the
/// server's validation rejects them with Cognito's "enum value set" message.
public protocol WireEnum: RawRepresentable, Codable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible where RawValue == String
{
    init(rawValue: String)
    static var allValues: [Self] { get }
    /// Values Cognate adds to the model's (its own extensions, such as `DEVICE_PIN_AUTH`).
    static var extensionValues: [Self] { get }
}

extension WireEnum {
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    public var description: String { rawValue }
    public static var extensionValues: [Self] { [] }
    public var isKnown: Bool { Self.allValues.contains(self) || Self.extensionValues.contains(self) }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// The output of operations whose model output is empty: `{}` on the wire.
public struct EmptyResponse: WireShape {
    public init() {}
    public static var wirePlaceholder: EmptyResponse { EmptyResponse() }
    public init(from decoder: any Decoder) throws {}
    public func encode(to encoder: any Encoder) throws {
        _ = encoder.container(keyedBy: WireNoKeys.self)
    }
    public func writeJSON(to output: JSONOutput) {
        output.beginObject()
        output.endObject()
    }
}

/// Coding keys of a structure without members (public: CognateIdentityProtocol's generated
/// shapes use it too).
public enum WireNoKeys: CodingKey {}

/// An array element's place in a coding path, named as Foundation's coders name it
/// (`Index 0`; public: the server's request decoder uses it too).
public struct WireIndexKey: CodingKey {
    public let intValue: Int?
    public var stringValue: String { "Index \(intValue ?? 0)" }

    public init(_ index: Int) { intValue = index }
    public init?(stringValue: String) { return nil }
    public init?(intValue: Int) { self.intValue = intValue }
}

/// Whether an operation needs an AWS Signature V4 (IAM / admin credentials) or is authorized by
/// what the request carries (client id, secret hash, session, access or refresh token).
public enum OperationAuthorization: Sendable {
    case unsigned
    case sigV4
}

/// One operation of an API: its name (the `X-Amz-Target` suffix), the API's target prefix and
/// wire types.
public protocol CognitoOperation {
    associatedtype Input: WireShape
    associatedtype Output: WireShape
    static var name: String { get }
    /// `AWSCognitoIdentityProviderService.` (user pools, the default) or
    /// `AWSCognitoIdentityService.` (identity pools).
    static var targetPrefix: String { get }
    static var authorization: OperationAuthorization { get }
}

extension CognitoOperation {
    public static var targetPrefix: String { WireCoding.targetPrefix }
    /// The `X-Amz-Target` header value naming this operation.
    public static var target: String { targetPrefix + name }
}
