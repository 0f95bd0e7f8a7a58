/// Terms of use and privacy policies per app client (links shown on the hosted sign-up page).
enum Migration017Terms {
    static let migration = Migration(version: 17, name: "terms", statements: [
        """
        CREATE TABLE terms (
            terms_id {binary_text} PRIMARY KEY,
            pool_id {binary_text} NOT NULL REFERENCES user_pools (id) ON DELETE CASCADE,
            client_id {binary_text} NOT NULL,
            terms_name {binary_text} NOT NULL,
            record TEXT NOT NULL,
            UNIQUE (client_id, terms_name)
        )
        """,
        "CREATE INDEX terms_by_pool ON terms (pool_id, terms_id)",
    ])
}
