@testable import CognateCore
import Foundation
import Testing

struct RandomSourceTests {
    @Test func systemRandomGivesTheBytesAskedFor() {
        let random = SystemRandom()
        #expect(random.bytes(0).isEmpty)
        #expect(random.bytes(1).count == 1)
        let large = random.bytes(4096)
        #expect(large.count == 4096)
        #expect(Set(large).count > 200)   // every value but a few, in 4 KiB of uniform bytes
        #expect(random.bytes(32) != random.bytes(32))
    }

    @Test func uuidsAreVersionFourInLowerCase() {
        let random = SystemRandom()
        let ids = (0..<200).map { _ in random.uuid() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            let parsed = UUID(uuidString: id)
            #expect(parsed != nil, "\(id)")
            #expect(parsed?.uuidString.lowercased() == id)
            #expect(Array(id)[14] == "4")
            #expect("89ab".contains(Array(id)[19]))
        }
    }
}
