/// Usernames and user statuses compare byte by byte on PostgreSQL too, whatever the database's
/// default collation. They were the last columns ListUsers filters by (`=`, and `^=` as a range
/// up to the value followed by U+10FFFF) left with that default: under a linguistic one
/// (en_US.UTF-8, ICU's en-US, common on managed servers) `username ^= "Dor"` also matched
/// "dorian" and "DORIS". Changing a text column's collation rewrites no rows; no index holds
/// either column. SQLite's text compares bytes already.
enum Migration020ByteOrderedNames {
    static let migration = Migration(version: 20, name: "byte_ordered_names", statements: [], postgresOnly: [
        "ALTER TABLE users ALTER COLUMN username TYPE TEXT COLLATE \"C\", ALTER COLUMN status TYPE TEXT COLLATE \"C\"",
    ])
}
