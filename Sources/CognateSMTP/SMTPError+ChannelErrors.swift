import NIOCore
import NIOPosix
import NIOSSL

extension SMTPError {
    /// Classifies an error raised by the channel (socket, TLS) during `stage`: TLS handshake and
    /// certificate failures are ``tlsFailed(_:)`` (permanent); everything else — resets, broken
    /// pipes, a TLS connection cut without `close_notify` — is ``connectionLost(_:_:)`` (transient).
    init(channelError error: any Error, stage: SMTPStage) {
        switch error {
        case let error as SMTPError:
            self = error
        case NIOSSLError.uncleanShutdown:
            self = .connectionLost(stage, "the server closed the TLS connection without close_notify")
        case let error as NIOSSLError:
            self = .tlsFailed("\(error)")
        case let error as NIOSSLExtraError:
            self = .tlsFailed("\(error)")
        case let error as BoringSSLError:
            self = .tlsFailed("\(error)")
        case let error as IOError:
            self = .connectionLost(stage, error.description)
        case let error as ChannelError:
            self = .connectionLost(stage, "\(error)")
        default:
            self = .connectionLost(stage, String(describing: error))
        }
    }

    /// Classifies a failure to establish the TCP connection: a connect timeout is
    /// ``timedOut(_:)``, anything else (refused, unreachable, unresolvable) ``connectionFailed(_:)``;
    /// both transient. A TLS handler that cannot be made for the host is ``tlsFailed(_:)``.
    init(connectError error: any Error, host: String, port: Int) {
        if error is NIOSSLError || error is NIOSSLExtraError {
            self.init(channelError: error, stage: .tlsHandshake)
        } else if case ChannelError.connectTimeout = error {
            self = .timedOut(.connect)
        } else if let error = error as? NIOConnectionError, error.connectionErrors.isEmpty == false,
                  error.connectionErrors.allSatisfy({ if case ChannelError.connectTimeout = $0.error { true } else { false } }) {
            self = .timedOut(.connect)
        } else {
            self = .connectionFailed("\(host):\(port): \(Self.connectFailureReason(error))")
        }
    }

    private static func connectFailureReason(_ error: any Error) -> String {
        guard let error = error as? NIOConnectionError else { return "\(error)" }
        let failures = error.connectionErrors.map { "\($0.target): \($0.error)" }
        if failures.isEmpty {
            let dns = [error.dnsAError, error.dnsAAAAError].compactMap { $0.map { "\($0)" } }
            return dns.isEmpty ? "no address found" : "name resolution failed: " + dns.joined(separator: "; ")
        }
        return failures.joined(separator: "; ")
    }
}
