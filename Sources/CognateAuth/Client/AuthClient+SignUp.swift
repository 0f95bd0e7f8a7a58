import CognateProtocol
import Foundation

extension AuthClient {
    /// Registers a user (`SignUp`).
    ///
    /// - Parameters:
    ///   - username: the sign-in name: a username, or the email / phone number in pools that
    ///     sign in with those.
    ///   - attributes: user attributes by name (`email`, `phone_number`, `custom:…`).
    /// - Returns: the new user's `sub` and whether a code must be confirmed.
    /// - Throws: ``AuthError`` — typically `usernameExists`, `invalidPassword` (with the
    ///   policy's message), `invalidParameter` (a missing required attribute or bad format),
    ///   `userLambdaValidation`.
    public func signUp(username: String, password: String, attributes: [String: String] = [:]) async throws
        -> SignUpResult
    {
        let response = try await channel.send(CognitoAPI.SignUp.self, SignUpRequest(
            clientId: configuration.clientId, secretHash: configuration.secretHash(for: username), username: username,
            password: password, userAttributes: Self.attributeList(attributes)))
        let next: SignUpResult.NextStep =
            response.userConfirmed ? .done : .confirmSignUp(response.codeDeliveryDetails.map(CodeDelivery.init))
        return SignUpResult(userSub: response.userSub, nextStep: next)
    }

    /// Confirms a sign-up with the code the user received (`ConfirmSignUp`). Sign in afterwards.
    /// - Throws: ``AuthError`` — `codeMismatch`, `expiredCode` (send a new one with
    ///   ``resendSignUpCode(username:)``), `notAuthorized` when the account is already
    ///   confirmed, `aliasExists`, `limitExceeded`.
    public func confirmSignUp(username: String, code: String) async throws {
        _ = try await channel.send(CognitoAPI.ConfirmSignUp.self, ConfirmSignUpRequest(
            clientId: configuration.clientId, secretHash: configuration.secretHash(for: username), username: username,
            confirmationCode: code))
    }

    /// Sends a new sign-up code; earlier codes stop working (`ResendConfirmationCode`).
    /// - Returns: where it went (nil if the server did not say).
    @discardableResult
    public func resendSignUpCode(username: String) async throws -> CodeDelivery? {
        let response = try await channel.send(CognitoAPI.ResendConfirmationCode.self, ResendConfirmationCodeRequest(
            clientId: configuration.clientId, secretHash: configuration.secretHash(for: username), username: username))
        return response.codeDeliveryDetails.map(CodeDelivery.init)
    }

    /// Attributes as the wire sends them, in name order.
    static func attributeList(_ attributes: [String: String]) -> [AttributeType] {
        attributes.sorted { $0.key < $1.key }.map { AttributeType(name: $0.key, value: $0.value) }
    }
}
