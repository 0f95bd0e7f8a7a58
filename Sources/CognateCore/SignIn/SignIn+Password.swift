import CognateProtocol
import Foundation

extension SignIn {
    /// USER_PASSWORD_AUTH / ADMIN_USER_PASSWORD_AUTH: the password is checked against the SRP
    /// verifier (one exponentiation, outside any transaction), then settled — without the
    /// user's lock when it was right and only tokens can follow (`signInWithoutLock`), else
    /// under the lock (lockout, failure count) — and the user's state decides what follows. A
    /// name that is no user may be vouched for by the pool's UserMigration function (the user
    /// is created then); PreAuthentication runs before the check.
    /// `runsPreAuthentication`: false when the sign-in ran it already (a factor of USER_AUTH).
    func passwordAuth(_ parameters: [String: String], clientMetadata: [String: String]?, pool: PoolRecord,
                      client: ClientRecord, runsPreAuthentication: Bool = true) async throws -> AuthOutcome {
        let typed = try AuthParameter.require(AuthParameter.username, in: parameters)
        let password = try AuthParameter.require(AuthParameter.password, in: parameters)
        let realm = SRPDerivation.poolName(ofPoolId: pool.id)
        let read = try await store.read { try await users.findUserForSignIn(typed, in: pool, $0) }
        var found = read?.user
        let standing = read?.standing  // none for a user the migration function brings
        var vouched = false
        if found == nil {
            try client.checkSecretHash(parameters[AuthParameter.secretHash], usernames: [typed])
            let migrated = try await migration.migrateUser(
                typed, password: password, clientMetadata: clientMetadata, pool: pool, client: client)
            (found, vouched) = (migrated?.user, migrated?.created ?? false)
        }
        guard let user = found else {
            guard client.preventsUserExistenceErrors else { throw CognitoError.userNotFound }
            if runsPreAuthentication {
                try await triggerCalls.runPreAuthentication(
                    user: nil, typed: typed, pool: pool, client: client, clientMetadata: clientMetadata)
            }
            // The work and the answer of a wrong password, so nothing tells unknown users apart.
            _ = SRPServer.matches(secret: password, salt: Self.decoySalt, realm: realm, identity: typed, verifier: [1])
            let subject = decoys.decoySubject(for: typed, pool: pool)
            let result = try await store.transaction { try await throttle.settleDecoySignIn(subject, pool: pool, in: $0) }
            return try await tokenFamilies.outcome(of: result, clientMetadata: clientMetadata, pool: pool, client: client)
        }
        try client.checkSecretHash(parameters[AuthParameter.secretHash], usernames: [typed, user.username, user.sub])
        if runsPreAuthentication {
            try await triggerCalls.runPreAuthentication(
                user: user, typed: typed, pool: pool, client: client, clientMetadata: clientMetadata)
        }
        // A user the migration function just vouched for has this very password as verifier.
        let correct = vouched || user.password.map {
            SRPServer.matches(secret: password, salt: $0.salt, realm: realm, identity: user.username, verifier: $0.verifier)
        } ?? false
        if correct, let standing, SignInCompletion.maySettleWithoutLock(user, standing: standing, pool: pool, now: time.now),
            let result = try await completion.signInWithoutLock(user, standing: standing, pool: pool, client: client)
        {
            return try await tokenFamilies.outcome(of: result, clientMetadata: clientMetadata, pool: pool, client: client)
        }
        let result = try await store.transaction { transaction in
            try await completion.settlePasswordCheck(
                user, correct: correct, password: password, pool: pool, client: client,
                device: parameters[AuthParameter.deviceKey], in: transaction)
        }
        return try await tokenFamilies.outcome(of: result, clientMetadata: clientMetadata, pool: pool, client: client)
    }

    static let decoySalt: [UInt8] = Array(repeating: 0x5a, count: 16)
}
