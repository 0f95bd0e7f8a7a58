@testable import CognateStorage
import Foundation
import Testing

/// Bytes are stored as hex text; reading them back is on every user read.
struct ColumnsTests {
    @Test func hexRoundTripsEveryByte() throws {
        let bytes = (0...255).map { UInt8($0) }
        #expect(try Columns.bytes(Columns.hex(bytes)) == bytes)
        #expect(try Columns.bytes("") == [])
        #expect(try Columns.bytes("ABcd") == [0xAB, 0xCD])
    }

    @Test func corruptHexIsAnError() {
        for text in ["a", "abc", "zz", "0g", "é0", "0 "] {
            #expect(throws: StorageError.self, "\(text)") { try Columns.bytes(text) }
        }
    }
}
