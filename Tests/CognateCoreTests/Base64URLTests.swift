import Foundation
import Testing

@testable import CognateCore

struct Base64URLTests {
    @Test func roundTripsAndMatchesFoundation() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let encoded = Base64URL.encode(bytes)
            let foundation = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(encoded == foundation)
            #expect(Base64URL.encode(Data(bytes)) == foundation)
            #expect(Base64URL.encode(bytes[...]) == foundation)
            #expect(Base64URL.decode(encoded) == Data(bytes))
            #expect(Base64URL.decode(Data(bytes).base64EncodedString()) == Data(bytes))  // standard alphabet, padded
        }
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("ab$d") == nil)
    }
}
