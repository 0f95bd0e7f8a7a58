import COpenSSL
import Crypto
import Foundation
import Synchronization

/// RS256 (RSASSA-PKCS1-v1_5 with SHA-256) signatures with OpenSSL's libcrypto, which signs
/// about twice as fast here as the BoringSSL inside swift-crypto (0.21 ms against 0.5 ms per
/// 2048-bit signature, `cognate crypto-cost`); every sign-in and refresh signs two tokens.
///
/// OpenSSL 3 looks up the algorithm implementations (a locked method store) each time a
/// signing context is set up, about 1% of a refresh in a profile: set-up contexts are kept and
/// reused, one per signature in flight, and the message is hashed here.
///
/// Thread safety: the key is read-only after init; a context serves one signature at a time.
final class RSASigner: @unchecked Sendable {
    let key: OpaquePointer
    /// Contexts set up for RS256 and not in use.
    private let idle = Mutex<[SigningContext]>([])

    /// An `EVP_PKEY_CTX` handed between threads, used by one at a time.
    private struct SigningContext: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(pem: String) throws {
        let bytes = Array(pem.utf8)
        // The BIO reads the buffer in place: parse while it is alive.
        let key = bytes.withUnsafeBytes { buffer -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let key else { throw Failure(description: "The signing key is not a PEM private key.") }
        self.key = key
    }

    deinit {
        idle.withLock { contexts in contexts.forEach { EVP_PKEY_CTX_free($0.pointer) } }
        EVP_PKEY_free(key)
    }

    func sign(_ message: [UInt8]) throws -> [UInt8] {
        let digest = Array(SHA256.hash(data: message))
        let context = try idle.withLock { $0.popLast() }?.pointer ?? makeContext()
        var length = Int(EVP_PKEY_get_size(key))
        var signature = [UInt8](repeating: 0, count: length)
        let signed = EVP_PKEY_sign(context, &signature, &length, digest, digest.count) == 1
        guard signed else {
            // A context that failed is not trusted again.
            EVP_PKEY_CTX_free(context)
            throw Failure(description: "Cannot make an RS256 signature.")
        }
        idle.withLock { $0.append(SigningContext(pointer: context)) }
        return length == signature.count ? signature : Array(signature.prefix(length))
    }

    /// A signing context of the key with PKCS #1 v1.5 padding over a SHA-256 digest.
    private func makeContext() throws -> OpaquePointer {
        guard let context = EVP_PKEY_CTX_new(key, nil) else { throw Failure(description: "Out of memory.") }
        guard EVP_PKEY_sign_init(context) == 1,
            EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) == 1,
            EVP_PKEY_CTX_set_signature_md(context, EVP_sha256()) == 1
        else {
            EVP_PKEY_CTX_free(context)
            throw Failure(description: "Cannot start an RS256 signature.")
        }
        return context
    }
}
