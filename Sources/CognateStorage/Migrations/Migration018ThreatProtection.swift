/// Threat protection and operator-facing pool extras: auth events (AdminListUserAuthEvents),
/// risk configurations and log delivery per pool, managed login branding per app client.
enum Migration018ThreatProtection {
    static let migration = Migration(version: 18, name: "threat_protection", statements: [
        "ALTER TABLE user_pools ADD COLUMN risk_configurations TEXT",
        "ALTER TABLE user_pools ADD COLUMN log_delivery TEXT",
        """
        CREATE TABLE auth_events (
            event_id {binary_text} PRIMARY KEY,
            pool_id {binary_text} NOT NULL REFERENCES user_pools (id) ON DELETE CASCADE,
            user_sub {binary_text} NOT NULL,
            created_at {timestamp} NOT NULL,
            feedback_token_hash {binary_text},
            record TEXT NOT NULL
        )
        """,
        "CREATE INDEX auth_events_by_user ON auth_events (pool_id, user_sub, event_id)",
        """
        CREATE TABLE managed_login_brandings (
            branding_id {binary_text} PRIMARY KEY,
            pool_id {binary_text} NOT NULL REFERENCES user_pools (id) ON DELETE CASCADE,
            client_id {binary_text} NOT NULL UNIQUE,
            record TEXT NOT NULL
        )
        """,
    ])
}
