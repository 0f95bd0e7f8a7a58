import CognateProtocol
import Foundation

extension AuthClient {
    /// Signs a user in.
    ///
    /// - Parameters:
    ///   - flow: `.srp` (default) proves the password without sending it; `.password` sends it
    ///     (the app client must allow `USER_PASSWORD_AUTH`).
    ///   - clientMetadata: passed to the pool's Lambda triggers that receive it (Amazon
    ///     Cognito); not sent when empty.
    /// - Returns: `.signedIn` (tokens stored), or what the user must do next. An unconfirmed
    ///   account and a required password reset are steps, not errors (their codes are
    ///   remembered as ``PendingCode``s).
    /// - Throws: ``AuthError`` — `notAuthorized` (wrong password, disabled user, lockout:
    ///   see the message), `userNotFound`, `userLambdaValidation`, `network`.
    public func signIn(
        username: String, password: String, flow: SignInFlow = .srp, clientMetadata: [String: String] = [:]
    ) async throws -> SignInStep {
        try await startSignIn(username: username) {
            switch flow {
            case .srp:
                return try await srpExchange(username: username, password: password, clientMetadata: clientMetadata)
            case .password:
                let parameters = ["USERNAME": username, "PASSWORD": password]
                    .merging(await deviceKeyParameter(forSignInName: username)) { $1 }
                return AuthResponse(try await channel.send(CognitoAPI.InitiateAuth.self, InitiateAuthRequest(
                    authFlow: .userPasswordAuth, authParameters: withSecretHash(parameters, username: username),
                    clientMetadata: clientMetadata.nilIfEmpty, clientId: configuration.clientId)))
            }
        }
    }

    /// Signs a user in through the pool's own challenges (`CUSTOM_AUTH`, decided by its
    /// DefineAuthChallenge function): answer each ``SignInStep/customChallenge(parameters:session:)``
    /// with ``confirmSignIn(challengeResponse:clientMetadata:)``.
    ///
    /// - Parameter password: when given, the password is proved first (by SRP, never sent:
    ///   Cognito's `CHALLENGE_NAME=SRP_A`, Amplify's custom-with-SRP); nil for passwordless
    ///   flows. The app client must allow `ALLOW_CUSTOM_AUTH`.
    /// - Throws: as ``signIn(username:password:flow:clientMetadata:)``; `invalidParameter` when
    ///   the pool has no custom-auth functions.
    public func signInWithCustomChallenge(
        username: String, password: String? = nil, clientMetadata: [String: String] = [:]
    ) async throws -> SignInStep {
        try await startSignIn(username: username) {
            if let password {
                return try await srpExchange(
                    username: username, password: password, clientMetadata: clientMetadata, customAuth: true)
            }
            return AuthResponse(try await channel.send(CognitoAPI.InitiateAuth.self, InitiateAuthRequest(
                authFlow: .customAuth, authParameters: withSecretHash(["USERNAME": username], username: username),
                clientMetadata: clientMetadata.nilIfEmpty, clientId: configuration.clientId)))
        }
    }

    /// The first request of a sign-in, and the step it leads to: an unconfirmed account and a
    /// required password reset are steps, their codes remembered. `firstFactor`: the sign-in is
    /// choice-based (USER_AUTH), so a code challenge is its first factor, not MFA; `choosing`: a
    /// password factor the user prefers, asked for (``SignInStep/passwordRequired``) when offered.
    func startSignIn(
        username: String, firstFactor: Bool = false, choosing: FirstFactor? = nil,
        _ start: () async throws -> AuthResponse
    ) async throws -> SignInStep {
        pendingChallenge = nil
        return try await accountSteps(username: username) {
            try await nextStep(after: try await start(), username: username, firstFactor: firstFactor, choosing: choosing)
        }
    }

    /// `body`'s step, or the step an unconfirmed account or a required password reset is (with
    /// its code remembered).
    func accountSteps(username: String, _ body: () async throws -> SignInStep) async throws -> SignInStep {
        do {
            return try await body()
        } catch AuthError.userNotConfirmed {
            await rememberCode(.signUp(username: username), delivery: nil)
            return .confirmSignUp(username: username)
        } catch AuthError.passwordResetRequired {
            await rememberCode(.passwordReset(username: username), delivery: nil)
            return .resetPassword(username: username)
        }
    }

    /// Answers `NEW_PASSWORD_REQUIRED`: the user's own password and values for the required
    /// attributes (by name, e.g. `["given_name": "Ada"]`).
    /// - Throws: ``AuthError`` — `invalidState` without that pending challenge;
    ///   `invalidPassword` or `invalidParameter` (a required attribute is missing) leave the
    ///   challenge pending, so the user can correct and retry.
    public func confirmSignIn(
        newPassword: String, attributes: [String: String] = [:], clientMetadata: [String: String] = [:]
    ) async throws -> SignInStep {
        let pending = try requirePending(ChallengeNameType.newPasswordRequired.rawValue)
        var responses = ["USERNAME": pending.username, "NEW_PASSWORD": newPassword]
        for (name, value) in attributes { responses["userAttributes.\(name)"] = value }
        return try await answer(pending, responses, clientMetadata: clientMetadata)
    }

    /// Answers a multi-factor code challenge (`SOFTWARE_TOKEN_MFA`; `SMS_MFA` and `EMAIL_OTP`
    /// from Amazon Cognito), or finishes an authenticator app's set-up during sign-in
    /// (``SignInStep/totpSetup(_:)``) with a code the app shows.
    /// - Throws: ``AuthError`` — `codeMismatch` (try again: three wrong codes end the
    ///   challenge, then `notAuthorized`), `enableSoftwareTokenMFA` for a wrong set-up code.
    public func confirmSignIn(mfaCode: String, clientMetadata: [String: String] = [:]) async throws -> SignInStep {
        if let pending = pendingChallenge, pending.challengeName == ChallengeNameType.mfaSetup.rawValue {
            guard pending.totpAssociated else {
                throw AuthError.invalidState("Choose the factor to set up first: confirmSignIn(mfaSetup:email:).")
            }
            return try await finishTOTPSetup(pending, code: mfaCode, clientMetadata: clientMetadata)
        }
        guard let pending = pendingChallenge, let kind = MFACodeChallenge.Kind(rawValue: pending.challengeName) else {
            throw AuthError.invalidState("No multi-factor challenge is pending.")
        }
        let field = kind == .email ? "EMAIL_OTP_CODE" : "\(kind.rawValue)_CODE"
        return try await answer(pending, ["USERNAME": pending.username, field: mfaCode], clientMetadata: clientMetadata)
    }

    /// Chooses the second factor of a ``SignInStep/mfaSelection(_:)``: the next step asks for
    /// its code (sent now by SMS or email, or shown by the authenticator app).
    public func confirmSignIn(mfaType: MFACodeChallenge.Kind, clientMetadata: [String: String] = [:]) async throws
        -> SignInStep
    {
        let pending = try requirePending(ChallengeNameType.selectMfaType.rawValue)
        return try await answer(pending, ["USERNAME": pending.username, "ANSWER": mfaType.rawValue], clientMetadata: clientMetadata)
    }

    /// Chooses what to set up in a ``SignInStep/mfaSetupSelection(_:)``: `.totp` associates an
    /// authenticator app (``SignInStep/totpSetup(_:)`` follows, finished with
    /// ``confirmSignIn(mfaCode:clientMetadata:)``); `.email` answers MFA_SETUP with the address
    /// codes go to (`EMAIL`), and the emailed code that follows (``SignInStep/mfaCode(_:)``)
    /// confirms it.
    /// - Throws: ``AuthError`` — `invalidState` without that pending challenge, for a factor
    ///   the pool did not offer, or for `.email` without an address.
    public func confirmSignIn(
        mfaSetup kind: MFACodeChallenge.Kind, email: String? = nil, clientMetadata: [String: String] = [:]
    ) async throws -> SignInStep {
        let pending = try requirePending(ChallengeNameType.mfaSetup.rawValue)
        guard pending.setupOptions.contains(kind) else {
            throw AuthError.invalidState(
                "The pool offers \(pending.setupOptions.map(\.rawValue)) to set up, not \(kind.rawValue).")
        }
        switch kind {
        case .totp:
            return try await startTOTPSetup(pending)
        case .email:
            guard let email, !email.isEmpty else {
                throw AuthError.invalidState("Setting up email MFA needs the address the codes go to.")
            }
            return try await answer(pending, ["USERNAME": pending.username, "EMAIL": email], clientMetadata: clientMetadata)
        case .sms:
            throw AuthError.invalidState("SMS MFA cannot be set up during sign-in.")
        }
    }

    /// Answers the pool's own challenge (``SignInStep/customChallenge(parameters:session:)``).
    /// A wrong answer may bring another challenge or end the sign-in with `notAuthorized`, as
    /// the pool's functions decide.
    public func confirmSignIn(challengeResponse: String, clientMetadata: [String: String] = [:]) async throws
        -> SignInStep
    {
        let pending = try requirePending(ChallengeNameType.customChallenge.rawValue)
        return try await answer(pending, ["USERNAME": pending.username, "ANSWER": challengeResponse], clientMetadata: clientMetadata)
    }

    func requirePending(_ challenge: String) throws -> ChallengeSession {
        guard let pending = pendingChallenge, pending.challengeName == challenge else {
            throw AuthError.invalidState("No \(challenge) challenge is pending: sign in first.")
        }
        return pending
    }

    /// Sends a challenge answer and turns the response into the next step. `firstFactor`: the
    /// answer chose a first factor (a code challenge that follows is that factor).
    func answer(
        _ pending: ChallengeSession, _ responses: [String: String], clientMetadata: [String: String],
        firstFactor: Bool = false
    ) async throws -> SignInStep {
        let response = try await respond(pending, responses, clientMetadata: clientMetadata)
        return try await nextStep(
            after: response, username: pending.username, signInName: pending.signInName, firstFactor: firstFactor)
    }

    /// Sends a challenge answer (with `SECRET_HASH` for the challenge's username). A
    /// `notAuthorized` answer ends the sign-in (session used up, expired, or failed by the
    /// pool's functions): nothing stays pending.
    func respond(
        _ pending: ChallengeSession, _ responses: [String: String], clientMetadata: [String: String]
    ) async throws -> AuthResponse {
        do {
            return AuthResponse(try await channel.send(CognitoAPI.RespondToAuthChallenge.self, RespondToAuthChallengeRequest(
                clientId: configuration.clientId, challengeName: ChallengeNameType(rawValue: pending.challengeName),
                session: pending.session, challengeResponses: withSecretHash(responses, username: pending.username),
                clientMetadata: clientMetadata.nilIfEmpty)))
        } catch AuthError.notAuthorized(let message) {
            pendingChallenge = nil
            throw AuthError.notAuthorized(message)
        }
    }

    /// Stores tokens (in the profile already holding this user, if any: see
    /// ``adoptStoredProfile(ofUser:)``; after removing another user's data from this profile:
    /// see ``evictAnotherUser(than:)``), or turns the next challenge into a step (remembering
    /// it for the answer). `signInName`: the name the user signed in with, when `username` is
    /// another (the internal one). `firstFactor`: a code challenge is a choice-based sign-in's
    /// first factor (``SignInStep/otpCode(_:)``), not MFA. `choosing`: a password factor to ask
    /// for at once when a SELECT_CHALLENGE offers it.
    func nextStep(
        after response: AuthResponse, username: String, signInName: String? = nil, firstFactor: Bool = false,
        choosing: FirstFactor? = nil
    ) async throws -> SignInStep {
        if let result = response.result {
            let tokens = try AuthTokens(result)
            pendingChallenge = nil
            let typed = signInName ?? username
            try await evictAnotherUser(than: tokens.user)
            try await adoptStoredProfile(ofUser: tokens.user.userId)
            try await updateRecord { record in
                record.tokens = tokens
                // The device just proved (or kept) learns the user's current names.
                if var device = record.device {
                    var owner = device.owner ?? DeviceOwner(tokens.user, signInName: typed)
                    owner.add(tokens.user, signInName: typed)
                    device.owner = owner
                    record.device = device
                }
            }
            if let metadata = result.newDeviceMetadata {
                await registerNewDevice(metadata, tokens: tokens, signInName: typed)
            }
            return .signedIn(tokens.user)
        }
        guard let name = response.challengeName else {
            throw AuthError.invalidResponse("Neither tokens nor a challenge in the sign-in response.")
        }
        let parameters = response.parameters
        var session = ChallengeSession(
            challengeName: name.rawValue, username: parameters["USERNAME"] ?? parameters["USER_ID_FOR_SRP"] ?? username,
            currentAttributes: response.json("userAttributes", as: [String: String].self) ?? [:],
            session: response.session)
        session.signInName = signInName ?? username
        switch name {
        case .newPasswordRequired:
            pendingChallenge = session
            let required = (response.json("requiredAttributes", as: [String].self) ?? []).map {
                $0.hasPrefix("userAttributes.") ? String($0.dropFirst("userAttributes.".count)) : $0
            }
            return .newPasswordRequired(requiredAttributes: required, session: session)
        case .emailOtp where firstFactor, .smsOtp:
            pendingChallenge = session
            return .otpCode(Self.codeDelivery(parameters, challenge: name))
        case .smsMfa, .softwareTokenMfa, .emailOtp:
            pendingChallenge = session
            return .mfaCode(MFACodeChallenge(
                kind: MFACodeChallenge.Kind(rawValue: name.rawValue)!,
                destination: parameters["CODE_DELIVERY_DESTINATION"]))
        case .selectMfaType:
            pendingChallenge = session
            let kinds = (response.json("MFAS_CAN_CHOOSE", as: [String].self) ?? []).compactMap(MFACodeChallenge.Kind.init(rawValue:))
            return .mfaSelection(kinds)
        case .selectChallenge:
            session.offeredFactors = response.available.compactMap(FirstFactor.init(challenge:))
            if let choosing, choosing.isPassword, session.offeredFactors.contains(choosing) {
                session.chosenFactor = choosing
                pendingChallenge = session
                return .passwordRequired
            }
            pendingChallenge = session
            return .firstFactorSelection(session.offeredFactors)
        case .webAuthn:
            guard let options = parameters["CREDENTIAL_REQUEST_OPTIONS"],
                let request = try? PasskeyRequest(optionsJSON: options)
            else { throw AuthError.invalidResponse("WEB_AUTHN came without usable CREDENTIAL_REQUEST_OPTIONS.") }
            session.parameters = ["CREDENTIAL_REQUEST_OPTIONS": options]
            pendingChallenge = session
            return .passkeyRequired(request)
        case .mfaSetup:
            // MFAS_CAN_SETUP lists what the pool lets the user set up; without it (or with the
            // app alone) the app's set-up starts at once, as before choices existed.
            session.setupOptions = (response.json("MFAS_CAN_SETUP", as: [String].self) ?? [])
                .compactMap(MFACodeChallenge.Kind.init(rawValue:)).filter { $0 != .sms }
            if session.setupOptions.isEmpty || session.setupOptions == [.totp] {
                return try await startTOTPSetup(session)
            }
            pendingChallenge = session
            return .mfaSetupSelection(session.setupOptions)
        case .deviceSrpAuth:
            return try await nextStep(
                after: try await deviceExchange(username: session.username), username: username, signInName: signInName)
        case .customChallenge:
            pendingChallenge = session
            return .customChallenge(parameters: parameters.filter { $0.key != "USERNAME" }, session: session)
        default:
            throw AuthError.unsupportedChallenge(name.rawValue)
        }
    }

    /// Where a first-factor code went, as the challenge's parameters say.
    static func codeDelivery(_ parameters: [String: String], challenge: ChallengeNameType) -> CodeDelivery {
        let medium = parameters["CODE_DELIVERY_DELIVERY_MEDIUM"].flatMap(CodeDelivery.Medium.init(rawValue:))
            ?? (challenge == .smsOtp ? .sms : .email)
        return CodeDelivery(
            destination: parameters["CODE_DELIVERY_DESTINATION"] ?? "", medium: medium,
            attributeName: medium == .sms ? "phone_number" : "email")
    }
}
