import Hummingbird

/// The middleware every request runs, in order. The router adds each layer to its chain; the
/// requests read whole (``WholeRequests``) run the same values by direct calls, without the
/// router's middleware responders (each of their layers costs a request several task switches).
///
/// Contract: a middleware that must see the API's requests belongs here, not on the router
/// alone.
struct RouteMiddleware: Sendable {
    typealias Layer = any MiddlewareProtocol<Request, Response, CognateRequestContext>
    typealias Answer = @Sendable (Request, CognateRequestContext) async throws -> Response

    let layers: [Layer]

    func add(to router: Router<CognateRequestContext>) {
        for layer in layers { router.add(middleware: layer) }
    }

    /// `answer` behind every layer.
    func run(_ request: Request, context: CognateRequestContext, answer: Answer) async throws -> Response {
        try await run(from: 0, request, context, answer)
    }

    private func run(from index: Int, _ request: Request, _ context: CognateRequestContext, _ answer: Answer)
        async throws -> Response
    {
        guard index < layers.count else { return try await answer(request, context) }
        return try await layers[index].handle(request, context: context) { request, context in
            try await run(from: index + 1, request, context, answer)
        }
    }
}
