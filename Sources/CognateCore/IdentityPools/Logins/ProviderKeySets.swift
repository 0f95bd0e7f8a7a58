import CognateProtocol
import CryptoExtras
import Foundation

/// The signing keys of OpenID Connect issuers (Google, Apple, OIDC providers): the issuer's
/// discovery document names its `jwks_uri`, whose RSA keys are kept per issuer as long as the
/// answer's `Cache-Control` allows (within a minute and a day). A token naming a `kid` the
/// kept set lacks reloads the set, at most once a minute per issuer (rotations are seen
/// quickly; forged kids cannot make every request a fetch). Calls go through ``UpstreamHTTP``
/// (no redirects followed).
actor ProviderKeySets {
    struct KeySet {
        var keys: [String: _RSA.Signing.PublicKey]
        var expires: Date
        var fetchedAt: Date
    }

    static let refetchInterval: TimeInterval = 60
    let upstream: any UpstreamHTTP
    private var sets: [String: KeySet] = [:]

    init(upstream: any UpstreamHTTP) { self.upstream = upstream }

    struct Failure: Error {
        var reason: String
    }

    /// The key `kid` of `issuer`, fetching the issuer's keys when needed; nil when the issuer
    /// has no such key.
    func key(issuer: String, kid: String, now: Date) async throws -> _RSA.Signing.PublicKey? {
        if let set = sets[issuer], now < set.expires {
            if let key = set.keys[kid] { return key }
            guard now.timeIntervalSince(set.fetchedAt) >= Self.refetchInterval else { return nil }
        }
        let set = try await fetch(issuer: issuer, now: now)
        if sets.count >= 1000 { sets = sets.filter { now < $0.value.expires } }
        sets[issuer] = set
        return set.keys[kid]
    }

    private func fetch(issuer: String, now: Date) async throws -> KeySet {
        guard let discovery = URL(string: issuer + "/.well-known/openid-configuration") else {
            throw Failure(reason: "\(issuer) is not a URL")
        }
        let (document, _) = try await json(discovery)
        guard let jwksText = document["jwks_uri"]?.stringValue, let jwks = URL(string: jwksText) else {
            throw Failure(reason: "the discovery document of \(issuer) names no jwks_uri")
        }
        let (keySet, headers) = try await json(jwks)
        var keys: [String: _RSA.Signing.PublicKey] = [:]
        if case .array(let entries)? = keySet["keys"] {
            for case .object(let jwk) in entries {
                guard jwk["kty"]?.stringValue == "RSA", let kid = jwk["kid"]?.stringValue,
                    let n = jwk["n"]?.stringValue.flatMap({ Base64URL.decode(Substring($0)) }),
                    let e = jwk["e"]?.stringValue.flatMap({ Base64URL.decode(Substring($0)) }),
                    let key = try? _RSA.Signing.PublicKey(n: n, e: e)
                else { continue }
                keys[kid] = key
            }
        }
        let lifetime = DiscoveryDocuments.lifetime(cacheControl: headers["cache-control"])
        return KeySet(keys: keys, expires: now.addingTimeInterval(lifetime), fetchedAt: now)
    }

    private func json(_ url: URL) async throws -> ([String: JSONValue], [String: String]) {
        let answer: UpstreamAnswer
        do {
            answer = try await upstream.send(method: "GET", url: url, headers: ["Accept": "application/json"], body: nil)
        } catch {
            throw Failure(reason: "\(url.host ?? "the provider") did not answer")
        }
        if let redirect = OutboundHTTP.redirectRefusal(answer.status) { throw Failure(reason: "\(url.absoluteString) \(redirect)") }
        guard answer.status == 200, case .object(let fields)? = try? JSONDecoder().decode(JSONValue.self, from: answer.body) else {
            throw Failure(reason: "\(url.absoluteString) answered \(answer.status)")
        }
        return (fields, answer.headers)
    }
}
