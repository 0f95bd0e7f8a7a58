import ArgumentParser
import CognateCore
import Foundation

struct CryptoCostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crypto-cost",
        abstract: "Measure what a sign-in's cryptography costs on this machine, each operation's mean over 2 s (the floor under the server's CPU per sign-in).")

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func run() async throws {
        let result = try CryptoCost.measure()
        if json {
            print(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
        } else {
            print(String(format: "3072-bit exponentiation (256-bit exponent, constant time): %.3f ms", result.modexpMilliseconds))
            print(String(format: "the same of the fixed base g (precomputed powers, constant time): %.3f ms",
                         result.fixedBaseModexpMilliseconds))
            print(String(format: "RS256 signature (2048-bit key): %.3f ms", result.rsaSignMilliseconds))
            print(String(format: "SRP sign-in (g^b, 2 exponentiations, 2 signatures): %.3f ms", result.srpSignInMilliseconds))
            print(String(format: "Password sign-in (g^x, 2 signatures): %.3f ms", result.passwordSignInMilliseconds))
        }
    }
}
