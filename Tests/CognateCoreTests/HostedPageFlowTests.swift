import CognateProtocol
import Crypto
import Foundation
import Testing

@testable import CognateCore

/// The hosted pages' choice-based sign-in and `/passkeys/add`, step by step through the OAuth
/// capability (the browser and HTML are the compat suite's: test_hosted_passkeys_browser.py).
struct HostedPageFlowTests {
    static let callback = "https://app.example/callback"

    /// A pool with `factors` (and a relying party when it allows passkeys), an app client for the
    /// hosted pages, and a confirmed user `ada` with a verified email and a password.
    private func setUp(_ env: TestEnvironment, factors: [AuthFactorType], userAuth: Bool = true) async throws
        -> (pool: UserPoolType, client: UserPoolClientType)
    {
        let pool = try await env.pool(CreateUserPoolRequest(
            poolName: "hosted", policies: UserPoolPolicyType(signInPolicy: SignInPolicyType(allowedFirstAuthFactors: factors)),
            autoVerifiedAttributes: [.email]))
        if factors.contains(.webAuthn) {
            _ = try await env.service.pools.setUserPoolMfaConfig(SetUserPoolMfaConfigRequest(
                userPoolId: pool.id!, webAuthnConfiguration: WebAuthnConfigurationType(relyingPartyId: "app.example")))
        }
        let client = try await env.service.clients.createUserPoolClient(CreateUserPoolClientRequest(
            userPoolId: pool.id!, clientName: "web",
            explicitAuthFlows: userAuth ? [.allowUserAuth, .allowRefreshTokenAuth] : [.allowRefreshTokenAuth],
            supportedIdentityProviders: ["COGNITO"], callbackURLs: [Self.callback], allowedOAuthFlows: [.code],
            allowedOAuthScopes: ["openid"], allowedOAuthFlowsUserPoolClient: true, preventUserExistenceErrors: .enabled
        )).userPoolClient!
        _ = try await env.service.userAdministration.adminCreateUser(AdminCreateUserRequest(
            userPoolId: pool.id!, username: "ada",
            userAttributes: [AttributeType(name: "email", value: "ada@example.com"), AttributeType(name: "email_verified", value: "true")],
            messageAction: .suppress))
        _ = try await env.service.userAdministration.adminSetUserPassword(AdminSetUserPasswordRequest(
            userPoolId: pool.id!, username: "ada", password: "Passw0rd!", permanent: true))
        return (pool, client)
    }

    private func authorization(_ env: TestEnvironment, _ client: UserPoolClientType) async throws -> AuthorizationRequest {
        try await env.service.oauth.authorizationRequest([
            "client_id": client.clientId!, "redirect_uri": Self.callback, "response_type": "code", "scope": "openid",
        ])
    }

    /// The page a step shows, and its flow.
    private func page(_ step: HostedSignInStep, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (HostedPage, String)
    {
        guard case .page(let page, let flow, _) = step else {
            Issue.record("expected a page, got \(step)", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        return (page, flow)
    }

    @Test func theNameComesFirstOnlyWhereThePoolAndTheClientSignInByChoice() async throws {
        try await TestEnvironment.with { env in
            for (factors, userAuth, byChoice) in [([AuthFactorType.password], true, false), ([.password, .emailOtp], false, false),
                                                  ([.password, .emailOtp], true, true)] {
                let (_, client) = try await setUp(env, factors: factors, userAuth: userAuth)
                let (first, _) = try page(try await env.service.oauth.beginHostedSignIn(
                    try await authorization(env, client), browser: .new()))
                if case .signInName = first { #expect(byChoice) } else if case .signIn = first { #expect(!byChoice) } else {
                    Issue.record("\(first)")
                }
            }
        }
    }

    @Test func aUserAndANameThatIsNoUserGetTheSamePagesAndAnEightDigitCodeSignsIn() async throws {
        try await TestEnvironment.with { env in
            let (_, client) = try await setUp(env, factors: [.password, .emailOtp])
            let request = try await authorization(env, client)
            let oauth = env.service.oauth
            for name in ["ada", "nobody"] {
                let browser = BrowserBinding.new()
                var (shown, flow) = try page(try await oauth.beginHostedSignIn(request, browser: browser))
                (shown, flow) = try page(try await oauth.continueHostedSignIn(flow: flow, form: ["username": name], browser: browser))
                #expect(shown == .chooseFactor(["EMAIL_OTP", "PASSWORD"], username: name, error: nil))
                (shown, flow) = try page(try await oauth.continueHostedSignIn(
                    flow: flow, form: ["factor": "EMAIL_OTP"], browser: browser))
                guard case .signInCode("EMAIL_OTP", let destination?, name, true, nil, nil) = shown else {
                    Issue.record("\(shown)")
                    return
                }
                #expect(destination.contains("@"))
                (shown, flow) = try page(try await oauth.continueHostedSignIn(
                    flow: flow, form: ["code": "00000000"], browser: browser))
                #expect(shown == .signInCode(challenge: "EMAIL_OTP", destination: destination, username: name, canChoose: true,
                                             error: "Invalid code received for user", notice: nil))
                if name == "ada" {
                    let code = try #require(env.delivery.lastCode)
                    #expect(code.count == 8)
                    let done = try await oauth.continueHostedSignIn(flow: flow, form: ["code": code], browser: browser)
                    // No passkeys: no proof; a single sign-on session all the same.
                    guard case .signedIn(nil, _?, .redirect(let location)) = done else { Issue.record("\(done)"); return }
                    #expect(location.hasPrefix(Self.callback + "?code="))
                }
            }
        }
    }

    @Test func aWrongPasswordLeavesThePasswordPageAndChoosingAgainAsksTheCore() async throws {
        try await TestEnvironment.with { env in
            let (_, client) = try await setUp(env, factors: [.password, .emailOtp])
            let oauth = env.service.oauth
            let browser = BrowserBinding.new()
            var (_, flow) = try page(try await oauth.beginHostedSignIn(try await authorization(env, client), browser: browser))
            (_, flow) = try page(try await oauth.continueHostedSignIn(flow: flow, form: ["username": "ada"], browser: browser))
            var shown: HostedPage
            (shown, flow) = try page(try await oauth.continueHostedSignIn(flow: flow, form: ["factor": "PASSWORD"], browser: browser))
            #expect(shown == .password(username: "ada", canChoose: true, error: nil))
            (shown, flow) = try page(try await oauth.continueHostedSignIn(flow: flow, form: ["password": "nope"], browser: browser))
            #expect(shown == .password(username: "ada", canChoose: true, error: "Incorrect username or password."))
            (shown, flow) = try page(try await oauth.continueHostedSignIn(flow: flow, form: ["other": "1"], browser: browser))
            #expect(shown == .chooseFactor(["EMAIL_OTP", "PASSWORD"], username: "ada", error: nil))
            (shown, flow) = try page(try await oauth.continueHostedSignIn(flow: flow, form: ["factor": "PASSWORD"], browser: browser))
            let done = try await oauth.continueHostedSignIn(flow: flow, form: ["password": "Passw0rd!"], browser: browser)
            guard case .signedIn(_, _?, .redirect) = done else { Issue.record("\(done)"); return }
        }
    }

    @Test func aSignInInAPoolWithPasskeysProvesItselfToPasskeysAddForFiveMinutesInThatBrowser() async throws {
        try await TestEnvironment.with { env in
            let (pool, client) = try await setUp(env, factors: [.password, .webAuthn], userAuth: false)
            let oauth = env.service.oauth
            let browser = BrowserBinding.new()
            let (_, flow) = try page(try await oauth.beginHostedSignIn(try await authorization(env, client), browser: browser))
            let done = try await oauth.continueHostedSignIn(
                flow: flow, form: ["username": "ada", "password": "Passw0rd!"], browser: browser)
            guard case .signedIn(let proof?, _, .redirect(let location)) = done else { Issue.record("\(done)"); return }
            #expect(location.hasPrefix(Self.callback + "?code="))

            let addition = try await oauth.passkeyAdditionRequest(["client_id": client.clientId!, "redirect_uri": Self.callback])
            #expect(addition.pagePath == "/passkeys/add" && !addition.query.contains("response_type"))
            let (adding, addingFlow) = try page(try await oauth.beginPasskeyAddition(addition, browser: browser, proof: proof))
            guard case .addPasskey(let options, "ada", Self.callback, nil) = adding else { Issue.record("\(adding)"); return }
            let creation = try JSONDecoder().decode(JSONValue.self, from: Data(options.utf8))
            guard case .object(let members) = creation, case .object(let rp)? = members["rp"] else {
                Issue.record("\(options)")
                return
            }
            #expect(rp["id"] == .string("app.example"))
            // An answer that is no passkey: the page again, with a new registration.
            let (refused, _) = try page(try await oauth.continueHostedSignIn(
                flow: addingFlow, form: ["credential": "{}"], browser: browser))
            guard case .addPasskey(let again, _, _, let error?) = refused else { Issue.record("\(refused)"); return }
            #expect(again != options && error.contains("Credential"))

            // Another browser, a later visit, a sign-out: the sign-in page instead.
            func signInPage(_ step: HostedSignInStep) -> Bool {
                if case .page(.signIn(_, _, _, _, false), _, _) = step { return true }
                return false
            }
            #expect(signInPage(try await oauth.beginPasskeyAddition(addition, browser: .new(), proof: proof)))
            #expect(signInPage(try await oauth.beginPasskeyAddition(addition, browser: browser, proof: "s.e30.AAAA")))
            env.time.advance(by: 301)
            #expect(signInPage(try await oauth.beginPasskeyAddition(addition, browser: browser, proof: proof)))
            env.time.advance(by: -301)
            _ = try await env.service.userAdministration.adminUserGlobalSignOut(
                AdminUserGlobalSignOutRequest(userPoolId: pool.id!, username: "ada"))
            #expect(signInPage(try await oauth.beginPasskeyAddition(addition, browser: browser, proof: proof)))
        }
    }

    @Test func passkeysAddSignsInFirstThenShowsThePasskeyPageNotTheApp() async throws {
        try await TestEnvironment.with { env in
            let (_, client) = try await setUp(env, factors: [.password, .webAuthn], userAuth: false)
            let oauth = env.service.oauth
            let browser = BrowserBinding.new()
            let addition = try await oauth.passkeyAdditionRequest(["client_id": client.clientId!, "redirect_uri": Self.callback])
            let (first, flow) = try page(try await oauth.beginPasskeyAddition(addition, browser: browser, proof: nil))
            #expect(first == .signIn(username: nil, name: HostedNameField(label: "Username"), error: nil, canSignUp: false))
            let done = try await oauth.continueHostedSignIn(
                flow: flow, form: ["username": "ada", "password": "Passw0rd!"], browser: browser)
            guard case .signedIn(_, _, .page(.addPasskey(_, "ada", Self.callback, nil), _, _)) = done else {
                Issue.record("\(done)")
                return
            }
        }
    }

    @Test func passkeysAddNeedsAClientLinkAndAPoolWithPasskeys() async throws {
        try await TestEnvironment.with { env in
            let (_, client) = try await setUp(env, factors: [.password, .emailOtp])
            let oauth = env.service.oauth
            for (query, reason) in [
                (["client_id": client.clientId!, "redirect_uri": "https://evil.example/"], AuthorizationPageError.Reason.invalidRequest),
                (["client_id": "nope", "redirect_uri": Self.callback], .invalidRequest),
                (["client_id": client.clientId!, "redirect_uri": Self.callback], .passkeysUnavailable),
            ] {
                do {
                    _ = try await oauth.passkeyAdditionRequest(query)
                    Issue.record("accepted \(query)")
                } catch let error as AuthorizationPageError {
                    #expect(error.reason == reason)
                }
            }
        }
    }

    @Test func proofsAndFlowsAreSealedWithKeysOfTheirOwn() {
        let key = SymmetricKey(size: .bits256)
        let proofs = RecentSignIns(serverKey: key)
        let browser = BrowserBinding.new()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let proof = RecentSignIn(poolId: "p", sub: "s", originJti: "j", authTime: now.timeIntervalSince1970,
                                 binding: browser.digest)
        let sealed = try! proofs.seal(proof)
        #expect(proofs.open(sealed, browser: browser, now: now + 299) == proof)
        #expect(proofs.open(sealed, browser: browser, now: now + 300) == nil)
        #expect(proofs.open(sealed, browser: .new(), now: now) == nil)
        #expect(RecentSignIns(serverKey: SymmetricKey(size: .bits256)).open(sealed, browser: browser, now: now) == nil)
        // A value of another purpose, sealed with the same server key, never opens as a proof.
        let other = try! Sealer(serverKey: key, purpose: "hosted-flow-seal").seal(proof, expires: now + 60)
        #expect(proofs.open(other, browser: browser, now: now) == nil)
    }
}
