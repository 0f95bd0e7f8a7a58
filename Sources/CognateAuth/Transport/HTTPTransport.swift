import Foundation

/// One HTTP request: always a `POST`, of a JSON body (the Cognito protocol) or of a form (the
/// OAuth token endpoint).
public struct HTTPTransportRequest: Sendable, Equatable {
    public var url: URL
    public var headers: [String: String]
    public var body: Data

    public init(url: URL, headers: [String: String], body: Data) {
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The operation named by `X-Amz-Target` without its prefix (`InitiateAuth`), if any.
    public var operationName: String? {
        headers["X-Amz-Target"].map { $0.split(separator: ".").last.map(String.init) ?? $0 }
    }
}

/// What came back: the status and body (headers are not needed by the protocol: errors are
/// identified by the body's `__type`).
public struct HTTPTransportResponse: Sendable, Equatable {
    public var statusCode: Int
    public var body: Data

    public init(statusCode: Int, body: Data) {
        self.statusCode = statusCode
        self.body = body
    }
}

/// Moves requests to the server. The SDK uses ``URLSessionTransport`` unless the configuration
/// names another one (tests wrap it to count or fail requests; apps may add logging or pinning).
///
/// Contract: return any HTTP response the server gave (error statuses included); throw only
/// when no response arrived (connection refused, timeout, cancellation). A thrown error reaches
/// the app as ``AuthError/network(_:)``, except while the calling task is cancelled: then as
/// `CancellationError`.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse
}
