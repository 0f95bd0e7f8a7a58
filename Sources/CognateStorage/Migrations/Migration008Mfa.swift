/// Multi-factor authentication: the pool's enabled factors (SetUserPoolMfaConfig) and each
/// user's authenticator app (TOTP secret, whether verified and enabled, the last step used).
enum Migration008Mfa {
    static let migration = Migration(version: 8, name: "mfa", statements: [
        "ALTER TABLE user_pools ADD COLUMN mfa TEXT",
        """
        CREATE TABLE user_mfa (
            pool_id {binary_text} NOT NULL,
            user_sub {binary_text} NOT NULL,
            totp_secret TEXT,
            totp_pending_secret TEXT,
            totp_name TEXT,
            totp_enabled INTEGER NOT NULL,
            totp_last_step BIGINT,
            preferred TEXT,
            updated_at {timestamp} NOT NULL,
            PRIMARY KEY (pool_id, user_sub),
            FOREIGN KEY (pool_id, user_sub) REFERENCES users (pool_id, sub) ON DELETE CASCADE
        )
        """,
    ])
}
