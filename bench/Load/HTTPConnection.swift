import NIOCore
import NIOHTTP1
import NIOPosix

/// One keep-alive HTTP/1.1 connection that posts AWS JSON 1.1 requests, one at a time.
struct HTTPConnection {
    var inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator
    let outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Connects and runs `body` with the connection; closes it afterwards.
    static func with<Result: Sendable>(
        host: String, port: Int, group: any EventLoopGroup, _ body: (inout HTTPConnection) async throws -> Result
    ) async throws -> Result {
        let channel = try await ClientBootstrap(group: group).connect(host: host, port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHTTPClientHandlers()
                return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
            }
        }
        return try await channel.executeThenClose { inbound, outbound in
            var connection = HTTPConnection(inbound: inbound.makeAsyncIterator(), outbound: outbound)
            return try await body(&connection)
        }
    }

    /// POSTs `body` to `/` with the operation's `X-Amz-Target`; returns the status and body.
    mutating func post(target: String, host: String, body: [UInt8]) async throws -> (status: Int, body: [UInt8]) {
        var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: "/")
        head.headers.add(name: "Host", value: host)
        head.headers.add(name: "Content-Type", value: "application/x-amz-json-1.1")
        head.headers.add(name: "X-Amz-Target", value: target)
        head.headers.add(name: "Content-Length", value: String(body.count))
        try await outbound.write(contentsOf: [.head(head), .body(.byteBuffer(ByteBuffer(bytes: body))), .end(nil)])
        var status = 0
        var received: [UInt8] = []
        while let part = try await inbound.next() {
            switch part {
            case .head(let response): status = Int(response.status.code)
            case .body(let buffer): received += buffer.readableBytesView
            case .end: return (status, received)
            }
        }
        throw Failure(description: "the server closed the connection")
    }
}
