import CognateCore

/// One SQL statement with its bound values, written once for every database:
///
///     "SELECT * FROM users WHERE pool_id = \(bind: poolId) AND sub = \(bind: sub)"
///
/// `\(bind:)` adds a value as a parameter (never into the text, so no value can change the
/// statement); `\(unsafeRaw:)` adds text as is, for identifiers and fragments the code itself
/// chose. Statements concatenate with `+`. Each backend renders the placeholders its database
/// expects (`?` for SQLite, `$1 …` for PostgreSQL); the rendered text is what prepared
/// statements are cached by.
public struct SQLStatement: Sendable, ExpressibleByStringInterpolation {
    enum Piece: Sendable {
        case text(String)
        case bind(SQLValue)
    }

    var pieces: [Piece]

    public init(stringLiteral value: String) { pieces = [.text(value)] }

    public init(stringInterpolation: StringInterpolation) { pieces = stringInterpolation.pieces }

    public struct StringInterpolation: StringInterpolationProtocol {
        var pieces: [Piece] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            pieces.reserveCapacity(interpolationCount * 2 + 1)
        }

        public mutating func appendLiteral(_ literal: String) { pieces.append(.text(literal)) }

        public mutating func appendInterpolation<Value: SQLBindable>(bind value: Value) {
            pieces.append(.bind(value.sqlValue))
        }

        /// An optional value: NULL when nil. (Spelled out so that the compiler does not take an
        /// optional for a debug description.)
        public mutating func appendInterpolation<Value: SQLBindable>(bind value: Value?) {
            pieces.append(.bind(value.sqlValue))
        }

        public mutating func appendInterpolation(unsafeRaw text: String) { pieces.append(.text(text)) }

        public mutating func appendInterpolation(_ statement: SQLStatement) { pieces += statement.pieces }

        /// Several values as a comma-separated list of parameters (for `IN (…)`).
        public mutating func appendInterpolation<Value: SQLBindable>(binds values: [Value]) {
            for (index, value) in values.enumerated() {
                if index > 0 { pieces.append(.text(", ")) }
                pieces.append(.bind(value.sqlValue))
            }
        }
    }

    /// The statements one after another, `separator` between them.
    public static func joined(_ statements: [SQLStatement], separator: String) -> SQLStatement {
        var result = SQLStatement(stringLiteral: "")
        for (index, statement) in statements.enumerated() {
            if index > 0 { result.pieces.append(.text(separator)) }
            result.pieces += statement.pieces
        }
        return result
    }

    public static func + (lhs: SQLStatement, rhs: SQLStatement) -> SQLStatement {
        var result = lhs
        result.pieces += rhs.pieces
        return result
    }

    public static func += (lhs: inout SQLStatement, rhs: SQLStatement) { lhs.pieces += rhs.pieces }

    /// The text with `placeholder(n)` for the n-th bound value (1-based), and the values.
    /// Throws `StoreError.unstorableText` for a text value with the NUL character.
    func rendered(placeholder: (Int) -> String) throws -> (sql: String, binds: [SQLValue]) {
        var sql = ""
        var binds: [SQLValue] = []
        for piece in pieces {
            switch piece {
            case .text(let text): sql += text
            case .bind(let value):
                if case .text(let text) = value, text.utf8.contains(0) { throw StoreError.unstorableText }
                binds.append(value)
                sql += placeholder(binds.count)
            }
        }
        return (sql, binds)
    }
}
