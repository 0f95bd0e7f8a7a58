/// A user's MFA settings join the notices of migration 023, so a node may cache them for
/// GetUser too: as a user's settings are first saved, or their factors, preference or
/// authenticator change, the database sends "<pool id> <sub>" on `cognate_user_changes`.
///
/// What sends none: a TOTP code's use (`totp_last_step`, on every sign-in with one; GetUser
/// does not show it) and deletions (only by the user's or pool's deletion, which notify).
/// SQLite: nothing (one process, no cache).
enum Migration024MfaChangeNotices {
    static let migration = Migration(version: 24, name: "mfa_change_notices", statements: [], postgresOnly: [
        """
        CREATE FUNCTION cognate_notify_mfa_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('cognate_user_changes', NEW.pool_id || ' ' || NEW.user_sub);
            RETURN NULL;
        END
        $$
        """,
        """
        CREATE TRIGGER user_mfa_saved
        AFTER INSERT OR UPDATE OF totp_secret, totp_pending_secret, totp_name, totp_enabled, sms_enabled, email_enabled, preferred
        ON user_mfa FOR EACH ROW EXECUTE FUNCTION cognate_notify_mfa_changed()
        """,
    ])
}
