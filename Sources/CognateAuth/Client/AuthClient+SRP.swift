import CognateProtocol
import Foundation

extension AuthClient {
    /// `USER_SRP_AUTH` up to the answer of `PASSWORD_VERIFIER` (cognito-protocol §4.4).
    ///
    /// The claim is computed for `USER_ID_FOR_SRP` (the internal username, a UUID in pools that
    /// sign in with email), and the answer's `USERNAME` and `SECRET_HASH` use that name too.
    /// The arithmetic runs off the actor (``OffActor``).
    func srpExchange(username: String, password: String, clientMetadata: [String: String]) async throws -> AuthResponse {
        let srp = try await OffActor.run { SRPClient() }
        let started = try await channel.send(CognitoAPI.InitiateAuth.self, InitiateAuthRequest(
            authFlow: .userSrpAuth,
            authParameters: withSecretHash(["USERNAME": username, "SRP_A": srp.publicValueHex], username: username),
            clientMetadata: clientMetadata.nilIfEmpty, clientId: configuration.clientId))
        guard started.challengeName == .passwordVerifier else { return AuthResponse(started) }
        let parameters = started.challengeParameters ?? [:]
        guard let userId = parameters["USER_ID_FOR_SRP"], let salt = parameters["SALT"],
            let serverPublic = parameters["SRP_B"], let secretBlock = parameters["SECRET_BLOCK"]
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
        ]
        let answered = try await channel.send(CognitoAPI.RespondToAuthChallenge.self, RespondToAuthChallengeRequest(
            clientId: configuration.clientId, challengeName: .passwordVerifier, session: started.session,
            challengeResponses: withSecretHash(responses, username: userId), clientMetadata: clientMetadata.nilIfEmpty))
        return AuthResponse(answered)
    }
}
