/// The durable queue of messages to users: written with the code, removed once sent.
enum Migration005MessageQueue {
    static let migration = Migration(version: 5, name: "message queue", statements: [
        """
        CREATE TABLE message_queue (
            id {autoincrement_pk},
            pool_id TEXT NOT NULL,
            username TEXT NOT NULL,
            medium TEXT NOT NULL,
            destination TEXT NOT NULL,
            subject TEXT,
            body TEXT NOT NULL,
            code TEXT,
            purpose TEXT NOT NULL,
            sender TEXT,
            created_at {timestamp} NOT NULL,
            next_attempt_at {timestamp} NOT NULL,
            attempts INTEGER NOT NULL,
            last_error TEXT
        )
        """,
        "CREATE INDEX message_queue_by_due ON message_queue (next_attempt_at, id)",
    ])
}
