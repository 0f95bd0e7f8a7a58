import Foundation

/// Access tokens this node has already verified, so a token presented again — apps call with
/// the same access token for its whole hour — costs a lookup instead of parsing, JSON decoding
/// and an RSA verification.
///
/// Contract: holds only tokens whose signature verified, with their claims; an entry answers
/// only for the identical token (compared whole, signature included); expiry is checked at
/// every use, by the caller, from the claims; every entry is dropped when any signing key
/// changes (a retired key must stop its tokens at once), and a token verified with keys read
/// before that (a request in flight then) is not added after it: the caller reads
/// ``generation`` before it reads the keys and hands it to ``insert``; revocation is not cached
/// (the caller checks the token family in the store each time). At most `capacity` entries:
/// when full, every expired entry goes, and if that frees too little, the whole cache.
final class VerifiedTokenCache: @unchecked Sendable {
    private struct Entry {
        let token: String
        let claims: AccessTokenClaims
    }

    let capacity: Int
    private let lock = NSLock()
    private var entries: [Substring: Entry] = [:]
    private var removals = 0

    init(capacity: Int = 10_000) { self.capacity = capacity }

    /// The claims of `token` if it verified before.
    func claims(of token: String) -> AccessTokenClaims? {
        guard let key = Self.key(token) else { return nil }
        return lock.withLock {
            guard let entry = entries[key], entry.token == token else { return nil }
            return entry.claims
        }
    }

    /// Changes with every ``removeAll()``.
    var generation: Int { lock.withLock { removals } }

    /// Adds `token`, verified with keys read after `generation` was; nothing if the cache was
    /// emptied since.
    func insert(_ token: String, claims: AccessTokenClaims, now: Date, generation: Int) {
        guard let key = Self.key(token) else { return }
        lock.withLock {
            guard generation == removals else { return }
            if entries.count >= capacity {
                entries = entries.filter { now.timeIntervalSince1970 < $0.value.claims.expiresAt }
                if entries.count >= capacity / 2 { entries.removeAll(keepingCapacity: true) }
            }
            entries[key] = Entry(token: token, claims: claims)
        }
    }

    func removeAll() {
        lock.withLock {
            entries.removeAll()
            removals += 1
        }
    }

    /// The signature segment: different for every token a key signed.
    private static func key(_ token: String) -> Substring? {
        guard let dot = token.utf8.lastIndex(of: UInt8(ascii: ".")) else { return nil }
        return token[token.index(after: dot)...]
    }
}
