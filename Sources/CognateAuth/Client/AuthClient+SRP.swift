import CognateProtocol
import Foundation

extension AuthClient {
    /// `USER_SRP_AUTH` up to the answer of `PASSWORD_VERIFIER` (cognito-protocol §4.4).
    ///
    /// The claim is computed for `USER_ID_FOR_SRP` (the internal username, a UUID in pools that
    /// sign in with email), and the answer's `USERNAME` and `SECRET_HASH` use that name too.
    /// The arithmetic runs off the actor (``OffActor``). `customAuth`: the exchange opens a
    /// CUSTOM_AUTH sign-in (`CHALLENGE_NAME=SRP_A`), whose functions then decide what follows.
    func srpExchange(username: String, password: String, clientMetadata: [String: String], customAuth: Bool = false)
        async throws -> AuthResponse
    {
        let srp = try await OffActor.run { SRPClient() }
        let device = await deviceKeyParameter(forSignInName: username)
        var parameters = ["USERNAME": username, "SRP_A": srp.publicValueHex].merging(device) { $1 }
        if customAuth { parameters["CHALLENGE_NAME"] = "SRP_A" }
        let started = try await channel.send(CognitoAPI.InitiateAuth.self, InitiateAuthRequest(
            authFlow: customAuth ? .customAuth : .userSrpAuth, authParameters: withSecretHash(parameters, username: username),
            clientMetadata: clientMetadata.nilIfEmpty, clientId: configuration.clientId))
        return try await answerPasswordVerifier(
            AuthResponse(started), srp: srp, password: password, device: device, clientMetadata: clientMetadata)
    }

    /// Answers PASSWORD_VERIFIER (in `started`, which any other step passes through) with the
    /// password's claim for `USER_ID_FOR_SRP`, for the SRP exchange `srp` began.
    func answerPasswordVerifier(
        _ started: AuthResponse, srp: SRPClient, password: String, device: [String: String],
        clientMetadata: [String: String]
    ) async throws -> AuthResponse {
        guard started.challengeName == .passwordVerifier else { return started }
        let challenge = started.parameters
        guard let userId = challenge["USER_ID_FOR_SRP"], let salt = challenge["SALT"],
            let serverPublic = challenge["SRP_B"], let secretBlock = challenge["SECRET_BLOCK"]
        else { throw AuthError.invalidResponse("PASSWORD_VERIFIER lacks SRP parameters.") }
        let claim: SRPClient.Claim
        let realm = configuration.poolName
        do {
            claim = try await OffActor.run {
                try srp.passwordClaim(
                    realm: realm, identity: userId, secret: password, saltHex: salt,
                    serverPublicHex: serverPublic, secretBlock: secretBlock)
            }
        } catch {
            throw AuthError.invalidResponse("PASSWORD_VERIFIER parameters are unusable: \(error)")
        }
        let responses = [
            "USERNAME": userId, "PASSWORD_CLAIM_SECRET_BLOCK": secretBlock,
            "PASSWORD_CLAIM_SIGNATURE": claim.signature, "TIMESTAMP": claim.timestamp,
        ].merging(device) { $1 }
        let answered = try await channel.send(CognitoAPI.RespondToAuthChallenge.self, RespondToAuthChallengeRequest(
            clientId: configuration.clientId, challengeName: .passwordVerifier, session: started.session,
            challengeResponses: withSecretHash(responses, username: userId), clientMetadata: clientMetadata.nilIfEmpty))
        return AuthResponse(answered)
    }
}
