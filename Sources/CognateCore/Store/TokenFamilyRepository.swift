import Foundation

/// What a request with an access token needs of its family: whether it was revoked, and the
/// device it was issued to.
public struct TokenFamilyStanding: Sendable, Equatable {
    public var revokedAt: Date?
    public var deviceKey: String?

    public init(revokedAt: Date?, deviceKey: String?) {
        self.revokedAt = revokedAt
        self.deviceKey = deviceKey
    }
}

/// One authentication and everything issued from it: the refresh token (stored as a hash) and
/// the ID and access tokens sharing its `origin_jti`. Revoking the family revokes them all.
public struct TokenFamilyRecord: Sendable, Equatable {
    public var originJti: String
    public var poolId: String
    public var clientId: String
    public var userSub: String
    /// SHA-256 of the refresh token (hex); nil when no refresh token was issued.
    public var refreshTokenHash: String?
    public var authTime: Date
    public var createdAt: Date
    public var expiresAt: Date
    public var revokedAt: Date?
    /// The remembered device the tokens were issued to, if any.
    public var deviceKey: String?
    /// The OAuth scopes the family was granted (hosted sign-in); nil: the API's
    /// `aws.cognito.signin.user.admin`.
    public var scopes: [String]?
    /// With refresh token rotation: the refresh token the current one replaced, accepted until
    /// `previousValidUntil` (the client's retry grace period).
    public var previousRefreshTokenHash: String?
    public var previousValidUntil: Date?

    public init(originJti: String, poolId: String, clientId: String, userSub: String, refreshTokenHash: String?,
                authTime: Date, createdAt: Date, expiresAt: Date, revokedAt: Date? = nil, deviceKey: String? = nil,
                scopes: [String]? = nil, previousRefreshTokenHash: String? = nil, previousValidUntil: Date? = nil) {
        self.deviceKey = deviceKey
        self.previousRefreshTokenHash = previousRefreshTokenHash
        self.previousValidUntil = previousValidUntil
        self.scopes = scopes
        self.originJti = originJti
        self.poolId = poolId
        self.clientId = clientId
        self.userSub = userSub
        self.refreshTokenHash = refreshTokenHash
        self.authTime = authTime
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
    }
}

public protocol TokenFamilyRepository: Sendable {
    func insertTokenFamily(_ family: TokenFamilyRecord) async throws
    /// The family of a right password settled without the user's lock: inserted by one
    /// statement only while `user`'s row is as it
    /// was read — the same password, status and enabled flag — and the user has no failure
    /// record; false, with nothing written, otherwise. Where the database has row locks the
    /// statement takes a share lock of the user's row, so it waits for a concurrent change of
    /// the user (a password set, a disable revoking the user's families) and then checks the
    /// changed row.
    func insertTokenFamily(_ family: TokenFamilyRecord, ifSignInStands user: UserRecord) async throws -> Bool
    /// The same, for a sign-in that uses up a challenge session (SRP's SECRET_BLOCK): the
    /// session with `sessionTokenHash` is deleted and, only if it was there, `family` inserted
    /// as above. One statement on PostgreSQL; on
    /// SQLite, which has no data-modifying WITH, its two steps in the writer's transaction.
    /// `usedUp` false: the session was gone (used by another request, or expired and swept),
    /// and nothing was written.
    func insertTokenFamily(_ family: TokenFamilyRecord, ifSignInStands user: UserRecord,
                           usingUpSession sessionTokenHash: String) async throws -> (usedUp: Bool, stored: Bool)
    /// The family whose current — or previous, with rotation — refresh token has this hash.
    func tokenFamily(refreshTokenHash: String) async throws -> TokenFamilyRecord?
    /// The same family with its user (nil when the user is gone) and the user's groups in
    /// token order, read in one statement when the hash is the family's current refresh token
    /// (what every refresh needs).
    func tokenFamilyWithUser(refreshTokenHash: String) async throws
        -> (family: TokenFamilyRecord, user: UserRecord?, groups: [GroupRecord])?
    /// Rotation: `newHash` becomes the family's refresh token. When `presentedHash` is the
    /// current one it becomes the previous, accepted until `previousValidUntil`; when it is the
    /// previous (a retry) that stays as it is. False when neither matches any more (a
    /// concurrent rotation won).
    func rotateRefreshToken(originJti: String, presentedHash: String, newHash: String, previousValidUntil: Date) async throws
        -> Bool
    func tokenFamily(originJti: String) async throws -> TokenFamilyRecord?
    /// The user `sub` of the pool, and the standing of the family `originJti` when that family
    /// is the user's, read in one statement (what every request with an access token needs);
    /// nil without the user.
    func user(poolId: String, sub: String, withTokenFamily originJti: String) async throws
        -> (user: UserRecord, family: TokenFamilyStanding?)?
    func revokeTokenFamily(originJti: String, at date: Date) async throws
    /// Sets the scopes of a family (an authorization code exchanged for its tokens).
    func setTokenFamilyScopes(originJti: String, scopes: [String]) async throws
    /// Revokes every family of the user (global sign-out).
    func revokeTokenFamilies(poolId: String, userSub: String, at date: Date) async throws
}
