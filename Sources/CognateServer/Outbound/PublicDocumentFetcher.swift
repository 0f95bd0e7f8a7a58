import CognateCore
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Fetches client ID metadata documents from URLs anyone may name, so that such a URL cannot
/// make the server reach inside its network (SSRF).
///
/// Contract: only `https` URLs whose host is a name; the name is resolved here and *every*
/// address it resolves to must be public (``PublicAddresses``), and the connection is made to
/// that checked address — not resolved again — so a name that changes its answer between the
/// check and the connection (DNS rebinding) cannot redirect it; the certificate must be valid
/// for the name (TLS 1.2 or later). One HTTP/1.1 GET, no redirect followed (the answer is
/// returned as it is), a body of at most `limit` bytes; the whole exchange — resolving the name,
/// connecting to at most three of its addresses in turn, TLS, the answer — within `timeout`.
public struct PublicDocumentFetcher: MetadataDocumentFetcher {
    let addresses: PublicAddresses
    let tls: NIOSSLContext
    let limit: Int
    let timeout: TimeAmount
    let group: any EventLoopGroup

    /// - Parameters:
    ///   - additionalTrustRoots: certificates trusted beside the system's (an internal CA).
    public init(addresses: PublicAddresses = PublicAddresses(), additionalTrustRoots: [NIOSSLCertificate] = [],
                limit: Int = 5_120, timeout: TimeAmount = .seconds(5),
                group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) throws {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        if !additionalTrustRoots.isEmpty {
            configuration.additionalTrustRoots = [.certificates(additionalTrustRoots)]
        }
        tls = try NIOSSLContext(configuration: configuration)
        self.addresses = addresses
        self.limit = limit
        self.timeout = timeout
        self.group = group
    }

    public func fetch(_ url: URL) async throws -> UpstreamAnswer {
        guard url.scheme?.lowercased() == "https", let host = url.host, !host.isEmpty,
            AddressRange.parse(host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))) == nil
        else { throw MetadataDocumentFetchError.unsupportedURL }
        let port = url.port ?? 443
        let deadline = NIODeadline.now() + timeout
        let resolved = try await Self.resolve(host, port: port, within: timeout)
        guard !resolved.isEmpty else { throw MetadataDocumentFetchError.unresolvable }
        if let refused = resolved.first(where: { !addresses.allows($0) }) {
            throw MetadataDocumentFetchError.refusedAddress(refused.ipAddress ?? "\(refused)")
        }
        let loop = group.next()
        let answer = loop.makePromise(of: UpstreamAnswer.self)
        let timeout = loop.scheduleTask(deadline: deadline) { answer.fail(MetadataDocumentFetchError.timedOut) }
        defer { timeout.cancel() }
        // The checked addresses in turn, as the resolver ordered them, until one connects.
        var failure = MetadataDocumentFetchError.unresolvable
        for address in resolved.prefix(Self.addressesTried) {
            let remaining = deadline - NIODeadline.now()
            guard remaining > .zero else { throw MetadataDocumentFetchError.timedOut }
            let channel: any Channel
            do {
                channel = try await connect(to: address, host: host, on: loop, within: remaining, answer: answer)
            } catch {
                failure = .unreachable("\(error)")
                continue
            }
            defer { channel.close(promise: nil) }
            return try await get(url, host: host, port: port, on: channel, answer: answer)
        }
        answer.fail(failure)
        throw failure
    }

    /// Addresses of a name tried at most.
    static let addressesTried = 3

    private func connect(to address: SocketAddress, host: String, on loop: any EventLoop, within: TimeAmount,
                         answer: EventLoopPromise<UpstreamAnswer>) async throws -> any Channel {
        let (tls, limit) = (self.tls, self.limit)
        return try await ClientBootstrap(group: loop)
            .connectTimeout(within)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: host))
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(AnswerCollector(answer: answer, limit: limit))
                }
            }
            .connect(to: address).get()
    }

    private func get(_ url: URL, host: String, port: Int, on channel: any Channel,
                     answer: EventLoopPromise<UpstreamAnswer>) async throws -> UpstreamAnswer {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let path = (components?.percentEncodedPath).flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        let query = components?.percentEncodedQuery.map { "?" + $0 } ?? ""
        components = nil
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path + query)
        head.headers.add(name: "Host", value: port == 443 ? host : "\(host):\(port)")
        head.headers.add(name: "Accept", value: "application/json")
        head.headers.add(name: "User-Agent", value: "Cognate")
        head.headers.add(name: "Connection", value: "close")
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        return try await answer.futureResult.get()
    }

    /// Every address `host` resolves to (getaddrinfo, on a thread pool of its own, so a slow
    /// resolver holds none of the server's), or `timedOut` after `within`.
    static func resolve(_ host: String, port: Int, within: TimeAmount) async throws -> [SocketAddress] {
        try await withThrowingTaskGroup(of: [SocketAddress].self) { group in
            group.addTask { try await resolve(host, port: port) }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(max(0, within.nanoseconds)))
                throw MetadataDocumentFetchError.timedOut
            }
            defer { group.cancelAll() }
            return try await group.next() ?? []
        }
    }

    static let resolvers: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 2)
        pool.start()
        return pool
    }()

    private static func resolve(_ host: String, port: Int) async throws -> [SocketAddress] {
        try await resolvers.runIfActive {
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            hints.ai_family = AF_UNSPEC
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
                throw MetadataDocumentFetchError.unresolvable
            }
            defer { freeaddrinfo(list) }
            var found: [SocketAddress] = []
            var next: UnsafeMutablePointer<addrinfo>? = first
            while let entry = next {
                if let raw = entry.pointee.ai_addr {
                    switch Int32(raw.pointee.sa_family) {
                    case AF_INET:
                        let v4 = raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
                        found.append(SocketAddress(v4, host: host))
                    case AF_INET6:
                        let v6 = raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee }
                        found.append(SocketAddress(v6, host: host))
                    default:
                        break
                    }
                }
                next = entry.pointee.ai_next
            }
            return found
        }
    }
}

/// Collects one HTTP answer into a promise: its status, headers (names in lower case) and a
/// body of at most `limit` bytes; an answer that ends early, or an error, fails it.
private final class AnswerCollector: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let answer: EventLoopPromise<UpstreamAnswer>
    private let limit: Int
    private var head: HTTPResponseHead?
    private var body: [UInt8] = []

    init(answer: EventLoopPromise<UpstreamAnswer>, limit: Int) {
        self.answer = answer
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let received):
            head = received
        case .body(var buffer):
            guard body.count + buffer.readableBytes <= limit else {
                answer.fail(MetadataDocumentFetchError.tooLarge(limit: limit))
                context.close(promise: nil)
                return
            }
            body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard let head else { return }
            var headers: [String: String] = [:]
            for (name, value) in head.headers { headers[name.lowercased()] = value }
            answer.succeed(UpstreamAnswer(status: Int(head.status.code), headers: headers, body: Data(body)))
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        answer.fail(MetadataDocumentFetchError.unreachable("\(error)"))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        answer.fail(MetadataDocumentFetchError.unreachable("the connection closed before a complete answer"))
    }
}
