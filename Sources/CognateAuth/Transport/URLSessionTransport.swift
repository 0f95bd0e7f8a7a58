import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default ``HTTPTransport``: Foundation's `URLSession` (on Linux, FoundationNetworking).
public struct URLSessionTransport: HTTPTransport {
    let session: URLSession
    let timeout: TimeInterval

    /// - Parameters:
    ///   - session: the session to send through (`URLSession.shared` by default).
    ///   - timeout: seconds before a request fails with a network error.
    public init(session: URLSession = .shared, timeout: TimeInterval = 30) {
        self.session = session
        self.timeout = timeout
    }

    public func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout)
        urlRequest.httpMethod = "POST"
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return HTTPTransportResponse(statusCode: http.statusCode, body: data)
    }
}
