import Foundation

/// Temporary AWS credentials from an identity pool (STS `AssumeRoleWithWebIdentity` through
/// `GetCredentialsForIdentity`): sign AWS requests with them (SigV4, `X-Amz-Security-Token`).
public struct AWSCredentials: Sendable, Equatable, Codable {
    public var accessKeyId: String
    public var secretAccessKey: String
    public var sessionToken: String
    /// When STS stops accepting them.
    public var expiration: Date

    public init(accessKeyId: String, secretAccessKey: String, sessionToken: String, expiration: Date) {
        self.accessKeyId = accessKeyId
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.expiration = expiration
    }

    /// Whether they expire within `margin` seconds of `now`.
    public func expires(within margin: TimeInterval, of now: Date = Date()) -> Bool {
        expiration.timeIntervalSince(now) <= margin
    }
}

/// What ``AuthClient/authSession()`` answers, as Amplify's `fetchAuthSession`: the identity
/// pool's identity of this profile and AWS credentials for it, and the user's tokens when one is
/// signed in.
public struct AuthSession: Sendable, Equatable {
    /// The identity-pool identity (`<region>:<uuid>`): a guest's, or the signed-in user's.
    public var identityId: String
    public var credentials: AWSCredentials
    /// The signed-in user's valid tokens (refreshed when needed); nil for a guest.
    public var tokens: AuthTokens?

    public init(identityId: String, credentials: AWSCredentials, tokens: AuthTokens?) {
        self.identityId = identityId
        self.credentials = credentials
        self.tokens = tokens
    }

    public var isSignedIn: Bool { tokens != nil }
}

/// The identity-pool identity a profile keeps (in its ``ProfileRecord``), so that a guest stays
/// the same guest across launches and the signed-in user's identity is found again.
public struct StoredIdentity: Sendable, Equatable, Codable {
    public var identityPoolId: String
    public var identityId: String
    /// The user (`sub`) whose identity this is; nil while it is a guest identity.
    public var userId: String?

    public init(identityPoolId: String, identityId: String, userId: String?) {
        self.identityPoolId = identityPoolId
        self.identityId = identityId
        self.userId = userId
    }
}
