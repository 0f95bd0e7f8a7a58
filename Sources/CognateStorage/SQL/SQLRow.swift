import Foundation

/// The names of a result's columns, shared by all its rows.
public final class SQLColumns: Sendable {
    public let names: [String]
    let index: [String: Int]

    init(_ names: [String]) {
        self.names = names
        var index: [String: Int] = [:]
        for (position, name) in names.enumerated() where index[name] == nil { index[name] = position }
        self.index = index
    }
}

/// One row of a result, read by column name.
public struct SQLRow: Sendable {
    public let columns: SQLColumns
    public let values: [SQLValue]

    init(columns: SQLColumns, values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    public func value(_ column: String) throws -> SQLValue {
        guard let position = columns.index[column] else { throw SQLError("No column \(column) in the result.") }
        return values[position]
    }

    public func optionalString(_ column: String) throws -> String? {
        switch try value(column) {
        case .null: return nil
        case .text(let text): return text
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        }
    }

    public func string(_ column: String) throws -> String {
        guard let text = try optionalString(column) else { throw SQLError("Column \(column) is NULL.") }
        return text
    }

    public func optionalInt64(_ column: String) throws -> Int64? {
        switch try value(column) {
        case .null: return nil
        case .integer(let number): return number
        case .real(let number) where number.rounded() == number && abs(number) < 9e18: return Int64(number)
        case .text(let text) where Int64(text) != nil: return Int64(text)
        default: throw SQLError("Column \(column) is not an integer.")
        }
    }

    public func int64(_ column: String) throws -> Int64 {
        guard let number = try optionalInt64(column) else { throw SQLError("Column \(column) is NULL.") }
        return number
    }

    public func int(_ column: String) throws -> Int { Int(try int64(column)) }

    public func optionalDouble(_ column: String) throws -> Double? {
        switch try value(column) {
        case .null: return nil
        case .real(let number): return number
        case .integer(let number): return Double(number)
        case .text(let text) where Double(text) != nil: return Double(text)
        default: throw SQLError("Column \(column) is not a number.")
        }
    }

    public func double(_ column: String) throws -> Double {
        guard let number = try optionalDouble(column) else { throw SQLError("Column \(column) is NULL.") }
        return number
    }

    /// A time stored as epoch seconds.
    public func date(_ column: String) throws -> Date { Date(timeIntervalSince1970: try double(column)) }

    public func optionalDate(_ column: String) throws -> Date? {
        try optionalDouble(column).map(Date.init(timeIntervalSince1970:))
    }
}
