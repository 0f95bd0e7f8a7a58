import CognateProtocol
import Foundation

extension IdentityService {
    /// USER_PASSWORD_AUTH / ADMIN_USER_PASSWORD_AUTH: the password is checked against the SRP
    /// verifier (one exponentiation), counted towards the lockout when wrong; then the user's
    /// state decides what follows.
    func passwordAuth(_ parameters: [String: String], pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome {
        let typed = try AuthParameter.require(AuthParameter.username, in: parameters)
        let password = try AuthParameter.require(AuthParameter.password, in: parameters)
        let realm = SRPDerivation.poolName(ofPoolId: pool.id)
        let user: UserRecord? = try await transaction { transaction in
            guard let found = try await self.findUser(typed, in: pool, transaction) else { return nil }
            try client.checkSecretHash(parameters[AuthParameter.secretHash], usernames: [typed, found.username, found.sub])
            // One password check per user at a time, so no attempt slips past a lockout.
            let user = try await self.locked(found, transaction)
            try await self.checkNotLockedOut(user, in: transaction)
            guard let stored = user.password,
                SRPServer.matches(secret: password, salt: stored.salt, realm: realm, identity: user.username,
                                  verifier: stored.verifier)
            else {
                try await self.recordFailedSignIn(user, in: transaction)
                throw CommitAndFail(.incorrectCredentials)
            }
            try await transaction.clearSignInLockout(poolId: user.poolId, userSub: user.sub)
            return user
        }
        guard let user else {
            try client.checkSecretHash(parameters[AuthParameter.secretHash], usernames: [typed])
            // Spend what a real check costs, so timing does not tell unknown users apart.
            _ = SRPServer.matches(secret: password, salt: Self.decoySalt, realm: realm, identity: typed, verifier: [1])
            throw client.preventsUserExistenceErrors ? CognitoError.incorrectCredentials : CognitoError.userNotFound
        }
        return try await completeFirstFactor(user, pool: pool, client: client)
    }

    static let decoySalt: [UInt8] = Array(repeating: 0x5a, count: 16)
}
