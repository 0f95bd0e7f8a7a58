/// What the security review asked of the schema: wrong code guesses counted per hour across
/// replacement codes; failed sign-ins recorded for names that are not users too (so an unknown
/// name behaves like a real one); signing keys owned by a pool and retirable; a feed of
/// configuration changes every node polls; and expiry times on everything that used to grow
/// forever, indexed for the sweeper.
enum Migration004Hardening {
    static let migration = Migration(version: 4, name: "security hardening", statements: [
        "ALTER TABLE codes ADD COLUMN attempts_since {timestamp}",
        "UPDATE codes SET attempts_since = created_at",
        """
        CREATE TABLE sign_in_failures (
            pool_id {binary_text} NOT NULL REFERENCES user_pools(id) ON DELETE CASCADE,
            subject {binary_text} NOT NULL,
            failures INTEGER NOT NULL,
            locked_until {timestamp},
            last_failure_at {timestamp} NOT NULL,
            PRIMARY KEY (pool_id, subject)
        )
        """,
        """
        INSERT INTO sign_in_failures (pool_id, subject, failures, locked_until, last_failure_at)
        SELECT pool_id, user_sub, failures, locked_until, COALESCE(locked_until, 0) FROM sign_in_lockouts
        """,
        "DROP TABLE sign_in_lockouts",
        "CREATE INDEX sign_in_failures_by_time ON sign_in_failures (last_failure_at)",
        // Keys from before keys per pool have no pool: every pool publishes and accepts them
        // for one more day (the longest token lifetime, and a margin), then they expire.
        "ALTER TABLE signing_keys ADD COLUMN pool_id {binary_text}",
        "ALTER TABLE signing_keys ADD COLUMN activates_at {timestamp}",
        "ALTER TABLE signing_keys ADD COLUMN expires_at {timestamp}",
        "ALTER TABLE signing_keys ADD COLUMN retired_at {timestamp}",
        "UPDATE signing_keys SET activates_at = created_at, expires_at = {now} + 86700",
        "CREATE INDEX signing_keys_by_pool ON signing_keys (pool_id)",
        """
        CREATE TABLE change_feed (
            id {autoincrement_pk},
            topic TEXT NOT NULL,
            subject TEXT NOT NULL,
            changed_at {timestamp} NOT NULL
        )
        """,
        "CREATE INDEX change_feed_by_time ON change_feed (changed_at)",
        "ALTER TABLE outbox ADD COLUMN expires_at {timestamp}",
        "UPDATE outbox SET expires_at = created_at + 86400",
        "CREATE INDEX outbox_by_expiry ON outbox (expires_at)",
        "CREATE INDEX token_families_by_expiry ON token_families (expires_at)",
        "CREATE INDEX counters_by_window ON counters (window_start)",
        "CREATE INDEX codes_by_expiry ON codes (expires_at)",
    ])
}
