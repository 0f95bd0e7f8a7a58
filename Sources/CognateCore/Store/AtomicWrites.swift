import Foundation

/// Writes that are whole on their own, for use cases that need nothing else in a transaction
/// (a count before a request's work, a challenge session, a right password's token family, a
/// sent message leaving the queue).
///
/// Contract: each is atomic and committed durably when it returns, as a ``Store/write(_:)``
/// holding only the repository call of the same name would be; the store runs it the cheapest
/// way its database allows (on PostgreSQL, one statement without BEGIN and COMMIT).
public protocol AtomicWrites: Sendable {
    /// ``CounterRepository/incrementCounter(key:windowStart:)`` on its own.
    func incrementCounter(key: String, windowStart: Date) async throws -> Int
    /// ``AuthSessionRepository/insertAuthSession(_:)`` on its own.
    func insertAuthSession(_ session: AuthSessionRecord) async throws
    /// ``TokenFamilyRepository/insertTokenFamily(_:ifSignInStands:)`` on its own.
    func insertTokenFamily(_ family: TokenFamilyRecord, ifSignInStands user: UserRecord) async throws -> Bool
    /// ``TokenFamilyRepository/insertTokenFamily(_:ifSignInStands:usingUpSession:)`` on its own.
    func insertTokenFamily(_ family: TokenFamilyRecord, ifSignInStands user: UserRecord,
                           usingUpSession sessionTokenHash: String) async throws -> (usedUp: Bool, stored: Bool)
    /// ``MessageQueueRepository/removeMessage(id:)`` on its own.
    func removeMessage(id: Int64) async throws
}
