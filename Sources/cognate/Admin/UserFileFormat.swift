import ArgumentParser

/// The two user file formats of `users export` and `users import`.
enum UserFileFormat: String, ExpressibleByArgument, CaseIterable {
    /// Cognito's user import CSV (GetCSVHeader's columns).
    case csv
    /// One ListUsers user object per line.
    case jsonl

    /// The format given, else the file's extension's (.jsonl, .ndjson), else CSV.
    static func resolve(_ given: UserFileFormat?, file: String?) -> UserFileFormat {
        if let given { return given }
        guard let file else { return .csv }
        return file.hasSuffix(".jsonl") || file.hasSuffix(".ndjson") ? .jsonl : .csv
    }
}
