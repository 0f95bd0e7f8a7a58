import CognateAuth
import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// RegistrationFlow in pools that require MFA (the sign-in's second factor is a step of the
/// flow), an app-supplied profile check (a profile kept in the app's own backend), and
/// `authorizedRequest` for the app's API once registered.
struct RegistrationSecondFactorTests {
    /// The app's backend, holding what the profile needs beyond the pool's attributes.
    actor Backend {
        var acceptedTerms: Set<String> = []
        func accept(_ sub: String) { acceptedTerms.insert(sub) }
        func missing(for attributes: [String: String]) -> [String] {
            acceptedTerms.contains(attributes["sub"] ?? "") ? [] : ["terms"]
        }
    }

    @Test func anEmailCodeIsAStepOfTheRegistrationAndTheBackendDecidesTheProfile() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            _ = try await live.service.pools.setUserPoolMfaConfig(SetUserPoolMfaConfigRequest(
                userPoolId: pool, emailMfaConfiguration: EmailMfaConfigType(), mfaConfiguration: .on))
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))
            let backend = Backend()
            let flow = RegistrationFlow(client: client, profileCheck: { await backend.missing(for: $0) })
            let email = uniqueEmail("reg-mfa")

            guard case .confirmSignUp = try await flow.signUp(username: "rae", password: "Passw0rd1", attributes: ["email": email])
            else { Issue.record("expected the code step"); return }
            let afterCode = try await flow.confirm(code: try await live.lastCode(to: email))
            guard case .secondFactor(let name, .code(let challenge)) = afterCode else {
                Issue.record("expected the emailed MFA code, got \(afterCode)")
                return
            }
            #expect(name == "rae" && challenge.kind == .email)
            // After a restart the MFA session is gone: the flow asks for the password again.
            #expect(try await RegistrationFlow(client: client).resume() == .signIn(username: "rae"))

            await expectAuthError({ _ = try await flow.confirmSecondFactor(code: "000000") }) {
                if case .codeMismatch = $0 { true } else { false }
            }
            let signedIn = try await flow.confirmSecondFactor(code: try await live.lastCode(to: email))
            #expect(signedIn == .needsProfile(missing: ["terms"]))

            let sub = try #require(try await client.fetchUserAttributes()["sub"])
            await backend.accept(sub)
            #expect(try await flow.recheckProfile() == .complete)

            // The app's API gets the user's fresh access token.
            let request = try await client.authorizedRequest(URLRequest(url: URL(string: "https://api.example.com/me")!))
            #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer " + (try await client.currentSession().accessToken))
            // A bearer secret goes to https (or loopback) only.
            await expectAuthError({ _ = try await client.authorizedRequest(URLRequest(url: URL(string: "http://api.example.com/me")!)) }) {
                if case .invalidParameter = $0 { true } else { false }
            }
        }
    }

    @Test func aRequiredAuthenticatorAppIsSetUpDuringRegistration() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            _ = try await live.service.pools.setUserPoolMfaConfig(SetUserPoolMfaConfigRequest(
                userPoolId: pool, softwareTokenMfaConfiguration: SoftwareTokenMfaConfigType(enabled: true), mfaConfiguration: .on))
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))
            let flow = RegistrationFlow(client: client)
            let email = uniqueEmail("reg-totp")
            guard case .confirmSignUp = try await flow.signUp(username: "ty", password: "Passw0rd1", attributes: ["email": email])
            else { Issue.record("expected the code step"); return }
            // The pool requires MFA and offers the authenticator app alone: its set-up starts at once.
            guard case .secondFactor(_, .totpSetup(let secret)) = try await flow.confirm(code: try await live.lastCode(to: email))
            else { Issue.record("expected the authenticator app's set-up"); return }
            await expectAuthError({ _ = try await flow.chooseSecondFactor(.totp) }) {
                if case .invalidState = $0 { true } else { false }
            }
            let code = TOTP.code(secret: Base32.decode(secret) ?? [], step: TOTP.step(at: Date()))
            #expect(try await flow.confirmSecondFactor(code: code) == .complete)
            #expect(try await client.fetchMFAPreference().enabled.contains("SOFTWARE_TOKEN_MFA"))
        }
    }
}
