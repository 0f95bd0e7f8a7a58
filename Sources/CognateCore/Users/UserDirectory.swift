import CognateProtocol

/// How use cases find users: by any name a user signs in with, locked when asked, and the sign-in
/// names kept in step with a user.
struct UserDirectory: Sendable {
    let time: any TimeSource
}

extension UserDirectory {
    /// The user a typed name refers to: the username (any case in case-insensitive pools), the
    /// sub, or a sign-in name (email or phone as username, verified alias). With `forUpdate`
    /// the user's row stays locked until the transaction ends.
    func findUser(_ typed: String, in pool: PoolRecord, _ transaction: any StoreTransaction, forUpdate: Bool = false)
        async throws -> UserRecord?
    {
        try await lookUp(
            typed, in: pool,
            byUsernameKey: { try await transaction.user(poolId: pool.id, usernameKey: $0, forUpdate: forUpdate) },
            bySignInName: { try await transaction.user(poolId: pool.id, signInName: $0, forUpdate: forUpdate) })
    }

    /// As ``findUser(_:in:_:forUpdate:)``, unlocked, with the user's standing for a password
    /// check (failure record and groups) read in the same statement.
    func findUserForSignIn(_ typed: String, in pool: PoolRecord, _ transaction: any StoreTransaction)
        async throws -> (user: UserRecord, standing: SignInStanding)?
    {
        try await lookUp(
            typed, in: pool,
            byUsernameKey: { try await transaction.userForSignIn(poolId: pool.id, usernameKey: $0) },
            bySignInName: { try await transaction.userForSignIn(poolId: pool.id, signInName: $0) })
    }

    /// The order in which a typed name is tried: as a username key, then as each sign-in name
    /// it could be.
    private func lookUp<Found>(
        _ typed: String, in pool: PoolRecord,
        byUsernameKey: (String) async throws -> Found?, bySignInName: (String) async throws -> Found?
    ) async throws -> Found? {
        let names = SignInNames(pool: pool.settings)
        if let found = try await byUsernameKey(names.usernameKey(typed)) { return found }
        for key in names.candidateKeys(for: typed) {
            if let found = try await bySignInName(key) { return found }
        }
        return nil
    }

    /// As ``findUser(_:in:_:)``, throwing UserNotFoundException "User does not exist.".
    func requireUser(_ typed: String, in pool: PoolRecord, _ transaction: any StoreTransaction) async throws -> UserRecord {
        guard let user = try await findUser(typed, in: pool, transaction) else { throw CognitoError.userNotFound }
        return user
    }

    /// The user a public call (SignUp family, recovery) names, with `SecretHash` checked over any
    /// of the user's names. For an unknown user: nil when the client prevents user-existence
    /// errors (the caller then answers as it would for a real user), `notFound` otherwise.
    func publicCaller(_ typed: String, secretHash: String?, pool: PoolRecord, client: ClientRecord,
                      notFound: CognitoError = .userNotFound, _ transaction: any StoreTransaction) async throws -> UserRecord? {
        guard let user = try await findUser(typed, in: pool, transaction) else {
            try client.checkSecretHash(secretHash, usernames: [typed])
            if client.preventsUserExistenceErrors { return nil }
            throw notFound
        }
        try client.checkSecretHash(secretHash, usernames: [typed, user.username, user.sub])
        return user
    }

    /// The user's row locked until the transaction ends, read again under the lock (so a
    /// read-modify-write cannot lose a concurrent change).
    func locked(_ user: UserRecord, _ transaction: any StoreTransaction) async throws -> UserRecord {
        guard let current = try await transaction.user(poolId: user.poolId, sub: user.sub, forUpdate: true) else {
            throw CognitoError.userNotFound
        }
        return current
    }

}

extension UserDirectory {
    /// Re-indexes the user's sign-in names after its attributes changed, or indexes them for
    /// the first time when the user was just inserted (`newUser`: no names to read or remove).
    ///
    /// A name another user holds is refused — UsernameExistsException in pools where email or
    /// phone is the username, AliasExistsException for aliases — unless `moveAliases`: then a
    /// verified email or phone alias moves to this user (the other user's address becomes
    /// unverified), as Cognito does when a second user verifies the same address. Ownership is
    /// checked first and the unique key decides any race, so the transaction never continues
    /// past a violated constraint.
    func updateSignInNames(of user: UserRecord, pool: PoolRecord, in transaction: any StoreTransaction,
                           moveAliases: Bool = false, newUser: Bool = false) async throws {
        let names = SignInNames(pool: pool.settings)
        let wanted = names.names(for: user.attributes)
        for name in wanted {
            guard var owner = try await transaction.user(poolId: pool.id, signInName: name), owner.sub != user.sub else {
                continue
            }
            let kind = String(name.prefix { $0 != ":" })
            guard moveAliases, !names.usesAttributeAsUsername, kind == "email" || kind == "phone_number" else {
                throw Self.nameTaken(kind: kind)
            }
            owner.attributes["\(kind)_verified"] = "false"
            owner.updatedAt = time.now
            try await transaction.updateUser(owner)
            try await transaction.setSignInNames(poolId: pool.id, sub: owner.sub, names: names.names(for: owner.attributes))
        }
        do {
            if newUser {
                try await transaction.addSignInNames(poolId: pool.id, sub: user.sub, names: wanted)
            } else {
                try await transaction.setSignInNames(poolId: pool.id, sub: user.sub, names: wanted)
            }
        } catch StoreError.conflict(.signInName) {
            throw Self.nameTaken(kind: wanted.first.map { String($0.prefix { $0 != ":" }) } ?? "email")
        }
    }

    /// Inserts a new user with their sign-in names. A name another user holds is refused as
    /// ``updateSignInNames(of:pool:in:moveAliases:newUser:)`` refuses it, as
    /// UsernameExistsException where email or phone is the username. A username taken surfaces
    /// as `StoreError.conflict(.username)`, possibly only when the transaction commits: callers
    /// catch it around the write.
    func insertNewUser(_ user: UserRecord, pool: PoolRecord, moveAliases: Bool = false,
                       in transaction: any StoreTransaction) async throws {
        try await transaction.insertUser(user)
        do {
            try await updateSignInNames(of: user, pool: pool, in: transaction, moveAliases: moveAliases, newUser: true)
        } catch let error as CognitoError
            where error.code == .aliasExists && SignInNames(pool: pool.settings).usesAttributeAsUsername
        {
            throw CognitoError(.usernameExists, error.message)
        }
    }

    /// AliasExistsException for a sign-in name (`email`, `phone_number`, `preferred_username`)
    /// another user holds; creations in email/phone-as-username pools turn it into
    /// UsernameExistsException.
    static func nameTaken(kind: String) -> CognitoError {
        CognitoError(.aliasExists, "An account with the given \(kind) already exists.")
    }
}
