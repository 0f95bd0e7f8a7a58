import CognateProtocol

extension ClientRecord {
    /// Checks `SECRET_HASH` / `SecretHash` for a client with a secret (nothing to check
    /// otherwise). The hash may be computed over any of `usernames` (the name the caller typed,
    /// the internal username, the sub), as Cognito accepts any name of the same user.
    func checkSecretHash(_ provided: String?, usernames: [String]) throws {
        guard secret != nil else { return }
        guard let provided, !provided.isEmpty else {
            throw CognitoError.notAuthorized("Client \(clientId) is configured with secret but SECRET_HASH was not received")
        }
        var matched = false
        for secret in secrets {   // during a rotation, either secret
            for name in Set(usernames) {
                let expected = SecretHash.compute(username: name, clientId: clientId, clientSecret: secret)
                if ConstantTime.equals(expected, provided) { matched = true }
            }
        }
        guard matched else { throw CognitoError.notAuthorized("Unable to verify secret hash for client \(clientId)") }
    }

    /// The SECRET_HASH the hosted pages send for a user's steps: the server holds the secret
    /// (the current one), the browser never sees it. Nil for a client without a secret.
    func hostedSecretHash(for username: String) -> String? {
        secret.map { SecretHash.compute(username: username, clientId: clientId, clientSecret: $0) }
    }

    var preventsUserExistenceErrors: Bool { settings.preventUserExistenceErrors == .enabled }
}
