import NIOCore

/// Which addresses a fetch of a URL anyone may name may connect to: public unicast addresses
/// only, unless an operator allows a network of theirs.
///
/// Refused: IPv4 this-network, private (10/8, 172.16/12, 192.168/16), shared (100.64/10),
/// loopback, link-local (169.254/16, where cloud metadata services answer), IETF protocol
/// assignments, documentation, benchmarking, multicast, reserved and broadcast; IPv6
/// unspecified, loopback, IPv4-mapped and -translated (judged by their IPv4 address), 6to4 and
/// Teredo tunnels, documentation, and everything outside global unicast (2000::/3: unique-local,
/// link-local, site-local, multicast, local-use NAT64 …).
public struct PublicAddresses: Sendable {
    /// Networks allowed despite the rules (`--client-metadata-private-networks`).
    public let exceptions: [AddressRange]

    public init(exceptions: [AddressRange] = []) { self.exceptions = exceptions }

    public func allows(_ address: SocketAddress) -> Bool {
        switch address {
        case .v4(let v4):
            return allows(ipv4: UInt32(bigEndian: v4.address.sin_addr.s_addr))
        case .v6(let v6):
            var bytes = [UInt8](repeating: 0, count: 16)
            withUnsafeBytes(of: v6.address.sin6_addr) { raw in for index in 0..<16 { bytes[index] = raw[index] } }
            return allows(ipv6: bytes)
        default:
            return false
        }
    }

    func allows(ipv4 value: UInt32) -> Bool {
        if exceptions.contains(where: { $0.contains(ipv4: value) }) { return true }
        return !Self.refusedIPv4.contains { $0.contains(ipv4: value) }
    }

    func allows(ipv6 bytes: [UInt8]) -> Bool {
        if exceptions.contains(where: { $0.contains(ipv6: bytes) }) { return true }
        // An IPv4 address in IPv6 clothing is judged as itself.
        if let embedded = Self.embeddedIPv4(bytes) { return allows(ipv4: embedded) }
        return Self.globalUnicast.contains(ipv6: bytes) && !Self.refusedIPv6.contains { $0.contains(ipv6: bytes) }
    }

    /// The IPv4 address of an IPv4-mapped (::ffff:0:0/96), IPv4-compatible (::/96) or
    /// NAT64-translated (64:ff9b::/96) address.
    static func embeddedIPv4(_ bytes: [UInt8]) -> UInt32? {
        let prefix = Array(bytes[0..<12])
        let mapped = Array(repeating: UInt8(0), count: 10) + [0xff, 0xff]
        let compatible = Array(repeating: UInt8(0), count: 12)
        let nat64: [UInt8] = [0x00, 0x64, 0xff, 0x9b] + Array(repeating: 0, count: 8)
        guard prefix == mapped || prefix == nat64 || (prefix == compatible && bytes[12...].contains { $0 != 0 }) else {
            return nil
        }
        return bytes[12..<16].reduce(0) { $0 << 8 | UInt32($1) }
    }

    static let refusedIPv4: [AddressRange] = ([
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24",
        "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24",
        "224.0.0.0/4", "240.0.0.0/4",
    ] as [String]).map { AddressRange($0)! }

    static let globalUnicast = AddressRange("2000::/3")!

    static let refusedIPv6: [AddressRange] = ([
        "2001::/32", "2001:2::/48", "2001:10::/28", "2001:db8::/32", "2002::/16", "3fff::/20",
    ] as [String]).map { AddressRange($0)! }
}

/// A network in CIDR notation, IPv4 (`10.0.0.0/8`) or IPv6 (`fd00::/8`).
public struct AddressRange: Sendable, Equatable, CustomStringConvertible {
    let bytes: [UInt8]      // 4 or 16
    let prefixLength: Int
    public let description: String

    /// Nil for text that is no CIDR network (or an address without `/prefix`, which means the
    /// address alone).
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let address = Self.parse(String(parts[0])) else { return nil }
        let maximum = address.count * 8
        let length = parts.count == 2 ? Int(parts[1]) : maximum
        guard let length, (0...maximum).contains(length) else { return nil }
        bytes = address
        prefixLength = length
        description = text
    }

    func contains(ipv4 value: UInt32) -> Bool {
        guard bytes.count == 4 else { return false }
        return matches([UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)])
    }

    func contains(ipv6 address: [UInt8]) -> Bool { bytes.count == 16 && matches(address) }

    private func matches(_ address: [UInt8]) -> Bool {
        var remaining = prefixLength
        for index in 0..<bytes.count where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xff << (8 - bits))
            if address[index] & mask != bytes[index] & mask { return false }
            remaining -= bits
        }
        return true
    }

    /// The bytes of an IPv4 or IPv6 address in text.
    static func parse(_ text: String) -> [UInt8]? {
        if let v4 = try? SocketAddress(ipAddress: text, port: 0), case .v4(let address) = v4 {
            let value = UInt32(bigEndian: address.address.sin_addr.s_addr)
            return [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
        }
        if let v6 = try? SocketAddress(ipAddress: text, port: 0), case .v6(let address) = v6 {
            return withUnsafeBytes(of: address.address.sin6_addr) { Array($0) }
        }
        return nil
    }
}
