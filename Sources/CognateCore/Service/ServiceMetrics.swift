import CognateProtocol
import Metrics

/// What the use cases count for operators (swift-metrics; the server chooses the backend, and
/// without one these cost next to nothing).
enum ServiceMetrics {
    /// A sign-in step started with `flow`: `tokens`, `challenge` (the next step), or `failed`.
    static func signIn(flow: AuthFlowType, result: String) {
        signIns(flow.rawValue, result).increment()
    }

    private static let signIns = MetricHandles { values in
        Counter(label: "cognate_sign_ins_total", dimensions: [("flow", values[0]), ("result", values[1])])
    }

    /// A message handed to a channel: `medium` email or SMS; `channel` server or custom sender.
    static func messageSent(medium: DeliveryMediumType, custom: Bool) {
        Counter(label: "cognate_messages_sent_total", dimensions: [
            ("medium", medium.rawValue.lowercased()), ("channel", custom ? "custom_sender" : "server"),
        ]).increment()
    }

    /// A user (or a decoy subject) locked out after wrong passwords.
    static func lockout() {
        Counter(label: "cognate_lockouts_total").increment()
    }
}
