import CognateSMTP
import Foundation
import Testing

/// AUTH PLAIN and AUTH LOGIN against aiosmtpd, chosen from what its EHLO reply offers.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct AuthenticationTests {
    static let user = "mailer@cognate.example"
    static let password = "correct horse battery staple ✓"

    /// A STARTTLS server requiring AUTH, offering `mechanisms`.
    private func options(offering mechanisms: [String]) -> SMTPTestServer.Options {
        var options = SMTPTestServer.Options()
        options.tls = .starttls
        options.authentication = (Self.user, Self.password)
        options.authenticationMechanisms = mechanisms
        return options
    }

    @Test(arguments: [
        (offered: ["PLAIN", "LOGIN"], expected: "PLAIN"),
        (offered: ["LOGIN"], expected: "LOGIN"),
        (offered: ["PLAIN"], expected: "PLAIN"),
    ])
    func rightPasswordAuthenticatesWithThePreferredMechanism(offered: [String], expected: String) async throws {
        try await SMTPTestServer.with(options(offering: offered)) { server in
            let credentials = SMTPCredentials(username: Self.user, password: Self.password)
            try await withClient(try await server.configuration(security: .startTLS, host: "localhost", credentials: credentials)) {
                try await $0.send(testMessage())
            }
            let attempts = try server.events(named: "auth")
            #expect(attempts.map(\.mechanism) == [expected])
            #expect(attempts.map(\.login) == [Self.user])
            #expect(attempts.map(\.success) == [true])
            #expect(try server.messages().only?.authenticated == true)
        }
    }

    @Test(arguments: ["PLAIN", "LOGIN"])
    func wrongPasswordIsAPermanentErrorWithoutThePassword(mechanism: String) async throws {
        try await SMTPTestServer.with(options(offering: [mechanism])) { server in
            let wrongPassword = "wrong-password-\(UUID().uuidString)"
            let credentials = SMTPCredentials(username: Self.user, password: wrongPassword)
            let configuration = try await server.configuration(security: .startTLS, host: "localhost", credentials: credentials)
            let error = try await withClient(configuration) { client in
                await #expect(throws: SMTPError.self) { try await client.send(testMessage()) }
            }
            let failure = try #require(error)
            #expect(failure == .rejected(try #require(failure.reply), stage: .authentication))
            #expect(failure.reply?.code == 535)
            #expect(failure.isPermanent)
            #expect(!"\(failure)".contains(wrongPassword))
            #expect(!String(reflecting: failure).contains(wrongPassword))
            #expect(try server.events(named: "auth").map(\.success) == [false])
            #expect(try server.messages().isEmpty)
        }
    }

    @Test func serverOfferingNoKnownMechanismIsRefusedBeforeSending() async throws {
        try await SMTPTestServer.with(options(offering: [])) { server in
            let credentials = SMTPCredentials(username: Self.user, password: Self.password)
            let configuration = try await server.configuration(security: .startTLS, host: "localhost", credentials: credentials)
            let error = try await withClient(configuration) { client in
                await #expect(throws: SMTPError.self) { try await client.send(testMessage()) }
            }
            #expect(error == .authenticationNotOffered(offeredMechanisms: []))
            #expect(error?.isPermanent == true)
            #expect(try server.events(named: "mail").isEmpty)
        }
    }

    @Test func missingCredentialsAreRefusedByTheServerPermanently() async throws {
        try await SMTPTestServer.with(options(offering: ["PLAIN"])) { server in
            let error = try await withClient(try await server.configuration(security: .startTLS, host: "localhost")) { client in
                await #expect(throws: SMTPError.self) { try await client.send(testMessage()) }
            }
            // aiosmtpd answers MAIL FROM with 530 5.7.0 Authentication required.
            #expect(error?.reply?.code == 530)
            #expect(error?.isPermanent == true)
            #expect(try server.messages().isEmpty)
        }
    }

    @Test func credentialsNeverShowInTheirDescription() throws {
        let credentials = SMTPCredentials(username: "mailer", password: "hunter2-secret")
        #expect(!"\(credentials)".contains("hunter2-secret"))
        #expect(!String(reflecting: credentials).contains("hunter2-secret"))
        let configuration = SMTPConfiguration(host: "smtp.example.com", security: .startTLS, credentials: credentials)
        #expect(!"\(configuration)".contains("hunter2-secret"))
    }
}
