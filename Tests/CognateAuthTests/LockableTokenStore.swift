import CognateAuth
import Foundation

/// A real in-memory store that can be locked like the Keychain of a device that restarted and
/// was not unlocked yet: while locked, every call fails.
actor LockableTokenStore: TokenStore {
    struct Locked: Error {}

    private let inner = InMemoryTokenStore()
    private(set) var isLocked = false

    func lock() { isLocked = true }
    func unlock() { isLocked = false }

    func profiles() async throws -> [String] {
        try checkUnlocked()
        return await inner.profiles()
    }

    func load(profile: String) async throws -> ProfileRecord? {
        try checkUnlocked()
        return await inner.load(profile: profile)
    }

    func save(_ record: ProfileRecord, profile: String) async throws {
        try checkUnlocked()
        await inner.save(record, profile: profile)
    }

    func remove(profile: String) async throws {
        try checkUnlocked()
        await inner.remove(profile: profile)
    }

    private func checkUnlocked() throws { if isLocked { throw Locked() } }
}
