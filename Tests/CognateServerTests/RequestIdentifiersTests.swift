@testable import CognateServer
import Foundation
import Testing

struct RequestIdentifiersTests {
    @Test func uniqueUUIDShapedCountingPerProcess() throws {
        let identifiers = RequestIdentifiers()
        let first = identifiers.next(), second = identifiers.next()
        for id in [first, second] {
            let uuid = try #require(UUID(uuidString: id), "\(id)")
            #expect(uuid.uuidString.lowercased() == id)
            #expect(Array(id)[14] == "4")
        }
        #expect(first.dropLast(12) == second.dropLast(12))
        #expect(first.hasSuffix("-000000000001") && second.hasSuffix("-000000000002"))
        #expect(RequestIdentifiers().next().prefix(18) != first.prefix(18))
    }
}
