import Foundation
import Testing

@testable import CognateProtocol

struct SRPTimestampTests {
    @Test func formatsAsCognitoExpects() {
        // 2026-11-03T04:05:06Z was a Tuesday.
        #expect(SRPTimestamp.format(Date(timeIntervalSince1970: 1_793_678_706)) == "Tue Nov 3 04:05:06 UTC 2026")
        #expect(SRPTimestamp.format(Date(timeIntervalSince1970: 0)) == "Thu Jan 1 00:00:00 UTC 1970")
        #expect(SRPTimestamp.format(Date(timeIntervalSince1970: 951_782_400)) == "Tue Feb 29 00:00:00 UTC 2000")
    }

    @Test func parsesOnlyTheCanonicalRendering() {
        #expect(SRPTimestamp.parse("Tue Nov 3 04:05:06 UTC 2026") == Date(timeIntervalSince1970: 1_793_678_706))
        #expect(SRPTimestamp.parse("Tue Nov 03 04:05:06 UTC 2026") == nil)  // padded day
        #expect(SRPTimestamp.parse("Wed Nov 3 04:05:06 UTC 2026") == nil)   // wrong weekday
        #expect(SRPTimestamp.parse("Tue Nov 3 4:05:06 UTC 2026") == nil)    // unpadded hour
        #expect(SRPTimestamp.parse("garbage") == nil)
        #expect(SRPTimestamp.isWellFormed("Wed Nov 3 04:05:06 UTC 2026"))
        #expect(!SRPTimestamp.isWellFormed("2026-11-03T04:05:06Z"))
    }

    @Test func roundTripsOverYears() {
        for seconds in stride(from: 0.0, to: 4_102_444_800, by: 86_400 * 37 + 3_671) {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(SRPTimestamp.parse(SRPTimestamp.format(date)) == date)
        }
    }
}
