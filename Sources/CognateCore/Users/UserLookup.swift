import CognateProtocol

extension IdentityService {
    /// The user a typed name refers to: the username (any case in case-insensitive pools), the
    /// sub, or a sign-in name (email or phone as username, verified alias).
    func findUser(_ typed: String, in pool: PoolRecord, _ transaction: any StoreTransaction) async throws -> UserRecord? {
        let names = SignInNames(pool: pool.settings)
        if let user = try await transaction.user(poolId: pool.id, usernameKey: names.usernameKey(typed)) { return user }
        for key in names.candidateKeys(for: typed) {
            if let user = try await transaction.user(poolId: pool.id, signInName: key) { return user }
        }
        return nil
    }

    /// As ``findUser(_:in:_:)``, throwing UserNotFoundException "User does not exist.".
    func requireUser(_ typed: String, in pool: PoolRecord, _ transaction: any StoreTransaction) async throws -> UserRecord {
        guard let user = try await findUser(typed, in: pool, transaction) else { throw CognitoError.userNotFound }
        return user
    }

    /// Fixed-window per-user limit (e.g. code requests per hour): LimitExceededException when
    /// the count in the current hour passes `limit`.
    func consumeHourlyAllowance(_ name: String, user: UserRecord, limit: Int, _ transaction: any StoreTransaction) async throws {
        let now = time.now.timeIntervalSince1970
        let window = now - now.truncatingRemainder(dividingBy: 3600)
        let count = try await transaction.incrementCounter(
            key: "\(name):\(user.poolId):\(user.sub)", windowStart: .init(timeIntervalSince1970: window))
        if count > limit { throw CognitoError.attemptLimitExceeded }
    }
}

extension IdentityService {
    /// Re-indexes the user's sign-in names after its attributes changed; a name another user
    /// holds is refused (UsernameExistsException in email/phone-as-username pools,
    /// AliasExistsException with aliases).
    func updateSignInNames(of user: UserRecord, pool: PoolRecord, in transaction: any StoreTransaction) async throws {
        do {
            try await transaction.setSignInNames(
                poolId: pool.id, sub: user.sub, names: SignInNames(pool: pool.settings).names(for: user.attributes))
        } catch StoreError.conflict(.signInName) {
            throw Self.usernameExists(pool: pool, conflict: .signInName, attributes: user.attributes)
        }
    }
}
