import Testing

@testable import CognateCore

/// Per-address limits count IPv6 callers by their /64.
struct AddressBlockTests {
    @Test func ipv6AddressesCountByTheirNetwork() {
        #expect(AddressBlock.of("203.0.113.9") == "203.0.113.9")
        #expect(AddressBlock.of("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64")
        #expect(AddressBlock.of("2001:db8:1:2:ffff:ffff:ffff:ffff") == "2001:db8:1:2::/64")
        #expect(AddressBlock.of("2001:db8:1:3::1") != AddressBlock.of("2001:db8:1:2::1"))
        #expect(AddressBlock.of("::ffff:192.0.2.1") == "192.0.2.1")
        #expect(AddressBlock.of("not an address:") == "not an address:")
    }
}
