/// Identity pools (the `cognito-identity` API): pools, their identities, and the logins linked
/// to each identity. A login (pool, provider, subject) belongs to one identity at most: its
/// primary key decides two first sign-ins of one person at once.
enum Migration028IdentityPools {
    static let migration = Migration(version: 28, name: "identity_pools", statements: [
        """
        CREATE TABLE identity_pools (
            id {binary_text} PRIMARY KEY,
            settings TEXT NOT NULL,
            roles TEXT NOT NULL,
            principal_tags TEXT NOT NULL,
            created_at {timestamp} NOT NULL,
            updated_at {timestamp} NOT NULL
        )
        """,
        """
        CREATE TABLE identities (
            identity_id {binary_text} PRIMARY KEY,
            pool_id {binary_text} NOT NULL REFERENCES identity_pools (id) ON DELETE CASCADE,
            disabled INTEGER NOT NULL DEFAULT 0,
            created_at {timestamp} NOT NULL,
            updated_at {timestamp} NOT NULL
        )
        """,
        "CREATE INDEX identities_by_pool ON identities (pool_id, identity_id)",
        """
        CREATE TABLE identity_logins (
            pool_id {binary_text} NOT NULL,
            provider {binary_text} NOT NULL,
            subject {binary_text} NOT NULL,
            identity_id {binary_text} NOT NULL REFERENCES identities (identity_id) ON DELETE CASCADE,
            linked_at {timestamp} NOT NULL,
            PRIMARY KEY (pool_id, provider, subject)
        )
        """,
        "CREATE INDEX identity_logins_by_identity ON identity_logins (identity_id)",
    ])
}
