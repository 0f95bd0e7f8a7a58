@testable import CognateStorage
import Foundation
import Testing

/// The contract of `DeadlineWatch`: what PostgreSQL calls rely on so that a vanished database
/// fails requests instead of hanging them.
struct DeadlineWatchTests {
    let watch = DeadlineWatch(tick: .milliseconds(20))

    @Test func aCallThatFinishesInTimeIsAnswered() async throws {
        let value = try await watch.run(within: 5, "the database") { 42 }
        #expect(value == 42)
        await #expect(throws: Failure.self) {
            try await watch.run(within: 5, "the database") { () async throws -> Int in throw Failure() }
        }
        watch.stop()
    }

    @Test func aCallPastItsDeadlineIsCancelledAndFailsAsUnreachable() async throws {
        let cancelled = Flag()
        do {
            _ = try await watch.run(within: 0.1, "the database", Self.sleepForAMinute(started: Flag(), cancelled: cancelled))
            Issue.record("a call that never ends was answered")
        } catch let error as StorageError {
            #expect(error.description == "the database did not answer within 0.1 s.")
        }
        #expect(cancelled.isSet)
        watch.stop()
    }

    @Test func aCallThatCompletesDespiteTheCancellationIsAnswered() async throws {
        let value = try await watch.run(within: 0.05, "the database") { () async throws -> Int in
            try? await Task.sleep(for: .seconds(60))  // ends early when cancelled, and goes on
            return 7
        }
        #expect(value == 7)
        watch.stop()
    }

    @Test func cancellingTheCallerCancelsTheCall() async throws {
        let started = Flag(), cancelled = Flag()
        let caller = Task {
            try await watch.run(within: 60, "the database", Self.sleepForAMinute(started: started, cancelled: cancelled))
        }
        while !started.isSet { try await Task.sleep(for: .milliseconds(5)) }
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(cancelled.isSet)
        watch.stop()
    }

    /// An operation that sleeps a minute unless cancelled, saying when it started and when it
    /// was cancelled.
    static func sleepForAMinute(started: Flag, cancelled: Flag) -> @Sendable () async throws -> Int {
        {
            started.set()
            do {
                try await Task.sleep(for: .seconds(60))
            } catch {
                cancelled.set()
                throw error
            }
            return 1
        }
    }

    struct Failure: Error {}

    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }
}
