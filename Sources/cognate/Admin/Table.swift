/// A plain text table: a header row, then rows, columns padded to their widest cell and
/// separated by two spaces, no trailing spaces. Cells are single-line (line breaks become spaces).
struct Table {
    var headers: [String]
    var rows: [[String]]

    init(_ headers: [String], _ rows: [[String]]) {
        self.headers = headers
        self.rows = rows
    }

    /// Two columns, name and value: for one object (describe, get).
    static func fields(_ pairs: [(String, String)]) -> Table {
        Table(["FIELD", "VALUE"], pairs.map { [$0.0, $0.1] })
    }

    /// The table as text, each line ending with a newline.
    var rendered: String {
        let all = ([headers] + rows).map { row in
            row.map { $0.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ") }
        }
        var widths = Array(repeating: 0, count: headers.count)
        for row in all { for (index, cell) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], cell.count) } }
        return all.map { row in
            var line = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: max(0, widths[index] - cell.count))
            }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line + "\n"
        }.joined()
    }
}
