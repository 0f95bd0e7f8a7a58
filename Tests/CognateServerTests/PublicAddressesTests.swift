import NIOCore
import Testing

@testable import CognateServer

/// Which addresses a client metadata document fetch may connect to.
struct PublicAddressesTests {
    private func allowed(_ text: String, _ addresses: PublicAddresses = PublicAddresses()) throws -> Bool {
        addresses.allows(try SocketAddress(ipAddress: text, port: 443))
    }

    @Test func publicAddressesAreAllowedAndInternalOnesRefused() throws {
        for address in ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "1.1.1.1"] {
            #expect(try allowed(address), "\(address) is public")
        }
        for address in [
            "127.0.0.1", "127.255.0.9", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
            "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255", "192.0.2.5", "198.18.0.1",
            "::1", "::", "fe80::1", "fd00::1", "fc00::2", "ff02::1", "2001:db8::1",
            "::ffff:127.0.0.1", "::ffff:169.254.169.254", "64:ff9b::a9fe:a9fe", "::127.0.0.1", "2002:7f00:1::1",
        ] {
            #expect(try !allowed(address), "\(address) is not public")
        }
        // An IPv4-mapped public address is judged as the IPv4 address it is.
        #expect(try allowed("::ffff:8.8.8.8"))
        #expect(try allowed("172.32.0.1"))      // just past 172.16.0.0/12
    }

    @Test func anOperatorsExceptionAllowsItsNetworkOnly() throws {
        let addresses = PublicAddresses(exceptions: [try #require(AddressRange("10.1.0.0/16")), try #require(AddressRange("::1"))])
        #expect(try allowed("10.1.200.3", addresses))
        #expect(try !allowed("10.2.0.1", addresses))
        #expect(try allowed("::1", addresses))
        #expect(try !allowed("127.0.0.1", addresses))
        #expect(AddressRange("10.0.0.0/33") == nil)
        #expect(AddressRange("not-an-address/8") == nil)
        #expect(AddressRange("fd00::/129") == nil)
    }
}
