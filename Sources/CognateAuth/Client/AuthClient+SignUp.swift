import CognateProtocol
import Foundation

extension AuthClient {
    /// Registers a user (`SignUp`).
    ///
    /// - Parameters:
    ///   - username: the sign-in name: a username, or the email / phone number in pools that
    ///     sign in with those.
    ///   - password: nil for a passwordless account, which signs in with one-time codes (and
    ///     passkeys it registers later): the pool must allow `EMAIL_OTP` or `SMS_OTP` as first
    ///     factors and verify the address given automatically, and the app client must allow
    ///     `ALLOW_USER_AUTH`.
    ///   - attributes: user attributes by name (`email`, `phone_number`, `custom:…`).
    ///   - validationData: passed to the pool's pre-sign-up Lambda trigger, not stored
    ///     (Amazon Cognito); not sent when empty.
    ///   - clientMetadata: passed to the pool's Lambda triggers (Amazon Cognito); not sent
    ///     when empty.
    /// - Returns: the new user's `sub` and whether a code must be confirmed (that code is
    ///   remembered as a ``PendingCode`` until confirmed). When the app client allows
    ///   `ALLOW_USER_AUTH`, the confirmation can sign the user in: see
    ///   ``confirmSignUp(username:code:clientMetadata:)``.
    /// - Throws: ``AuthError`` — typically `usernameExists`, `invalidPassword` (with the
    ///   policy's message), `invalidParameter` (a missing required attribute or bad format, or
    ///   no password where the pool needs one), `userLambdaValidation`.
    public func signUp(
        username: String, password: String? = nil, attributes: [String: String] = [:],
        validationData: [String: String] = [:], clientMetadata: [String: String] = [:]
    ) async throws -> SignUpResult {
        let response = try await channel.send(CognitoAPI.SignUp.self, SignUpRequest(
            clientId: configuration.clientId, secretHash: configuration.secretHash(for: username), username: username,
            password: password, userAttributes: Self.attributeList(attributes),
            validationData: validationData.isEmpty ? nil : Self.attributeList(validationData),
            clientMetadata: clientMetadata.nilIfEmpty))
        guard !response.userConfirmed else {
            // Confirmed at once (a pre-sign-up check): the session, when there is one, signs in.
            guard let session = response.session else { return SignUpResult(userSub: response.userSub, nextStep: .done) }
            confirmedSignUp = (username, session)
            return SignUpResult(userSub: response.userSub, nextStep: .completeAutoSignIn)
        }
        signUpSessions[username] = response.session
        let delivery = response.codeDeliveryDetails.map(CodeDelivery.init)
        await rememberCode(.signUp(username: username), delivery: delivery)
        return SignUpResult(userSub: response.userSub, nextStep: .confirmSignUp(delivery))
    }

    /// Confirms a sign-up with the code the user received (`ConfirmSignUp`), with the session
    /// of this client's ``signUp(username:password:attributes:validationData:clientMetadata:)``
    /// for the name, if it made one.
    /// - Returns: `.completeAutoSignIn` when the server returned a session that signs the user
    ///   in (the app client allows `ALLOW_USER_AUTH` and this client signed the user up):
    ///   ``autoSignIn(clientMetadata:)`` within minutes. `.done` otherwise: sign in.
    /// - Throws: ``AuthError`` — `codeMismatch`, `expiredCode` (send a new one with
    ///   ``resendSignUpCode(username:clientMetadata:)``), `notAuthorized` when the account is
    ///   already confirmed, `aliasExists`, `limitExceeded`.
    @discardableResult
    public func confirmSignUp(username: String, code: String, clientMetadata: [String: String] = [:]) async throws
        -> SignUpResult.NextStep
    {
        let response = try await channel.send(CognitoAPI.ConfirmSignUp.self, ConfirmSignUpRequest(
            clientId: configuration.clientId, secretHash: configuration.secretHash(for: username), username: username,
            confirmationCode: code, clientMetadata: clientMetadata.nilIfEmpty, session: signUpSessions[username]))
        signUpSessions[username] = nil
        await forgetCode(.signUp(username: username))
        guard let session = response.session else { return .done }
        confirmedSignUp = (username, session)
        return .completeAutoSignIn
    }

    /// Sends a new sign-up code; earlier codes stop working (`ResendConfirmationCode`).
    /// - Returns: where it went (nil if the server did not say).
    @discardableResult
    public func resendSignUpCode(username: String, clientMetadata: [String: String] = [:]) async throws -> CodeDelivery? {
        let response = try await channel.send(CognitoAPI.ResendConfirmationCode.self, ResendConfirmationCodeRequest(
            clientId: configuration.clientId, secretHash: configuration.secretHash(for: username), username: username,
            clientMetadata: clientMetadata.nilIfEmpty))
        let delivery = response.codeDeliveryDetails.map(CodeDelivery.init)
        await rememberCode(.signUp(username: username), delivery: delivery)
        return delivery
    }

    /// Attributes as the wire sends them, in name order.
    static func attributeList(_ attributes: [String: String]) -> [AttributeType] {
        attributes.sorted { $0.key < $1.key }.map { AttributeType(name: $0.key, value: $0.value) }
    }
}
