/// Client ID Metadata Document (CIMD) policies of user pools, and the metadata document URLs
/// each has received with the document cached from them. A policy names its app client without
/// a foreign key: it outlives the client (Cognito then describes it without one).
enum Migration029ClientMetadataDocuments {
    static let migration = Migration(version: 29, name: "client_metadata_documents", statements: [
        """
        CREATE TABLE cimd_policies (
            policy_id {binary_text} PRIMARY KEY,
            pool_id {binary_text} NOT NULL REFERENCES user_pools (id) ON DELETE CASCADE,
            client_id {binary_text} NOT NULL,
            name TEXT NOT NULL,
            cache_duration INTEGER NOT NULL,
            url_patterns TEXT NOT NULL,
            created_at {timestamp} NOT NULL,
            updated_at {timestamp} NOT NULL
        )
        """,
        "CREATE INDEX cimd_policies_by_pool ON cimd_policies (pool_id, policy_id)",
        """
        CREATE TABLE cimd_urls (
            policy_id {binary_text} NOT NULL REFERENCES cimd_policies (policy_id) ON DELETE CASCADE,
            url {binary_text} NOT NULL,
            cached_at {timestamp},
            expires_at {timestamp},
            document TEXT,
            PRIMARY KEY (policy_id, url)
        )
        """,
    ])
}
