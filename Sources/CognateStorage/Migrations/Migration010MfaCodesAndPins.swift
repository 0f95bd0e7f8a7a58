/// SMS and email MFA per user (the pool's side lives in `user_pools.mfa`), and PIN sign-in:
/// each device's second SRP verifier, derived from its PIN (the PIN itself is never sent), and
/// each pool's PIN policy.
enum Migration010MfaCodesAndPins {
    static let migration = Migration(version: 10, name: "mfa_codes_and_pins", statements: [
        "ALTER TABLE user_mfa ADD COLUMN sms_enabled INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE user_mfa ADD COLUMN email_enabled INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE devices ADD COLUMN pin_salt TEXT",
        "ALTER TABLE devices ADD COLUMN pin_verifier TEXT",
        "ALTER TABLE devices ADD COLUMN pin_registered_at {timestamp}",
        "ALTER TABLE user_pools ADD COLUMN pin_policy TEXT",
    ])
}
