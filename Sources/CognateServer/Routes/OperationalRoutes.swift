import CognateCore
import Hummingbird

/// `GET /health` (the process answers) and `GET /ready` (and so does its database).
enum OperationalRoutes {
    static func add(to router: Router<CognateRequestContext>, service: IdentityService) {
        router.get("/health") { _, _ in JSONResponse.status(.ok, ["status": "ok"]) }
        router.get("/ready") { _, _ in
            do {
                try await service.ping()
                return JSONResponse.status(.ok, ["status": "ready"])
            } catch {
                return JSONResponse.status(.serviceUnavailable, ["status": "unavailable", "error": "\(error)"])
            }
        }
    }
}
