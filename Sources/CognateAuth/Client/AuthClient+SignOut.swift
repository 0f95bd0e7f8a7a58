import CognateProtocol
import Foundation

extension AuthClient {
    /// Signs out of this profile.
    ///
    /// - Parameter globally: `true` ends every session of the user on every device
    ///   (`GlobalSignOut`); `false` ends only this one (`RevokeToken` on its refresh token).
    /// - Returns: whether the server was told. The local part — removing this profile's tokens
    ///   and registration progress — always happens, and the state becomes ``AuthState/signedOut``.
    ///   A registered device stays (see ``forgetDevice()``).
    /// - Throws: ``AuthError/storage(_:)`` when the store cannot remove the profile;
    ///   `CancellationError` when the task was cancelled before the server answered (the local
    ///   part has happened all the same).
    @discardableResult
    public func signOut(globally: Bool = false) async throws -> SignOutResult {
        var outcome = SignOutResult.complete
        var cancelled = false
        if let tokens = (try? await loadRecord())?.tokens {
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
            } catch AuthError.sessionExpired {
                // The server had already ended the session.
            } catch let error as AuthError {
                outcome = .localOnly(error)
            } catch is CancellationError {
                cancelled = true
            } catch {
                outcome = .localOnly(.network(error))
            }
        }
        try await clearProfile(keepingDevice: true)
        if cancelled { throw CancellationError() }
        return outcome
    }

    /// Deletes the signed-in user's account (`DeleteUser`) and this profile's local data.
    public func deleteUser() async throws {
        try await withAccessToken { accessToken in
            _ = try await channel.send(CognitoAPI.DeleteUser.self, DeleteUserRequest(accessToken: accessToken))
        }
        try await clearProfile()
    }
}
