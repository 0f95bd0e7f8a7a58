import CognateProtocol
import CognateSAML
import Crypto
import CryptoExtras
import Foundation

/// A SAML provider's `ProviderDetails` as Cognito takes and shows them: `MetadataURL` or
/// `MetadataFile`, `IDPSignout`, `IDPInit`, `EncryptedResponses`, `RequestSigningAlgorithm`
/// (`rsa-sha256`); and what Cognito adds to them from the metadata and its own keys:
/// `SSORedirectBindingURI`, `SLORedirectBindingURI`, `ActiveEncryptionCertificate`. Kept beside
/// them and never shown: the metadata document a URL gave (`cognate:metadata`) and the
/// provider's encryption private key (`cognate:encryption_key`).
enum SAMLProviderDetails {
    static let metadataURL = "MetadataURL"
    static let metadataFile = "MetadataFile"
    static let signOut = "IDPSignout"
    static let idpInitiated = "IDPInit"
    static let encryptedResponses = "EncryptedResponses"
    static let requestSigningAlgorithm = "RequestSigningAlgorithm"
    static let ssoRedirect = "SSORedirectBindingURI"
    static let sloRedirect = "SLORedirectBindingURI"
    static let encryptionCertificate = "ActiveEncryptionCertificate"
    static let fetchedMetadata = "cognate:metadata"
    static let encryptionKey = "cognate:encryption_key"

    static let accepted: Set<String> = [metadataURL, metadataFile, signOut, idpInitiated, encryptedResponses, requestSigningAlgorithm]
    static let derived: Set<String> = [ssoRedirect, sloRedirect, encryptionCertificate, fetchedMetadata, encryptionKey]

    /// The metadata document of a stored provider.
    static func document(_ details: [String: String]) -> String? { details[metadataFile] ?? details[fetchedMetadata] }

    /// The provider's metadata, read from what is stored.
    static func metadata(of provider: IdentityProviderRecord, now: Date) throws -> IdentityProviderMetadata {
        guard let document = document(provider.details) else { throw SAMLError("The provider has no metadata.") }
        // The certificates were checked when the metadata was given; a certificate that expired
        // since still verifies (Cognito checks expiry at configuration), so read as of then.
        return try IdentityProviderMetadata.parse(document, now: provider.updatedAt < now ? provider.updatedAt : now)
    }

    static func isTrue(_ details: [String: String], _ key: String) -> Bool { details[key]?.lowercased() == "true" }

    /// The details to store for a create or update: the caller's (derived keys they echo back
    /// from a description dropped), checked, with the metadata fetched from `MetadataURL`
    /// (by `fetch`) and read, the redirect URIs it names, and — with `EncryptedResponses` — the
    /// provider's encryption key pair (kept from `previous` when it has one). Refusals are
    /// InvalidParameterException with the reason.
    static func completed(_ given: [String: String], previous: [String: String]?, now: Date,
                          fetch: (URL) async throws -> String) async throws -> [String: String] {
        var details = given.filter { !derived.contains($0.key) }
        let unknown = details.keys.filter { !accepted.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw CognitoError.invalidParameter("ProviderDetails for a SAML provider do not take \(unknown.joined(separator: ", ")).")
        }
        for key in [signOut, idpInitiated, encryptedResponses] {
            if let value = details[key], !["true", "false"].contains(value.lowercased()) {
                throw CognitoError.invalidParameter("ProviderDetails \(key) must be true or false.")
            }
        }
        if let algorithm = details[requestSigningAlgorithm], algorithm != "rsa-sha256" {
            throw CognitoError.invalidParameter("ProviderDetails RequestSigningAlgorithm must be rsa-sha256.")
        }
        let document: String
        switch (details[metadataURL], details[metadataFile]) {
        case (let url?, nil):
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil else {
                throw CognitoError.invalidParameter("ProviderDetails MetadataURL \(url) is not an http or https URL.")
            }
            do {
                document = try await fetch(parsed)
            } catch {
                throw CognitoError.invalidParameter("Error retrieving metadata from \(url)")
            }
            details[fetchedMetadata] = document
        case (nil, let file?):
            document = file
        case (nil, nil):
            throw CognitoError.invalidParameter("ProviderDetails needs MetadataURL or MetadataFile.")
        default:
            throw CognitoError.invalidParameter("ProviderDetails takes MetadataURL or MetadataFile, not both.")
        }
        let metadata: IdentityProviderMetadata
        do {
            metadata = try IdentityProviderMetadata.parse(document, now: now)
        } catch let error as SAMLError {
            throw CognitoError.invalidParameter("The SAML metadata is not usable: \(error.reason)")
        }
        details[ssoRedirect] = metadata.singleSignOnRedirect
        details[sloRedirect] = metadata.singleLogoutRedirect
        if isTrue(details, encryptedResponses) {
            if let key = previous?[encryptionKey], let certificate = previous?[encryptionCertificate] {
                details[encryptionKey] = key
                details[encryptionCertificate] = certificate
            } else {
                let (key, certificate) = try newEncryptionKey(now: now)
                details[encryptionKey] = key
                details[encryptionCertificate] = certificate
            }
        }
        return details
    }

    /// What DescribeIdentityProvider shows: all but the kept document and the private key.
    static func shown(_ details: [String: String]) -> [String: String] {
        details.filter { $0.key != fetchedMetadata && $0.key != encryptionKey }
    }

    /// An RSA key pair for the provider's encrypted assertions: the private key (PEM) and a
    /// self-signed certificate for it (base64 DER, valid ten years as Cognito's).
    static func newEncryptionKey(now: Date) throws -> (key: String, certificate: String) {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let signer = try RSASigner(pem: key.pemRepresentation)
        let serial = UInt64.random(in: 1...UInt64.max >> 1)
        let der = try signer.selfSignedCertificate(commonName: "cognate-saml-encryption", serial: serial, notBefore: now, years: 10)
        return (key.pemRepresentation, Data(der).base64EncodedString())
    }
}
