import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

/// MFA_SETUP: what a user without a second factor is offered to set up (the API's answers are
/// compat/test_mfa_setup_email.py's), and the hosted pages, which set up the authenticator app only.
struct MfaSetupTests {
    static let callback = "https://app.example/callback"
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    func user(_ attributes: [String: String]) -> UserRecord {
        UserRecord(poolId: "p", sub: "s", username: "u", usernameKey: "u", status: .confirmed, enabled: true,
                   createdAt: now, updatedAt: now, password: StoredPassword(salt: [1], verifier: [2]),
                   passwordUpdatedAt: now, attributes: attributes)
    }

    func pool(_ mfa: PoolMfaSettings) -> PoolRecord {
        PoolRecord(id: "p", name: "p", createdAt: now, updatedAt: now, settings: UserPoolType(mfaConfiguration: .on), mfa: mfa)
    }

    @Test func theFactorsOfferedAreThoseThePoolEnablesThatTheAnswerCanSetUp() {
        let both = pool(PoolMfaSettings(softwareToken: true, email: true))
        let noAddress = user([:])
        #expect(SecondFactorChallenges.setupFactors(pool: both, user: noAddress) == [.softwareTokenMfa, .emailOtp])
        // A user with an address has email MFA already (asked for at once), so nothing to set up there.
        #expect(SecondFactorChallenges.setupFactors(pool: both, user: user(["email": "a@example.com"])) == [.softwareTokenMfa])
        #expect(SecondFactorChallenges.setupFactors(pool: both, user: user(["email": ""])) == [.softwareTokenMfa, .emailOtp])
        // No phone number can be given in the answer: SMS is never offered.
        #expect(SecondFactorChallenges.setupFactors(pool: pool(PoolMfaSettings(sms: true, email: true)), user: noAddress)
            == [.emailOtp])
        #expect(SecondFactorChallenges.setupFactors(pool: pool(PoolMfaSettings(sms: true)), user: noAddress).isEmpty)
    }

    @Test func theHostedPagesSetUpTheAppAndSendEmailMfaAloneToTheApp() async throws {
        try await TestEnvironment.with { env in
            for (totp, setsUpTheApp) in [(true, true), (false, false)] {
                let pool = try await env.pool()
                _ = try await env.service.pools.setUserPoolMfaConfig(SetUserPoolMfaConfigRequest(
                    userPoolId: pool.id!, softwareTokenMfaConfiguration: SoftwareTokenMfaConfigType(enabled: totp),
                    emailMfaConfiguration: EmailMfaConfigType(), mfaConfiguration: .on))
                let client = try await env.service.clients.createUserPoolClient(CreateUserPoolClientRequest(
                    userPoolId: pool.id!, clientName: "web", explicitAuthFlows: [.allowRefreshTokenAuth],
                    supportedIdentityProviders: ["COGNITO"], callbackURLs: [Self.callback], allowedOAuthFlows: [.code],
                    allowedOAuthScopes: ["openid"], allowedOAuthFlowsUserPoolClient: true)).userPoolClient!
                _ = try await env.service.userAdministration.adminCreateUser(AdminCreateUserRequest(
                    userPoolId: pool.id!, username: "bo", messageAction: .suppress))
                _ = try await env.service.userAdministration.adminSetUserPassword(AdminSetUserPasswordRequest(
                    userPoolId: pool.id!, username: "bo", password: "Passw0rd!", permanent: true))
                let oauth = env.service.oauth
                let browser = BrowserBinding.new()
                let request = try await oauth.authorizationRequest([
                    "client_id": client.clientId!, "redirect_uri": Self.callback, "response_type": "code", "scope": "openid",
                ])
                guard case .page(_, let flow, _) = try await oauth.beginHostedSignIn(request, browser: browser) else {
                    Issue.record("expected the sign-in page")
                    return
                }
                do {
                    let step = try await oauth.continueHostedSignIn(
                        flow: flow, form: ["username": "bo", "password": "Passw0rd!"], browser: browser)
                    guard case .page(.totpSetup(let secret, _, nil), _, _) = step else {
                        Issue.record("expected the app's set-up page, got \(step)")
                        return
                    }
                    #expect(setsUpTheApp && secret.count == 32)
                } catch let error as AuthorizationPageError {
                    #expect(!setsUpTheApp && error.reason == .unsupportedStep && error.message.contains("MFA_SETUP"))
                }
            }
        }
    }
}
