/// Passkeys: the WebAuthn credentials users register (StartWebAuthnRegistration,
/// CompleteWebAuthnRegistration) and sign in with (USER_AUTH, WEB_AUTHN). A credential ID is
/// unique in its pool; a user's deletion takes the user's passkeys with it.
enum Migration025Passkeys {
    static let migration = Migration(version: 25, name: "passkeys", statements: [
        """
        CREATE TABLE passkeys (
            pool_id {binary_text} NOT NULL,
            credential_id {binary_text} NOT NULL,
            user_sub {binary_text} NOT NULL,
            public_key TEXT NOT NULL,
            sign_count BIGINT NOT NULL,
            backup_eligible INTEGER NOT NULL,
            relying_party_id TEXT NOT NULL,
            friendly_name TEXT,
            attachment TEXT,
            transports TEXT NOT NULL,
            aaguid TEXT NOT NULL,
            created_at {timestamp} NOT NULL,
            last_used_at {timestamp},
            PRIMARY KEY (pool_id, credential_id),
            FOREIGN KEY (pool_id, user_sub) REFERENCES users (pool_id, sub) ON DELETE CASCADE
        )
        """,
        "CREATE INDEX passkeys_by_user ON passkeys (pool_id, user_sub, credential_id)",
    ])
}
