import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

/// The one decision of which first factors choice-based sign-in offers a user, and which web
/// origins may speak for a pool's passkeys.
struct FirstFactorsTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    func pool(_ factors: [AuthFactorType]?, mfa: UserPoolMfaType? = nil, webAuthn: WebAuthnConfigurationType? = nil)
        -> PoolRecord
    {
        PoolRecord(
            id: "p", name: "p", createdAt: now, updatedAt: now,
            settings: UserPoolType(
                policies: UserPoolPolicyType(signInPolicy: factors.map { SignInPolicyType(allowedFirstAuthFactors: $0) }),
                mfaConfiguration: mfa),
            mfa: PoolMfaSettings(softwareToken: true, webAuthn: webAuthn))
    }

    let everyone = FirstFactors.UserFacts(hasPassword: true, verifiedEmail: true, verifiedPhone: true, passkeys: 1, hasMfa: false)
    let all: [AuthFactorType] = [.password, .webAuthn, .emailOtp, .smsOtp]

    @Test func aPoolWithoutASignInPolicyOffersThePasswordAlone() {
        #expect(FirstFactors.available(everyone, pool: pool(nil)) == [.password, .passwordSrp])
        #expect(FirstFactors.available(everyone, pool: pool([])) == [.password, .passwordSrp])
    }

    @Test func factorsComeInThePoolsOrderAndOnlyThoseTheUserCanUse() {
        #expect(FirstFactors.available(everyone, pool: pool(all)) == [.password, .passwordSrp, .webAuthn, .emailOtp, .smsOtp])
        var facts = everyone
        facts.hasPassword = false
        facts.verifiedPhone = false
        facts.passkeys = 0
        #expect(FirstFactors.available(facts, pool: pool(all)) == [.emailOtp])
        #expect(FirstFactors.configured(facts, pool: pool(all)) == [.emailOtp])
    }

    @Test func passwordlessFactorsAreNotForUsersWhoMustAnswerASecondFactor() {
        var withMfa = everyone
        withMfa.hasMfa = true
        #expect(FirstFactors.available(withMfa, pool: pool(all, mfa: .optional)) == [.password, .passwordSrp])
        #expect(FirstFactors.available(everyone, pool: pool(all, mfa: .on)) == [.password, .passwordSrp])
        // Unless a passkey verified with the user counts as the second factor.
        let multiFactor = WebAuthnConfigurationType(factorConfiguration: .multiFactorWithUserVerification)
        #expect(FirstFactors.available(withMfa, pool: pool(all, mfa: .optional, webAuthn: multiFactor))
            == [.password, .passwordSrp, .webAuthn])
        #expect(FirstFactors.passkeyNeedsUserVerification(withMfa, pool: pool(all, webAuthn: multiFactor)))
        #expect(!FirstFactors.passkeyNeedsUserVerification(everyone, pool: pool(all)))
        #expect(FirstFactors.passkeyNeedsUserVerification(
            everyone, pool: pool(all, webAuthn: WebAuthnConfigurationType(userVerification: .required))))
    }

    @Test func aNameThatIsNoUserIsOfferedWhatThePoolAllows() {
        #expect(FirstFactors.decoy(pool: pool([.password, .emailOtp])) == [.password, .passwordSrp, .emailOtp])
    }

    @Test func codesGoOnlyToVerifiedAddresses() {
        let user = UserRecord(
            poolId: "p", sub: "s", username: "u", usernameKey: "u", status: .confirmed, enabled: true, createdAt: now,
            updatedAt: now, password: nil, passwordUpdatedAt: nil,
            attributes: ["email": "u@example.com", "email_verified": "false", "phone_number": "+15550001111",
                         "phone_number_verified": "true"])
        let facts = FirstFactors.UserFacts(user, mfa: nil, passkeys: 0)
        #expect(!facts.verifiedEmail && facts.verifiedPhone && !facts.hasPassword)
    }

    @Test func passkeyOriginsAreTheRelyingPartyAndItsSubdomains() {
        let party = PasskeyRelyingParty(id: "example.com", name: "Pool", userVerification: .preferred)
        for allowed in ["https://example.com", "https://login.example.com", "https://example.com:8443",
                        "android:apk-key-hash:abc"] {
            #expect(party.allows(origin: allowed), "\(allowed)")
        }
        for refused in ["http://example.com", "https://example.com.evil.net", "https://badexample.com",
                        "https://example.com/path", "ftp://example.com", "null", "", "android:apk-key-hash:"] {
            #expect(!party.allows(origin: refused), "\(refused)")
        }
        let local = PasskeyRelyingParty(id: "localhost", name: "Pool", userVerification: .preferred)
        #expect(local.allows(origin: "http://localhost:9229") && local.allows(origin: "https://localhost"))
    }

    @Test func theRelyingPartyIsTheConfiguredIdTheCustomDomainOrThePublicHost() throws {
        let configured = pool(all, webAuthn: WebAuthnConfigurationType(relyingPartyId: "id.example"))
        #expect(try PasskeyRelyingParty.of(configured, domain: nil, publicBaseURL: "https://auth.example").id == "id.example")
        let custom = DomainRecord(domain: "login.example.com", poolId: "p", createdAt: now)
        #expect(try PasskeyRelyingParty.of(pool(all), domain: custom, publicBaseURL: "https://auth.example").id
            == "login.example.com")
        let prefix = DomainRecord(domain: "myapp", poolId: "p", createdAt: now)
        #expect(try PasskeyRelyingParty.of(pool(all), domain: prefix, publicBaseURL: "https://auth.example:8443").id
            == "auth.example")
        #expect(throws: CognitoError.self) { try PasskeyRelyingParty.of(pool(all), domain: nil, publicBaseURL: "https://a") }
    }
}
