import CognateSMTP
import Foundation

extension SMTPTimeouts {
    /// Short enough that a test of a dead server ends soon, long enough for a loaded CI machine.
    static let forTests = SMTPTimeouts(connect: .seconds(10), command: .seconds(10), dataTransfer: .seconds(10))
}

extension SMTPTestServer {
    /// A configuration for this server; TLS modes trust the test CA unless told otherwise.
    func configuration(
        security: SMTPSecurity = .none,
        host: String = "127.0.0.1",
        credentials: SMTPCredentials? = nil,
        trust: SMTPTLSTrust? = nil,
        timeouts: SMTPTimeouts = .forTests,
        idleConnectionTimeout: Duration = .seconds(30)
    ) async throws -> SMTPConfiguration {
        let trust = if let trust { trust } else { SMTPTLSTrust.onlyCertificateAuthorities(pemFile: try await TestCertificates.shared().caFile) }
        return SMTPConfiguration(
            host: host, port: port, security: security, credentials: credentials, tlsTrust: trust,
            ehloHostname: "client.cognate.test", timeouts: timeouts, idleConnectionTimeout: idleConnectionTimeout
        )
    }
}

/// Runs `body` with a client for `configuration` and shuts the client down afterwards.
@discardableResult
func withClient<T>(_ configuration: SMTPConfiguration, _ body: (SMTPClient) async throws -> T) async throws -> T {
    let client = try SMTPClient(configuration: configuration)
    do {
        let result = try await body(client)
        await client.shutdown()
        return result
    } catch {
        await client.shutdown()
        throw error
    }
}

/// A small message from the test sender.
func testMessage(to recipient: String = "user@example.com", subject: String = "Your confirmation code", body: String = "Your code is 123456.\n") throws -> EmailMessage {
    try EmailMessage(
        from: EmailAddress("no-reply@cognate.example", displayName: "Cognate"),
        to: EmailAddress(recipient),
        subject: subject,
        textBody: body
    )
}
