import CognateProtocol
import Foundation

extension AuthClient {
    /// Starts a custom registration (Cognate's own operations, docs/sdk.md "Custom
    /// registration"): `data` goes to the pool's CustomRegistration function, which answers
    /// with a challenge or creates the account at once.
    ///
    /// The account the function creates has no password; the user is signed in on this
    /// profile (tokens stored, a new device remembered where the pool tracks devices), ready to
    /// register a PIN (``registerPIN(_:)``) or a passkey.
    /// - Throws: ``AuthError`` — `notAuthorized` ("Registration failed." when the function
    ///   refused), `userLambdaValidation` with the function's own message, `usernameExists`,
    ///   `invalidParameter` (no custom registration in the pool, or an attribute the function
    ///   gave is refused).
    public func startCustomRegistration(data: String?, clientMetadata: [String: String] = [:]) async throws
        -> CustomRegistrationStep
    {
        pendingRegistration = nil
        pendingChallenge = nil
        let response = try await channel.send(CognitoAPI.StartCustomRegistration.self, StartCustomRegistrationRequest(
            clientId: configuration.clientId, secretHash: configuration.secretHash(for: ""), data: data,
            clientMetadata: clientMetadata.nilIfEmpty))
        return try await customRegistrationStep(after: response)
    }

    /// Answers the pending ``CustomRegistrationStep/challenge(data:)``. Any answer of the server
    /// uses the challenge up, so an error ends the registration (start again); a `network`
    /// error keeps the challenge, to answer again.
    public func respondToCustomRegistration(data: String?, clientMetadata: [String: String] = [:]) async throws
        -> CustomRegistrationStep
    {
        guard let session = pendingRegistration else {
            throw AuthError.invalidState("No custom registration challenge is pending: start one first.")
        }
        pendingRegistration = nil
        let response: CustomRegistrationResponse
        do {
            response = try await channel.send(CognitoAPI.RespondToCustomRegistration.self, RespondToCustomRegistrationRequest(
                clientId: configuration.clientId, registrationSession: session, secretHash: configuration.secretHash(for: ""),
                data: data, clientMetadata: clientMetadata.nilIfEmpty))
        } catch AuthError.network(let reason) {
            // The answer may not have reached the server: the challenge can be answered again
            // (if it did, the server has used the session up and says so).
            pendingRegistration = session
            throw AuthError.network(reason)
        }
        return try await customRegistrationStep(after: response)
    }

    private func customRegistrationStep(after response: CustomRegistrationResponse) async throws -> CustomRegistrationStep {
        if let session = response.registrationSession {
            pendingRegistration = session
            return .challenge(data: response.challengeData)
        }
        guard let userSub = response.userSub else {
            throw AuthError.invalidResponse("Neither a challenge nor an account in the registration response.")
        }
        // The new user's name is the function's; its `sub` names it as well in every answer.
        let signIn = try await nextStep(after: AuthResponse(response), username: userSub)
        return .registered(userId: userSub, signIn: signIn, customInformation: response.customInformation)
    }
}
