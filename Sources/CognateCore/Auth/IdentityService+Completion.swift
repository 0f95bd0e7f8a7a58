import CognateProtocol
import Foundation

/// What a correct first factor leads to, decided in the transaction that records the sign-in.
enum FirstFactorResult: Sendable {
    /// A new token family was stored; its JWTs are minted after the commit. `newDevice`: the
    /// device the tokens go to, seen for the first time (NewDeviceMetadata).
    case tokens(TokenFamilyRecord, refreshToken: String, user: UserRecord, groups: [GroupRecord], newDevice: DeviceRecord?)
    /// The next challenge (NEW_PASSWORD_REQUIRED, an MFA code, the device's proof), its session
    /// stored; `code`: the SMS or email code it sent, queued, to send after the commit.
    case challenge(AuthOutcome, code: QueuedSignInCode? = nil)
}

extension IdentityService {
    /// What follows a correct first factor (password or SRP), inside the sign-in's transaction:
    /// the user's state decides (cognito-protocol §3.3) — disabled, unconfirmed and
    /// reset-required users are refused; users with a temporary password must choose a new one
    /// (NEW_PASSWORD_REQUIRED); users with MFA answer their second factor (`askingForMfa`:
    /// false once they have, and in CUSTOM_AUTH, whose functions decide); everyone else gets
    /// a new token family.
    ///
    /// `device`: the DEVICE_KEY the client sent, if any. A remembered device of the user
    /// skips MFA; a confirmed one must prove its secret (DEVICE_SRP_AUTH) unless `deviceProved`;
    /// in a pool that tracks devices, a device seen for the first time is created and
    /// announced with the tokens.
    ///
    /// `riskDemandsMfa`: threat protection asks for a second factor whatever the device; when
    /// the user has none, `.required` refuses the sign-in and `.ifConfigured` lets it through.
    /// `groups`: the user's groups when the caller read them in this transaction already.
    func completeFirstFactor(_ user: UserRecord, groups knownGroups: [GroupRecord]? = nil, pool: PoolRecord,
                             client: ClientRecord, askingForMfa: Bool = true,
                             device deviceKey: String? = nil, deviceProved: Bool = false,
                             riskDemandsMfa: RiskMfaDemand? = nil,
                             in transaction: any StoreTransaction) async throws -> FirstFactorResult {
        try Self.checkMaySignIn(user)
        switch user.status {
        case .forceChangePassword:
            let validityDays = pool.settings.policies?.passwordPolicy?.temporaryPasswordValidityDays ?? 7
            if validityDays > 0, let set = user.passwordUpdatedAt,
                time.now.timeIntervalSince(set) > TimeInterval(validityDays) * 86_400
            {
                throw CognitoError.notAuthorized("Temporary password has expired and must be reset by an administrator.")
            }
            return .challenge(try await newPasswordChallenge(
                for: user, pool: pool, client: client, device: deviceKey, in: transaction))
        default:
            let device = try await knownDevice(deviceKey, of: user, pool: pool, in: transaction)
            if let riskDemandsMfa {
                if let challenge = try await mfaChallenge(
                    for: user, pool: pool, client: client, device: device?.deviceKey, forced: true, in: transaction)
                {
                    return challenge
                }
                if riskDemandsMfa == .required { throw CommitAndFail(ThreatProtectionError.riskBlocked) }
            } else if askingForMfa, device?.remembered != true,
                let challenge = try await mfaChallenge(
                    for: user, pool: pool, client: client, device: device?.deviceKey, in: transaction)
            {
                return challenge
            }
            if let device, !deviceProved {
                return .challenge(try await deviceChallenge(device, user: user, pool: pool, client: client, in: transaction))
            }
            let newDevice = device == nil ? try await trackNewDevice(of: user, pool: pool, in: transaction) : nil
            let (family, refreshToken) = newTokenFamily(
                of: user, client: client, deviceKey: device?.deviceKey ?? newDevice?.deviceKey)
            try await transaction.insertTokenFamily(family)
            let groups =
                if let knownGroups { knownGroups } else { try await transaction.groups(ofUser: user.sub, poolId: pool.id) }
            return .tokens(family, refreshToken: refreshToken, user: user, groups: groups, newDevice: newDevice)
        }
    }

    /// A new token family of a sign-in, not stored yet, and its refresh token.
    func newTokenFamily(of user: UserRecord, client: ClientRecord, deviceKey: String?)
        -> (family: TokenFamilyRecord, refreshToken: String)
    {
        let now = time.now
        let refreshToken = Base64URL.encode(random.bytes(48))
        let family = TokenFamilyRecord(
            originJti: random.uuid(), poolId: client.poolId, clientId: client.clientId, userSub: user.sub,
            refreshTokenHash: RefreshTokens.hash(refreshToken), authTime: now, createdAt: now,
            expiresAt: now.addingTimeInterval(TokenValidity(client: client.settings).refreshToken), deviceKey: deviceKey)
        return (family, refreshToken)
    }

    /// Refuses a user who may not sign in at all: disabled, unconfirmed, or made to reset
    /// their password.
    static func checkMaySignIn(_ user: UserRecord) throws {
        guard user.enabled else { throw CognitoError.userDisabled }
        switch user.status {
        case .unconfirmed: throw CognitoError.userNotConfirmed
        case .resetRequired: throw CognitoError.passwordResetRequired
        default: break
        }
    }

    /// The answer to a first factor, after its transaction committed: the pool's
    /// PostAuthentication and PreTokenGeneration functions run, then JWTs are signed — none of
    /// it while the database is held. A function that refuses revokes the new token family.
    func outcome(of result: FirstFactorResult, source: String = "TokenGeneration_Authentication",
                 clientMetadata: [String: String]?, pool: PoolRecord, client: ClientRecord) async throws -> AuthOutcome {
        switch result {
        case .challenge(let outcome, let code):
            if let code {
                try await dispatch(
                    [(code.message, .authentication, code.user)], pool: pool, clientId: client.clientId,
                    clientMetadata: clientMetadata)
            }
            return outcome
        case .tokens(let family, let refreshToken, let user, let groups, let newDevice):
            let overrides: ClaimOverrides?
            do {
                try await runPostAuthentication(user: user, pool: pool, client: client, clientMetadata: clientMetadata)
                overrides = try await runPreTokenGeneration(
                    source, user: user, groups: groups, pool: pool, client: client, clientMetadata: clientMetadata)
            } catch {
                let now = time.now
                try? await store.write { try await $0.revokeTokenFamily(originJti: family.originJti, at: now) }
                throw error
            }
            let minted = try await tokens.issue(
                TokenContext(pool: pool, client: client, user: user, originJti: family.originJti, authTime: family.authTime,
                             groups: groups, overrides: overrides, deviceKey: family.deviceKey),
                now: time.now)
            RequestOrigin.verifiedCaller?.record(sub: user.sub, username: user.username)   // who signed in, for the audit
            return .tokens(IssuedTokens(
                idToken: minted.idToken, accessToken: minted.accessToken, refreshToken: refreshToken,
                expiresIn: minted.expiresIn,
                newDevice: newDevice.map { NewDeviceMetadataType(deviceKey: $0.deviceKey, deviceGroupKey: $0.groupKey) },
                originJti: family.originJti))
        }
    }

    /// REFRESH_TOKEN_AUTH: new ID and access tokens of the same family; the refresh token stays.
    /// A refresh token issued to a device is bound to it: a DEVICE_KEY naming another device
    /// is refused (none at all is accepted, for clients that do not send it). A client with
    /// refresh token rotation must refresh with GetTokensFromRefreshToken, as in Cognito.
    func refreshAuth(_ parameters: [String: String], clientMetadata: [String: String]?, pool: PoolRecord,
                     client: ClientRecord) async throws -> AuthOutcome {
        if client.settings.refreshTokenRotation?.feature == .enabled { throw Self.refreshNeedsRotation }
        let token = try AuthParameter.require(AuthParameter.refreshToken, in: parameters)
        let (family, user, groups) = try await refreshableFamily(token, pool: pool, client: client) { family, user in
            guard parameters[AuthParameter.deviceKey].map({ $0 == family.deviceKey }) ?? true else {
                throw CognitoError.invalidRefreshToken
            }
            var usernames = [user.username, user.sub]
            if let typed = parameters[AuthParameter.username] { usernames.append(typed) }
            try client.checkSecretHash(parameters[AuthParameter.secretHash], usernames: usernames)
        }
        return .tokens(try await renewTokens(
            of: family, user: user, groups: groups, source: "TokenGeneration_RefreshTokens", clientMetadata: clientMetadata,
            pool: pool, client: client))
    }

    /// The live token family of a refresh token of `client`, and its user and groups; refused
    /// when the family was revoked or expired, or the user may not have tokens now (disabled,
    /// or made to choose a new password). `authenticate` checks the caller first (SECRET_HASH).
    func refreshableFamily(
        _ token: String, pool: PoolRecord, client: ClientRecord,
        authenticate: (TokenFamilyRecord, UserRecord) throws -> Void = { _, _ in }
    ) async throws -> (TokenFamilyRecord, UserRecord, [GroupRecord]) {
        let now = time.now
        let (family, user, groups) = try await store.read { transaction -> (TokenFamilyRecord, UserRecord, [GroupRecord]) in
            let hash = RefreshTokens.hash(token)
            guard let (family, user, groups) = try await transaction.tokenFamilyWithUser(refreshTokenHash: hash),
                family.clientId == client.clientId, family.poolId == pool.id,
                // A rotated-out token only during its grace period.
                family.refreshTokenHash == hash || family.previousValidUntil.map({ now < $0 }) == true,
                let user
            else { throw CognitoError.invalidRefreshToken }
            return (family, user, groups)
        }
        try authenticate(family, user)
        guard family.revokedAt == nil else { throw CognitoError.revokedRefreshToken }
        guard now < family.expiresAt else { throw CognitoError.notAuthorized("Refresh Token has expired") }
        guard user.enabled else { throw CognitoError.userDisabled }
        // A user who must choose a new password gets no new tokens until they have.
        switch user.status {
        case .resetRequired: throw CognitoError.passwordResetRequired
        case .forceChangePassword: throw CognitoError.notAuthorized("User must change the temporary password to continue.")
        default: break
        }
        return (family, user, groups)
    }

    /// New ID and access tokens of an existing family (its scopes, its device), after the
    /// pool's PreTokenGeneration function; no new refresh token.
    func renewTokens(of family: TokenFamilyRecord, user: UserRecord, groups: [GroupRecord], source: String,
                     clientMetadata: [String: String]?, nonce: String? = nil, pool: PoolRecord,
                     client: ClientRecord) async throws -> IssuedTokens {
        let overrides = try await runPreTokenGeneration(
            source, user: user, groups: groups, pool: pool, client: client, clientMetadata: clientMetadata)
        let minted = try await tokens.issue(
            TokenContext(pool: pool, client: client, user: user, originJti: family.originJti, authTime: family.authTime,
                         groups: groups, overrides: overrides, deviceKey: family.deviceKey, scopes: family.scopes,
                         nonce: nonce),
            now: time.now)
        return IssuedTokens(
            idToken: minted.idToken, accessToken: minted.accessToken, refreshToken: nil, expiresIn: minted.expiresIn,
            originJti: family.originJti)
    }
}

extension IdentityService {
    /// The end of a password check, inside its transaction, with the verdict computed before
    /// it (so no exponentiation holds the database): under the user's lock, a lockout refuses
    /// the attempt whatever the verdict; a wrong password (or one changed meanwhile) is counted;
    /// a right one clears the count and completes the first factor.
    /// In a pool with threat protection, `screenedSignIn` does it and records the attempt;
    /// `password` is the password in clear when the flow carried it.
    func settlePasswordCheck(_ checked: UserRecord, correct: Bool, password: String?, pool: PoolRecord,
                             client: ClientRecord, device: String?,
                             in transaction: any StoreTransaction) async throws -> FirstFactorResult {
        if pool.threatProtection != .off {
            return try await screenedSignIn(
                checked, correct: correct, password: password, pool: pool, client: client, device: device, in: transaction)
        }
        let (user, standing) = try await settlePasswordVerdict(checked, correct: correct, in: transaction)
        return try await completeFirstFactor(
            user, groups: standing.groups, pool: pool, client: client, device: device, in: transaction)
    }

    /// The lockout and failure count of ``settlePasswordCheck(_:correct:password:pool:client:device:in:)``
    /// without what follows: returns the user, locked, with its groups and its failure record
    /// as it was, when the password was right. Two reads: the lock, then (`signInStanding`)
    /// the failure record it guards and the groups.
    func settlePasswordVerdict(_ checked: UserRecord, correct: Bool, in transaction: any StoreTransaction) async throws
        -> (user: UserRecord, standing: SignInStanding)
    {
        // An imported user has no password yet: whatever is typed, the answer is to reset it.
        if checked.password == nil, checked.status == .resetRequired { throw CognitoError.passwordResetRequired }
        let user = try await locked(checked, transaction)
        let standing = try await transaction.signInStanding(poolId: user.poolId, sub: user.sub)
        try refuseWhileLockedOut(standing.lockout)
        guard correct, user.password == checked.password else {
            try await recordFailedSignIn(user.sub, poolId: user.poolId, in: transaction)
            throw CommitAndFail(.incorrectCredentials)
        }
        if standing.lockout != nil { try await transaction.clearSignInLockout(poolId: user.poolId, subject: user.sub) }
        return (user, standing)
    }

    static let refreshNeedsRotation = CognitoError.invalidParameter(
        "REFRESH_TOKEN_AUTH is not supported for app clients with refresh token rotation enabled: use GetTokensFromRefreshToken.")
}
