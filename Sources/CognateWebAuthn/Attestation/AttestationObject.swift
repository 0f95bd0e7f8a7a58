/// An attestation object (WebAuthn §6.5.4): a CBOR map of `fmt` (text), `attStmt` (map) and
/// `authData` (bytes). Other members are ignored, as later levels of the spec may add some.
public struct AttestationObject: Equatable, Sendable {
    /// The attestation statement format identifier, e.g. `none` or `packed`.
    public let format: String
    public let statement: CBORMap
    public let authenticatorData: AuthenticatorData

    public init(_ bytes: [UInt8]) throws(WebAuthnError) {
        let value: CBORValue
        do { value = try CBORDecoder().decode(bytes) } catch { throw .malformedCBOR(.attestationObject, error) }
        guard let map = value.mapValue else { throw .malformed(.attestationObject, "not a CBOR map") }
        guard let format = map["fmt"]?.textValue else { throw .malformed(.attestationObject, "no text fmt") }
        guard let statement = map["attStmt"]?.mapValue else { throw .malformed(.attestationObject, "no map attStmt") }
        guard let authData = map["authData"]?.bytesValue else { throw .malformed(.attestationObject, "no bytes authData") }
        self.format = format
        self.statement = statement
        self.authenticatorData = try AuthenticatorData(authData)
    }
}
