import CognateProtocol
import Foundation

/// The CSV of Cognito's user import files: RFC 4180, CRLF between records, a field quoted when
/// it holds a comma, a double quote (doubled) or a line break. The header is GetCSVHeader's.
enum CSVFormat {
    static func record(_ fields: [String]) -> String {
        fields.map { field in
            field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
        }.joined(separator: ",") + "\r\n"
    }

    /// A ListUsers user object as the import file row for `header`: `cognito:username` is the
    /// Username, `cognito:mfa_enabled` false (ListUsers does not tell, and an imported user
    /// starts without MFA), every other column the attribute of that name or empty.
    /// - Parameter leftOut: receives the attributes that have no column, other than `sub`
    ///   (which the importing pool assigns anew).
    static func row(_ user: JSONValue, header: [String], leftOut: inout Set<String>) -> [String] {
        let attributes = user.attributeMap
        let columns = Set(header)
        for name in attributes.keys where !columns.contains(name) && name != "sub" { leftOut.insert(name) }
        return header.map { column in
            switch column {
            case "cognito:username": return user["Username"]?.string ?? ""
            case "cognito:mfa_enabled": return "false"
            default: return attributes[column] ?? ""
            }
        }
    }
}

/// Reads a file record by record without loading it whole: CSV records (a line break inside a
/// quoted field does not end one) or lines (JSON lines). Each record keeps its line ending.
struct RecordReader {
    let handle: FileHandle
    /// True for CSV: line breaks between double quotes belong to the field.
    let quoteAware: Bool
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false

    init(handle: FileHandle, quoteAware: Bool) {
        self.handle = handle
        self.quoteAware = quoteAware
    }

    /// The next record's bytes, or nil at the end of the file.
    mutating func next() throws -> [UInt8]? {
        var quoted = false
        var index = position
        while true {
            while index < buffer.count {
                let byte = buffer[index]
                index += 1
                if quoteAware, byte == UInt8(ascii: "\"") { quoted.toggle() }
                if byte == UInt8(ascii: "\n"), !quoted {
                    let record = Array(buffer[position..<index])
                    position = index
                    return record
                }
            }
            if atEnd {
                guard position < buffer.count else { return nil }
                let record = Array(buffer[position...])
                position = buffer.count
                return record
            }
            // Keep the unfinished record, read more after it.
            buffer.removeFirst(position)
            index -= position
            position = 0
            if let more = try handle.read(upToCount: 1 << 20), !more.isEmpty {
                buffer.append(contentsOf: more)
            } else {
                atEnd = true
            }
        }
    }

    /// True when the record holds nothing but a line ending or spaces.
    static func isBlank(_ record: [UInt8]) -> Bool {
        record.allSatisfy { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: " ") }
    }
}
