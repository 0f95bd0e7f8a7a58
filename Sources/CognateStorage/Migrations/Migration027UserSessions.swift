/// User sessions (ListUserSessions and the session configurations): the pool's and each app
/// client's settings, and the latest activity of each token session where the pool tracks
/// sessions (a row per token family, deleted with it).
enum Migration027UserSessions {
    static let migration = Migration(version: 27, name: "user_sessions", statements: [
        "ALTER TABLE user_pools ADD COLUMN session_configuration TEXT",
        "ALTER TABLE app_clients ADD COLUMN session_configuration TEXT",
        """
        CREATE TABLE session_activity (
            origin_jti {binary_text} PRIMARY KEY REFERENCES token_families (origin_jti) ON DELETE CASCADE,
            last_active_at {timestamp} NOT NULL,
            last_ip_address TEXT,
            device_type TEXT
        )
        """,
    ])
}
