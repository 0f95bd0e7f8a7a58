@testable import CognateCore
import CognateProtocol
import Foundation
import Testing

struct PageTokenTests {
    @Test(arguments: ["alice", "", "\u{0301}\u{0308}\u{0327}\u{20DD}", "\u{0301}x", "中文", "👩‍👩‍👧‍👦", "a:b"])
    func aTokenCarriesItsKeyBack(_ key: String) throws {
        let decoded = try PageToken.decode(PageToken.encode(key))
        #expect(decoded.map { Array($0.utf8) } == Array(key.utf8))
    }

    @Test(arguments: ["", "djI6YQ", "!!!", Base64URL.encode(Data([0x76, 0x31, 0x3A, 0xFF]))])
    func aTokenItDidNotIssueIsRefused(_ token: String) {
        #expect(throws: CognitoError.self) { try PageToken.decode(token) }
    }
}
