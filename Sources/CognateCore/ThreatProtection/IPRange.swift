import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 range in CIDR notation (`192.0.2.0/24`, `2001:db8::/32`), as
/// RiskExceptionConfiguration lists them.
struct IPRange: Sendable, Equatable {
    let network: [UInt8]
    let prefixLength: Int

    /// Nil when `text` is not an address with a prefix length that fits it.
    init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let address = Self.bytes(of: String(parts[0])), let length = Int(parts[1]),
            (0...address.count * 8).contains(length)
        else { return nil }
        network = address
        prefixLength = length
    }

    func contains(_ address: String) -> Bool {
        guard var bytes = Self.bytes(of: address) else { return false }
        if bytes.count == 16, network.count == 4, bytes.prefix(12) == Self.mappedPrefix[...] { bytes = Array(bytes.suffix(4)) }
        guard bytes.count == network.count else { return false }
        var remaining = prefixLength
        for index in 0..<bytes.count where remaining > 0 {
            let bits = min(remaining, 8)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            guard bytes[index] & mask == network[index] & mask else { return false }
            remaining -= bits
        }
        return true
    }

    private static let mappedPrefix: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]

    /// The 4 or 16 bytes of an address in text form.
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: v6) { Array($0) } }
        return nil
    }
}
