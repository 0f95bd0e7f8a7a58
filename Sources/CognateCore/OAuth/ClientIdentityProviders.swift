import CognateProtocol
import Foundation

/// The identity providers an app client offers on the hosted pages: its
/// `SupportedIdentityProviders` besides `COGNITO` that exist in the pool, in the client's
/// order — the sign-in page's buttons — and the one an `idp_identifier` names.
struct ClientIdentityProviders: Sendable {
    let store: any Store

    /// The client's providers that exist in its pool, `COGNITO` left out.
    func offered(by client: ClientRecord) async throws -> [IdentityProviderRecord] {
        let names = (client.settings.supportedIdentityProviders ?? []).filter { $0 != "COGNITO" }
        guard !names.isEmpty else { return [] }
        return try await store.read { transaction in
            var found: [IdentityProviderRecord] = []
            for name in names {
                if let provider = try await transaction.identityProvider(poolId: client.poolId, name: name) {
                    found.append(provider)
                }
            }
            return found
        }
    }

    /// The provider of the client one of whose `IdpIdentifiers` is `identifier` (compared
    /// without case, as email domains are); nil when none is.
    func provider(identifiedBy identifier: String, client: ClientRecord) async throws -> String? {
        let wanted = identifier.lowercased()
        return try await offered(by: client).first { $0.identifiers.contains { $0.lowercased() == wanted } }?.name
    }
}

extension OAuth {
    /// The names of the providers the hosted sign-in page offers as buttons for `clientId`.
    public func signInProviders(clientId: String) async -> [(name: String, type: IdentityProviderTypeType)] {
        guard let client = try? await directory.cachedClient(clientId),
            let providers = try? await ClientIdentityProviders(store: store).offered(by: client)
        else { return [] }
        return providers.map { ($0.name, $0.type) }
    }
}
