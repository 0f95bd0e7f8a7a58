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
        #expect(Int(stated) == CognateServer.supportedOperations.count)
    }
}
