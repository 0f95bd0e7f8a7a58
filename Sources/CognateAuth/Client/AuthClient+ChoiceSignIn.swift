import CognateProtocol
import Foundation

extension AuthClient {
    /// Signs a user in by a first factor of their choice (Cognito's choice-based sign-in,
    /// `USER_AUTH`; the app client must allow `ALLOW_USER_AUTH`): the password, a one-time code
    /// by email or SMS, or a passkey — whichever the pool allows and the user can use.
    ///
    /// - Parameters:
    ///   - preferred: the factor to begin with when the user is offered it (nil: let the user
    ///     choose). A passwordless factor begins at once (`.otpCode`, `.passkeyRequired`); a
    ///     password factor is asked for (`.passwordRequired`). A factor the user is not offered
    ///     leads to `.firstFactorSelection` with the factors they are.
    /// - Returns: the step to answer — ``SignInStep/firstFactorSelection(_:)``,
    ///   ``SignInStep/passwordRequired``, ``SignInStep/otpCode(_:)``,
    ///   ``SignInStep/passkeyRequired(_:)`` — or `.signedIn`; after the password, the MFA,
    ///   new-password and device steps of ``signIn(username:password:flow:clientMetadata:)``.
    /// - Throws: ``AuthError`` — `invalidParameter` when the app client does not allow
    ///   `USER_AUTH`, `userNotFound`, `notAuthorized` (a user who can use no factor).
    public func signIn(
        username: String, preferred: FirstFactor? = nil, clientMetadata: [String: String] = [:]
    ) async throws -> SignInStep {
        try await startSignIn(username: username, firstFactor: true, choosing: preferred) {
            var parameters = ["USERNAME": username].merging(await deviceKeyParameter(forSignInName: username)) { $1 }
            // A password factor named up front must carry the password: ask for it first.
            if let preferred, !preferred.isPassword { parameters["PREFERRED_CHALLENGE"] = preferred.rawValue }
            return AuthResponse(try await channel.send(CognitoAPI.InitiateAuth.self, InitiateAuthRequest(
                authFlow: .userAuth, authParameters: withSecretHash(parameters, username: username),
                clientMetadata: clientMetadata.nilIfEmpty, clientId: configuration.clientId)))
        }
    }

    /// Chooses the first factor of a ``SignInStep/firstFactorSelection(_:)``. A code is sent
    /// (``SignInStep/otpCode(_:)``), a passkey asked for (``SignInStep/passkeyRequired(_:)``),
    /// or — for a password factor, without a request — the password
    /// (``SignInStep/passwordRequired``). The selection is answered once: a failure after it
    /// was sent ends the sign-in.
    /// - Throws: ``AuthError`` — `factorNotOffered` (the selection stays: choose another),
    ///   `invalidState` without a pending selection, `codeDeliveryFailure`.
    public func confirmSignIn(firstFactor: FirstFactor, clientMetadata: [String: String] = [:]) async throws -> SignInStep {
        var pending = try requireSelection(of: firstFactor)
        if firstFactor.isPassword {
            pending.chosenFactor = firstFactor
            pendingChallenge = pending
            return .passwordRequired
        }
        pendingChallenge = nil
        return try await accountSteps(username: pending.signInName ?? pending.username) {
            try await answer(
                pending, ["USERNAME": pending.username, "ANSWER": firstFactor.rawValue], clientMetadata: clientMetadata,
                firstFactor: true)
        }
    }

    /// Answers ``SignInStep/passwordRequired`` (or a ``SignInStep/firstFactorSelection(_:)``
    /// that offers the password) with the password: proved by SRP (`PASSWORD_SRP`) unless the
    /// user chose `.password`, or only that is offered. MFA may follow, as after
    /// ``signIn(username:password:flow:clientMetadata:)``.
    /// - Throws: ``AuthError`` — `notAuthorized` for a wrong password (the sign-in ends: start
    ///   again), `factorNotOffered` when the user has no password, `invalidState` without a
    ///   pending selection.
    public func confirmSignIn(password: String, clientMetadata: [String: String] = [:]) async throws -> SignInStep {
        let selection = try requirePending(ChallengeNameType.selectChallenge.rawValue)
        let offered = selection.offeredFactors
        let factor = selection.chosenFactor ?? (offered.contains(.passwordSRP) ? .passwordSRP : .password)
        let pending = try requireSelection(of: factor)
        pendingChallenge = nil
        return try await accountSteps(username: pending.signInName ?? pending.username) {
            var responses = ["USERNAME": pending.username, "ANSWER": factor.rawValue]
            guard factor == .passwordSRP else {
                responses["PASSWORD"] = password
                return try await answer(pending, responses, clientMetadata: clientMetadata)
            }
            let srp = try await OffActor.run { SRPClient() }
            responses["SRP_A"] = srp.publicValueHex
            let started = try await respond(pending, responses, clientMetadata: clientMetadata)
            let answered = try await answerPasswordVerifier(
                started, srp: srp, password: password, device: await deviceKeyParameter(forSignInName: pending.signInName ?? pending.username), clientMetadata: clientMetadata)
            return try await nextStep(after: answered, username: pending.username, signInName: pending.signInName)
        }
    }

    /// Answers ``SignInStep/otpCode(_:)`` with the code the user received.
    /// - Throws: ``AuthError`` — `codeMismatch` (the code stays pending: try again; too many
    ///   wrong codes end the sign-in with `notAuthorized`), `invalidState` without a pending code.
    public func confirmSignIn(otpCode: String, clientMetadata: [String: String] = [:]) async throws -> SignInStep {
        let codeChallenges = [ChallengeNameType.emailOtp.rawValue, ChallengeNameType.smsOtp.rawValue]
        guard let pending = pendingChallenge, codeChallenges.contains(pending.challengeName) else {
            throw AuthError.invalidState("No one-time code is pending: sign in first.")
        }
        let field = pending.challengeName == ChallengeNameType.smsOtp.rawValue ? "SMS_OTP_CODE" : "EMAIL_OTP_CODE"
        return try await answer(pending, ["USERNAME": pending.username, field: otpCode], clientMetadata: clientMetadata)
    }

    /// Answers ``SignInStep/passkeyRequired(_:)``: the authenticator signs the server's
    /// challenge with one of the user's passkeys, and the server checks the signature. The
    /// challenge is answered once: a refused passkey ends the sign-in.
    /// - Throws: ``AuthError`` — `authenticator` when the authenticator produced no passkey
    ///   signature (the user cancelled: the challenge stays pending, try again or start over),
    ///   `notAuthorized` when the server refuses it, `invalidState` without a pending passkey
    ///   challenge.
    public func confirmSignIn(passkey authenticator: any PasskeyAuthenticator, clientMetadata: [String: String] = [:])
        async throws -> SignInStep
    {
        let pending = try requirePending(ChallengeNameType.webAuthn.rawValue)
        guard let options = pending.parameters["CREDENTIAL_REQUEST_OPTIONS"] else {
            throw AuthError.invalidState("The pending passkey challenge has no request options.")
        }
        let credential = try await Self.ceremony { try await authenticator.assertPasskey(optionsJSON: options) }
        pendingChallenge = nil
        return try await answer(pending, ["USERNAME": pending.username, "CREDENTIAL": credential], clientMetadata: clientMetadata)
    }

    /// Signs in the user whose sign-up was just confirmed, without another factor (the
    /// confirmation code proved the address): after ``confirmSignUp(username:code:clientMetadata:)``
    /// (or ``signUp(username:password:attributes:validationData:clientMetadata:)``) returned
    /// ``SignUpResult/NextStep/completeAutoSignIn``. InitiateAuth `USER_AUTH` with the session
    /// ConfirmSignUp returned; it signs in once, within minutes.
    /// - Throws: ``AuthError`` — `invalidState` when no confirmed sign-up waits (sign in
    ///   instead), `notAuthorized` when its session expired.
    public func autoSignIn(clientMetadata: [String: String] = [:]) async throws -> SignInStep {
        guard let confirmed = confirmedSignUp else {
            throw AuthError.invalidState("No confirmed sign-up waits to sign in: sign in instead.")
        }
        confirmedSignUp = nil
        return try await startSignIn(username: confirmed.username, firstFactor: true) {
            let parameters = ["USERNAME": confirmed.username]
                .merging(await deviceKeyParameter(forSignInName: confirmed.username)) { $1 }
            return AuthResponse(try await channel.send(CognitoAPI.InitiateAuth.self, InitiateAuthRequest(
                authFlow: .userAuth, authParameters: withSecretHash(parameters, username: confirmed.username),
                clientMetadata: clientMetadata.nilIfEmpty, clientId: configuration.clientId, session: confirmed.session)))
        }
    }

    /// The first factors the signed-in user can sign in with (`GetUserAuthFactors`); the
    /// password appears once, as `.password`.
    public func fetchAuthFactors() async throws -> [FirstFactor] {
        let response = try await withAccessToken { accessToken in
            try await channel.send(CognitoAPI.GetUserAuthFactors.self, GetUserAuthFactorsRequest(accessToken: accessToken))
        }
        return (response.configuredUserAuthFactors ?? []).compactMap(FirstFactor.init(authFactor:))
    }

    /// The pending SELECT_CHALLENGE, when it offers `factor`.
    private func requireSelection(of factor: FirstFactor) throws -> ChallengeSession {
        let pending = try requirePending(ChallengeNameType.selectChallenge.rawValue)
        guard pending.offeredFactors.contains(factor) else {
            throw AuthError.factorNotOffered(factor, offered: pending.offeredFactors)
        }
        return pending
    }

    /// Runs an authenticator's ceremony: its failures become ``AuthError/authenticator(_:)``
    /// (a cancelled task stays `CancellationError`).
    static func ceremony(_ body: () async throws -> String) async throws -> String {
        do {
            return try await body()
        } catch let error as AuthError {
            throw error
        } catch {
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            throw AuthError.authenticator(error)
        }
    }
}
