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

    /// Each operation is timed for `seconds` and its cost is the mean over that time: the
    /// server's CPU per request is a mean over its run too, so stretches in which the machine
    /// runs slower (shared hosts have them) count in both alike. The best of a few short runs
    /// would leave them out of the cryptography's cost and charge them to the server.
    public static func measure(seconds: Double = 2) throws -> Result {
        let random = SystemRandom()
        let verifier = SRPServer.verifier(salt: random.bytes(16), realm: "pool", identity: "user", secret: "password")
        let exponents = (0..<64).map { _ in random.bytes(32) }
        let fixedBase = mean(seconds: seconds) { index in
            _ = SRPServer.serverPublicValue(verifier: verifier, ephemeral: exponents[index % exponents.count])
        }
        let base = BigNumber(bytes: verifier)
        let modexp = mean(seconds: seconds) { index in
            _ = base.power(BigNumber(bytes: exponents[index % exponents.count]), modulus: SRPServer.n)
        }
        let signer = try RSASigner(pem: try _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation)
        let payload = [UInt8](repeating: 0x61, count: 700)
        let sign = try mean(seconds: seconds) { _ in _ = try signer.sign(payload) }
        return Result(
            modexpMilliseconds: modexp * 1000, fixedBaseModexpMilliseconds: fixedBase * 1000, rsaSignMilliseconds: sign * 1000)
    }

    /// The mean time of `body` (seconds), run repeatedly for about `seconds` after a few
    /// unmeasured runs that warm the caches.
    private static func mean(seconds: Double, _ body: (Int) throws -> Void) rethrows -> Double {
        for index in 0..<8 { try body(index) }
        let start = DispatchTime.now().uptimeNanoseconds
        let end = start + UInt64(seconds * 1e9)
        var count = 0
        var now = start
        while now < end {
            for _ in 0..<8 {
                try body(count)
                count += 1
            }
            now = DispatchTime.now().uptimeNanoseconds
        }
        return Double(now - start) / 1e9 / Double(count)
    }
}
