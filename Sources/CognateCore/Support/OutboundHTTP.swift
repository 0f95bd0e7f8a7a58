import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URL sessions of every call Cognate makes to another server: function webhooks (Lambda
/// triggers), email and SMS delivery webhooks, identity providers.
///
/// Contract: a session never follows a redirect. A 3xx answer comes back as the answer (its
/// status and body), and every caller treats it as a failure and says so (`redirectRefusal`):
/// following it would send the request again — its signature, a client secret, a user's code —
/// to wherever the answer's `Location` points.
public enum OutboundHTTP {
    /// An ephemeral session (no cookies, no cache) whose requests give up after `timeout` seconds.
    public static func session(timeout: TimeInterval) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        return URLSession(configuration: configuration, delegate: RefuseRedirects(), delegateQueue: nil)
    }

    /// Why an answer with `status` failed the call when it is a redirect ("answered 302, a
    /// redirect, which Cognate does not follow"); nil for any other status.
    public static func redirectRefusal(_ status: Int) -> String? {
        (300..<400).contains(status) ? "answered \(status), a redirect, which Cognate does not follow" : nil
    }
}

/// Answers every redirect with "do not follow": the 3xx answer becomes the task's result.
private final class RefuseRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {  // no state
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @Sendable @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
