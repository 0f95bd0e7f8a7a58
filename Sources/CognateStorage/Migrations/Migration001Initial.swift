/// The first schema: pools, clients, users and everything users own, signing keys, outbox.
///
/// Times are epoch seconds; bytes are hex text; settings are the wire JSON of the API.
enum Migration001Initial {
    static let migration = Migration(version: 1, name: "initial", statements: [
        """
        CREATE TABLE user_pools (
            id {binary_text} PRIMARY KEY,
            name TEXT NOT NULL,
            created_at {timestamp} NOT NULL,
            updated_at {timestamp} NOT NULL,
            settings TEXT NOT NULL
        )
        """,
        """
        CREATE TABLE app_clients (
            client_id {binary_text} PRIMARY KEY,
            pool_id {binary_text} NOT NULL REFERENCES user_pools(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            created_at {timestamp} NOT NULL,
            updated_at {timestamp} NOT NULL,
            settings TEXT NOT NULL
        )
        """,
        "CREATE INDEX app_clients_by_pool ON app_clients (pool_id, client_id)",
        """
        CREATE TABLE users (
            pool_id {binary_text} NOT NULL REFERENCES user_pools(id) ON DELETE CASCADE,
            sub {binary_text} NOT NULL,
            username TEXT NOT NULL,
            username_key {binary_text} NOT NULL,
            status TEXT NOT NULL,
            enabled INTEGER NOT NULL,
            created_at {timestamp} NOT NULL,
            updated_at {timestamp} NOT NULL,
            password_salt TEXT,
            password_verifier TEXT,
            password_updated_at {timestamp},
            PRIMARY KEY (pool_id, sub)
        )
        """,
        "CREATE UNIQUE INDEX users_by_username ON users (pool_id, username_key)",
        """
        CREATE TABLE user_attributes (
            pool_id {binary_text} NOT NULL,
            user_sub {binary_text} NOT NULL,
            name {binary_text} NOT NULL,
            value {binary_text} NOT NULL,
            value_folded {binary_text} NOT NULL,
            PRIMARY KEY (pool_id, user_sub, name),
            FOREIGN KEY (pool_id, user_sub) REFERENCES users (pool_id, sub) ON DELETE CASCADE
        )
        """,
        "CREATE INDEX user_attributes_by_value ON user_attributes (pool_id, name, value)",
        "CREATE INDEX user_attributes_by_folded_value ON user_attributes (pool_id, name, value_folded)",
        """
        CREATE TABLE sign_in_names (
            pool_id {binary_text} NOT NULL,
            name_key {binary_text} NOT NULL,
            user_sub {binary_text} NOT NULL,
            PRIMARY KEY (pool_id, name_key),
            FOREIGN KEY (pool_id, user_sub) REFERENCES users (pool_id, sub) ON DELETE CASCADE
        )
        """,
        "CREATE INDEX sign_in_names_by_user ON sign_in_names (pool_id, user_sub)",
        """
        CREATE TABLE codes (
            pool_id {binary_text} NOT NULL,
            user_sub {binary_text} NOT NULL,
            purpose {binary_text} NOT NULL,
            code_hash TEXT NOT NULL,
            delivered_to TEXT,
            created_at {timestamp} NOT NULL,
            expires_at {timestamp} NOT NULL,
            failed_attempts INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (pool_id, user_sub, purpose),
            FOREIGN KEY (pool_id, user_sub) REFERENCES users (pool_id, sub) ON DELETE CASCADE
        )
        """,
        """
        CREATE TABLE token_families (
            origin_jti {binary_text} PRIMARY KEY,
            pool_id {binary_text} NOT NULL,
            client_id {binary_text} NOT NULL REFERENCES app_clients(client_id) ON DELETE CASCADE,
            user_sub {binary_text} NOT NULL,
            refresh_token_hash {binary_text} UNIQUE,
            auth_time {timestamp} NOT NULL,
            created_at {timestamp} NOT NULL,
            expires_at {timestamp} NOT NULL,
            revoked_at {timestamp},
            FOREIGN KEY (pool_id, user_sub) REFERENCES users (pool_id, sub) ON DELETE CASCADE
        )
        """,
        "CREATE INDEX token_families_by_user ON token_families (pool_id, user_sub)",
        "CREATE INDEX token_families_by_client ON token_families (client_id)",
        """
        CREATE TABLE outbox (
            id {autoincrement_pk},
            pool_id TEXT NOT NULL,
            username TEXT NOT NULL,
            medium TEXT NOT NULL,
            destination TEXT NOT NULL,
            subject TEXT,
            body TEXT NOT NULL,
            code TEXT,
            purpose TEXT NOT NULL,
            created_at {timestamp} NOT NULL
        )
        """,
        "CREATE INDEX outbox_by_pool ON outbox (pool_id, id)",
        """
        CREATE TABLE signing_keys (
            kid {binary_text} PRIMARY KEY,
            private_key_pem TEXT NOT NULL,
            created_at {timestamp} NOT NULL
        )
        """,
        "CREATE TABLE server_secrets (name {binary_text} PRIMARY KEY, value TEXT NOT NULL)",
        """
        CREATE TABLE counters (
            key {binary_text} PRIMARY KEY,
            window_start {timestamp} NOT NULL,
            count INTEGER NOT NULL
        )
        """,
    ])
}
