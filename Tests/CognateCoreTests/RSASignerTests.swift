import Crypto
import Foundation
import Testing
import CryptoExtras

@testable import CognateCore

/// RS256 with OpenSSL and reused signing contexts: the same bytes as an independent
/// implementation (PKCS #1 v1.5 signatures are deterministic), also when many signatures run at
/// once and the contexts change hands between threads.
struct RSASignerTests {
    let reference = try! _RSA.Signing.PrivateKey(keySize: .bits2048)

    @Test func signaturesAreThoseOfAnIndependentImplementation() throws {
        let signer = try RSASigner(pem: reference.pemRepresentation)
        for message in ["", "header.payload", String(repeating: "ü", count: 5000)] {
            let bytes = Array(message.utf8)
            let expected = try reference.signature(for: bytes, padding: .insecurePKCS1v1_5)
            #expect(try signer.sign(bytes) == Array(expected.rawRepresentation))
        }
    }

    @Test func concurrentSignaturesEachVerifyForTheirOwnMessage() async throws {
        let signer = try RSASigner(pem: reference.pemRepresentation)
        let publicKey = reference.publicKey
        let results = try await withThrowingTaskGroup(of: (String, [UInt8]).self) { group in
            for index in 0..<64 {
                group.addTask {
                    let message = "token \(index)"
                    return (message, try signer.sign(Array(message.utf8)))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 64)
        for (message, signature) in results {
            let valid = publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: Array(message.utf8),
                padding: .insecurePKCS1v1_5)
            #expect(valid, "signature of \(message)")
            #expect(!publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: Array("other".utf8),
                padding: .insecurePKCS1v1_5))
        }
    }
}
