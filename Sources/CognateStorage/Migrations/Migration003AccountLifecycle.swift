/// Account lifecycle: verification codes that carry a pending new address, and password history.
enum Migration003AccountLifecycle {
    static let migration = Migration(version: 3, name: "pending attribute values, password history", statements: [
        "ALTER TABLE codes ADD COLUMN pending_value TEXT",
        """
        CREATE TABLE password_history (
            id {autoincrement_pk},
            pool_id {binary_text} NOT NULL,
            user_sub {binary_text} NOT NULL,
            salt TEXT NOT NULL,
            verifier TEXT NOT NULL,
            created_at {timestamp} NOT NULL,
            FOREIGN KEY (pool_id, user_sub) REFERENCES users (pool_id, sub) ON DELETE CASCADE
        )
        """,
        "CREATE INDEX password_history_by_user ON password_history (pool_id, user_sub, id)",
    ])
}
