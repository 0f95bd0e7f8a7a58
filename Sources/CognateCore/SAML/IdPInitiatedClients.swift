import CognateProtocol
import Foundation

/// Cognito's rule for IdP-initiated SAML: an app client that offers a SAML provider accepting
/// unsolicited responses (`IDPInit`) offers SAML providers only — not the pool's own sign-in
/// (`COGNITO`), no social or OIDC provider. Checked where either side is configured (the
/// client's SupportedIdentityProviders, the provider's IDPInit) and again at the sign-in.
enum IdPInitiatedClients {
    /// InvalidParameterException when `names` (a client's SupportedIdentityProviders) break the rule.
    static func check(_ names: [String], poolId: String, in transaction: any StoreTransaction) async throws {
        guard !names.isEmpty else { return }
        var idpInitiated: [String] = []
        var others: [String] = []
        for name in names {
            if name == "COGNITO" {
                others.append(name)
                continue
            }
            guard let provider = try await transaction.identityProvider(poolId: poolId, name: name) else { continue }
            if provider.type != .saml {
                others.append(name)
            } else if SAMLProviderDetails.isTrue(provider.details, SAMLProviderDetails.idpInitiated) {
                idpInitiated.append(name)
            }
        }
        guard idpInitiated.isEmpty || others.isEmpty else {
            throw CognitoError.invalidParameter(
                "An app client with a SAML provider that accepts IdP-initiated sign-in (\(idpInitiated.joined(separator: ", "))) "
                    + "can offer only SAML providers, not \(others.joined(separator: ", ")).")
        }
    }

    /// The same rule when `provider` is about to accept IdP-initiated sign-in: every app client
    /// of its pool that offers it must offer SAML providers only.
    static func check(enabling provider: String, poolId: String, in transaction: any StoreTransaction) async throws {
        var after: String?
        repeat {
            let page = try await transaction.listClients(poolId: poolId, after: after, limit: 60)
            for client in page.items {
                let names = client.settings.supportedIdentityProviders ?? []
                guard names.contains(provider) else { continue }
                let others = names.filter { $0 != provider }
                for name in others {
                    let other = name == "COGNITO" ? nil : try await transaction.identityProvider(poolId: poolId, name: name)
                    if name == "COGNITO" || (other != nil && other?.type != .saml) {
                        throw CognitoError.invalidParameter(
                            "The app client \(client.clientId) offers \(name): a SAML provider that accepts IdP-initiated "
                                + "sign-in can be offered only by app clients that offer SAML providers only.")
                    }
                }
            }
            after = page.next
        } while after != nil
    }
}
