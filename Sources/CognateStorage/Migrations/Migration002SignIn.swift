/// Sign-in state shared by every node: challenge sessions, password lockouts, groups; and the
/// hash of each code's predecessor (a superseded code is "expired", not "wrong").
enum Migration002SignIn {
    static let migration = Migration(version: 2, name: "sign-in sessions, lockouts, groups", statements: [
        "ALTER TABLE codes ADD COLUMN previous_hash TEXT",
        """
        CREATE TABLE auth_sessions (
            token_hash {binary_text} PRIMARY KEY,
            pool_id {binary_text} NOT NULL REFERENCES user_pools(id) ON DELETE CASCADE,
            client_id {binary_text} NOT NULL REFERENCES app_clients(client_id) ON DELETE CASCADE,
            user_sub {binary_text},
            challenge TEXT NOT NULL,
            state TEXT NOT NULL,
            created_at {timestamp} NOT NULL,
            expires_at {timestamp} NOT NULL
        )
        """,
        "CREATE INDEX auth_sessions_by_expiry ON auth_sessions (expires_at)",
        """
        CREATE TABLE sign_in_lockouts (
            pool_id {binary_text} NOT NULL,
            user_sub {binary_text} NOT NULL,
            failures INTEGER NOT NULL,
            locked_until {timestamp},
            PRIMARY KEY (pool_id, user_sub),
            FOREIGN KEY (pool_id, user_sub) REFERENCES users (pool_id, sub) ON DELETE CASCADE
        )
        """,
        """
        CREATE TABLE user_groups (
            pool_id {binary_text} NOT NULL REFERENCES user_pools(id) ON DELETE CASCADE,
            name {binary_text} NOT NULL,
            description TEXT,
            role_arn TEXT,
            precedence INTEGER,
            created_at {timestamp} NOT NULL,
            updated_at {timestamp} NOT NULL,
            PRIMARY KEY (pool_id, name)
        )
        """,
        """
        CREATE TABLE group_members (
            pool_id {binary_text} NOT NULL,
            group_name {binary_text} NOT NULL,
            user_sub {binary_text} NOT NULL,
            PRIMARY KEY (pool_id, group_name, user_sub),
            FOREIGN KEY (pool_id, group_name) REFERENCES user_groups (pool_id, name) ON DELETE CASCADE,
            FOREIGN KEY (pool_id, user_sub) REFERENCES users (pool_id, sub) ON DELETE CASCADE
        )
        """,
        "CREATE INDEX group_members_by_user ON group_members (pool_id, user_sub)",
    ])
}
