/// Federation: a pool's identity providers (OIDC, social), and the links between a provider's
/// users and the pool's users (the federated user itself, or a native user it was linked to).
enum Migration012Federation {
    static let migration = Migration(version: 12, name: "federation", statements: [
        """
        CREATE TABLE identity_providers (
            pool_id {binary_text} NOT NULL REFERENCES user_pools (id) ON DELETE CASCADE,
            name {binary_text} NOT NULL,
            type TEXT NOT NULL,
            details TEXT NOT NULL,
            attribute_mapping TEXT NOT NULL,
            identifiers TEXT NOT NULL,
            created_at {timestamp} NOT NULL,
            updated_at {timestamp} NOT NULL,
            PRIMARY KEY (pool_id, name)
        )
        """,
        """
        CREATE TABLE provider_links (
            pool_id {binary_text} NOT NULL,
            provider_name {binary_text} NOT NULL,
            provider_user_id {binary_text} NOT NULL,
            user_sub {binary_text} NOT NULL,
            created_at {timestamp} NOT NULL,
            PRIMARY KEY (pool_id, provider_name, provider_user_id),
            FOREIGN KEY (pool_id, user_sub) REFERENCES users (pool_id, sub) ON DELETE CASCADE
        )
        """,
    ])
}
