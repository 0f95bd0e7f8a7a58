import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The requests a connection's ``WholeRequestHandler`` reads whole and answers itself: the
/// Cognito API's `POST /` (small JSON bodies, the busiest route), answered by the middleware
/// every route runs and the API's responder — the values the router's `POST /` route runs, so
/// that the answer is the one the router would give. What it saves is Hummingbird's
/// per-request async machinery: the body's async iterator, the async channel's writer, the
/// router's middleware chain, and the task switches of each (docs/performance.md).
///
/// Contract: the response is the route's, with `Date` and `Server` set as Hummingbird sets
/// them; an error that escapes the middleware becomes a 500 without a body, as in Hummingbird.
///
/// A class: every connection's handler holds it, and the service behind the API is a large
/// value that must not be copied per request.
final class WholeRequests: Sendable {
    /// The API's route given the body's bytes as read (the request's `RequestBody` is not read
    /// again).
    typealias API = @Sendable (Request, CognateRequestContext, ByteBuffer) async throws -> Response

    let middleware: RouteMiddleware
    /// The API's route, behind the middleware.
    let api: API
    /// The API's limit: bodies are read up to one byte more, so that the API refuses them.
    let maxBodyBytes: Int
    let serverName: String
    let logger: Logger
    /// Answers under way: the server waits for them before it closes the database (a client
    /// that hung up leaves its connection closed while its answer is still being computed).
    let inFlight = InFlightCount()

    init(middleware: RouteMiddleware, api: @escaping API, maxBodyBytes: Int, serverName: String, logger: Logger) {
        self.middleware = middleware
        self.api = api
        self.maxBodyBytes = maxBodyBytes
        self.serverName = serverName
        self.logger = logger
    }

    /// Whether a request is read whole: `POST /` (with or without a query).
    func takes(_ head: HTTPRequest) -> Bool {
        guard head.method == .post, let path = head.path else { return false }
        return path == "/" || path.hasPrefix("/?")
    }

    /// The router's answer to a request read whole, as a head and a body.
    func answer(_ head: HTTPRequest, body: ByteBuffer, channel: any Channel) async -> (HTTPResponse, ByteBuffer) {
        let request = Request(head: head, body: RequestBody(buffer: body))
        let context = CognateRequestContext(source: .init(channel: channel, logger: logger))
        // The route, for metrics: also for a request a middleware answers before the API does.
        context.coreContext.endpointPath.value = "/"
        var response: Response
        do {
            let api = self.api
            response = try await middleware.run(request, context: context) { request, context in
                try await api(request, context, body)
            }
        } catch {
            logger.debug("Unrecognised Error", metadata: ["error.type": "\(error)"])
            response = Response(status: .internalServerError)
        }
        let collector = BodyCollector(allocator: channel.allocator)
        do {
            try await response.body.write(collector)
        } catch {
            logger.error("Cannot write a response body: \(error)")
            return (HTTPResponse(status: .internalServerError, headerFields: [.contentLength: "0"]), ByteBuffer())
        }
        var head = response.head
        head.headerFields[.contentLength] = String(collector.collected.readableBytes)
        head.headerFields[.date] = HTTPDate.now
        head.headerFields[.server] = serverName
        return (head, collector.collected)
    }
}

/// A response body's bytes, gathered in one buffer.
private final class BodyCollector: ResponseBodyWriter, @unchecked Sendable {
    // Used by one task at a time: the one writing the response.
    private(set) var collected: ByteBuffer

    init(allocator: ByteBufferAllocator) {
        collected = allocator.buffer(capacity: 0)
    }

    func write(_ buffer: ByteBuffer) async throws {
        guard collected.readableBytes > 0 else {
            collected = buffer
            return
        }
        var buffer = buffer
        collected.writeBuffer(&buffer)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
