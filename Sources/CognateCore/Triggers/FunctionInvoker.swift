import Foundation

/// What a function's webhook answered to one invocation.
public enum FunctionReply: Sendable, Equatable {
    /// A 2xx answer: its body (the event, with `response` filled in).
    case returned(Data)
    /// The function refused the event, as a Lambda function throws: a non-2xx answer whose body
    /// is `{"errorMessage": …}`.
    case refused(message: String)
    /// No usable answer (unreachable, timed out, another status); `reason` says which, the way
    /// Cognito words it after "invocation failed due to error".
    case failed(reason: String)
}

/// Calls the webhook that serves a function ARN (the server's `WebhookFunctionInvoker`).
///
/// Contract: one attempt, bounded in time (Lambda's 5 s for triggers); never throws — every
/// outcome is a `FunctionReply`.
public protocol FunctionInvoker: Sendable {
    func invoke(url: String, arn: String, event: Data) async -> FunctionReply
}
