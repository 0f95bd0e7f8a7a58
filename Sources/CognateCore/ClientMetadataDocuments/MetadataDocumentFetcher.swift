import Foundation

/// Fetches documents from URLs anyone may name — client ID metadata documents — without
/// letting them reach inside the network: the server's implementation
/// (`PublicDocumentFetcher`) connects only to a public address it checked for the very
/// connection it makes, follows no redirect, and reads a bounded body within a short time.
public protocol MetadataDocumentFetcher: Sendable {
    /// GET `url` (https). Returns the answer whatever its status (a redirect too, never
    /// followed); throws ``MetadataDocumentFetchError`` when none could be had.
    func fetch(_ url: URL) async throws -> UpstreamAnswer
}

/// Why no document could be fetched: logged for the operator, never shown to the caller.
public enum MetadataDocumentFetchError: Error, Equatable, CustomStringConvertible {
    /// Not `https`, or a host that is an address rather than a name.
    case unsupportedURL
    /// The name resolves to an address that is not public (all of its addresses are checked).
    case refusedAddress(String)
    case unresolvable
    case unreachable(String)
    case tooLarge(limit: Int)
    case timedOut

    public var description: String {
        switch self {
        case .unsupportedURL: "only https URLs naming a host are fetched"
        case .refusedAddress(let address): "the host resolves to \(address), which is not a public address"
        case .unresolvable: "the host does not resolve"
        case .unreachable(let reason): "no answer: \(reason)"
        case .tooLarge(let limit): "the document is larger than \(limit) bytes"
        case .timedOut: "no complete answer in time"
        }
    }
}

/// The fetcher of a server configured without one: every fetch fails as unreachable.
public struct NoMetadataDocumentFetcher: MetadataDocumentFetcher {
    public init() {}

    public func fetch(_ url: URL) async throws -> UpstreamAnswer {
        throw MetadataDocumentFetchError.unreachable("this server fetches no client metadata documents")
    }
}
