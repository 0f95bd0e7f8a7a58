/// The credential a registration creates, as authenticator data carries it (WebAuthn §6.5.1):
/// AAGUID, credential ID and credential public key.
public struct AttestedCredentialData: Equatable, Sendable {
    /// The authenticator model's AAGUID (16 bytes; all zero when the authenticator does not say).
    public let aaguid: [UInt8]
    public let credentialId: [UInt8]
    /// The credential public key exactly as encoded (one COSE_Key CBOR map).
    public let credentialPublicKey: [UInt8]

    /// WebAuthn caps credential IDs at 1023 bytes.
    public static let maximumCredentialIdLength = 1023

    /// The AAGUID in the usual UUID text form, lowercase.
    public var aaguidString: String { Self.uuidString(aaguid) }

    /// 16 bytes as UUID text (`8-4-4-4-12` lowercase hex digits); other lengths as plain hex.
    static func uuidString(_ bytes: [UInt8]) -> String {
        let hex = bytes.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }
        guard hex.count == 16 else { return hex.joined() }
        return [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { hex[$0].joined() }.joined(separator: "-")
    }

    /// Reads the attested credential data at the start of `bytes`; returns it and its length.
    static func read(_ bytes: ArraySlice<UInt8>) throws(WebAuthnError) -> (AttestedCredentialData, Int) {
        let start = bytes.startIndex
        guard bytes.count >= 18 else { throw .malformed(.authenticatorData, "attested credential data is truncated") }
        let aaguid = Array(bytes[start..<start + 16])
        let idLength = Int(bytes[start + 16]) << 8 | Int(bytes[start + 17])
        guard idLength <= maximumCredentialIdLength else {
            throw .malformed(.authenticatorData, "credential ID of \(idLength) bytes; at most 1023")
        }
        guard idLength > 0 else { throw .malformed(.authenticatorData, "empty credential ID") }
        let idStart = start + 18
        guard bytes.count - 18 >= idLength else { throw .malformed(.authenticatorData, "credential ID is truncated") }
        let keyStart = idStart + idLength
        let keyLength: Int
        do {
            keyLength = try CBORDecoder().decodePrefix(Array(bytes[keyStart...])).length
        } catch {
            throw .malformedCBOR(.credentialPublicKey, error)
        }
        let data = AttestedCredentialData(
            aaguid: aaguid, credentialId: Array(bytes[idStart..<keyStart]),
            credentialPublicKey: Array(bytes[keyStart..<keyStart + keyLength]))
        return (data, 18 + idLength + keyLength)
    }
}
