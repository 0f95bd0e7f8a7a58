import Foundation

/// Connection settings for server databases (PostgreSQL; SQLite ignores them).
public struct DatabaseOptions: Sendable {
    /// Connections per node.
    public var poolSize: Int
    /// Longest a statement may run before the database cancels it (nil: no limit).
    public var statementTimeout: TimeInterval?
    /// Longest a request waits for a free connection of the pool.
    public var connectionWaitTimeout: TimeInterval

    public init(poolSize: Int = 10, statementTimeout: TimeInterval? = 10, connectionWaitTimeout: TimeInterval = 10) {
        self.poolSize = poolSize
        self.statementTimeout = statementTimeout
        self.connectionWaitTimeout = connectionWaitTimeout
    }
}
