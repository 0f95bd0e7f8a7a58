import COpenSSL
import CognateProtocol
import Crypto
import Foundation

extension PoolAdministration {
    /// GetSigningCertificate: the pool's current signing key as a self-signed X.509 certificate,
    /// base64 DER (as Cognito answers, for SAML providers that want the pool's certificate).
    public func getSigningCertificate(_ request: GetSigningCertificateRequest) async throws -> GetSigningCertificateResponse {
        let pool = try await directory.requirePool(request.userPoolId)
        let key = try await keys.signingKey(for: pool.id, now: time.now)
        let serial = SHA256.hash(data: Data(key.kid.utf8)).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let der = try key.signer.selfSignedCertificate(
            commonName: pool.id, serial: serial, notBefore: key.activatesAt, years: 10)
        return GetSigningCertificateResponse(certificate: Data(der).base64EncodedString())
    }
}
