import CognateProtocol
import Crypto
import Foundation
import Testing

@testable import CognateCore

/// Social identity providers' parts that need no provider: Cognito's presets, the URL overrides
/// tests use, Apple's client secret (compat/test_social_providers.py signs in through fakes).
struct SocialProviderTests {
    @Test func appleClientSecretIsAnES256TokenOfTheTeamForTheApp() throws {
        let key = P256.Signing.PrivateKey()
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let secret = try AppleClientSecret.make(
            teamId: "TEAM123456", keyId: "KEY1234567", clientId: "com.example.web", privateKey: key.pemRepresentation, now: now)
        let pieces = secret.split(separator: ".").map(String.init)
        #expect(pieces.count == 3)
        let header = try JSONDecoder().decode([String: String].self, from: try #require(Base64URL.decode(pieces[0])))
        #expect(header == ["alg": "ES256", "kid": "KEY1234567"])
        let claims = try #require(Federation.unverifiedPayload(of: secret))
        #expect(claims["iss"] == .string("TEAM123456") && claims["sub"] == .string("com.example.web"))
        #expect(claims["aud"] == .string("https://appleid.apple.com"))
        #expect(claims["iat"] == .number(1_795_000_000) && claims["exp"] == .number(1_795_000_300))
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64URL.decode(pieces[2])))
        #expect(key.publicKey.isValidSignature(signature, for: Data((pieces[0] + "." + pieces[1]).utf8)))
    }

    @Test func applePrivateKeyIsReadHoweverItsLinesWereKept() throws {
        let key = P256.Signing.PrivateKey()
        let pem = key.pemRepresentation
        for text in [pem, pem.replacingOccurrences(of: "\n", with: "\\n"), pem.replacingOccurrences(of: "\n", with: " "),
                     pem.split(separator: "\n").dropFirst().dropLast().joined()] {
            #expect(try AppleClientSecret.signingKey(text).publicKey.rawRepresentation == key.publicKey.rawRepresentation)
        }
        #expect(throws: AppleClientSecret.InvalidKey.self) { try AppleClientSecret.signingKey("1EXAMPLE") }
    }

    @Test func overridesMoveAHostKeepingPathAndQuery() {
        let overrides = ProviderURLOverrides(bases: [
            "graph.facebook.com": "http://127.0.0.1:8081/", "www.amazon.com": "http://127.0.0.1:8082",
        ])
        #expect(overrides.resolve(URL(string: "https://graph.facebook.com/v17.0/me?fields=id,email")!).absoluteString
            == "http://127.0.0.1:8081/v17.0/me?fields=id,email")
        #expect(overrides.resolve(URL(string: "https://www.facebook.com/v17.0/dialog/oauth")!).absoluteString
            == "http://127.0.0.1:8081/v17.0/dialog/oauth")
        #expect(overrides.resolve(URL(string: "https://api.amazon.com/user/profile")!).absoluteString
            == "http://127.0.0.1:8082/user/profile")
        #expect(overrides.resolve(URL(string: "https://accounts.google.com/o/oauth2/v2/auth")!).absoluteString
            == "https://accounts.google.com/o/oauth2/v2/auth")
    }

    @Test func presetsAreCognitosAndWinOverGivenEndpoints() {
        let given = ["client_id": "1", "client_secret": "s", "authorize_scopes": "email", "api_version": "v17.0",
                     "token_url": "https://attacker.example/token"]
        let facebook = ProviderPreset.completed(given, type: .facebook)
        #expect(facebook["token_url"] == "https://graph.facebook.com/v17.0/oauth/access_token")
        #expect(facebook["token_request_method"] == "GET" && facebook["api_version"] == "v17.0")
        #expect(ProviderPreset.completed(["client_id": "1"], type: .facebook)["authorize_url"] == "https://www.facebook.com/dialog/oauth")
        #expect(ProviderPreset.completed(given, type: .oidc) == given)
        #expect(ProviderPreset.isGraphAPIVersion("v17.0") && !ProviderPreset.isGraphAPIVersion("v17")
            && !ProviderPreset.isGraphAPIVersion("v1.0/../x"))
        #expect(ProviderPreset.missingKeyMessage(of: .signInWithApple)
            == "client_id, team_id, key_id, private_key and authorize_scopes are all required idp details")
        #expect(ProviderPreset.shown(["private_key": "k", "team_id": "t"], type: .signInWithApple) == ["team_id": "t"])
        #expect(ProviderPreset.completedMapping(["email": "email"], type: .loginWithAmazon)
            == ["email": "email", "username": "user_id"])
        #expect(ProviderPreset.completedMapping(["email": "email"], type: .oidc) == ["email": "email"])
    }

    @Test func peopleAPIFieldsGiveTheirFirstValue() {
        let phones = JSONValue.array([.object(["value": .string("+15555550100")]), .object(["value": .string("+1")])])
        #expect(Federation.firstValue(phones) == "+15555550100")
        #expect(Federation.firstValue(.array([.object(["displayName": .string("Gus Gle")])])) == "Gus Gle")
        #expect(Federation.audiences(.array([.string("a"), .string("b")])) == ["a", "b"])
    }
}
