import CognateProtocol
import Foundation

extension IdentityService {
    public func respondToAuthChallenge(_ request: RespondToAuthChallengeRequest) async throws -> RespondToAuthChallengeResponse {
        let (pool, client) = try await requireClient(request.clientId)
        let outcome = try await respond(
            to: request.challengeName, responses: request.challengeResponses ?? [:], session: request.session, pool: pool,
            client: client)
        let response = outcome.initiateAuthResponse
        return RespondToAuthChallengeResponse(
            challengeName: response.challengeName, session: response.session,
            challengeParameters: response.challengeParameters, authenticationResult: response.authenticationResult)
    }

    public func adminRespondToAuthChallenge(_ request: AdminRespondToAuthChallengeRequest) async throws
        -> AdminRespondToAuthChallengeResponse
    {
        let (pool, client) = try await requireClient(request.clientId, poolId: request.userPoolId)
        let outcome = try await respond(
            to: request.challengeName, responses: request.challengeResponses ?? [:], session: request.session, pool: pool,
            client: client)
        let response = outcome.initiateAuthResponse
        return AdminRespondToAuthChallengeResponse(
            challengeName: response.challengeName, session: response.session,
            challengeParameters: response.challengeParameters, authenticationResult: response.authenticationResult)
    }

    func respond(to challenge: ChallengeNameType, responses: [String: String], session: String?, pool: PoolRecord,
                 client: ClientRecord) async throws -> AuthOutcome
    {
        switch challenge {
        case .passwordVerifier:
            return try await verifySRPClaim(responses, pool: pool, client: client)
        case .newPasswordRequired:
            guard let session, !session.isEmpty else { throw CognitoError.invalidParameter("Missing required parameter Session") }
            return try await completeNewPassword(responses, session: session, pool: pool, client: client)
        default:
            throw CognitoError(.unsupportedOperation, "The \(challenge.rawValue) challenge is not supported by this server yet.")
        }
    }
}
