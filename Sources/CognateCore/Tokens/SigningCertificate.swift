import COpenSSL
import CognateProtocol
import Crypto
import Foundation

extension RSASigner {
    /// A self-signed X.509 certificate (DER) of this key: subject and issuer `CN=<commonName>`,
    /// SHA-256 with RSA, valid from `notBefore` for `years`. Deterministic for the same key and
    /// arguments (PKCS #1 v1.5 signatures are), so every node hands out the same certificate.
    func selfSignedCertificate(commonName: String, serial: UInt64, notBefore: Date, years: Int) throws -> [UInt8] {
        guard let certificate = X509_new() else { throw Failure(description: "Out of memory.") }
        defer { X509_free(certificate) }
        var start = time_t(notBefore.timeIntervalSince1970)
        guard X509_set_version(certificate, 2) == 1,
            ASN1_INTEGER_set_uint64(X509_get_serialNumber(certificate), serial & 0x7FFF_FFFF_FFFF_FFFF) == 1,
            X509_time_adj_ex(X509_getm_notBefore(certificate), 0, 0, &start) != nil,
            X509_time_adj_ex(X509_getm_notAfter(certificate), Int32(years * 365), 0, &start) != nil,
            X509_set_pubkey(certificate, key) == 1,
            let name = X509_get_subject_name(certificate),
            X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, Array(commonName.utf8), Int32(commonName.utf8.count), -1, 0) == 1,
            X509_set_issuer_name(certificate, name) == 1,
            X509_sign(certificate, key, EVP_sha256()) > 0
        else { throw Failure(description: "Cannot make the signing certificate.") }
        let length = i2d_X509(certificate, nil)
        guard length > 0 else { throw Failure(description: "Cannot encode the signing certificate.") }
        var der = [UInt8](repeating: 0, count: Int(length))
        try der.withUnsafeMutableBufferPointer { buffer in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            guard i2d_X509(certificate, &cursor) == length else { throw Failure(description: "Cannot encode the signing certificate.") }
        }
        return der
    }
}
