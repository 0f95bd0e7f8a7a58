import CognateCore
import CognateProtocol
import Foundation

extension SQLTransaction: MessageQueueRepository {
    func enqueueMessage(_ message: OutboundMessage, at date: Date, heldUntil: Date) async throws -> Int64 {
        let now = Columns.time(date)
        guard let row = try await first(
            """
            INSERT INTO message_queue (pool_id, username, medium, destination, subject, body, code, purpose, sender, \
            occasion, client_id, created_at, next_attempt_at, attempts) VALUES (\(bind: message.poolId), \
            \(bind: message.username), \(bind: message.medium.rawValue), \(bind: message.destination), \
            \(bind: message.subject), \(bind: message.body), \(bind: message.code), \(bind: message.purpose), \
            \(bind: message.sender), \(bind: message.occasion), \(bind: message.clientId), \(bind: now), \
            \(bind: Columns.time(heldUntil)), 1) RETURNING id
            """)
        else { throw StorageError.corrupt("The queued message has no id.") }
        return try row.int64("id")
    }

    func claimMessage(id: Int64, now: Date, heldUntil: Date) async throws -> QueuedMessage? {
        try await first(
            """
            UPDATE message_queue SET attempts = attempts + 1, next_attempt_at = \(bind: Columns.time(heldUntil)) \
            WHERE id = \(bind: id) AND next_attempt_at <= \(bind: Columns.time(now)) RETURNING *
            """
        ).map { row in
            QueuedMessage(
                id: try row.int64("id"),
                message: OutboundMessage(
                    poolId: try row.string("pool_id"), username: try row.string("username"),
                    medium: DeliveryMediumType(rawValue: try row.string("medium")), destination: try row.string("destination"),
                    subject: try row.optionalString("subject"), body: try row.string("body"),
                    code: try row.optionalString("code"), purpose: try row.string("purpose"),
                    sender: try row.optionalString("sender"), occasion: try row.optionalString("occasion"),
                    clientId: try row.optionalString("client_id")),
                attempts: try row.int("attempts"), createdAt: try row.date("created_at"))
        }
    }

    func dueMessages(now: Date, limit: Int) async throws -> [Int64] {
        try await all(
            """
            SELECT id FROM message_queue WHERE next_attempt_at <= \(bind: Columns.time(now)) \
            ORDER BY next_attempt_at, id LIMIT \(bind: limit)
            """
        ).map { try $0.int64("id") }
    }

    func rescheduleMessage(_ queued: QueuedMessage, at date: Date, error: String) async throws {
        try await run(
            """
            UPDATE message_queue SET next_attempt_at = \(bind: Columns.time(date)), last_error = \(bind: String(error.prefix(500))), \
            subject = \(bind: queued.message.subject), body = \(bind: queued.message.body) WHERE id = \(bind: queued.id)
            """)
    }

    func removeMessage(id: Int64) async throws {
        try await run("DELETE FROM message_queue WHERE id = \(bind: id)")
    }
}
