import Foundation
import Testing

@testable import CognateServer

/// What the README says of the server stays true.
struct ReadmeTests {
    @Test func theNumberOfOperationsServedIsTheServers() throws {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../README.md"),
            encoding: .utf8)
        let stated = try #require(readme.firstMatch(of: /serves \*\*(\d+)\*\* of/)?.output.1)
        // Cognate's own operations (PIN sign-in, custom registration) are not among Cognito's.
        let own: Set = [
            "SetUserPoolPinPolicy", "GetPinPolicy", "RegisterDevicePin", "SetUserPoolCustomRegistration",
            "GetUserPoolCustomRegistration", "StartCustomRegistration", "RespondToCustomRegistration",
        ]
        #expect(Int(stated) == CognateServer.supportedOperations.filter { !own.contains($0) }.count)
        let identity = try #require(readme.firstMatch(of: /and \*\*(\d+)\*\* of its 23 identity-pool operations/)?.output.1)
        #expect(Int(identity) == CognateServer.supportedIdentityOperations.count)
    }
}
