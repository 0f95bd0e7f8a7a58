import CognateCore
import CognateProtocol
import Foundation


extension SQLTransaction: OutboxRepository {
    func appendOutboxMessage(_ message: OutboundMessage, at date: Date, expiresAt: Date) async throws {
        try await holdInsert(
            """
            INSERT INTO outbox (pool_id, username, medium, destination, subject, body, code, purpose, created_at, \
            expires_at) VALUES (\(bind: message.poolId), \(bind: message.username), \(bind: message.medium.rawValue), \
            \(bind: message.destination), \(bind: message.subject), \(bind: message.body), \(bind: message.code), \
            \(bind: message.purpose), \(bind: Columns.time(date)), \(bind: Columns.time(expiresAt)))
            """, into: "outbox")
    }

    func outboxMessages(poolId: String?, afterId: Int64?, limit: Int) async throws -> [OutboxEntry] {
        var query: SQLStatement = "SELECT * FROM outbox WHERE id > \(bind: afterId ?? 0)"
        if let poolId { query += " AND pool_id = \(bind: poolId)" }
        query += " ORDER BY id LIMIT \(bind: limit)"
        return try await all(query).map { row in
            OutboxEntry(
                id: try row.int64("id"), createdAt: try row.date("created_at"),
                message: OutboundMessage(
                    poolId: try row.string("pool_id"), username: try row.string("username"),
                    medium: DeliveryMediumType(rawValue: try row.string("medium")), destination: try row.string("destination"),
                    subject: try row.optionalString("subject"), body: try row.string("body"),
                    code: try row.optionalString("code"), purpose: try row.string("purpose")))
        }
    }
}
