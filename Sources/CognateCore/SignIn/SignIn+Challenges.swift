import CognateProtocol
import Foundation

extension SignIn {
    public func respondToAuthChallenge(_ request: RespondToAuthChallengeRequest) async throws -> RespondToAuthChallengeResponse {
        let (pool, client) = try await directory.requireClient(request.clientId)
        return try await respond(
            to: request.challengeName, responses: request.challengeResponses ?? [:], session: request.session,
            clientMetadata: request.clientMetadata, pool: pool, client: client
        ).respondToAuthChallengeResponse
    }

    public func adminRespondToAuthChallenge(_ request: AdminRespondToAuthChallengeRequest) async throws
        -> AdminRespondToAuthChallengeResponse
    {
        let (pool, client) = try await directory.requireClient(request.clientId, poolId: request.userPoolId)
        return try await respond(
            to: request.challengeName, responses: request.challengeResponses ?? [:], session: request.session,
            clientMetadata: request.clientMetadata, pool: pool, client: client
        ).adminRespondToAuthChallengeResponse
    }

    func respond(to challenge: ChallengeNameType, responses: [String: String], session: String?,
                 clientMetadata: [String: String]?, pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome
    {
        try AuthParameter.checkBounds(responses, member: "challengeResponses")
        func requireSession() throws -> String {
            guard let session, !session.isEmpty else { throw CognitoError.invalidParameter("Missing required parameter Session") }
            return session
        }
        switch challenge {
        case .passwordVerifier:
            return try await verifySRPClaim(responses, clientMetadata: clientMetadata, pool: pool, client: client)
        case .newPasswordRequired:
            return try await completeNewPassword(
                responses, session: try requireSession(), clientMetadata: clientMetadata, pool: pool, client: client)
        case .softwareTokenMfa:
            return try await answerSoftwareTokenMfa(
                responses, session: try requireSession(), clientMetadata: clientMetadata, pool: pool, client: client)
        case .smsMfa, .emailOtp, .smsOtp:
            return try await answerSentMfaCode(
                challenge, responses, session: try requireSession(), clientMetadata: clientMetadata, pool: pool,
                client: client)
        case .selectMfaType:
            return try await answerSelectMfaType(
                responses, session: try requireSession(), clientMetadata: clientMetadata, pool: pool, client: client)
        case .mfaSetup:
            return try await answerMfaSetup(
                responses, session: try requireSession(), clientMetadata: clientMetadata, pool: pool, client: client)
        case .deviceSrpAuth:
            return try await answerDeviceSRPAuth(responses, session: session, pool: pool, client: client)
        case .devicePasswordVerifier:
            return try await answerDevicePasswordVerifier(responses, clientMetadata: clientMetadata, pool: pool, client: client)
        case .customChallenge:
            return try await answerCustomChallenge(
                responses, session: try requireSession(), clientMetadata: clientMetadata, pool: pool, client: client)
        case .selectChallenge:
            let step = try await choice.answerSelection(responses, session: try requireSession(), pool: pool, client: client)
            return try await carryOut(step, clientMetadata: clientMetadata, pool: pool, client: client)
        case .webAuthn:
            return try await choice.answerPasskey(
                responses, session: try requireSession(), clientMetadata: clientMetadata, pool: pool, client: client)
        default:
            throw CognitoError(.unsupportedOperation, "The \(challenge.rawValue) challenge is not supported by this server yet.")
        }
    }
}
