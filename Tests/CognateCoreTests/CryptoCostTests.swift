import Testing

@testable import CognateCore

/// `cognate crypto-cost`: each operation timed for a while, and the sign-ins' sums made of them.
struct CryptoCostTests {
    @Test func eachOperationIsTimedAndTheSignInsAreTheirSums() throws {
        let result = try CryptoCost.measure(seconds: 0.05)
        #expect(result.modexpMilliseconds > 0)
        #expect(result.fixedBaseModexpMilliseconds > 0)
        #expect(result.rsaSignMilliseconds > 0)
        #expect(result.passwordSignInMilliseconds == result.fixedBaseModexpMilliseconds + 2 * result.rsaSignMilliseconds)
        #expect(
            result.srpSignInMilliseconds
                == result.fixedBaseModexpMilliseconds + 2 * result.modexpMilliseconds + 2 * result.rsaSignMilliseconds)
    }
}
