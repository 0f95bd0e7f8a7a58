import CognateCore
import Foundation

/// Each ``AtomicWrites`` operation as one statement of its own (``SQLStore/writeSingleStatement(_:)``).
extension SQLStore {
    public func incrementCounter(key: String, windowStart: Date) async throws -> Int {
        try await writeSingleStatement { try await $0.incrementCounter(key: key, windowStart: windowStart) }
    }

    public func insertAuthSession(_ session: AuthSessionRecord) async throws {
        try await writeSingleStatement { try await $0.insertAuthSession(session) }
    }

    public func insertTokenFamily(_ family: TokenFamilyRecord, ifSignInStands user: UserRecord) async throws -> Bool {
        try await writeSingleStatement { try await $0.insertTokenFamily(family, ifSignInStands: user) }
    }

    public func insertTokenFamily(_ family: TokenFamilyRecord, ifSignInStands user: UserRecord,
                                  usingUpSession sessionTokenHash: String) async throws -> (usedUp: Bool, stored: Bool) {
        try await writeSingleStatement {
            try await $0.insertTokenFamily(family, ifSignInStands: user, usingUpSession: sessionTokenHash)
        }
    }

    public func removeMessage(id: Int64) async throws {
        try await writeSingleStatement { try await $0.removeMessage(id: id) }
    }
}
