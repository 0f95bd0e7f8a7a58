import CognateProtocol
import Foundation

/// How codes and messages reach users: codes issued and queued in a transaction, then sent after
/// its commit through the pool's CustomMessage function and the delivery queue.
struct Messenger: Sendable {
    let time: any TimeSource
    let configuration: CoreConfiguration
    let triggers: Triggers
    let deliveryQueue: DeliveryQueue
    let codes: CodeBook
    let allowances: RequestAllowances
}

/// Why a message goes out, as the message functions see it: `triggerSource` is
/// `CustomMessage_<rawValue>`, `CustomEmailSender_<rawValue>` or `CustomSMSSender_<rawValue>`.
enum MessageOccasion: String, Sendable {
    case signUp = "SignUp"
    case resendCode = "ResendCode"
    case forgotPassword = "ForgotPassword"
    case updateUserAttribute = "UpdateUserAttribute"
    case verifyUserAttribute = "VerifyUserAttribute"
    case adminCreateUser = "AdminCreateUser"
    /// An SMS_MFA or EMAIL_OTP sign-in code.
    case authentication = "Authentication"

    /// The occasion a code's purpose implies when the caller names none.
    init(purpose: CodePurpose) {
        switch purpose {
        case .signUp: self = .signUp
        case .forgotPassword: self = .forgotPassword
        case .verifyAttribute: self = .updateUserAttribute
        }
    }
}

extension Messenger {
    /// CustomMessage: the pool's function may rewrite a message before it is first sent. It is
    /// given the placeholders `{####}` (the code or temporary password) and `{username}`, never
    /// the code itself; what it answers (`emailSubject`, `emailMessage`, `smsMessage`) must keep
    /// `{####}`, which is filled in here. Members it leaves out keep the pool's text.
    func customized(_ queued: PendingMessage, occasion: MessageOccasion, user: UserRecord, pool: PoolRecord,
                    clientId: String?, clientMetadata: [String: String]?) async throws -> PendingMessage {
        guard triggers.isConfigured(.customMessage, pool: pool), case .queue = queued.place else { return queued }
        var request: [String: JSONValue] = [
            "userAttributes": Triggers.userAttributes(user),
            "codeParameter": "{####}",
            "linkParameter": "{##Click Here##}",
            "clientMetadata": Triggers.strings(clientMetadata),
        ]
        if occasion == .adminCreateUser { request["usernameParameter"] = "{username}" }
        guard let response = try await triggers.invoke(
            .customMessage, source: "CustomMessage_" + occasion.rawValue, pool: pool, clientId: clientId, userName: user.username,
            request: request, now: time.now)
        else { return queued }
        var result = queued
        let message = queued.message
        let shownName = occasion == .adminCreateUser ? invitationName(of: user, pool: pool) : user.username
        let link = [.signUp, .resendCode].contains(occasion) && message.medium == .email
            ? message.code.flatMap { confirmationLink(clientId: clientId, username: user.username, code: $0) } : nil
        func text(_ key: String) throws -> String? {
            switch response[key] {
            case nil, .null?: return nil
            case .string(let template)?:
                // The code, or the link that carries it.
                guard message.code == nil || template.contains("{####}") || (link != nil && template.contains("{##"))
                else { throw Triggers.unrecognizable }
                return MessageTemplates.fill(template, code: message.code ?? "", username: shownName, link: link)
            default: throw Triggers.unrecognizable
            }
        }
        if message.medium == .email {
            if let body = try text("emailMessage") { result.message.body = body }
            if case .string(let subject)? = response["emailSubject"] {
                result.message.subject = MessageTemplates.fill(subject, code: message.code ?? "", username: shownName)
            }
        } else if let body = try text("smsMessage") {
            result.message.body = body
        }
        return result
    }

    /// Sends the codes' queued messages after their transaction committed (see `dispatch`);
    /// returns their delivery details.
    func send(_ pending: [PendingCode], pool: PoolRecord, clientId: String? = nil,
              clientMetadata: [String: String]? = nil) async throws -> [CodeDeliveryDetailsType] {
        try await dispatch(
            pending.map { ($0.message, $0.occasion, $0.user) }, pool: pool, clientId: clientId,
            clientMetadata: clientMetadata)
        return pending.map(\.destination.details)
    }

    /// Sends queued messages after their transaction committed, each first rewritten by the
    /// pool's CustomMessage function if it has one. CodeDeliveryFailureException when one could
    /// not be sent (its code is stored, and a resend works). If the function fails, nothing is
    /// sent: the messages leave the queue and the function's error is the answer.
    func dispatch(_ messages: [(message: PendingMessage, occasion: MessageOccasion, user: UserRecord)], pool: PoolRecord,
                  clientId: String?, clientMetadata: [String: String]?) async throws {
        var ready: [PendingMessage] = []
        do {
            for item in messages {
                ready.append(try await customized(
                    item.message, occasion: item.occasion, user: item.user, pool: pool, clientId: clientId,
                    clientMetadata: clientMetadata))
            }
        } catch {
            await deliveryQueue.discard(messages.map(\.message))
            throw error
        }
        try await deliveryQueue.sendNow(ready)
    }
}

extension Messenger {
    /// `{username}` in an invitation: what the user types to sign in — the email or phone number
    /// where those are usernames.
    func invitationName(of user: UserRecord, pool: PoolRecord) -> String {
        SignInNames(pool: pool.settings).usesAttributeAsUsername
            ? (user.attributes["email"] ?? user.attributes["phone_number"] ?? user.username) : user.username
    }
}
