import CognateProtocol
import Foundation

extension SignInCompletion {
    /// A right password (or SRP proof) settled without the user's lock, by one conditional
    /// insert: the common sign-in, where nothing but tokens can follow and there is no failure
    /// count to clear. `user` and
    /// `standing` were read together before the verdict (`findUserForSignIn`); the new token
    /// family is stored only if the user's row is still as read and no failure record has
    /// appeared (`insertTokenFamily(_:ifSignInStands:)`), so the outcome is the one the locked
    /// path (`settlePasswordCheck`) would give, ordered before any attempt or change the
    /// statement did not see.
    ///
    /// Only for a sign-in ``maySettleWithoutLock(_:standing:pool:now:)`` allows. `session`: a
    /// challenge session the sign-in uses up (SRP's SECRET_BLOCK), in the same statement, before
    /// the family; it is used up whether or not the family is stored, and one already used up
    /// (a concurrent answer) is an invalid session.
    ///
    /// Nil when the user's row changed since it was read (then only the session was used up):
    /// the sign-in needs the locked path.
    func signInWithoutLock(_ user: UserRecord, standing: SignInStanding, pool: PoolRecord, client: ClientRecord,
                           usingUp session: AuthSessionRecord? = nil) async throws -> FirstFactorResult?
    {
        let (family, refreshToken) = tokenFamilies.newTokenFamily(of: user, client: client, deviceKey: nil)
        let stored: Bool
        if let session {
            let outcome = try await store.insertTokenFamily(family, ifSignInStands: user, usingUpSession: session.tokenHash)
            guard outcome.usedUp else { throw AuthSessions.invalid }
            stored = outcome.stored
        } else {
            stored = try await store.insertTokenFamily(family, ifSignInStands: user)
        }
        guard stored else { return nil }
        return .tokens(family, refreshToken: refreshToken, user: user, groups: standing.groups, newDevice: nil)
    }

    /// Whether a right password of `user`, read with `standing`, can be settled without the
    /// lock (``signInWithoutLock(_:standing:pool:client:usingUp:)``): nothing to do under the
    /// lock (no failure record to check and clear, a user with a password, a pool that does not
    /// screen sign-ins) and nothing but tokens to follow, by the same decision the locked path
    /// takes (``FirstFactorStep``), with no device to track.
    static func maySettleWithoutLock(_ user: UserRecord, standing: SignInStanding, pool: PoolRecord, now: Date) -> Bool {
        guard standing.lockout == nil, user.password != nil, pool.threatProtection == .off else { return false }
        let step = FirstFactorStep.after(
            user, pool: pool, device: nil, deviceProved: false, askingForMfa: true, risk: nil, now: now)
        return step == .tokens(tracksNewDevice: false)
    }
}
