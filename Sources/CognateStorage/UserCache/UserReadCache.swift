import CognateCore
import Synchronization

/// A node's copy of users as access-token requests that only read (GetUser) see them: the user
/// and the standing of the token's family, keyed by pool, `sub` and the family's `origin_jti`,
/// and the user's MFA settings.
/// It spares such a request the database's read: on PostgreSQL a round trip, on SQLite a read
/// transaction that costs about a quarter of a GetUser's CPU.
///
/// Contract:
/// - It serves entries only while changes made elsewhere demonstrably reach it: from the first
///   ``confirm(upTo:)`` until ``stopListening()``, and only until `lease` after the latest
///   instant confirmed. On PostgreSQL the listener's heartbeat (a notice it sends itself through
///   the notices' queue every second) confirms, and a change committed by another node (or the
///   `cognate` tool) drops the user's entries when its notice arrives, milliseconds after the
///   commit. On SQLite each read of the data version confirms (``SQLiteChangeWatcher``), and a
///   commit by another process drops every entry within one read's interval. If confirmations
///   stop without a failure, nothing is served past `lease` after the last one. Cognito itself
///   takes about 0.6 s to apply a GlobalSignOut.
/// - A change committed through this node's store drops them before the write returns
///   (``invalidate(_:)``, from the write's ``UserChanges``), so a client reads its own writes.
/// - A read that raced a change is not kept: an entry is kept only if nothing was invalidated
///   between the read's ``ticket()`` and its ``keep(_:for:ticket:now:)``.
/// - No entry is served after `lifetime`: the bound for a change made outside Cognate's
///   statements (by hand in SQL to a table without a trigger), which sends no notice.
/// - It holds at most `capacity` bytes by its own estimate of what it keeps (a user's record once,
///   however many of their token families are kept). A full cache drops the users whose entries
///   are all past `lifetime`, then others in no particular order, until a quarter of it is free;
///   this spoils no read in flight (dropping an entry makes nothing stale), and the users kept go
///   on being served.
final class UserReadCache: Sendable {
    typealias Value = (user: UserRecord, family: TokenFamilyStanding?)

    struct UserKey: Hashable, Sendable {
        var poolId: String
        var sub: String
    }

    /// Taken before a read; the read's result is kept only if no invalidation came after it.
    struct Ticket: Sendable {
        fileprivate let generation: UInt64
    }

    static let defaultLifetime: Duration = .seconds(60)
    /// Three heartbeats: one late or lost heartbeat does not turn the cache off.
    static let defaultLease: Duration = .seconds(3)
    /// 128 MiB: about 55,000 users of eight attributes, each with a token family and MFA settings
    /// (2.4 KB each, measured; the estimate errs a little low).
    static let defaultCapacity = 128 << 20

    private struct Entry<Kept> {
        var value: Kept
        var keptAt: ContinuousClock.Instant
    }

    /// What is kept of one user: the record as last read, the standing of each family by
    /// `origin_jti`, and the MFA settings (nil inside: the user has none). Everything in it is
    /// current, whenever it was read: any change to the user drops all of it.
    private struct UserEntries {
        var user: Entry<UserRecord>?
        var families: [String: Entry<TokenFamilyStanding?>] = [:]
        var mfa: Entry<UserMfaRecord?>?
        /// The estimate of what all of it takes.
        var bytes = 0

        /// When the most recent of these entries was kept.
        var lastKeptAt: ContinuousClock.Instant? {
            var latest = user?.keptAt
            if let mfa, latest.map({ $0 < mfa.keptAt }) ?? true { latest = mfa.keptAt }
            for entry in families.values where latest.map({ $0 < entry.keptAt }) ?? true { latest = entry.keptAt }
            return latest
        }

        /// Keeps a value, accounting for what it replaces.
        mutating func set<Kept>(_ path: WritableKeyPath<Self, Entry<Kept>?>, to entry: Entry<Kept>, size: (Kept) -> Int) {
            bytes += size(entry.value) - (self[keyPath: path].map { size($0.value) } ?? 0)
            self[keyPath: path] = entry
        }
    }

    private struct State {
        /// Every change committed before this instant has been applied; nil while notices
        /// may be missed (not listening).
        var confirmedUpTo: ContinuousClock.Instant?
        var listening: Bool { confirmedUpTo != nil }
        var generation: UInt64 = 0
        var users: [UserKey: UserEntries] = [:]
        /// Which user each cached family belongs to.
        var familyOwners: [String: UserKey] = [:]
        var bytes = 0

        /// Whether an entry kept at `keptAt` may be served at `now`: within `lease` of the latest
        /// confirmed instant, and within its `lifetime`.
        func serves(_ keptAt: ContinuousClock.Instant, now: ContinuousClock.Instant, lease: Duration, lifetime: Duration) -> Bool {
            guard let confirmedUpTo, confirmedUpTo.duration(to: now) < lease else { return false }
            return keptAt.duration(to: now) < lifetime
        }

        /// Whether the read of `ticket` may be kept (nothing invalidated since), making room for it.
        mutating func admits(_ ticket: Ticket, capacity: Int, now: ContinuousClock.Instant, lifetime: Duration) -> Bool {
            guard listening, generation == ticket.generation else { return false }
            if bytes >= capacity { makeRoom(capacity: capacity, now: now, lifetime: lifetime) }
            return true
        }

        /// Frees a quarter of `capacity` (one pass over the users per quarter filled, so each
        /// entry kept costs constant time): drops every user whose entries are past `lifetime`,
        /// then users in the dictionary's order (its hashing's, unrelated to their use) until
        /// enough is free. Bumps no generation: no read in flight is made stale by it.
        mutating func makeRoom(capacity: Int, now: ContinuousClock.Instant, lifetime: Duration) {
            var excess = bytes - (capacity - max(1, capacity / 4))
            var dropped: [UserKey] = []
            var kept: [UserKey] = []
            for (user, entries) in users {
                if let lastKeptAt = entries.lastKeptAt, lastKeptAt.duration(to: now) < lifetime {
                    kept.append(user)
                } else {
                    dropped.append(user)
                    excess -= entries.bytes
                }
            }
            for user in kept where excess > 0 {
                dropped.append(user)
                excess -= users[user]?.bytes ?? 0
            }
            for user in dropped { drop(user) }
        }

        mutating func removeAll() {
            generation &+= 1
            users.removeAll(keepingCapacity: true)
            familyOwners.removeAll(keepingCapacity: true)
            bytes = 0
        }

        /// Changes a user's entries, keeping the total of their estimates.
        mutating func update(_ user: UserKey, _ change: (inout UserEntries) -> Void) {
            let before = users[user]?.bytes ?? 0
            change(&users[user, default: UserEntries()])
            bytes += (users[user]?.bytes ?? 0) - before
        }

        /// Drops a user's entries because they may be stale: reads in flight are not kept.
        mutating func remove(_ user: UserKey) {
            generation &+= 1
            drop(user)
        }

        /// Drops a user's entries to make room.
        mutating func drop(_ user: UserKey) {
            guard let entries = users.removeValue(forKey: user) else { return }
            for originJti in entries.families.keys { familyOwners[originJti] = nil }
            bytes -= entries.bytes
        }
    }

    private let state = Mutex(State())
    let lifetime: Duration
    let lease: Duration
    let capacity: Int

    init(lifetime: Duration = defaultLifetime, lease: Duration = defaultLease, capacity: Int = defaultCapacity) {
        self.lifetime = lifetime
        self.lease = lease
        self.capacity = capacity
    }

    /// The cached user and family standing, if served now.
    func value(poolId: String, sub: String, originJti: String, now: ContinuousClock.Instant) -> Value? {
        state.withLock { state in
            guard let entries = state.users[UserKey(poolId: poolId, sub: sub)],
                let user = entries.user, let family = entries.families[originJti],
                state.serves(user.keptAt, now: now, lease: lease, lifetime: lifetime),
                state.serves(family.keptAt, now: now, lease: lease, lifetime: lifetime)
            else { return nil }
            return (user.value, family.value)
        }
    }

    /// The cached MFA settings of a user (`.some(nil)`: none), if served now.
    func mfa(poolId: String, sub: String, now: ContinuousClock.Instant) -> UserMfaRecord?? {
        state.withLock { state in
            guard let entry = state.users[UserKey(poolId: poolId, sub: sub)]?.mfa,
                state.serves(entry.keptAt, now: now, lease: lease, lifetime: lifetime)
            else { return nil }
            return .some(entry.value)
        }
    }

    /// A ticket for a read about to start; nil while notices do not arrive (nothing is kept).
    func ticket() -> Ticket? {
        state.withLock { $0.listening ? Ticket(generation: $0.generation) : nil }
    }

    /// Keeps what a read found, unless anything was invalidated since its ticket.
    func keep(_ value: Value, for originJti: String, ticket: Ticket, now: ContinuousClock.Instant) {
        let user = UserKey(poolId: value.user.poolId, sub: value.user.sub)
        state.withLock { state in
            guard state.admits(ticket, capacity: capacity, now: now, lifetime: lifetime) else { return }
            state.update(user) { entries in
                entries.set(\.user, to: Entry(value: value.user, keptAt: now), size: Size.of)
                entries.set(\.families[originJti], to: Entry(value: value.family, keptAt: now)) { _ in Size.family(originJti) }
            }
            state.familyOwners[originJti] = user
        }
    }

    /// Keeps the MFA settings a read found for a user (nil: none), unless anything was
    /// invalidated since its ticket.
    func keepMfa(_ record: UserMfaRecord?, poolId: String, sub: String, ticket: Ticket, now: ContinuousClock.Instant) {
        state.withLock { state in
            guard state.admits(ticket, capacity: capacity, now: now, lifetime: lifetime) else { return }
            state.update(UserKey(poolId: poolId, sub: sub)) { entries in
                entries.set(\.mfa, to: Entry(value: record, keptAt: now), size: Size.of)
            }
        }
    }

    /// Drops what `changes` may have made stale.
    func invalidate(_ changes: UserChanges.Changed) {
        state.withLock { state in
            switch changes {
            case .nothing: return
            case .everyone: state.removeAll()
            case .some(let users, let families):
                for user in users { state.remove(user) }
                for originJti in families {
                    if let owner = state.familyOwners[originJti] { state.remove(owner) } else { state.generation &+= 1 }
                }
            }
        }
    }

    /// A notice from the database: `payload` is "<pool id> <sub>" of a user whose row, attributes
    /// or token families changed; anything else drops every entry.
    func noticed(_ payload: String) {
        let parts = payload.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return invalidate(.everyone) }
        invalidate(.some(users: [UserKey(poolId: String(parts[0]), sub: String(parts[1]))], families: []))
    }

    /// Every change committed before `instant` has been applied, and notices arrive (a heartbeat
    /// sent at `instant` came back through the notices' queue after them): entries may be kept,
    /// and served until `lease` after the latest such instant. The first one after
    /// ``stopListening()`` (or ever) turns the cache on, empty.
    func confirm(upTo instant: ContinuousClock.Instant) {
        state.withLock { state in
            guard let confirmed = state.confirmedUpTo else {
                state.removeAll()
                state.confirmedUpTo = instant
                return
            }
            if confirmed < instant { state.confirmedUpTo = instant }
        }
    }

    /// Notices may be missed from now on: nothing is served or kept until a heartbeat comes back.
    func stopListening() {
        state.withLock { state in
            state.confirmedUpTo = nil
            state.removeAll()
        }
    }

    /// How long ago the latest confirmed instant was; nil while not listening.
    func unconfirmed(at now: ContinuousClock.Instant) -> Duration? {
        state.withLock { $0.confirmedUpTo?.duration(to: now) }
    }

    var isListening: Bool { state.withLock { $0.listening } }
    /// The estimate of what the entries take, in bytes.
    var bytes: Int { state.withLock { $0.bytes } }
    /// How many families' standings and users' MFA settings are kept.
    var count: Int { state.withLock { $0.users.values.reduce(0) { $0 + $1.families.count + ($1.mfa == nil ? 0 : 1) } } }
}

/// Estimates of what kept values take in memory: the bytes of their strings and arrays plus a
/// fixed allowance for each value's and each string's own storage and the dictionaries' slots.
private enum Size {
    static let perString = 32

    static func of(_ user: UserRecord) -> Int {
        var bytes = 384 + [user.poolId, user.sub, user.username, user.usernameKey].reduce(0) { $0 + text($1) }
        if let password = user.password { bytes += 64 + password.salt.count + password.verifier.count }
        for (name, value) in user.attributes { bytes += 32 + text(name) + text(value) }
        return bytes
    }

    static func of(_ mfa: UserMfaRecord?) -> Int {
        guard let mfa else { return 64 }
        return 128 + [mfa.poolId, mfa.userSub, mfa.totpSecret, mfa.pendingTotpSecret, mfa.totpName, mfa.preferred]
            .reduce(0) { $0 + ($1.map(text) ?? 0) }
    }

    /// A family's standing and its place in the owners' index.
    static func family(_ originJti: String) -> Int { 128 + 2 * text(originJti) }

    private static func text(_ string: String) -> Int { perString + string.utf8.count }
}
