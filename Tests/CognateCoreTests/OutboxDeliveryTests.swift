import CognateProtocol
import CognateStorage
import Foundation
import Logging
import Testing

@testable import CognateCore

/// The outbox is a table of the service's own store: a message for it is written in the
/// transaction that made its code unless a pool function may still change it after the commit.
struct OutboxDeliveryTests {
    /// A service whose only channel is the outbox of its own SQLite store.
    private static func withOutbox(_ body: (IdentityService, SQLStore, ManualTime) async throws -> Void) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cognate-outbox-\(UUID().uuidString).sqlite").path
        let store = try await SQLStore.open(path, logger: Logger(label: "test"))
        let time = ManualTime()
        let outbox = OutboxDelivery(store: store, time: time, keepsSecrets: true) { _ in }
        let service = try await IdentityService.start(
            store: store, delivery: outbox, configuration: CoreConfiguration(), time: time)
        do { try await body(service, store, time) } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    private static func message(to address: String, pool: String) -> OutboundMessage {
        OutboundMessage(poolId: pool, username: "alice", medium: .email, destination: address, subject: "s",
                        body: "code 123456", code: "123456", purpose: "signUp")
    }

    @Test func signUpCodeIsInTheOutboxWithNothingLeftQueued() async throws {
        try await Self.withOutbox { service, store, time in
            let pool = try await service.pools.createUserPool(CreateUserPoolRequest(poolName: "p", autoVerifiedAttributes: [.email])).userPool!
            let client = try await service.clients.createUserPoolClient(CreateUserPoolClientRequest(userPoolId: pool.id!, clientName: "app"))
            _ = try await service.registration.signUp(SignUpRequest(
                clientId: client.userPoolClient!.clientId!, username: "alice", password: "Passw0rd!",
                userAttributes: [AttributeType(name: "email", value: "alice@example.com")]))
            let kept = try await store.read { try await $0.outboxMessages(poolId: pool.id, afterId: nil, limit: 10) }
            #expect(kept.map(\.message.destination) == ["alice@example.com"])
            #expect(kept.first?.message.code?.count == 6)
            // Not in the queue either: no retry will send it a second time.
            #expect(try await store.read { try await $0.dueMessages(now: time.now + 86_400, limit: 10) } == [])
        }
    }

    @Test func aMessageWrittenInTransactionRollsBackWithIt() async throws {
        struct Abort: Error {}
        try await Self.withOutbox { service, store, _ in
            let created = try await service.pools.createUserPool(CreateUserPoolRequest(poolName: "p")).userPool!
            let pool = try await service.pools.directory.requirePool(created.id!)
            await #expect(throws: Abort.self) {
                try await store.write { transaction in
                    let pending = try await service.housekeeping.deliveryQueue.enqueue(
                        Self.message(to: "gone@example.com", pool: pool.id), pool: pool, in: transaction)
                    guard case .takenInTransaction = pending.place else { Issue.record("queued: \(pending.place)"); return }
                    throw Abort()
                }
            }
            #expect(try await store.read { try await $0.outboxMessages(poolId: pool.id, afterId: nil, limit: 10) } == [])
        }
    }

    @Test func aPoolFunctionThatMayRewriteOrCarryTheMessageKeepsItQueued() async throws {
        try await Self.withOutbox { service, store, time in
            for lambda in [LambdaConfigType(customMessage: "arn:aws:lambda:us-east-1:000000000000:function:rewrite"),
                           LambdaConfigType(customEmailSender: CustomEmailLambdaVersionConfigType(
                               lambdaVersion: .v10, lambdaArn: "arn:aws:lambda:us-east-1:000000000000:function:send"),
                                            kmsKeyID: "arn:aws:kms:us-east-1:000000000000:key/k")] {
                let created = try await service.pools.createUserPool(CreateUserPoolRequest(poolName: "p", lambdaConfig: lambda)).userPool!
                let pool = try await service.pools.directory.requirePool(created.id!)
                let pending = try await store.write { transaction in
                    try await service.housekeeping.deliveryQueue.enqueue(Self.message(to: "a@example.com", pool: pool.id), pool: pool, in: transaction)
                }
                guard case .queue(let id, _) = pending.place else {
                    Issue.record("\(lambda) did not queue the message")
                    continue
                }
                #expect(try await store.read { try await $0.dueMessages(now: time.now + 3600, limit: 10) }.contains(id))
                #expect(try await store.read { try await $0.outboxMessages(poolId: pool.id, afterId: nil, limit: 10) } == [])
            }
        }
    }
}
