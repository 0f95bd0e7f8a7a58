import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP calls federation makes to identity providers (discovery, token, userInfo).
public protocol UpstreamHTTP: Sendable {
    /// One request; returns any HTTP answer, throws only when none arrived.
    func send(method: String, url: URL, headers: [String: String], body: Data?) async throws -> (status: Int, body: Data)
}

/// `URLSession` with a timeout.
public struct URLSessionUpstreamHTTP: UpstreamHTTP {
    let timeout: TimeInterval

    public init(timeout: TimeInterval = 10) { self.timeout = timeout }

    public func send(method: String, url: URL, headers: [String: String], body: Data?) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }
}
