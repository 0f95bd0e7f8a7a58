import NIOCore

/// What the session asks of ``SMTPChannelHandler``: one step of the dialogue and the promise
/// its outcome completes. The handler accepts one exchange at a time (no pipelining).
enum SMTPExchange: Sendable {
    /// Writes `payload` (a command line, or the dot-stuffed message) and waits for the reply;
    /// with a nil payload only waits, which is how the greeting is read.
    ///
    /// `isLastPlaintextReply` marks the reply to `STARTTLS`: the server must send nothing after
    /// it until the TLS handshake, and anything it does send is treated as an injection attempt.
    case command(payload: ByteBuffer?, stage: SMTPStage, timeout: TimeAmount, isLastPlaintextReply: Bool, promise: EventLoopPromise<SMTPReply>)
    /// Waits for the TLS handler in front of this one to complete its handshake.
    case tlsHandshake(timeout: TimeAmount, promise: EventLoopPromise<Void>)

    var stage: SMTPStage {
        switch self {
        case .command(_, let stage, _, _, _): stage
        case .tlsHandshake: .tlsHandshake
        }
    }

    var timeout: TimeAmount {
        switch self {
        case .command(_, _, let timeout, _, _), .tlsHandshake(let timeout, _): timeout
        }
    }

    func fail(_ error: SMTPError) {
        switch self {
        case .command(_, _, _, _, let promise): promise.fail(error)
        case .tlsHandshake(_, let promise): promise.fail(error)
        }
    }
}
