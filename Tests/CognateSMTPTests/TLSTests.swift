import CognateSMTP
import Foundation
import Testing

/// STARTTLS and implicit TLS against aiosmtpd with a certificate from a CA made for the test run.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct TLSTests {
    @Test func startTLSDeliversOverTLSWhenTheCAIsTrusted() async throws {
        var options = SMTPTestServer.Options()
        options.tls = .starttls
        try await SMTPTestServer.with(options) { server in
            let trust = SMTPTLSTrust.systemRootsAndCertificateAuthorities(pemFile: try await TestCertificates.shared().caFile)
            try await withClient(try await server.configuration(security: .startTLS, host: "localhost", trust: trust)) {
                try await $0.send(testMessage())
            }
            #expect(try server.events(named: "starttls").count == 1)
            let received = try #require(try server.messages().only)
            #expect(received.tls == true)
        }
    }

    @Test func startTLSRequiredButNotOfferedSendsNothing() async throws {
        try await SMTPTestServer.with { server in
            let configuration = try await server.configuration(
                security: .startTLS, credentials: SMTPCredentials(username: "mailer", password: "s3cret-never-in-clear"))
            let error = try await withClient(configuration) { client in
                await #expect(throws: SMTPError.self) { try await client.send(testMessage()) }
            }
            #expect(error == .startTLSNotOffered)
            #expect(error?.isPermanent == true)
            // Neither the password nor any mail went out in plaintext.
            #expect(try server.events(named: "auth").isEmpty)
            #expect(try server.events(named: "mail").isEmpty)
            #expect(try server.messages().isEmpty)
        }
    }

    @Test func startTLSWithAnUntrustedCertificateFailsPermanently() async throws {
        var options = SMTPTestServer.Options()
        options.tls = .starttls
        try await SMTPTestServer.with(options) { server in
            let untrusted = SMTPTLSTrust.onlyCertificateAuthorities(pemFile: try await TestCertificates.shared().otherCAFile)
            let configuration = try await server.configuration(security: .startTLS, host: "localhost", trust: untrusted)
            let error = try await withClient(configuration) { client in
                await #expect(throws: SMTPError.self) { try await client.send(testMessage()) }
            }
            guard case .tlsFailed = try #require(error) else {
                Issue.record("expected tlsFailed, got \(String(describing: error))")
                return
            }
            #expect(error?.isPermanent == true)
            #expect(try server.events(named: "mail").isEmpty)
        }
    }

    @Test func startTLSRefusesACertificateForAnotherName() async throws {
        var options = SMTPTestServer.Options()
        options.tls = .starttls
        options.certificate = .forAnotherName
        try await SMTPTestServer.with(options) { server in
            // Signed by the trusted CA, but for mail.other.test rather than localhost.
            let configuration = try await server.configuration(security: .startTLS, host: "localhost")
            let error = try await withClient(configuration) { client in
                await #expect(throws: SMTPError.self) { try await client.send(testMessage()) }
            }
            guard case .tlsFailed = try #require(error) else {
                Issue.record("expected tlsFailed, got \(String(describing: error))")
                return
            }
            #expect(try server.events(named: "mail").isEmpty)
        }
    }

    @Test func implicitTLSDeliversToAnIPAddressCertificate() async throws {
        var options = SMTPTestServer.Options()
        options.tls = .implicit
        try await SMTPTestServer.with(options) { server in
            try await withClient(try await server.configuration(security: .implicitTLS, host: "127.0.0.1")) {
                try await $0.send(testMessage())
            }
            let received = try #require(try server.messages().only)
            #expect(received.tls == true)
        }
    }

    @Test func implicitTLSAgainstAPlainServerFailsWithoutHanging() async throws {
        try await SMTPTestServer.with { server in
            let error = try await withClient(try await server.configuration(security: .implicitTLS)) { client in
                await #expect(throws: SMTPError.self) { try await client.send(testMessage()) }
            }
            // The server's plaintext greeting is no TLS handshake.
            guard case .tlsFailed = try #require(error) else {
                Issue.record("expected tlsFailed, got \(String(describing: error))")
                return
            }
            #expect(try server.messages().isEmpty)
        }
    }

    @Test func missingCAFileIsAConfigurationError() async throws {
        let configuration = SMTPConfiguration(
            host: "localhost", security: .startTLS, tlsTrust: .systemRootsAndCertificateAuthorities(pemFile: "/nonexistent/ca.pem"))
        let error = #expect(throws: SMTPError.self) { _ = try SMTPClient(configuration: configuration) }
        guard case .invalidConfiguration = try #require(error) else {
            Issue.record("expected invalidConfiguration, got \(String(describing: error))")
            return
        }
    }
}
