import Crypto
import Foundation

/// A hosted sign-in this browser completed: what `/passkeys/add` takes as proof that the
/// person at the browser is the user (``RecentSignIns``), and what a single sign-on session
/// carries (``HostedSessions``).
struct RecentSignIn: Codable, Sendable, Equatable {
    var poolId: String
    var sub: String
    /// The sign-in's token family: a sign-out or an administrator's revocation ends the proof too.
    var originJti: String
    /// When the user signed in (epoch seconds).
    var authTime: Double
    /// The ``BrowserBinding`` digest of the browser it was issued to.
    var binding: String
    /// For a sign-in through a SAML provider with single logout: whom `/logout` signs out there.
    var saml: SAMLSessionReference? = nil
    /// The identity provider the user signed in through; nil: the pool's own sign-in (`COGNITO`).
    var provider: String? = nil
}

extension RecentSignIn {
    /// The hosted sign-in of the token family `originJti` in the browser with the binding
    /// digest `binding`; nil without a binding or when the family is gone.
    static func of(family originJti: String, pool: PoolRecord, binding: String?, in store: any Store) async throws
        -> RecentSignIn?
    {
        guard let binding, let family = try await store.read({ try await $0.tokenFamily(originJti: originJti) }) else {
            return nil
        }
        return RecentSignIn(
            poolId: pool.id, sub: family.userSub, originJti: originJti, authTime: family.authTime.timeIntervalSince1970,
            binding: binding)
    }
}

/// Proofs of a recent sign-in, carried by the browser that signed in (an `HttpOnly` cookie)
/// instead of the store: sealed (``Sealer``) until ``lifetime`` after the sign-in.
///
/// Contract: a proof opens only in the browser it was issued to (its ``BrowserBinding`` cookie
/// must come with it), only within ``lifetime`` of the sign-in, and speaks only for the pool and
/// the user it names; whoever uses it must still check that the sign-in's token family stands
/// (``AccessTokenAuthenticator/signedInUser(sub:originJti:authTime:pool:client:)``). Nothing is
/// stored; a proof cannot be withdrawn but by the family's revocation or its expiry.
struct RecentSignIns: Sendable {
    let sealer: Sealer
    /// As long as a sign-in may be old for its user to add a passkey on the hosted pages (the
    /// limit the pool tag `cognate:PasskeyRegistrationNeedsRecentSignIn` sets for the API).
    static let lifetime = Passkeys.recentSignInLimit

    init(serverKey: SymmetricKey) {
        sealer = Sealer(serverKey: serverKey, purpose: "hosted-recent-sign-in")
    }

    func seal(_ proof: RecentSignIn) throws -> String {
        try sealer.seal(proof, expires: Date(timeIntervalSince1970: proof.authTime) + Self.lifetime)
    }

    /// The proof `sealed` carries, if this server sealed it for `browser` and it has not expired.
    func open(_ sealed: String?, browser: BrowserBinding, now: Date) -> RecentSignIn? {
        guard let sealed, sealed.utf8.count <= 2048,
            let proof = sealer.open(Substring(sealed), as: RecentSignIn.self, now: now), browser.matches(proof.binding)
        else { return nil }
        return proof
    }
}
