import CognateCore
import Hummingbird
import Prometheus

/// `GET /health` (the process answers) and `GET /ready` (and so does its database).
enum OperationalRoutes {
    static func add(to router: Router<CognateRequestContext>, service: IdentityService,
                    metrics: PrometheusCollectorRegistry?) {
        if let metrics {
            router.get("/metrics") { _, _ in
                Response(
                    status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(bytes: metrics.emitToBuffer())))
            }
        }
        router.get("/health") { _, _ in JSONResponse.status(.ok, ["status": "ok"]) }
        router.get("/ready") { _, _ in
            do {
                try await service.housekeeping.ping()
                return JSONResponse.status(.ok, ["status": "ready"])
            } catch {
                return JSONResponse.status(.serviceUnavailable, ["status": "unavailable", "error": "\(error)"])
            }
        }
    }
}
