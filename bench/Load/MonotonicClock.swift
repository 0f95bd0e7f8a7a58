#if canImport(Glibc)
import Glibc
#endif

/// Nanoseconds on the monotonic clock: what the load modes time requests and arithmetic with.
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
