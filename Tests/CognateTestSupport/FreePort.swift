import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Local TCP ports for test servers to listen on.
public enum FreePort {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A port nothing listens on now, below Linux's ephemeral range (32768–60999): a port the
    /// kernel picks for port 0 is one it also hands to outgoing connections, which took it
    /// between a test's choice and its listener's bind now and then.
    public static func pick() throws -> Int {
        for _ in 0..<200 {
            let port = UInt16.random(in: 20_000..<32_000)
            #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = port.bigEndian
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            if bound { return Int(port) }
        }
        throw Failure(description: "no free port between 20000 and 32000")
    }
}
