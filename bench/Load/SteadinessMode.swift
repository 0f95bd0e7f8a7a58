import Foundation

// How steady the machine's CPUs are: one thread per core repeats a fixed piece of arithmetic
// (a few tens of µs, no memory traffic) for SECONDS and times each piece. On a dedicated core
// every piece takes about as long as the fastest; on a shared host some stretches run several
// times slower. Such a stretch overloads any server running at half of its peak for as long as
// it lasts, whatever that server's code, which is what bench/run.py's "p99 at half of peak"
// needs beside it to be read.

/// `cognate-load steadiness SECONDS`
func runSteadiness(_ values: [String]) -> String {
    guard values.count == 1, let seconds = Double(values[0]), seconds > 0 else { usage() }
    let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    let results = NSLock()
    nonisolated(unsafe) var measured: [Steadiness] = []
    DispatchQueue.concurrentPerform(iterations: cores) { _ in
        let result = Steadiness.measure(seconds: seconds)
        results.withLock { measured.append(result) }
    }
    return Steadiness.worst(measured).json
}

/// One thread's timings, summarised.
struct Steadiness {
    /// The fastest piece of arithmetic (µs).
    var fastest: Double
    /// The share of the time spent in slow stretches, where most pieces took over 1.5 × the fastest.
    var slowShare: Double
    /// How many times slower than the fastest the pieces in slow stretches ran, on average.
    var slowFactor: Double
    /// The longest slow stretch (ms).
    var longestSlow: Double

    /// Pieces are judged in windows of this many; a window is slow when most of its pieces are.
    private static let window = 20
    /// What a thread that timed nothing reports.
    private static let unmeasured = Steadiness(fastest: 0, slowShare: 0, slowFactor: 1, longestSlow: 0)

    static func measure(seconds: Double) -> Steadiness {
        var durations: [UInt64] = []
        durations.reserveCapacity(Int(seconds * 60_000))
        var state: UInt64 = 1
        let end = monotonicNanoseconds() + UInt64(seconds * 1e9)
        while true {
            let start = monotonicNanoseconds()
            if start >= end { break }
            for _ in 0..<10_000 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                state ^= state >> 13
            }
            durations.append(monotonicNanoseconds() - start)
        }
        blackHole(state)
        return summarise(durations)
    }

    static func summarise(_ durations: [UInt64]) -> Steadiness {
        guard let fastest = durations.min(), fastest > 0 else { return unmeasured }
        let total = durations.reduce(0, +)
        var slowTime: UInt64 = 0
        var stretch: UInt64 = 0
        var longest: UInt64 = 0
        var slowPieces = 0
        for start in stride(from: 0, to: durations.count - window + 1, by: window) {
            let pieces = durations[start..<start + window]
            let time = pieces.reduce(0, +)
            if pieces.filter({ $0 * 2 > fastest * 3 }).count * 2 > window {
                slowTime += time
                slowPieces += window
                stretch += time
                longest = max(longest, stretch)
            } else {
                stretch = 0
            }
        }
        return Steadiness(
            fastest: Double(fastest) / 1000,
            slowShare: Double(slowTime) / Double(total),
            slowFactor: slowPieces == 0 ? 1 : Double(slowTime) / Double(slowPieces) / Double(fastest),
            longestSlow: Double(longest) / 1e6)
    }

    /// The least steady of several threads' results.
    static func worst(_ results: [Steadiness]) -> Steadiness {
        results.max { $0.slowShare < $1.slowShare } ?? unmeasured
    }

    var json: String {
        String(
            format: #"{"fastest_us":%.2f,"slow_share":%.4f,"slow_factor":%.2f,"longest_slow_ms":%.1f}"#,
            fastest, slowShare, slowFactor, longestSlow)
    }
}

@inline(never)
private func blackHole(_ value: UInt64) {
    if value == 42 { print("") }
}
