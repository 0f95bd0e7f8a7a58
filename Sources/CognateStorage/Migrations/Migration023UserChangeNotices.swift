/// PostgreSQL tells every node which users changed, so a node may cache users for GetUser
/// (``UserReadCache``): as a change of a user's row, or of a token family's revocation or
/// device, or a deletion of either commits, the database sends the notice "<pool id> <sub>"
/// on the channel `cognate_user_changes` (``PostgresUserChangeListener``), whichever node —
/// or the `cognate` tool, or an older node — made it. A deletion of more than a thousand
/// (a pool's users, a sweep of expired families) sends "*": everyone.
///
/// What sends none: inserts (nothing can have cached a row before it exists), a refresh
/// token's rotation and a family's scopes (no entry holds them), and attributes on their own:
/// a user's attributes change only with the row (`updateUser` writes `updated_at`).
/// A transaction that notifies commits one at a time with the others that do (PostgreSQL
/// orders its queue of notices so): sign-ups, sign-ins and refreshes send none.
/// SQLite: nothing; its cache learns of another process's commits from SQLite's data version
/// (`SQLiteChangeWatcher`).
enum Migration023UserChangeNotices {
    static let migration = Migration(version: 23, name: "user_change_notices", statements: [], postgresOnly: [
        """
        CREATE FUNCTION cognate_notify_user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_TABLE_NAME = 'users' THEN
                PERFORM pg_notify('cognate_user_changes', OLD.pool_id || ' ' || OLD.sub);
            ELSE
                PERFORM pg_notify('cognate_user_changes', OLD.pool_id || ' ' || OLD.user_sub);
            END IF;
            RETURN NULL;
        END
        $$
        """,
        // Statement-level, so that a pool's deletion, whose cascade deletes its users and
        // their families, fires once for each table with all the rows.
        """
        CREATE FUNCTION cognate_notify_users_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF (SELECT count(*) FROM (SELECT 1 FROM deleted LIMIT 1001) AS first_rows) > 1000 THEN
                PERFORM pg_notify('cognate_user_changes', '*');
            ELSIF TG_TABLE_NAME = 'users' THEN
                PERFORM pg_notify('cognate_user_changes', d.pool_id || ' ' || d.sub) FROM deleted d;
            ELSE
                PERFORM pg_notify('cognate_user_changes', d.pool_id || ' ' || d.user_sub) FROM deleted d;
            END IF;
            RETURN NULL;
        END
        $$
        """,
        """
        CREATE TRIGGER users_updated AFTER UPDATE ON users
        FOR EACH ROW EXECUTE FUNCTION cognate_notify_user_changed()
        """,
        """
        CREATE TRIGGER users_deleted AFTER DELETE ON users REFERENCING OLD TABLE AS deleted
        FOR EACH STATEMENT EXECUTE FUNCTION cognate_notify_users_deleted()
        """,
        """
        CREATE TRIGGER token_families_revoked AFTER UPDATE OF revoked_at, device_key ON token_families
        FOR EACH ROW EXECUTE FUNCTION cognate_notify_user_changed()
        """,
        """
        CREATE TRIGGER token_families_deleted AFTER DELETE ON token_families REFERENCING OLD TABLE AS deleted
        FOR EACH STATEMENT EXECUTE FUNCTION cognate_notify_users_deleted()
        """,
    ])
}
