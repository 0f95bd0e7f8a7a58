import CognateAuth
import CognateCore
import CognateProtocol
import Foundation
import Testing

/// Codes sent and not yet entered survive a restart, for every kind of code.
struct PendingCodeTests {
    @Test func passwordResetCodeIsResumableAfterARestart() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let app = try await live.makeClient(pool: pool)
            let directory = TokenStoreTests.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let email = uniqueEmail("reset")
            let first = live.authClient(pool: pool, client: app, store: FileTokenStore(directory: directory))
            try await live.confirmedUser(first, username: "rose", email: email)
            #expect(try await first.pendingCodes().isEmpty)
            let delivery = try await first.forgotPassword(username: "rose")

            // The app is killed on the code screen; the next launch finds the code step.
            let relaunched = live.authClient(pool: pool, client: app, store: FileTokenStore(directory: directory))
            let pending = try await relaunched.pendingCodes()
            #expect(pending.map(\.purpose) == [.passwordReset(username: "rose")])
            #expect(pending.first?.delivery == delivery && delivery?.attributeName == "email")
            #expect(await relaunched.state() == .signedOut)

            try await relaunched.confirmForgotPassword(
                username: "rose", code: try await live.lastCode(to: email), newPassword: "Rec0veredPw")
            #expect(try await relaunched.pendingCodes().isEmpty)
            #expect(try await relaunched.signIn(username: "rose", password: "Rec0veredPw").isSignedIn)
        }
    }

    @Test func attributeVerificationCodeIsResumableAfterARestart() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let app = try await live.makeClient(pool: pool)
            let directory = TokenStoreTests.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let first = live.authClient(pool: pool, client: app, store: FileTokenStore(directory: directory))
            try await live.confirmedUser(first, username: "vera", email: uniqueEmail("vera"))
            #expect(try await first.signIn(username: "vera", password: "Passw0rd1").isSignedIn)
            let moved = uniqueEmail("moved")
            _ = try await first.updateUserAttributes(["email": moved, "given_name": "Vera"])

            let relaunched = live.authClient(pool: pool, client: app, store: FileTokenStore(directory: directory))
            let pending = try await relaunched.pendingCodes()
            #expect(pending.map(\.purpose) == [.attributeVerification(attribute: "email")])
            #expect(pending.first?.delivery?.medium == .email)

            // A resend replaces the pending code; a wrong code leaves it pending.
            _ = try await relaunched.resendAttributeCode("email")
            #expect(try await relaunched.pendingCodes().count == 1)
            let code = try await live.lastCode(to: moved)
            await expectAuthError({ try await relaunched.confirmAttribute("email", code: code == "000000" ? "111111" : "000000") }) {
                if case .codeMismatch = $0 { true } else { false }
            }
            #expect(try await relaunched.pendingCodes().count == 1)
            try await relaunched.confirmAttribute("email", code: code)
            #expect(try await relaunched.pendingCodes().isEmpty)

            // Sign-out forgets everything of the profile, codes included.
            _ = try await relaunched.updateUserAttributes(["email": uniqueEmail("again")])
            try await relaunched.signOut().expectComplete()
            #expect(try await relaunched.pendingCodes().isEmpty)
        }
    }

    @Test func signUpCodeIsPendingUntilConfirmedAndCanBeDiscarded() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))
            let email = uniqueEmail("sam")
            _ = try await client.signUp(username: "sam", password: "Passw0rd1", attributes: ["email": email])
            #expect(try await client.pendingCodes().map(\.purpose) == [.signUp(username: "sam")])
            // Meeting the unconfirmed account at sign-in keeps (refreshes) the one entry.
            #expect(try await client.signIn(username: "sam", password: "Passw0rd1") == .confirmSignUp(username: "sam"))
            #expect(try await client.pendingCodes().map(\.purpose) == [.signUp(username: "sam")])
            try await client.discardPendingCode(.signUp(username: "sam"))
            #expect(try await client.pendingCodes().isEmpty)

            try await client.resendSignUpCode(username: "sam")
            try await client.confirmSignUp(username: "sam", code: try await live.lastCode(to: email))
            #expect(try await client.pendingCodes().isEmpty)
        }
    }
}
