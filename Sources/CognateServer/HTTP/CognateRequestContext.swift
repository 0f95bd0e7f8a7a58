import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's basics plus the peer's address (for
/// per-address rate limits and, behind a proxy, `ServerConfiguration.clientAddressHeader`).
public struct CognateRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }
}

extension Request {
    /// The caller's address: the last entry of `header` (what a trusted proxy appended) when
    /// one is configured and present, else the connection's peer.
    func clientAddress(peer: SocketAddress?, header: String?) -> String? {
        if let header, let name = HTTPField.Name(header), let value = headers[name],
            let last = value.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), !last.isEmpty
        {
            return last
        }
        return peer?.ipAddress ?? peer?.pathname
    }
}
