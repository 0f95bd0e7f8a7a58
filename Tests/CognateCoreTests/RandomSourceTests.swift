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

    /// Small draws come from blocks: across block boundaries, from many tasks at once, no draw
    /// repeats another or comes back short, and the bytes stay uniform.
    @Test func smallDrawsFromBlocksNeverRepeat() async {
        let blocks = RandomBlocks()
        let sizes = [1, 7, 16, 33, 48, RandomBlocks.largestDraw]
        let draws = await withTaskGroup(of: [[UInt8]].self) { group in
            for task in 0..<8 {
                group.addTask { (0..<600).map { index in blocks.draw(sizes[(task + index) % sizes.count]) } }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(draws.count == 4800)
        for size in sizes { #expect(draws.filter { $0.count == size }.count == 800) }
        let long = draws.filter { $0.count >= 16 }
        #expect(Set(long).count == long.count)
        let all = draws.joined()
        #expect(all.count > 30 * RandomBlocks.blockSize)   // many blocks drawn and used up
        var counts = [Int](repeating: 0, count: 256)
        for byte in all { counts[Int(byte)] += 1 }
        let expected = Double(all.count) / 256
        #expect(counts.allSatisfy { abs(Double($0) - expected) < expected * 0.25 })   // no zeroed bytes handed out
        #expect(blocks.draw(0).isEmpty)
    }
}
