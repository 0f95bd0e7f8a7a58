import CognateProtocol
import Foundation

extension AuthClient {
    /// Sends a password-reset code (`ForgotPassword`), remembered as a ``PendingCode`` until
    /// ``confirmForgotPassword(username:code:newPassword:clientMetadata:)`` accepts it.
    /// - Returns: where it went (nil if the server did not say).
    /// - Throws: ``AuthError`` — `userNotFound`, `invalidParameter` (no verified email or
    ///   phone to send to), `limitExceeded`.
    @discardableResult
    public func forgotPassword(username: String, clientMetadata: [String: String] = [:]) async throws -> CodeDelivery? {
        let response = try await channel.send(CognitoAPI.ForgotPassword.self, ForgotPasswordRequest(
            clientId: configuration.clientId, secretHash: configuration.secretHash(for: username), username: username,
            clientMetadata: clientMetadata.nilIfEmpty))
        let delivery = response.codeDeliveryDetails.map(CodeDelivery.init)
        await rememberCode(.passwordReset(username: username), delivery: delivery)
        return delivery
    }

    /// Sets a new password with the reset code (`ConfirmForgotPassword`). Sign in afterwards.
    /// - Throws: ``AuthError`` — `codeMismatch`, `expiredCode`, `invalidPassword`,
    ///   `passwordHistoryPolicyViolation`.
    public func confirmForgotPassword(
        username: String, code: String, newPassword: String, clientMetadata: [String: String] = [:]
    ) async throws {
        _ = try await channel.send(CognitoAPI.ConfirmForgotPassword.self, ConfirmForgotPasswordRequest(
            clientId: configuration.clientId, secretHash: configuration.secretHash(for: username), username: username,
            confirmationCode: code, password: newPassword, clientMetadata: clientMetadata.nilIfEmpty))
        await forgetCode(.passwordReset(username: username))
    }

    /// Changes the signed-in user's password (`ChangePassword`).
    /// - Throws: ``AuthError`` — `notAuthorized` ("Incorrect username or password.") for a
    ///   wrong old password, `invalidPassword`, `limitExceeded`, `notSignedIn`, `sessionExpired`.
    public func changePassword(old: String, new: String) async throws {
        try await withAccessToken { accessToken in
            _ = try await channel.send(CognitoAPI.ChangePassword.self, ChangePasswordRequest(
                previousPassword: old, proposedPassword: new, accessToken: accessToken))
        }
    }
}
