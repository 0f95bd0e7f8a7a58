import Crypto
import Foundation

/// Single sign-on on the hosted pages, as Cognito's managed login keeps it: for an hour after
/// a hosted sign-in, the same browser is signed in to every app client of the pool without the
/// sign-in page — a new authorization gets its code at once.
///
/// Contract: the session is a ``RecentSignIn`` carried by the browser (an `HttpOnly` cookie,
/// sealed with a key of its own purpose, so a `/passkeys/add` proof never opens as one; nothing
/// stored) and opens only with the browser's ``BrowserBinding``, in the pool it names, within
/// ``lifetime`` of the sign-in, while the sign-in's token family stands
/// (GlobalSignOut, RevokeToken, an administrator's sign-out, reset, disable or deletion end it),
/// while the user may sign in, and while the password is the one of that sign-in (a change
/// ends it). `/logout` removes the cookie; `prompt=login` asks for the page anyway. A user
/// signed in this way gets the tokens a hosted sign-in gives (`TokenGeneration_HostedAuth`),
/// without a second factor: the session's sign-in had it.
struct HostedSessions: Sendable {
    let store: any Store
    let time: any TimeSource
    let sealer: Sealer
    let authenticator: AccessTokenAuthenticator
    let completion: SignInCompletion
    let tokenFamilies: TokenFamilies

    /// Cognito's managed login session.
    static let lifetime: TimeInterval = 3600

    init(store: any Store, time: any TimeSource, serverKey: SymmetricKey, authenticator: AccessTokenAuthenticator,
         completion: SignInCompletion, tokenFamilies: TokenFamilies) {
        self.store = store
        self.time = time
        sealer = Sealer(serverKey: serverKey, purpose: "hosted-sso-session")
        self.authenticator = authenticator
        self.completion = completion
        self.tokenFamilies = tokenFamilies
    }

    /// The sealed session a hosted sign-in leaves in the browser.
    func seal(_ signIn: RecentSignIn) throws -> String {
        try sealer.seal(signIn, expires: Date(timeIntervalSince1970: signIn.authTime) + Self.lifetime)
    }

    /// The SAML sign-in of the session the browser carries, for its single logout.
    func samlSession(_ sealed: String?, browser: BrowserBinding) -> SAMLSessionReference? {
        guard let sealed, sealed.utf8.count <= 4096,
            let session = sealer.open(Substring(sealed), as: RecentSignIn.self, now: time.now), browser.matches(session.binding)
        else { return nil }
        return session.saml
    }

    /// Tokens for `client` from the session the browser carries (`sealed`), when it stands;
    /// nil otherwise (the sign-in page is shown).
    func signIn(_ sealed: String?, browser: BrowserBinding, pool: PoolRecord, client: ClientRecord) async -> IssuedTokens? {
        guard let sealed, sealed.utf8.count <= 4096,
            let session = sealer.open(Substring(sealed), as: RecentSignIn.self, now: time.now),
            browser.matches(session.binding), session.poolId == pool.id,
            // A session serves the clients that offer the way it began: a password sign-in does
            // not open a client restricted to its identity providers, nor one provider's another's.
            (client.settings.supportedIdentityProviders ?? []).contains(session.provider ?? "COGNITO")
        else { return nil }
        let authTime = Date(timeIntervalSince1970: session.authTime)
        guard let caller = try? await authenticator.signedInUser(
                sub: session.sub, originJti: session.originJti, authTime: authTime, pool: pool, client: client),
            caller.user.status != .forceChangePassword,
            (caller.user.passwordUpdatedAt ?? .distantPast) <= authTime
        else { return nil }
        guard let result = try? await store.transaction({ transaction in
                try await completion.completeFirstFactor(caller.user, pool: pool, client: client, askingForMfa: false, in: transaction)
            }),
            case .tokens(let tokens)? = try? await tokenFamilies.outcome(
                of: result, source: "TokenGeneration_HostedAuth", clientMetadata: nil, pool: pool, client: client)
        else { return nil }
        return tokens
    }
}
