import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Dev mode's guard against web pages (dev mode takes any credentials and shows every code):
///
/// - a request must name this server by a name only this machine resolves — an IP address,
///   `localhost` or a `*.localhost` name — or by the public URL's host (or a name under it,
///   a pool's domain): a page of another site whose name was rebound to 127.0.0.1 (DNS
///   rebinding) names its own host and is refused (421), so it can read nothing;
/// - a request from a web page (it carries `Origin`) may not run an admin operation or read
///   `/_dev/*`: CORS keeps the answer from the page, but the operation would still run.
struct DevModeGuard: RouterMiddleware {
    typealias Context = CognateRequestContext
    /// The public URL's host (lower case).
    let publicHost: String?
    /// Whether `X-Amz-Target` names an operation that needs admin credentials.
    let isAdminOperation: @Sendable (String?) -> Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard acceptsHost(request.head.authority) else {
            return Self.refusal(.misdirectedRequest,
                "This dev-mode server answers to localhost, IP addresses and its public URL's host only (a page on another "
                    + "name may be rebinding DNS). Name it with --public-url, or run --mode production.")
        }
        if request.headers[.origin] != nil {
            // Judged on the path as the router reads it (empty segments dropped: `//` is `/`),
            // and an admin operation is refused whatever path carries it.
            let segments = request.uri.path.split(separator: "/", omittingEmptySubsequences: true)
            if segments.first.map({ $0.lowercased() == "_dev" }) == true
                || isAdminOperation(request.headers[HTTPField.Name("x-amz-target")!])
            {
                return Self.refusal(.forbidden,
                    "Web pages may not call admin operations or read the dev outbox of a dev-mode server.")
            }
        }
        return try await next(request, context)
    }

    func acceptsHost(_ authority: String?) -> Bool {
        guard let authority, let host = Self.host(of: authority) else { return false }
        if host == "localhost" || host.hasSuffix(".localhost") || Self.isIPAddress(host) { return true }
        guard let publicHost else { return false }
        // Names under an IP address are no names (no browser can send one).
        return host == publicHost || (!Self.isIPAddress(publicHost) && host.hasSuffix("." + publicHost))
    }

    /// The host of a Host header (`name:port`, `[v6]:port`), lower case, without a final dot.
    static func host(of authority: String) -> String? {
        var host = authority.lowercased()
        if host.hasPrefix("[") {
            guard let end = host.firstIndex(of: "]") else { return nil }
            host = String(host[host.index(after: host.startIndex)..<end])
        } else if let colon = host.lastIndex(of: ":") {
            host = String(host[..<colon])
        }
        if host.hasSuffix(".") { host.removeLast() }
        return host.isEmpty ? nil : host
    }

    /// What `SocketAddress(ipAddress:)` accepts (inet_pton, IPv4 then IPv6), without building
    /// the address or an error for every request.
    static func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return host.withCString { inet_pton(AF_INET, $0, &v4) == 1 || inet_pton(AF_INET6, $0, &v6) == 1 }
    }

    private static func refusal(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(string: message + "\n")))
    }
}
