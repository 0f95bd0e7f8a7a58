/// Function ARNs (a pool's LambdaConfig) bound to the webhooks that serve them.
enum Migration006Functions {
    static let migration = Migration(version: 6, name: "function bindings", statements: [
        """
        CREATE TABLE functions (
            arn TEXT PRIMARY KEY,
            url TEXT NOT NULL,
            updated_at {timestamp} NOT NULL
        )
        """,
    ])
}
