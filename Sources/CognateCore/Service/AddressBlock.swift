import Foundation

/// What per-address limits count a caller as: an IPv4 address itself, an IPv6 address by its
/// /64 network — one subscriber commonly holds a whole /64, so counting single IPv6 addresses
/// would give one caller 2^64 separate allowances.
enum AddressBlock {
    static func of(_ address: String) -> String {
        guard address.contains(":") else { return address }
        var bytes = [UInt8](repeating: 0, count: 16)
        let parsed = address.split(separator: "%").first.map { text in
            String(text).withCString { inet_pton(AF_INET6, $0, &bytes) }
        }
        guard parsed == 1 else { return address }
        // An IPv4-mapped address (::ffff:a.b.c.d) is that IPv4 address.
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            return bytes[12..<16].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}
