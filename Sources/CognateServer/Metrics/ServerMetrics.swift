import CognateCore
import Metrics
import Prometheus

/// Prometheus metrics (swift-metrics with swift-prometheus as its backend), served at
/// `GET /metrics` in the text exposition format.
///
/// What is counted (docs/deploy.md lists it): requests by operation and outcome with their
/// latency; sign-ins by flow and result; messages sent by medium and channel; lockouts.
public enum ServerMetrics {
    /// Makes Prometheus the process's metrics backend (once per process, before the server
    /// starts) and returns the registry `/metrics` reads.
    public static func bootstrap() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
            .seconds(2.5), .seconds(5),
        ]
        MetricsSystem.bootstrap(factory)
        return registry
    }

    /// One API request: its operation (`unknown` for targets that name none) and outcome
    /// (`ok`, or the error's `__type`).
    static func request(operation: String, outcome: String, nanoseconds: Int64) {
        requests(operation, outcome).increment()
        durations(operation).recordNanoseconds(nanoseconds)
    }

    private static let requests = MetricHandles { values in
        Counter(label: "cognate_requests_total", dimensions: [("operation", values[0]), ("outcome", values[1])])
    }
    private static let durations = MetricHandles { values in
        Timer(label: "cognate_request_duration_seconds", dimensions: [("operation", values[0])])
    }
}
