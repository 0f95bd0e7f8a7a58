import CognateCore
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Calls the webhook bound to a Lambda ARN with a trigger's event, as Lambda would call the
/// function.
///
/// Contract (docs/triggers.md): `POST <url>`, the event as JSON body, signed
/// (`WebhookSignature`) with the function's own key (`WebhookKeys.function`, derived from
/// `secret` and the ARN), with `X-Cognate-Function: <arn>`. A 2xx answer returns its body (the
/// event with `response` filled in). A non-2xx answer whose body is JSON with `errorMessage` is
/// the function refusing (Lambda's error shape). Anything else — another status, a redirect
/// (never followed: `OutboundHTTP`), no answer within `timeout` (Lambda's 5 s for triggers), a
/// refused connection — is a failed invocation, and `log` hears why.
public final class WebhookFunctionInvoker: FunctionInvoker {
    let secret: String
    let session: URLSession
    let log: @Sendable (String) -> Void

    public init(secret: String, timeout: TimeInterval = 5, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.secret = secret
        session = OutboundHTTP.session(timeout: timeout)
        self.log = log
    }

    public func invoke(url: String, arn: String, event: Data) async -> FunctionReply {
        let reply = await call(url: url, arn: arn, event: event)
        if case .failed(let reason) = reply { log("function \(arn) at \(url) failed: \(reason)") }
        return reply
    }

    private func call(url: String, arn: String, event: Data) async -> FunctionReply {
        guard let target = URL(string: url) else { return .failed(reason: "InvalidEndpoint") }
        var request = WebhookSignature(key: WebhookKeys.function(arn, secret: secret)).request(to: target, body: event)
        request.setValue(arn, forHTTPHeaderField: "X-Cognate-Function")
        let body: Data, status: Int
        do {
            let (data, response) = try await session.data(for: request)
            (body, status) = (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
        } catch let error as URLError where error.code == .timedOut {
            return .failed(reason: "Socket timeout while invoking Lambda function")
        } catch {
            return .failed(reason: "Unable to reach the function's webhook")
        }
        if (200..<300).contains(status) { return .returned(body) }
        if let redirect = OutboundHTTP.redirectRefusal(status) { return .failed(reason: "the function's webhook \(redirect)") }
        struct LambdaError: Decodable { var errorMessage: String }
        if let refusal = try? JSONDecoder().decode(LambdaError.self, from: body) {
            return .refused(message: refusal.errorMessage)
        }
        return .failed(reason: "the function's webhook answered HTTP \(status)")
    }
}
