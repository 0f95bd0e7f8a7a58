/// Remembered devices: a device's SRP verifier (its secret never leaves it), its state, and the
/// token families issued to it (forgetting the device ends them).
enum Migration009Devices {
    static let migration = Migration(version: 9, name: "devices", statements: [
        """
        CREATE TABLE devices (
            device_key {binary_text} PRIMARY KEY,
            pool_id {binary_text} NOT NULL,
            user_sub {binary_text} NOT NULL,
            group_key TEXT NOT NULL,
            salt TEXT,
            verifier TEXT,
            name TEXT,
            remembered INTEGER NOT NULL,
            created_at {timestamp} NOT NULL,
            updated_at {timestamp} NOT NULL,
            last_authenticated_at {timestamp},
            FOREIGN KEY (pool_id, user_sub) REFERENCES users (pool_id, sub) ON DELETE CASCADE
        )
        """,
        "CREATE INDEX devices_by_user ON devices (pool_id, user_sub, device_key)",
        "ALTER TABLE token_families ADD COLUMN device_key TEXT",
    ])
}
