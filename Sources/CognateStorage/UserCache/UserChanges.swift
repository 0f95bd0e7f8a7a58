import Synchronization

/// What one write changed of the users a node's ``UserReadCache`` may hold, collected as its
/// statements run and applied once the write is over (committed or not: a commit whose answer
/// was lost may have happened).
///
/// The repository methods that change a user's row, attributes, token families or MFA
/// settings name the user or family (``record(_:)``); any other statement that changes those
/// tables, or deletes pools (whose users go with them), counts as changing everyone
/// (``note(_:)``), so a method that forgets to name what it changes makes the cache colder,
/// never stale.
final class UserChanges: Sendable {
    enum Changed: Sendable, Equatable {
        case nothing
        case everyone
        case some(users: Set<UserReadCache.UserKey>, families: Set<String>)
    }

    /// What one statement changes.
    enum Change: Sendable {
        /// The user's row, attributes, token families or MFA settings.
        case user(poolId: String, sub: String)
        /// One token family (its user unknown to the statement).
        case family(originJti: String)
        /// Only what no entry is read for (a family's refresh token hashes or scopes, the
        /// last TOTP step used).
        case nothingCached
    }

    private let changed = Mutex(Changed.nothing)

    var collected: Changed { changed.withLock { $0 } }

    func record(_ change: Change) {
        switch change {
        case .user(let poolId, let sub): add(users: [UserReadCache.UserKey(poolId: poolId, sub: sub)], families: [])
        case .family(let originJti): add(users: [], families: [originJti])
        case .nothingCached: return
        }
    }

    /// Counts `statement`, run without naming what it changes, as changing everyone if it
    /// writes a table the cache's entries are made of.
    func note(_ statement: SQLStatement) {
        guard Self.changesCachedUsers(statement) else { return }
        changed.withLock { $0 = .everyone }
    }

    /// Whether the statement's own text (not its bound values) updates or deletes rows of
    /// users, their attributes or token families, writes MFA settings, or deletes pools or app
    /// clients (whose users or token families go with them).
    ///
    /// Every write runs it, so it compares bytes: Foundation's `String.contains` goes through
    /// `NSString` and cost more than the rest of a sign-in's statement.
    static func changesCachedUsers(_ statement: SQLStatement) -> Bool {
        var text: [UInt8] = []
        for case .text(let piece) in statement.pieces { text.append(contentsOf: piece.utf8) }
        return text.indices.contains { start in
            guard let candidates = writesOfCachedTables[text[start]] else { return false }
            return candidates.contains { $0.count <= text.count - start && text[start..<start + $0.count].elementsEqual($0) }
        }
    }

    /// The texts of statements that change cached users, by their first byte.
    private static let writesOfCachedTables: [UInt8: [[UInt8]]] = Dictionary(grouping: [
        "UPDATE users ", "DELETE FROM users ", "UPDATE user_attributes ", "DELETE FROM user_attributes ",
        "UPDATE token_families ", "DELETE FROM token_families ", "DELETE FROM user_pools ",
        // Its token families go with an app client (ON DELETE CASCADE).
        "DELETE FROM app_clients ",
        // A user without MFA settings is cached as such: their first insert changes it.
        "INSERT INTO user_mfa ", "UPDATE user_mfa ", "DELETE FROM user_mfa ",
    ].map { Array($0.utf8) }, by: { $0[0] })

    private func add(users: Set<UserReadCache.UserKey>, families: Set<String>) {
        changed.withLock { changed in
            switch changed {
            case .everyone: return
            case .nothing: changed = .some(users: users, families: families)
            case .some(let known, let knownFamilies):
                changed = .some(users: known.union(users), families: knownFamilies.union(families))
            }
        }
    }
}
