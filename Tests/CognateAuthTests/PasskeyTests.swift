import CognateAuth
import CognateProtocol
import Foundation
import Testing

/// Passkeys through the SDK with a software authenticator, against a live server: register,
/// list, sign in (preferred, and chosen), delete; and what the server refuses. The JSON the
/// SDK reads and writes for authenticators is checked on its own at the end.
struct PasskeyTests {
    static let relyingParty = "example.com"

    @Test func aPasskeyIsRegisteredListedUsedAndDeleted() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool(firstFactors: [.password, .webAuthn, .emailOtp], passkeysFor: Self.relyingParty)
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool, userAuth: true))
            try await live.confirmedUser(client, username: "eve", email: uniqueEmail("passkey"))
            _ = try await client.signIn(username: "eve", password: "Passw0rd1")
            #expect(try await client.fetchAuthFactors() == [.password, .emailOTP])

            let authenticator = SoftwarePasskeyAuthenticator()
            try await client.associateWebAuthnCredential(authenticator: authenticator)
            let listed = try await client.listWebAuthnCredentials()
            #expect(listed.count == 1)
            let passkey = try #require(listed.first)
            #expect(passkey.relyingPartyId == Self.relyingParty && passkey.authenticatorAttachment == "platform")
            #expect(passkey.transports == ["internal", "hybrid"])
            #expect(try await client.fetchAuthFactors() == [.password, .webAuthn, .emailOTP])
            try await client.signOut()

            // Preferred: the passkey is asked for at once.
            guard case .passkeyRequired(let request) = try await client.signIn(username: "eve", preferred: .webAuthn) else {
                Issue.record("expected the passkey step")
                return
            }
            #expect(request.relyingPartyId == Self.relyingParty && request.allowedCredentialIds == [passkey.credentialId])
            // The user cancels the system's sheet: the challenge stays, and is answered after.
            authenticator.fail(with: SoftwarePasskeyAuthenticator.Cancelled())
            await expectAuthError({ _ = try await client.confirmSignIn(passkey: authenticator) }) {
                $0 == .authenticator(SoftwarePasskeyAuthenticator.Cancelled())
            }
            authenticator.fail(with: nil)
            guard case .signedIn(let user) = try await client.confirmSignIn(passkey: authenticator) else {
                Issue.record("expected signedIn with the passkey")
                return
            }
            #expect(user.username == "eve")
            #expect(authenticator.counters == [1])
            try await client.signOut()

            // Chosen when asked.
            #expect(try await client.signIn(username: "eve")
                == .firstFactorSelection([.password, .passwordSRP, .webAuthn, .emailOTP]))
            guard case .passkeyRequired = try await client.confirmSignIn(firstFactor: .webAuthn),
                case .signedIn = try await client.confirmSignIn(passkey: authenticator)
            else {
                Issue.record("expected signedIn with the chosen passkey")
                return
            }
            #expect(authenticator.counters == [2])

            // Deleted, it no longer signs in.
            try await client.deleteWebAuthnCredential(credentialId: passkey.credentialId)
            #expect(try await client.listWebAuthnCredentials().isEmpty)
            await expectAuthError({ try await client.deleteWebAuthnCredential(credentialId: passkey.credentialId) }) {
                if case .resourceNotFound = $0 { true } else { false }
            }
            try await client.signOut()
            #expect(try await client.signIn(username: "eve", preferred: .webAuthn)
                == .firstFactorSelection([.password, .passwordSRP, .emailOTP]))
        }
    }

    @Test func whatTheServerRefusesIsATypedError() async throws {
        try await LiveServer.with { live in
            // A pool that does not allow passkeys.
            let plain = try await live.makePool(firstFactors: [.password, .emailOtp])
            let plainClient = live.authClient(pool: plain, client: try await live.makeClient(pool: plain, userAuth: true))
            try await live.confirmedUser(plainClient, username: "fin", email: uniqueEmail("plain"))
            _ = try await plainClient.signIn(username: "fin", password: "Passw0rd1")
            let authenticator = SoftwarePasskeyAuthenticator()
            await expectAuthError({ try await plainClient.associateWebAuthnCredential(authenticator: authenticator) }) {
                if case .webAuthnNotEnabled = $0 { true } else { false }
            }

            let pool = try await live.makePool(firstFactors: [.password, .webAuthn], passkeysFor: Self.relyingParty)
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool, userAuth: true))
            try await live.confirmedUser(client, username: "gil", email: uniqueEmail("refused"))
            _ = try await client.signIn(username: "gil", password: "Passw0rd1")
            // Another site's origin cannot register a passkey for the relying party.
            authenticator.present(origin: "https://evil.example.net")
            await expectAuthError({ try await client.associateWebAuthnCredential(authenticator: authenticator) }) {
                if case .webAuthnOriginNotAllowed = $0 { true } else { false }
            }
            authenticator.present(origin: nil)
            try await client.associateWebAuthnCredential(authenticator: authenticator)
            try await client.signOut()
            await expectAuthError({ try await client.associateWebAuthnCredential(authenticator: authenticator) }) {
                $0 == .notSignedIn
            }

            // Nor sign in with it: the refusal ends the sign-in.
            guard case .passkeyRequired = try await client.signIn(username: "gil", preferred: .webAuthn) else {
                Issue.record("expected the passkey step")
                return
            }
            authenticator.present(origin: "https://example.com.evil.net")
            await expectAuthError({ _ = try await client.confirmSignIn(passkey: authenticator) }) {
                if case .notAuthorized = $0 { true } else { false }
            }
            authenticator.present(origin: nil)
            await expectAuthError({ _ = try await client.confirmSignIn(passkey: authenticator) }) {
                if case .invalidState = $0 { true } else { false }
            }
            #expect(await client.state() == .signedOut)
        }
    }

    /// The options and answers as the SDK reads and writes them for authenticators.
    @Test func webAuthnJSONIsReadAndWritten() throws {
        let creation = try PasskeyCreationOptions(json: """
            {"rp":{"id":"example.com","name":"Clinic"},"user":{"id":"dXNlci0x","name":"ada","displayName":"Ada"},
             "challenge":"AAEC_-8","pubKeyCredParams":[{"type":"public-key","alg":-7},{"type":"public-key","alg":-257}],
             "timeout":60000,"excludeCredentials":[{"type":"public-key","id":"BAU"}],
             "authenticatorSelection":{"residentKey":"required","userVerification":"required"}}
            """)
        #expect(creation == PasskeyCreationOptions(
            relyingPartyId: "example.com", relyingPartyName: "Clinic", userId: Data("user-1".utf8), userName: "ada",
            userDisplayName: "Ada", challenge: Data([0, 1, 2, 0xff, 0xef]), algorithms: [-7, -257],
            excludedCredentialIds: [Data([4, 5])], userVerification: .required, timeout: 60))
        let request = try PasskeyRequestOptions(json: #"{"rpId":"example.com","challenge":"AAEC","allowCredentials":[]}"#)
        #expect(request == PasskeyRequestOptions(relyingPartyId: "example.com", challenge: Data([0, 1, 2])))
        #expect(throws: PasskeyJSONError.self) { try PasskeyRequestOptions(json: #"{"challenge":"AAEC"}"#) }
        #expect(throws: PasskeyJSONError.self) { try PasskeyRequestOptions(json: #"{"rpId":"example.com","challenge":"AA+/"}"#) }

        let assertion = PasskeyAssertion(
            credentialId: Data([0xfb, 0xff]), clientDataJSON: Data("{}".utf8), authenticatorData: Data([1]),
            signature: Data([2, 3]), userHandle: Data("user-1".utf8), attachment: "platform")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(assertion.json.utf8)) as? [String: Any])
        #expect(json["id"] as? String == "-_8" && json["rawId"] as? String == "-_8" && json["type"] as? String == "public-key")
        let response = try #require(json["response"] as? [String: String])
        #expect(response == ["clientDataJSON": "e30", "authenticatorData": "AQ", "signature": "AgM", "userHandle": "dXNlci0x"])
    }
}
