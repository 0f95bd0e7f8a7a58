import CognateProtocol
import CognateSAML
import Foundation

/// A single logout sent to a SAML provider, waiting for its LogoutResponse.
struct SAMLLogoutState: Codable, Sendable {
    var requestID: String
    var provider: String
    /// Where the browser goes once the provider answered (the `/logout` request's destination).
    var destination: String
}

/// Single logout with a SAML provider that has `IDPSignout`: `/logout` in a browser whose
/// hosted session came from that provider sends it a LogoutRequest (HTTP-Redirect, always signed
/// with the pool's signing key, as Cognito signs every logout request) for the NameID and
/// SessionIndex of that sign-in; the provider answers with a LogoutResponse POSTed to
/// `/saml2/logout`, after which the browser goes where `/logout` was asked to send it.
struct SAMLLogout: Sendable {
    let federation: Federation

    /// The provider's SingleLogoutService address with the LogoutRequest, or nil when the
    /// session's provider does not take part (no `IDPSignout`, no redirect SingleLogoutService,
    /// another pool).
    func begin(_ session: SAMLSessionReference, destination: String, clientId: String) async throws -> String? {
        guard let (pool, client) = try? await federation.directory.requireClient(clientId), pool.id == session.poolId,
            let provider = try await federation.store.read({ try await $0.identityProvider(poolId: pool.id, name: session.provider) }),
            provider.type == .saml, SAMLProviderDetails.isTrue(provider.details, SAMLProviderDetails.signOut),
            let metadata = try? await federation.saml.currentMetadata(of: provider),
            let endpoint = metadata.singleLogoutRedirect
        else { return nil }
        let requestID = "_" + federation.random.bytes(16).map { String(format: "%02x", $0) }.joined()
        let relayState = try await federation.store.write { transaction in
            try await federation.authSessions.openAuthSession(
                .samlLogout, state: SAMLLogoutState(requestID: requestID, provider: provider.name, destination: destination),
                user: nil, pool: pool, client: client, encoding: .session, lifetime: SAMLSignIn.requestLifetime, in: transaction)
        }
        let message = ServiceProviderMessages.logoutRequest(
            id: requestID, entityID: SAMLSignIn.entityID(of: pool.id), destination: endpoint, nameID: session.nameID,
            format: session.nameIDFormat, sessionIndex: session.sessionIndex, now: federation.time.now)
        return try RedirectBinding.url(
            destination: endpoint, parameter: "SAMLRequest", message: message, relayState: relayState,
            signer: try await federation.saml.poolSigner(pool))
    }

    /// `POST /saml2/logout` (`SAMLResponse`: a LogoutResponse; `RelayState`): where the browser
    /// goes now. The RelayState must name a logout this server sent (used up) and the response
    /// must answer its request; a failed status still ends the logout here (the user is signed
    /// out of Cognate either way) and is logged.
    func finish(_ form: [String: String]) async throws -> String {
        let relayState = form["RelayState"] ?? ""
        guard !relayState.isEmpty, relayState.count <= 512,
            let record = try await federation.store.read({ try await $0.authSession(tokenHash: AuthSessions.hash(relayState)) }),
            let (pool, client) = try? await federation.directory.requireClient(record.clientId),
            let state = try? await federation.store.write({ transaction -> SAMLLogoutState in
                let pending = try await federation.authSessions.readAuthSession(
                    relayState, challenge: .samlLogout, as: SAMLLogoutState.self, pool: pool, client: client, in: transaction)
                try await federation.authSessions.consumeAuthSession(pending.record, in: transaction)
                return pending.state
            })
        else { throw AuthorizationPageError(message: "This sign-out has expired or was not started here.", reason: .expired) }
        guard let provider = try await federation.store.read({ try await $0.identityProvider(poolId: pool.id, name: state.provider) }),
            let metadata = try? await federation.saml.currentMetadata(of: provider)
        else { return state.destination }   // the provider is gone: nothing to check it against
        let answer: LogoutResponseReader
        do {
            answer = try LogoutResponseReader.read(
                base64: form["SAMLResponse"] ?? "", from: metadata, destination: federation.saml.logoutEndpoint)
        } catch let error as SAMLError {
            federation.log("saml: \(state.provider): single logout answer refused: \(SAMLSignIn.loggable(error.reason))")
            throw AuthorizationPageError(message: "The identity provider's sign-out answer was refused.")
        }
        guard answer.inResponseTo == state.requestID else {
            throw AuthorizationPageError(message: "The identity provider's sign-out answer is for another request.")
        }
        if !answer.succeeded { federation.log("saml: \(state.provider): single logout answered \(answer.status)") }
        return state.destination
    }
}

extension Federation {
    /// `/logout` for a browser whose hosted session came from a SAML provider: see ``SAMLLogout``.
    public func beginSAMLLogout(_ session: SAMLSessionReference, destination: String, clientId: String) async throws -> String? {
        try await SAMLLogout(federation: self).begin(session, destination: destination, clientId: clientId)
    }

    /// `POST /saml2/logout`: see ``SAMLLogout``.
    public func finishSAMLLogout(_ form: [String: String]) async throws -> String {
        try await SAMLLogout(federation: self).finish(form)
    }
}

extension OAuth {
    /// The SAML sign-in behind the single sign-on session `sealed` of `browser`, if any.
    public func samlSession(_ sealed: String?, browser: BrowserBinding) -> SAMLSessionReference? {
        hostedSessions.samlSession(sealed, browser: browser)
    }
}
