import CryptoExtras
import Foundation

/// Measures, with the server's own code, what the cryptography of a sign-in costs on this
/// machine: the floor under the server's CPU per sign-in (`cognate crypto-cost`, bench/run.py).
public enum CryptoCost {
    public struct Result: Sendable, Encodable {
        /// One 3072-bit exponentiation of a variable base with a 256-bit exponent (GMP's
        /// `mpz_powm_sec`, constant time): `v^u` and `(A·v^u)^b`.
        public var modexpMilliseconds: Double
        /// One 3072-bit exponentiation of the fixed base `g` with a 256-bit exponent
        /// (``FixedBasePower``, constant time): `g^x` (a verifier) and `g^b`.
        public var fixedBaseModexpMilliseconds: Double
        /// One RS256 signature with a 2048-bit key.
        public var rsaSignMilliseconds: Double
        /// An SRP sign-in: `g^b`, `v^u`, `(A·v^u)^b` and two signatures.
        public var srpSignInMilliseconds: Double {
            fixedBaseModexpMilliseconds + 2 * modexpMilliseconds + 2 * rsaSignMilliseconds
        }
        /// A password sign-in: `g^x` and two signatures.
        public var passwordSignInMilliseconds: Double { fixedBaseModexpMilliseconds + 2 * rsaSignMilliseconds }

        enum CodingKeys: String, CodingKey {
            case modexpMilliseconds, fixedBaseModexpMilliseconds, rsaSignMilliseconds, srpSignInMilliseconds,
                passwordSignInMilliseconds
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(modexpMilliseconds, forKey: .modexpMilliseconds)
            try container.encode(fixedBaseModexpMilliseconds, forKey: .fixedBaseModexpMilliseconds)
            try container.encode(rsaSignMilliseconds, forKey: .rsaSignMilliseconds)
            try container.encode(srpSignInMilliseconds, forKey: .srpSignInMilliseconds)
            try container.encode(passwordSignInMilliseconds, forKey: .passwordSignInMilliseconds)
        }
    }

    public static func measure(iterations: Int = 200) throws -> Result {
        let random = SystemRandom()
        let verifier = SRPServer.verifier(salt: random.bytes(16), realm: "pool", identity: "user", secret: "password")
        let exponents = (0..<iterations).map { _ in random.bytes(32) }
        let fixedBase = best {
            for b in exponents { _ = SRPServer.serverPublicValue(verifier: verifier, ephemeral: b) }
        } / Double(iterations)
        let base = BigNumber(bytes: verifier)
        let modexp = best {
            for b in exponents { _ = base.power(BigNumber(bytes: b), modulus: SRPServer.n) }
        } / Double(iterations)
        let signer = try RSASigner(pem: try _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation)
        let payload = [UInt8](repeating: 0x61, count: 700)
        let sign = try best {
            for _ in 0..<iterations / 2 { _ = try signer.sign(payload) }
        } / Double(iterations / 2)
        return Result(
            modexpMilliseconds: modexp * 1000, fixedBaseModexpMilliseconds: fixedBase * 1000, rsaSignMilliseconds: sign * 1000)
    }

    /// The fastest of three runs, in seconds.
    private static func best(_ body: () throws -> Void) rethrows -> Double {
        var fastest = Double.infinity
        for _ in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            fastest = min(fastest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return fastest
    }
}
