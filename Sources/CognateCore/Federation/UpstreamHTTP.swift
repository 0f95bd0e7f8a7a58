import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP calls federation makes to identity providers (discovery, token, userInfo).
public protocol UpstreamHTTP: Sendable {
    /// One request; returns any HTTP answer (a redirect too: it is never followed), throws
    /// only when none arrived.
    func send(method: String, url: URL, headers: [String: String], body: Data?) async throws -> UpstreamAnswer
}

/// A provider's answer: status, the headers federation reads (names in lower case), body.
public struct UpstreamAnswer: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// `URLSession` with a timeout, never following redirects (`OutboundHTTP`).
public struct URLSessionUpstreamHTTP: UpstreamHTTP {
    let session: URLSession

    public init(timeout: TimeInterval = 10) { session = OutboundHTTP.session(timeout: timeout) }

    public func send(method: String, url: URL, headers: [String: String], body: Data?) async throws -> UpstreamAnswer {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        let http = response as? HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return UpstreamAnswer(status: http?.statusCode ?? 0, headers: fields, body: data)
    }
}
