import CognateProtocol
import Foundation

extension TokenFamilies {
    /// Refresh token rotation, for a client with RefreshTokenRotation enabled: a new refresh
    /// token replaces `presented` in its family, which stays valid for the client's
    /// RetryGracePeriodSeconds (0–60) so a lost answer can be retried; after that only the new
    /// one works. Nil for a client without rotation (the refresh token stays). Every way of
    /// refreshing (GetTokensFromRefreshToken, the token endpoint) rotates alike, so a stolen
    /// refresh token is never used quietly alongside the user's.
    func rotateRefreshToken(_ presented: String, of family: TokenFamilyRecord, client: ClientRecord) async throws -> String? {
        guard let rotation = client.settings.refreshTokenRotation, rotation.feature == .enabled else { return nil }
        let next = Base64URL.encode(random.bytes(48))
        let grace = TimeInterval(min(max(rotation.retryGracePeriodSeconds ?? 0, 0), 60))
        let until = time.now + grace
        let swapped = try await store.write { transaction in
            try await transaction.rotateRefreshToken(
                originJti: family.originJti, presentedHash: RefreshTokens.hash(presented),
                newHash: RefreshTokens.hash(next), previousValidUntil: until)
        }
        guard swapped else { throw CognitoError.invalidRefreshToken }
        return next
    }
}
