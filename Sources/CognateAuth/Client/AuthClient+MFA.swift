import CognateProtocol
import Foundation

extension AuthClient {
    /// Starts setting up an authenticator app for the signed-in user (`AssociateSoftwareToken`);
    /// show the secret (or a QR code of its URI), then call ``verifyTOTPSetup(code:friendlyName:)``.
    /// - Throws: ``AuthError`` — `invalidUserPoolConfiguration` when the pool has no
    ///   authenticator-app MFA, `notSignedIn`.
    public func setUpTOTP() async throws -> TOTPSetup {
        let response = try await withAccessToken { accessToken in
            try await channel.send(CognitoAPI.AssociateSoftwareToken.self, AssociateSoftwareTokenRequest(accessToken: accessToken))
        }
        guard let secret = response.secretCode else { throw AuthError.invalidResponse("AssociateSoftwareToken sent no secret.") }
        return TOTPSetup(sharedSecret: secret)
    }

    /// Finishes the set-up with a code the app shows (`VerifySoftwareToken`), then makes the
    /// app the user's preferred second factor (`SetUserMFAPreference`): from the next sign-in
    /// on, ``SignInStep/mfaCode(_:)`` asks for its code.
    /// - Throws: ``AuthError`` — `enableSoftwareTokenMFA` for a wrong code (the set-up stays
    ///   open: try the next code).
    public func verifyTOTPSetup(code: String, friendlyName: String? = nil) async throws {
        try await withAccessToken { accessToken in
            _ = try await channel.send(CognitoAPI.VerifySoftwareToken.self, VerifySoftwareTokenRequest(
                accessToken: accessToken, userCode: code, friendlyDeviceName: friendlyName))
        }
        try await setTOTPPreference(enabled: true)
    }

    /// Turns sign-in codes from the authenticator app on or off (`SetUserMFAPreference`). A
    /// pool that requires MFA asks for them either way.
    public func setTOTPPreference(enabled: Bool) async throws {
        try await setMFAPreference(.totp, enabled: enabled, preferred: enabled)
    }

    /// Turns one second factor on or off for the signed-in user (`SetUserMFAPreference`), and
    /// makes it the preferred one (asked for without a choice when the user has several).
    /// - Throws: ``AuthError`` — `invalidParameter` when the user lacks what the factor needs
    ///   (a verified authenticator app, a phone number, an email address) or the pool does not
    ///   offer it.
    public func setMFAPreference(_ kind: MFACodeChallenge.Kind, enabled: Bool, preferred: Bool = false) async throws {
        var request = SetUserMFAPreferenceRequest(accessToken: "")
        switch kind {
        case .totp: request.softwareTokenMfaSettings = SoftwareTokenMfaSettingsType(enabled: enabled, preferredMfa: preferred)
        case .sms: request.smsMfaSettings = SMSMfaSettingsType(enabled: enabled, preferredMfa: preferred)
        case .email: request.emailMfaSettings = EmailMfaSettingsType(enabled: enabled, preferredMfa: preferred)
        }
        try await withAccessToken { accessToken in
            request.accessToken = accessToken
            _ = try await channel.send(CognitoAPI.SetUserMFAPreference.self, request)
        }
    }

    /// The second factors the signed-in user has turned on (`SOFTWARE_TOKEN_MFA` …) and the
    /// preferred one (`GetUser`).
    public func fetchMFAPreference() async throws -> (enabled: [String], preferred: String?) {
        let user = try await withAccessToken { accessToken in
            try await channel.send(CognitoAPI.GetUser.self, GetUserRequest(accessToken: accessToken))
        }
        return (user.userMFASettingList ?? [], user.preferredMfaSetting)
    }

    /// MFA_SETUP during a sign-in: associates an app with the challenge's session and returns
    /// the step showing its secret; the next ``confirmSignIn(mfaCode:clientMetadata:)`` verifies
    /// the app's code and completes the sign-in.
    func startTOTPSetup(_ challenge: ChallengeSession) async throws -> SignInStep {
        let response = try await channel.send(
            CognitoAPI.AssociateSoftwareToken.self, AssociateSoftwareTokenRequest(session: challenge.session))
        guard let secret = response.secretCode else { throw AuthError.invalidResponse("AssociateSoftwareToken sent no secret.") }
        var pending = challenge
        pending.session = response.session
        pending.totpAssociated = true
        pendingChallenge = pending
        return .totpSetup(TOTPSetup(sharedSecret: secret))
    }

    /// MFA_SETUP answered with the new app's code: `VerifySoftwareToken` with the session, then
    /// the challenge itself.
    func finishTOTPSetup(_ pending: ChallengeSession, code: String, clientMetadata: [String: String]) async throws -> SignInStep {
        let verified = try await channel.send(
            CognitoAPI.VerifySoftwareToken.self, VerifySoftwareTokenRequest(session: pending.session, userCode: code))
        var answered = pending
        answered.session = verified.session
        pendingChallenge = answered
        return try await answer(answered, ["USERNAME": pending.username], clientMetadata: clientMetadata)
    }
}
