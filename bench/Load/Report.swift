import Foundation

/// What one connection saw.
struct Outcome: Sendable {
    /// Latency of each successful request (µs).
    var latencies: [Double] = []
    var errors = 0
}

/// The JSON line bench/run.py reads.
struct Report {
    let requests: Int
    let seconds: Double
    let errors: Int
    let p50: Int
    let p99: Int

    init(_ outcomes: [Outcome], seconds: Double) {
        let latencies = outcomes.flatMap(\.latencies).sorted()
        func percentile(_ q: Double) -> Int {
            latencies.isEmpty ? 0 : Int(latencies[min(latencies.count - 1, Int(q * Double(latencies.count)))])
        }
        requests = latencies.count
        self.seconds = seconds
        errors = outcomes.reduce(0) { $0 + $1.errors }
        p50 = percentile(0.5)
        p99 = percentile(0.99)
    }

    var json: String {
        #"{"errors":\#(errors),"p50_us":\#(p50),"p99_us":\#(p99),"requests":\#(requests),"seconds":\#(seconds)}"#
    }
}

func json(_ object: [String: Any]) -> [UInt8] {
    Array((try? JSONSerialization.data(withJSONObject: object)) ?? Data())
}
