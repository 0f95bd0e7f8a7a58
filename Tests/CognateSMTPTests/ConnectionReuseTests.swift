import CognateSMTP
import Foundation
import Testing

/// One connection per client, reused across messages, replaced when the server dropped it,
/// closed when idle and on shutdown. Connections are counted on the server side.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ConnectionReuseTests {
    @Test func severalMessagesShareOneConnection() async throws {
        try await SMTPTestServer.with { server in
            try await withClient(try await server.configuration()) { client in
                for index in 1...3 { try await client.send(testMessage(subject: "Message \(index)")) }
            }
            #expect(try server.messages().map { $0.parsed?.subject } == ["Message 1", "Message 2", "Message 3"])
            #expect(try server.events(named: "connect").count == 1)
        }
    }

    @Test func concurrentSendsTakeTurnsOnOneConnection() async throws {
        try await SMTPTestServer.with { server in
            try await withClient(try await server.configuration()) { client in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 1...5 {
                        group.addTask { try await client.send(testMessage(subject: "Concurrent \(index)")) }
                    }
                    try await group.waitForAll()
                }
            }
            #expect(Set(try server.messages().compactMap { $0.parsed?.subject }) == Set((1...5).map { "Concurrent \($0)" }))
            #expect(try server.events(named: "connect").count == 1)
        }
    }

    @Test func reconnectsAfterTheServerDroppedTheConnection() async throws {
        var options = SMTPTestServer.Options()
        options.dropsConnectionAfterMessage = true
        try await SMTPTestServer.with(options) { server in
            try await withClient(try await server.configuration()) { client in
                for index in 1...3 { try await client.send(testMessage(subject: "Message \(index)")) }
            }
            #expect(try server.messages().count == 3)
            #expect(try server.events(named: "connect").count == 3)
        }
    }

    @Test func idleConnectionIsClosedAndReplaced() async throws {
        try await SMTPTestServer.with { server in
            let configuration = try await server.configuration(idleConnectionTimeout: .milliseconds(200))
            try await withClient(configuration) { client in
                try await client.send(testMessage(subject: "Before idle"))
                try await server.waitForEvents(named: "disconnect", count: 1)
                try await client.send(testMessage(subject: "After idle"))
            }
            #expect(try server.messages().count == 2)
            #expect(try server.events(named: "connect").count == 2)
        }
    }

    @Test func zeroIdleTimeoutClosesAfterEachMessage() async throws {
        try await SMTPTestServer.with { server in
            try await withClient(try await server.configuration(idleConnectionTimeout: .zero)) { client in
                try await client.send(testMessage())
                try await server.waitForEvents(named: "disconnect", count: 1)
                try await client.send(testMessage())
            }
            #expect(try server.events(named: "connect").count == 2)
        }
    }

    @Test func shutdownClosesTheConnectionAndRefusesLaterMessages() async throws {
        try await SMTPTestServer.with { server in
            let client = try SMTPClient(configuration: try await server.configuration())
            try await client.send(testMessage())
            await client.shutdown()
            try await server.waitForEvents(named: "disconnect", count: 1)
            let error = await #expect(throws: SMTPError.self) { try await client.send(testMessage()) }
            #expect(error == .clientShutDown)
            #expect(try server.events(named: "connect").count == 1)
        }
    }
}
