import CognateCore
import Hummingbird

/// Dev mode only: `GET /_dev/outbox[?pool=<id>&after=<id>&limit=<n>]` lists the messages the
/// server sent, codes included, oldest first.
enum DevRoutes {
    static func add(to router: Router<CognateRequestContext>, store: any Store) {
        router.get("/_dev/outbox") { request, _ in
            let query = request.uri.queryParameters
            let pool = query["pool"].map(String.init)
            let after = query["after"].flatMap { Int64(String($0)) }
            let limit = min(query["limit"].flatMap { Int(String($0)) } ?? 100, 1000)
            let messages = try await store.read { try await $0.outboxMessages(poolId: pool, afterId: after, limit: limit) }
            return try JSONResponse.ok(["messages": messages])
        }
    }
}
