import CognateProtocol
import Foundation

extension OAuth {
    /// How long after a hosted sign-in `/passkeys/add` takes it as proof (``RecentSignIns``).
    public static let recentSignInLifetime = RecentSignIns.lifetime

    /// `/passkeys/add`'s query validated: `client_id`, an app client set up for the hosted pages
    /// (AllowedOAuthFlowsUserPoolClient) of a pool that allows passkeys (WEB_AUTHN among its
    /// first factors), and `redirect_uri`, exactly one of its CallbackURLs — where the browser
    /// goes back when the passkey is added. Anything else is an error page, never a redirect.
    public func passkeyAdditionRequest(_ query: [String: String]) async throws -> AuthorizationRequest {
        guard let clientId = query["client_id"], !clientId.isEmpty, clientId.count <= 128,
            let (pool, client) = try? await directory.requireClient(clientId)
        else { throw AuthorizationPageError(message: "The client_id is missing or names no app client.") }
        guard client.settings.allowedOAuthFlowsUserPoolClient == true else {
            throw AuthorizationPageError(message: "The app client is not set up for the hosted pages (AllowedOAuthFlowsUserPoolClient).")
        }
        guard let redirectURI = query["redirect_uri"], (client.settings.callbackURLs ?? []).contains(redirectURI) else {
            throw AuthorizationPageError(message: "redirect_mismatch: the redirect_uri is not one of the client's callback URLs.")
        }
        guard PasskeyRelyingParty.enabled(in: pool) else {
            throw AuthorizationPageError(
                message: "The user pool does not allow passkeys (WEB_AUTHN is not among its AllowedFirstAuthFactors).",
                reason: .passkeysUnavailable)
        }
        return AuthorizationRequest(clientId: clientId, redirectURI: redirectURI, responseType: "code", scopes: [],
                                    purpose: .addPasskey)
    }

    /// `/passkeys/add` in `browser`: with a recent sign-in there (`proof`, the cookie a hosted
    /// sign-in left; ``RecentSignIns``) the page that adds a passkey; else the sign-in page,
    /// after which that page follows instead of the app.
    public func beginPasskeyAddition(_ request: AuthorizationRequest, browser: BrowserBinding, proof: String?) async throws
        -> HostedSignInStep
    {
        let (pool, client) = try await directory.requireClient(request.clientId)
        guard let proof = passkeyAddition.open(proof, browser: browser, pool: pool),
            let caller = try? await passkeyAddition.caller(proof, pool: pool, client: client)
        else { return try await firstHostedPage(HostedFlowState(request: request), browser: browser, pool: pool, client: client) }
        try await store.write { try await self.allowances.consumeRequestAllowance(.hostedFlows, client: client, in: $0) }
        return try await passkeyAdditionPage(for: caller, proof: proof, request: request, error: nil, pool: pool, client: client)
    }

    /// The page adding a passkey for `caller` (a registration begun), stored as a flow. What
    /// keeps the user from adding one (their 20 passkeys, a pool without a relying party) is an
    /// error page.
    func passkeyAdditionPage(for caller: AuthenticatedUser, proof: RecentSignIn, request: AuthorizationRequest,
                             error: String?, pool: PoolRecord, client: ClientRecord) async throws -> HostedSignInStep {
        let state: HostedFlowState
        do {
            state = try await passkeyAddition.addingState(for: caller, proof: proof, request: request)
        } catch let refused as CognitoError {
            throw AuthorizationPageError(message: refused.message, reason: .passkeysUnavailable)
        }
        return try await hostedPage(state, error: error, pool: pool, client: client)
    }

    /// The passkey page answered: the new passkey registered for the sign-in the flow stands for,
    /// then a page leading back to the app. A refused passkey shows the page again (with a new
    /// registration: an answer uses its registration up); a sign-in that no longer stands (a
    /// sign-out, a disabled user) asks for a new one.
    func continuePasskeyAddition(_ state: HostedFlowState, form: [String: String], pool: PoolRecord, client: ClientRecord)
        async throws -> HostedSignInStep
    {
        guard let proof = state.signedIn, let caller = try? await passkeyAddition.caller(proof, pool: pool, client: client) else {
            return try await hostedPage(HostedFlowState(request: state.request, binding: state.binding),
                                        error: "Sign in again to add a passkey.", pool: pool, client: client)
        }
        do {
            try await passkeyAddition.register(form, for: caller)
        } catch let refused as CognitoError {
            return try await passkeyAdditionPage(
                for: caller, proof: proof, request: state.request, error: refused.message, pool: pool, client: client)
        }
        let name = HostedPasskeyAddition.displayName(of: caller.user, in: pool)
        return .page(.passkeyAdded(username: name, returnURL: state.request.redirectURI), flow: "", request: state.request)
    }
}
