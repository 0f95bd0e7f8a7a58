import Synchronization

/// `x-amzn-RequestId` values: unique per request and across processes, shaped like a UUID
/// (`xxxxxxxx-xxxx-4xxx-cccc-cccccccccccc`: a random prefix per process, then a counter), at the
/// cost of an atomic increment (a random UUID per request reads the system's random source).
final class RequestIdentifiers: Sendable {
    /// For requests that reach a route without the observation middleware (in-process tests).
    static let shared = RequestIdentifiers()

    /// The 19 ASCII bytes before the counter, random per process.
    private let prefix: [UInt8]
    private let counter = Atomic<UInt64>(0)

    init() {
        var random = SystemRandomNumberGenerator()
        let hex = Self.hex(random.next(), digits: 16)
        prefix = Array(hex[0..<8]) + [UInt8(ascii: "-")] + Array(hex[8..<12]) + [UInt8(ascii: "-"), UInt8(ascii: "4")]
            + Array(hex[13..<16]) + [UInt8(ascii: "-")]
    }

    func next() -> String {
        let value = counter.add(1, ordering: .relaxed).newValue
        return String(unsafeUninitializedCapacity: 36) { buffer in
            var at = 0
            for byte in prefix { buffer[at] = byte; at += 1 }
            for digit in 0..<16 {
                if digit == 4 { buffer[at] = UInt8(ascii: "-"); at += 1 }
                buffer[at] = Self.hexDigit(value >> (4 * UInt64(15 - digit))); at += 1
            }
            return at
        }
    }

    /// `value` in `digits` lowercase hexadecimal digits, zero-padded.
    private static func hex(_ value: UInt64, digits: Int) -> [UInt8] {
        (0..<digits).map { hexDigit(value >> (4 * UInt64(digits - 1 - $0))) }
    }

    /// The lowercase hexadecimal digit of `value`'s low four bits.
    private static func hexDigit(_ value: UInt64) -> UInt8 {
        let nibble = UInt8(truncatingIfNeeded: value & 0xf)
        return nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
