/// OAuth 2.0: each pool's domain (the name its hosted pages and endpoints go by), its resource
/// servers with their custom scopes, and the scopes a token family was granted (nil: the API's
/// `aws.cognito.signin.user.admin`).
enum Migration011OAuth {
    static let migration = Migration(version: 11, name: "oauth", statements: [
        """
        CREATE TABLE user_pool_domains (
            domain {binary_text} PRIMARY KEY,
            pool_id {binary_text} NOT NULL REFERENCES user_pools (id) ON DELETE CASCADE,
            created_at {timestamp} NOT NULL
        )
        """,
        "CREATE UNIQUE INDEX user_pool_domains_by_pool ON user_pool_domains (pool_id)",
        """
        CREATE TABLE resource_servers (
            pool_id {binary_text} NOT NULL REFERENCES user_pools (id) ON DELETE CASCADE,
            identifier {binary_text} NOT NULL,
            name TEXT NOT NULL,
            scopes TEXT NOT NULL,
            PRIMARY KEY (pool_id, identifier)
        )
        """,
        "ALTER TABLE token_families ADD COLUMN scopes TEXT",
    ])
}
