import CognateProtocol
import Foundation

extension AuthClient {
    /// Signs out of this profile.
    ///
    /// - Parameter globally: `true` ends every session of the user on every device
    ///   (`GlobalSignOut`); `false` ends only this one (`RevokeToken` on its refresh token).
    /// - Returns: whether the server was told. `.complete` only when it answered (or there
    ///   was nothing to end); `.localOnly(error)` when it could not be told — unreachable, or
    ///   (globally) a refused refresh, which ends this session but not the user's others. The
    ///   local part — removing this profile's tokens and registration progress — happens
    ///   either way once the store was read, and the state becomes ``AuthState/signedOut``.
    ///   A registered device stays (see ``forgetDevice()``).
    /// - Throws: ``AuthError/storage(_:)`` when the store cannot be read (a cancelled
    ///   biometry prompt, a locked device): then nothing was sent and nothing removed — the
    ///   tokens to revoke and the device to keep are unknown; try again once it can be read.
    ///   Also when it cannot remove the profile. `CancellationError` when the task was
    ///   cancelled before the server answered (the local part has happened all the same).
    @discardableResult
    public func signOut(globally: Bool = false) async throws -> SignOutResult {
        let record = try await loadRecord()
        var outcome = SignOutResult.complete
        var cancelled = false
        if let tokens = record.tokens {
            do {
                if globally {
                    try await withAccessToken { accessToken in
                        _ = try await channel.send(CognitoAPI.GlobalSignOut.self, GlobalSignOutRequest(accessToken: accessToken))
                    }
                } else {
                    _ = try await channel.send(CognitoAPI.RevokeToken.self, RevokeTokenRequest(
                        token: tokens.refreshToken, clientId: configuration.clientId,
                        clientSecret: configuration.clientSecret))
                }
            } catch {
                (outcome, cancelled) = Self.serverOutcome(of: error, outcome)
            }
        }
        try await clearProfile(keepingDevice: true)
        if cancelled { throw CancellationError() }
        return outcome
    }

    /// What a failed server call makes of a sign-out's outcome: the first failure is the one
    /// reported (`localOnly`), a refused refresh included (the server did not do what was
    /// asked: it was never asked); cancellation is reported apart.
    static func serverOutcome(of error: any Error, _ outcome: SignOutResult) -> (SignOutResult, cancelled: Bool) {
        if case .localOnly = outcome { return (outcome, error is CancellationError) }
        switch error {
        case is CancellationError: return (outcome, true)
        case let error as AuthError: return (.localOnly(error), false)
        default: return (.localOnly(.network(error)), false)
        }
    }

    /// Deletes the signed-in user's account (`DeleteUser`) and this profile's local data.
    public func deleteUser() async throws {
        try await withAccessToken { accessToken in
            _ = try await channel.send(CognitoAPI.DeleteUser.self, DeleteUserRequest(accessToken: accessToken))
        }
        try await clearProfile()
    }
}
