/// RFC 4180 CSV: comma-separated fields, double quotes around fields that hold commas, quotes
/// (doubled) or line breaks; CRLF or LF between records. A leading byte-order mark is ignored.
enum CSVRows {
    /// The records of `text`; nil when a quoted field is never closed.
    static func parse(_ text: String) -> [[String]]? {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var iterator = text.unicodeScalars.drop(while: { $0 == "\u{FEFF}" }).makeIterator()
        var pending: Unicode.Scalar? = iterator.next()
        func endRecord() {
            record.append(field)
            field = ""
            if !(record.count == 1 && record[0].isEmpty) { records.append(record) }
            record = []
        }
        while let scalar = pending {
            pending = iterator.next()
            if quoted {
                if scalar == "\"" {
                    if pending == "\"" {
                        field.unicodeScalars.append("\"")
                        pending = iterator.next()
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty: quoted = true
            case ",":
                record.append(field)
                field = ""
            case "\r" where pending == "\n": continue
            case "\n", "\r": endRecord()
            default: field.unicodeScalars.append(scalar)
            }
        }
        guard !quoted else { return nil }
        if !field.isEmpty || !record.isEmpty { endRecord() }
        return records
    }
}
