/// Refresh token rotation: a family's refresh token replaced at each use, the one before it
/// still accepted until the client's grace period ends (retries).
enum Migration014RefreshRotation {
    static let migration = Migration(version: 14, name: "refresh_rotation", statements: [
        "ALTER TABLE token_families ADD COLUMN previous_refresh_token_hash TEXT",
        "ALTER TABLE token_families ADD COLUMN previous_valid_until {timestamp}",
        "CREATE INDEX token_families_by_previous_hash ON token_families (previous_refresh_token_hash)",
    ])
}
