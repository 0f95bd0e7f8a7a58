/// Drops the index of attribute values as written: every attribute a ListUsers filter can name
/// is searched case-insensitively (`UserFilterParser`), through the index of folded values, so
/// this one was never read, and cost every sign-up and attribute change one more index entry
/// per attribute (docs/performance.md).
enum Migration019AttributeValueIndex {
    static let migration = Migration(version: 19, name: "attribute_value_index", statements: [
        "DROP INDEX IF EXISTS user_attributes_by_value",
    ])
}
