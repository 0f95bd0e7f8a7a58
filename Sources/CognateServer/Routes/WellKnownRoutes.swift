import CognateCore
import Foundation
import Hummingbird

/// `GET /<poolId>/.well-known/jwks.json` and `/openid-configuration`: what clients need to
/// verify tokens (the issuer of a pool's tokens is `<publicBaseURL>/<poolId>`). The discovery
/// document advertises only endpoints this server answers.
enum WellKnownRoutes {
    static func add(to router: Router<CognateRequestContext>, service: IdentityService, cors: CORSPolicy) {
        router.get("/:poolId/.well-known/jwks.json") { request, context in
            let poolId = try context.parameters.require("poolId")
            if poolId == SigningKeyRing.identityKeySet {
                return try JSONResponse.ok(try await service.identities.jwks()).allowing(cors, for: request)
            }
            guard let jwks = try await service.pools.jwks(poolId: poolId) else {
                return JSONResponse.notFound("User pool \(poolId) does not exist.")
            }
            return try JSONResponse.ok(jwks).allowing(cors, for: request)
        }
        router.get("/:poolId/.well-known/openid-configuration") { request, context in
            let poolId = try context.parameters.require("poolId")
            if poolId == SigningKeyRing.identityKeySet { return try identityDiscovery(service).allowing(cors, for: request) }
            guard try await service.pools.poolExists(poolId) else { return JSONResponse.notFound("User pool \(poolId) does not exist.") }
            let issuer = service.oauth.issuer(poolId: poolId)
            let base = service.oauth.publicBaseURL
            let document: [String: JSONAny] = [
                "issuer": .string(issuer),
                "jwks_uri": .string(issuer + "/.well-known/jwks.json"),
                "authorization_endpoint": .string(base + "/oauth2/authorize"),
                "token_endpoint": .string(base + "/oauth2/token"),
                "userinfo_endpoint": .string(base + "/oauth2/userInfo"),
                "revocation_endpoint": .string(base + "/oauth2/revoke"),
                "end_session_endpoint": .string(base + "/logout"),
                "response_types_supported": .strings(["code", "token"]),
                "grant_types_supported": .strings(["authorization_code", "implicit", "refresh_token", "client_credentials"]),
                "scopes_supported": .strings(["openid", "email", "phone", "profile", "aws.cognito.signin.user.admin"]),
                "code_challenge_methods_supported": .strings(["S256"]),
                "token_endpoint_auth_methods_supported": .strings(["client_secret_basic", "client_secret_post"]),
                "subject_types_supported": .strings(["public"]),
                "id_token_signing_alg_values_supported": .strings(["RS256"]),
            ]
            return try JSONResponse.ok(document).allowing(cors, for: request)
        }
    }
}

extension WellKnownRoutes {
    /// The discovery document of the identity service's OpenID tokens (issuer
    /// `<public URL>/cognito-identity`): what an OIDC consumer (STS, MinIO, Vault) reads to find
    /// the keys. The tokens come from GetOpenIdToken, not from an authorization endpoint.
    static func identityDiscovery(_ service: IdentityService) throws -> Response {
        let issuer = service.identities.issuer
        let document: [String: JSONAny] = [
            "issuer": .string(issuer),
            "jwks_uri": .string(issuer + "/.well-known/jwks.json"),
            "response_types_supported": .strings(["id_token"]),
            "subject_types_supported": .strings(["public"]),
            "id_token_signing_alg_values_supported": .strings(["RS256"]),
            "claims_supported": .strings(["iss", "sub", "aud", "amr", "exp", "iat"]),
        ]
        return try JSONResponse.ok(document)
    }
}

/// A string or a list of strings, enough for discovery documents.
enum JSONAny: Encodable {
    case string(String)
    case strings([String])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .strings(let value): try container.encode(value)
        }
    }
}

enum JSONResponse {
    static func ok<Body: Encodable>(_ body: Body) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(body))))
    }

    static func notFound(_ message: String) -> Response {
        status(.notFound, ["message": message])
    }

    static func status(_ status: HTTPResponse.Status, _ body: [String: String]) -> Response {
        let data = (try? JSONEncoder().encode(body)) ?? Data()
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
