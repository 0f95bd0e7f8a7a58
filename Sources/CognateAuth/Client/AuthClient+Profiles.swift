import CognateProtocol
import Foundation

extension AuthClient {
    /// Makes this client continue in the profile that already holds the user `sub`, if another
    /// profile of the store does (the same account signed in, or registering, under another
    /// profile name — say an app's "add account" screen used for an account already on the
    /// device). Then what this client's profile holds is written over that profile (a field
    /// this one lacks keeps the other's value; pending codes are merged), this profile is
    /// removed, and ``profile`` names the other one. One account, one profile.
    ///
    /// Called before a sign-in stores its tokens, after ``evictAnotherUser(than:)`` (so what is
    /// moved is this user's alone). A profile that cannot be read is skipped.
    func adoptStoredProfile(ofUser sub: String) async throws {
        let store = configuration.tokenStore
        for name in try await storedProfileNames() where name != profile {
            guard let existing = try? await store.load(profile: name), existing.belongs(toUser: sub) else { continue }
            let current = try await loadRecord()
            var merged = ProfileRecord(
                tokens: current.tokens ?? existing.tokens, registration: current.registration ?? existing.registration,
                pendingCodes: existing.pendingCodes, device: current.device ?? existing.device,
                // The user's own identity wins over this profile's guest identity.
                identity: existing.identity?.userId == sub ? existing.identity : current.identity ?? existing.identity)
            for code in current.pendingCodes { merged.remember(code) }
            // Write the surviving profile before removing this one: a crash in between leaves
            // a duplicate, never a loss.
            try await write(merged, to: name)
            try await write(ProfileRecord(), to: profile)
            profile = name
            publishDerived(from: merged)
            return
        }
    }

    /// Called when `user` has just signed in on this profile, before anything of theirs is
    /// stored: when the profile holds another user's data (their tokens, registration, device
    /// and PIN, codes, identity-pool identity), that user's refresh token is revoked
    /// (`RevokeToken`, best effort), the AWS credentials in memory are dropped, and the whole
    /// record is wiped, so that one profile never holds two people's data. The other
    /// user's device stays known to the server until it is forgotten there; their PIN no longer
    /// works on this device (its key is gone).
    func evictAnotherUser(than user: AuthUser) async throws {
        let record = try await loadRecord()
        guard record.holdsAnotherUser(than: user) else { return }
        if let tokens = record.tokens, tokens.user.userId != user.userId {
            _ = try? await channel.send(CognitoAPI.RevokeToken.self, RevokeTokenRequest(
                token: tokens.refreshToken, clientId: configuration.clientId, clientSecret: configuration.clientSecret))
        }
        await identityPool?.forget()
        try await write(ProfileRecord(), to: profile)
    }

    /// The names of the store's profiles (a failure to list them is `AuthError.storage`).
    func storedProfileNames() async throws -> [String] {
        do {
            return try await configuration.tokenStore.profiles()
        } catch {
            throw AuthError.storage(error)
        }
    }
}
