import Foundation

/// libpq's password file (`~/.pgpass`): lines of `hostname:port:database:username:password`,
/// each of the first four a value or `*`, `\:` and `\\` escaping inside a field, `#` starting
/// a comment line. The first matching line wins. Like libpq, a file that its owner's group or
/// others may read is not used.
enum PostgresPasswordFile {
    struct Entry: Equatable {
        var host, port, database, user, password: String
    }

    enum Contents {
        case absent
        case ignored(String)
        case entries([Entry])
    }

    static func read(_ path: String) -> Contents {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return .absent }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            return .ignored("The password file \(path) is not a plain file.")
        }
        if let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue, mode & 0o077 != 0 {
            return .ignored("The password file \(path) may be read by others than its owner (chmod 0600 it); not used.")
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            return .ignored("The password file \(path) cannot be read as UTF-8 text.")
        }
        return .entries(parse(text))
    }

    static func parse(_ text: String) -> [Entry] {
        text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }.compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = split(line)
            guard fields.count >= 5 else { return nil }
            // A password may itself hold unescaped colons after the fourth field.
            return Entry(host: fields[0], port: fields[1], database: fields[2], user: fields[3],
                         password: fields[4...].joined(separator: ":"))
        }
    }

    /// Splits at unescaped colons, removing the escapes.
    private static func split(_ line: Substring) -> [String] {
        var fields = [""], escaped = false
        for character in line {
            if escaped {
                fields[fields.count - 1].append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" {
                fields.append("")
            } else {
                fields[fields.count - 1].append(character)
            }
        }
        return fields
    }
}

extension [PostgresPasswordFile.Entry] {
    /// The password of the first line matching the connection; a Unix socket's connection
    /// also matches the host `localhost`, as in libpq.
    func password(host: String, port: Int, database: String, user: String, isSocket: Bool) -> String? {
        func matches(_ field: String, _ value: String) -> Bool { field == "*" || field == value }
        return first { entry in
            (matches(entry.host, host) || (isSocket && entry.host == "localhost"))
                && matches(entry.port, String(port)) && matches(entry.database, database) && matches(entry.user, user)
        }?.password
    }
}
