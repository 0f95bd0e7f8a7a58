import CognateSMTP
import Foundation
import Testing

/// Refusals, dead and hostile servers: each ends in a classified SMTPError, never in a hang.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct FailureTests {
    @Test func unknownRecipientIsPermanentAndTheConnectionStaysUsable() async throws {
        var options = SMTPTestServer.Options()
        options.rejectedRecipients = ["nobody@example.com"]
        try await SMTPTestServer.with(options) { server in
            try await withClient(try await server.configuration()) { client in
                let error = await #expect(throws: SMTPError.self) { try await client.send(testMessage(to: "nobody@example.com")) }
                #expect(error?.reply?.code == 550)
                #expect(error?.reply?.text.contains("User unknown") == true)
                #expect(error == .rejected(try #require(error?.reply), stage: .recipient("nobody@example.com")))
                #expect(error?.isPermanent == true)
                // The next message goes through on the same connection (after RSET).
                try await client.send(testMessage(to: "somebody@example.com"))
            }
            #expect(try server.messages().map(\.recipients) == [["somebody@example.com"]])
            #expect(try server.events(named: "connect").count == 1)
        }
    }

    @Test func oneRejectedRecipientFailsTheWholeMessage() async throws {
        var options = SMTPTestServer.Options()
        options.rejectedRecipients = ["nobody@example.com"]
        try await SMTPTestServer.with(options) { server in
            let message = try EmailMessage(
                from: EmailAddress("no-reply@cognate.example"),
                to: [EmailAddress("somebody@example.com"), EmailAddress("nobody@example.com")],
                subject: "Code", textBody: "123456")
            try await withClient(try await server.configuration()) { client in
                await #expect(throws: SMTPError.self) { try await client.send(message) }
            }
            #expect(try server.messages().isEmpty)
        }
    }

    @Test func temporaryRefusalIsTransient() async throws {
        var options = SMTPTestServer.Options()
        options.deferredRecipients = ["later@example.com"]
        try await SMTPTestServer.with(options) { server in
            let error = try await withClient(try await server.configuration()) { client in
                await #expect(throws: SMTPError.self) { try await client.send(testMessage(to: "later@example.com")) }
            }
            #expect(error?.reply?.code == 451)
            #expect(error?.isTransient == true)
            #expect(try server.messages().isEmpty)
        }
    }

    @Test func messageOverTheServersSizeLimitIsRefusedBeforeSending() async throws {
        var options = SMTPTestServer.Options()
        options.sizeLimit = 4096
        try await SMTPTestServer.with(options) { server in
            try await withClient(try await server.configuration()) { client in
                let error = await #expect(throws: SMTPError.self) {
                    try await client.send(testMessage(body: String(repeating: "0123456789\n", count: 500)))
                }
                guard case .messageTooLarge(let size, let limit) = try #require(error) else {
                    Issue.record("expected messageTooLarge, got \(String(describing: error))")
                    return
                }
                #expect(size > limit && limit == 4096)
                #expect(error?.isPermanent == true)
                try await client.send(testMessage())
            }
            // Only the small message was attempted; it announced its size.
            #expect(try server.events(named: "mail").count == 1)
            #expect(try server.messages().only?.mailOptions?.contains { $0.hasPrefix("SIZE=") } == true)
        }
    }

    @Test func serverThatNeverAnswersTimesOut() async throws {
        var options = SMTPTestServer.Options()
        options.mode = .silent
        try await SMTPTestServer.with(options) { server in
            let timeouts = SMTPTimeouts(connect: .seconds(10), command: .seconds(1), dataTransfer: .seconds(10))
            let error = try await withClient(try await server.configuration(timeouts: timeouts)) { client in
                await #expect(throws: SMTPError.self) { try await client.send(testMessage()) }
            }
            #expect(error == .timedOut(.greeting))
            #expect(error?.isTransient == true)
            #expect(try server.events(named: "connect").count == 1)
        }
    }

    @Test func cancellingASendStopsTheWaitAtOnce() async throws {
        var options = SMTPTestServer.Options()
        options.mode = .silent
        try await SMTPTestServer.with(options) { server in
            // Timeouts far longer than the suite's time limit: only cancellation can end this.
            let timeouts = SMTPTimeouts(connect: .seconds(600), command: .seconds(600), dataTransfer: .seconds(600))
            try await withClient(try await server.configuration(timeouts: timeouts)) { client in
                let sending = Task { try await client.send(testMessage()) }
                try await server.waitForEvents(named: "connect", count: 1)
                sending.cancel()
                await #expect(throws: CancellationError.self) { try await sending.value }
            }
            try await server.waitForEvents(named: "disconnect", count: 1)
        }
    }

    @Test func serverThatNeverAcceptsTheDataTimesOut() async throws {
        var options = SMTPTestServer.Options()
        options.hangsOnData = true
        try await SMTPTestServer.with(options) { server in
            let timeouts = SMTPTimeouts(connect: .seconds(10), command: .seconds(10), dataTransfer: .seconds(1))
            try await withClient(try await server.configuration(timeouts: timeouts)) { client in
                let error = await #expect(throws: SMTPError.self) { try await client.send(testMessage()) }
                #expect(error == .timedOut(.messageBody))
                #expect(error?.isTransient == true)
                // The timed-out connection is not reused: the next attempt opens a new one.
                await #expect(throws: SMTPError.self) { try await client.send(testMessage()) }
            }
            #expect(try server.events(named: "connect").count == 2)
        }
    }

    @Test func refusedConnectionIsTransient() async throws {
        // A port that was just in use and is now closed.
        let port = try await SMTPTestServer.with { $0.port }
        let configuration = SMTPConfiguration(host: "127.0.0.1", port: port, security: .none, timeouts: .forTests)
        let error = try await withClient(configuration) { client in
            await #expect(throws: SMTPError.self) { try await client.send(testMessage()) }
        }
        guard case .connectionFailed = try #require(error) else {
            Issue.record("expected connectionFailed, got \(String(describing: error))")
            return
        }
        #expect(error?.isTransient == true)
    }

    @Test func endlessReplyLineIsCutOffAsAProtocolViolation() async throws {
        var options = SMTPTestServer.Options()
        options.mode = .flood
        try await SMTPTestServer.with(options) { server in
            let error = try await withClient(try await server.configuration()) { client in
                await #expect(throws: SMTPError.self) { try await client.send(testMessage()) }
            }
            guard case .protocolViolation(let reason) = try #require(error) else {
                Issue.record("expected protocolViolation, got \(String(describing: error))")
                return
            }
            #expect(reason.contains("longer than"))
            #expect(error?.isTransient == true)
        }
    }
}
