import CognateProtocol
import CognateCore
import Foundation

/// One transaction (or read) of `SQLStore.write` / `read`, over a backend's session; the
/// repository conformances live in `Repositories/`, one file per area.
struct SQLTransaction: Sendable {
    let session: any SQLSession
    let userNumbers: UserNumbers
    let insertedUsers = InsertedUserNumbers()
    /// What a write changes of users cached by the node (nil: the store caches none).
    var userChanges: UserChanges? = nil

    var flavor: SQLFlavor { session.flavor }

    /// Runs `statement`. `changing` names what it changes of what a node caches (users' rows,
    /// attributes, token families); without it the statement's text decides
    /// (``UserChanges/note(_:)``).
    func run(_ statement: SQLStatement, changing change: UserChanges.Change? = nil) async throws {
        try await all(statement, changing: change)
    }

    /// Runs an insert; a unique-key violation becomes `StoreError.conflict(key)`.
    func insert(_ statement: SQLStatement, conflict key: UniqueKey) async throws {
        do {
            try await run(statement)
        } catch SQLConstraintViolation.unique {
            throw StoreError.conflict(key)
        }
    }

    /// An insert into `table` the session may send later in the write, with what follows it
    /// (``SQLSession/holdInsert(_:into:failure:)``): wherever its failure surfaces — this
    /// call, a later one, or the write itself — a unique-key violation is
    /// `StoreError.conflict(key)` and a missing reference `StoreError.referenceMissing`. Without
    /// `key` a unique-key violation is a plain `SQLError`, so that the mapping of a later call
    /// that sent it cannot take it for its own.
    func holdInsert(_ statement: SQLStatement, into table: String, conflict key: UniqueKey? = nil) async throws {
        try await session.holdInsert(statement, into: table) { violation -> any Error in
            switch violation {
            case .unique: if let key { StoreError.conflict(key) } else { SQLError("A unique key of \(table) refused an insert.") }
            case .foreignKey: StoreError.referenceMissing
            }
        }
    }

    /// The statement's rows; `changing` as for ``run(_:changing:)``.
    @discardableResult
    func all(_ statement: SQLStatement, changing change: UserChanges.Change? = nil) async throws -> [SQLRow] {
        if let userChanges {
            if let change { userChanges.record(change) } else { userChanges.note(statement) }
        }
        return try await mappingReferences { try await session.execute(statement) }
    }

    func first(_ statement: SQLStatement, changing change: UserChanges.Change? = nil) async throws -> SQLRow? {
        try await all(statement, changing: change).first
    }

    /// Foreign-key violations become `StoreError.referenceMissing`.
    @discardableResult
    private func mappingReferences<Result>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch SQLConstraintViolation.foreignKey {
            throw StoreError.referenceMissing
        }
    }
}

/// Column codecs shared by the repositories.
enum Columns {
    static func time(_ date: Date) -> Double { date.timeIntervalSince1970 }
    static func time(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

    static func hex(_ bytes: [UInt8]) -> String { SRPEncoding.hexString(bytes) }

    /// The bytes of a hex column; its text always has an even number of digits.
    static func bytes(_ hex: String) throws -> [UInt8] {
        guard hex.utf8.count % 2 == 0, let bytes = SRPEncoding.bytes(fromHex: hex) else {
            throw StorageError.corrupt("Invalid hex in database")
        }
        return bytes
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decodeJSON<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try decoder.decode(type, from: Data(text.utf8))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()
}
