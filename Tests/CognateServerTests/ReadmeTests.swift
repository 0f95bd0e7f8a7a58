import Foundation
import Testing

@testable import CognateServer

/// The README's "Supported operations" list is the operation table, no more, no less.
struct ReadmeTests {
    @Test func supportedOperationsListMatchesTheServer() throws {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../README.md"),
            encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Supported operations").last?
            .components(separatedBy: "\nNot yet:").first)
        let listed = Set(section.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            .filter { $0.first?.isUppercase == true && !$0.contains("_") })
        #expect(listed == Set(CognateServer.supportedOperations))
    }
}
