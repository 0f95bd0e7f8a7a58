import Logging

/// swift-log's text lines (`StreamLogHandler` to standard error), with metadata formatted only
/// when a line is written.
///
/// `StreamLogHandler` formats its metadata into a string whenever metadata is set, and
/// Hummingbird sets a request id on its logger for every request: about 2% of a GetUser's CPU
/// (docs/performance.md) for lines that are almost never written. This handler keeps the
/// metadata as it is and hands it to a `StreamLogHandler` at the moment a line is logged.
public struct TextLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    private var stream: StreamLogHandler

    public init(label: String) {
        stream = StreamLogHandler.standardError(label: label)
    }

    public var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var stream = self.stream
        stream.metadata = metadata
        stream.log(event: event)
    }
}
