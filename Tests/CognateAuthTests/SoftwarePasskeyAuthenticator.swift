import CognateAuth
import Crypto
import Foundation

/// A platform authenticator in software, for tests on any platform: it creates ES256 passkeys
/// (P-256 keys from swift-crypto) with attestation `none`, and signs sign-in challenges with
/// them, as a browser with a platform authenticator answers `navigator.credentials`. Its
/// authenticator data has the flags UP, UV (and AT when it attests a new key); each passkey's
/// signature counter goes up by one at every use.
///
/// It reads options and writes answers with the SDK's ``PasskeyCreationOptions`` …
/// ``PasskeyAssertion`` (as ``PlatformPasskeyAuthenticator`` does), and builds the client data,
/// authenticator data and attestation object itself. `origin` (default `https://<rp id>`) lets
/// a test present another site's origin; `failure`, when set, is thrown instead of answering
/// (the user cancelled).
final class SoftwarePasskeyAuthenticator: PasskeyAuthenticator, @unchecked Sendable {
    struct Passkey {
        let id: Data
        let key: P256.Signing.PrivateKey
        let relyingPartyId: String
        let userHandle: Data
        var counter: UInt32
    }

    struct Cancelled: Error, Equatable {}

    private let lock = NSLock()
    private var passkeys: [Passkey] = []
    private var failure: (any Error & Sendable)?
    private var origin: String?

    init(origin: String? = nil) { self.origin = origin }

    /// The next ceremonies throw `error` (nil: they answer again).
    func fail(with error: (any Error & Sendable)?) { lock.withLock { failure = error } }

    /// The next ceremonies run at `origin` (nil: the relying party's own).
    func present(origin: String?) { lock.withLock { self.origin = origin } }

    /// The signature counters of the passkeys made, in the order they were made.
    var counters: [UInt32] { lock.withLock { passkeys.map(\.counter) } }

    func createPasskey(optionsJSON: String) async throws -> String {
        if let failure = lock.withLock({ failure }) { throw failure }
        let options = try PasskeyCreationOptions(json: optionsJSON)
        guard options.algorithms.contains(-7) else { throw PasskeyJSONError("ES256 is not accepted.") }
        let id = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
        let key = P256.Signing.PrivateKey()
        let clientData = Self.clientData(
            type: "webauthn.create", challenge: options.challenge,
            origin: lock.withLock { origin } ?? "https://\(options.relyingPartyId)")
        let publicKey = key.publicKey.rawRepresentation  // x ‖ y
        let coseKey = CBOR.map([
            (.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)),
            (.int(-2), .bytes(publicKey.prefix(32))), (.int(-3), .bytes(publicKey.suffix(32))),
        ])
        var authenticatorData = Self.authenticatorData(rpId: options.relyingPartyId, flags: 0x45, counter: 0)  // UP UV AT
        authenticatorData += Data(count: 16)  // AAGUID: none
        authenticatorData += Data([UInt8(id.count >> 8), UInt8(id.count & 0xff)]) + id + coseKey.encoded
        let attestation = CBOR.map([
            (.text("fmt"), .text("none")), (.text("attStmt"), .map([])), (.text("authData"), .bytes(authenticatorData)),
        ])
        lock.withLock {
            passkeys.append(Passkey(
                id: id, key: key, relyingPartyId: options.relyingPartyId, userHandle: options.userId, counter: 0))
        }
        return PasskeyRegistration(
            credentialId: id, clientDataJSON: clientData, attestationObject: attestation.encoded,
            transports: ["internal", "hybrid"], attachment: "platform"
        ).json
    }

    func assertPasskey(optionsJSON: String) async throws -> String {
        if let failure = lock.withLock({ failure }) { throw failure }
        let options = try PasskeyRequestOptions(json: optionsJSON)
        let used: Passkey? = lock.withLock {
            guard let index = passkeys.firstIndex(where: {
                $0.relyingPartyId == options.relyingPartyId
                    && (options.allowedCredentialIds.isEmpty || options.allowedCredentialIds.contains($0.id))
            }) else { return nil }
            passkeys[index].counter += 1
            return passkeys[index]
        }
        guard let passkey = used else { throw PasskeyJSONError("No passkey of \(options.relyingPartyId) here.") }
        let clientData = Self.clientData(
            type: "webauthn.get", challenge: options.challenge,
            origin: lock.withLock { origin } ?? "https://\(options.relyingPartyId)")
        let authenticatorData = Self.authenticatorData(rpId: passkey.relyingPartyId, flags: 0x05, counter: passkey.counter)
        let signature = try passkey.key.signature(for: authenticatorData + Data(SHA256.hash(data: clientData)))
        return PasskeyAssertion(
            credentialId: passkey.id, clientDataJSON: clientData, authenticatorData: authenticatorData,
            signature: signature.derRepresentation, userHandle: passkey.userHandle, attachment: "platform"
        ).json
    }

    /// `CollectedClientData` as a browser serializes it.
    static func clientData(type: String, challenge: Data, origin: String) -> Data {
        let challenge = challenge.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return Data(#"{"type":"\#(type)","challenge":"\#(challenge)","origin":"\#(origin)","crossOrigin":false}"#.utf8)
    }

    /// The RP ID's SHA-256, the flags and the big-endian signature counter.
    static func authenticatorData(rpId: String, flags: UInt8, counter: UInt32) -> Data {
        Data(SHA256.hash(data: Data(rpId.utf8))) + Data([flags])
            + Data([UInt8(counter >> 24), UInt8(counter >> 16 & 0xff), UInt8(counter >> 8 & 0xff), UInt8(counter & 0xff)])
    }
}

/// The little CBOR (RFC 8949) an attestation object needs: integers, byte and text strings,
/// maps written in the order given (callers give canonical order).
indirect enum CBOR {
    case int(Int)
    case bytes(Data)
    case text(String)
    case map([(CBOR, CBOR)])

    var encoded: Data {
        switch self {
        case .int(let value) where value >= 0: return Self.head(major: 0, UInt64(value))
        case .int(let value): return Self.head(major: 1, UInt64(-1 - value))
        case .bytes(let data): return Self.head(major: 2, UInt64(data.count)) + data
        case .text(let text): return Self.head(major: 3, UInt64(text.utf8.count)) + Data(text.utf8)
        case .map(let entries):
            return entries.reduce(Self.head(major: 5, UInt64(entries.count))) { $0 + $1.0.encoded + $1.1.encoded }
        }
    }

    /// The major type and argument, in the shortest form.
    private static func head(major: UInt8, _ argument: UInt64) -> Data {
        let type = major << 5
        switch argument {
        case 0..<24: return Data([type | UInt8(argument)])
        case 24..<0x100: return Data([type | 24, UInt8(argument)])
        case 0x100..<0x10000: return Data([type | 25, UInt8(argument >> 8), UInt8(argument & 0xff)])
        default: return Data([type | 26] + (0..<4).reversed().map { UInt8(argument >> (8 * UInt64($0)) & 0xff) })
        }
    }
}
