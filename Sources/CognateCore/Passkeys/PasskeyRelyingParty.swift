import CognateProtocol
import CognateWebAuthn
import Foundation

/// The relying party a pool's passkeys belong to: its RP ID, the name shown to users, and
/// whether assertions and registrations must carry user verification.
struct PasskeyRelyingParty: Sendable, Equatable {
    var id: String
    var name: String
    var userVerification: UserVerificationType

    var requiresUserVerification: Bool { userVerification == .required }

    /// Whether a ceremony run at `origin` may speak for this RP ID: a web origin over HTTPS
    /// whose host is the RP ID or one of its subdomains (any port), the same over HTTP when
    /// the RP ID is `localhost` or under it (browsers treat those as secure), or an Android
    /// app's `android:apk-key-hash:` origin (the app's Digital Asset Links tie it to the RP ID;
    /// the authenticator data's RP ID hash is checked whatever the origin).
    func allows(origin: String) -> Bool {
        if origin.hasPrefix("android:apk-key-hash:") { return origin.count > "android:apk-key-hash:".count }
        guard let url = URL(string: origin), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(),
            url.path.isEmpty, url.query == nil, url.user == nil
        else { return false }
        let rpId = id.lowercased()
        guard host == rpId || host.hasSuffix("." + rpId) else { return false }
        switch scheme {
        case "https": return true
        case "http": return rpId == "localhost" || rpId.hasSuffix(".localhost")
        default: return false
        }
    }

    /// The verifier's relying party for a response whose client data names `origin`, or
    /// WebAuthnOriginNotAllowedException.
    func verifying(clientDataJSON: [UInt8]) throws -> RelyingParty {
        let origin: String
        do { origin = try CollectedClientData(json: clientDataJSON).origin } catch { throw error.cognitoError }
        guard allows(origin: origin) else {
            throw CognitoError(.webAuthnOriginNotAllowed, "The passkey's origin \(origin) is not allowed for the relying party \(id).")
        }
        return RelyingParty(id: id, origins: [origin])
    }
}

extension PasskeyRelyingParty {
    /// The relying party of `pool`: its WebAuthnConfiguration's RP ID, else the host of its
    /// domain's hosted pages (a custom domain's name; for a prefix domain the server's public
    /// host). A pool with neither cannot use passkeys (WebAuthnConfigurationMissingException),
    /// as in Cognito.
    static func of(_ pool: PoolRecord, domain: DomainRecord?, publicBaseURL: String) throws -> PasskeyRelyingParty {
        let configured = pool.mfa.webAuthn
        let id: String
        if let relyingPartyId = configured?.relyingPartyId, !relyingPartyId.isEmpty {
            id = relyingPartyId
        } else if let domain {
            id = domain.domain.contains(".") ? domain.domain : (URL(string: publicBaseURL)?.host ?? "localhost")
        } else {
            throw CognitoError(
                .webAuthnConfigurationMissing,
                "The user pool has no relying party ID for passkeys: set WebAuthnConfiguration.RelyingPartyId "
                    + "(SetUserPoolMfaConfig) or create a user pool domain.")
        }
        return PasskeyRelyingParty(id: id, name: pool.name, userVerification: configured?.userVerification ?? .preferred)
    }

    /// Whether `pool` lets users sign in with passkeys (WEB_AUTHN among its first factors).
    static func enabled(in pool: PoolRecord) -> Bool {
        pool.settings.policies?.signInPolicy?.allowedFirstAuthFactors?.contains(.webAuthn) ?? false
    }
}
