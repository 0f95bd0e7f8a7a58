/// User import jobs: the job, its uploaded CSV (until it ran), its progress and row errors.
enum Migration016UserImport {
    static let migration = Migration(version: 16, name: "user_import", statements: [
        """
        CREATE TABLE user_import_jobs (
            job_id {binary_text} PRIMARY KEY,
            pool_id {binary_text} NOT NULL REFERENCES user_pools (id) ON DELETE CASCADE,
            record TEXT NOT NULL,
            upload_token_hash TEXT NOT NULL,
            csv TEXT,
            created_at {timestamp} NOT NULL
        )
        """,
        "CREATE INDEX user_import_jobs_by_pool ON user_import_jobs (pool_id, job_id)",
    ])
}
