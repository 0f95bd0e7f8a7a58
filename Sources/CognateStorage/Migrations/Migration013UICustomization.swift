/// The hosted pages' look per pool (client id `ALL`) or per app client: CSS and a logo.
enum Migration013UICustomization {
    static let migration = Migration(version: 13, name: "ui_customization", statements: [
        """
        CREATE TABLE ui_customizations (
            pool_id {binary_text} NOT NULL REFERENCES user_pools (id) ON DELETE CASCADE,
            client_id {binary_text} NOT NULL,
            css TEXT,
            image TEXT,
            version TEXT NOT NULL,
            created_at {timestamp} NOT NULL,
            updated_at {timestamp} NOT NULL,
            PRIMARY KEY (pool_id, client_id)
        )
        """,
    ])
}
