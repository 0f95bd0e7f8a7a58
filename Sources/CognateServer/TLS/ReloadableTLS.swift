import Foundation
import HummingbirdCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL

/// Built-in TLS from a certificate chain and a key (PEM files), reloaded from the same files on
/// SIGHUP: connections made after a reload get the new certificate, open ones keep theirs. A
/// reload that fails (unreadable file, key not matching) keeps the previous certificate and is
/// logged.
public final class TLSCertificates: Sendable {
    let certificatePath: String
    let keyPath: String
    private let context: NIOLockedValueBox<NIOSSLContext>

    public init(certificatePath: String, keyPath: String) throws {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        self.context = NIOLockedValueBox(try Self.load(certificatePath: certificatePath, keyPath: keyPath))
    }

    var current: NIOSSLContext { context.withLockedValue { $0 } }

    /// Reads the files again; throws (keeping the current certificate) when they are unusable.
    public func reload() throws {
        let fresh = try Self.load(certificatePath: certificatePath, keyPath: keyPath)
        context.withLockedValue { $0 = fresh }
    }

    static func load(certificatePath: String, keyPath: String) throws -> NIOSSLContext {
        let chain = try NIOSSLCertificate.fromPEMFile(certificatePath).map { NIOSSLCertificateSource.certificate($0) }
        let key = try NIOSSLPrivateKey(file: keyPath, format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        return try NIOSSLContext(configuration: configuration)
    }

    /// The HTTP/1.1 server over TLS with these certificates.
    func serverBuilder(wholeRequests: WholeRequests?) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            EventLoopBoundChannel(base: ReloadableTLSChannel(
                base: HTTP1Channel(responder: responder, wholeRequests: wholeRequests), certificates: self))
        }
    }
}

/// An HTTP/1.1 child channel behind TLS whose context is read when each connection opens.
struct ReloadableTLSChannel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = HTTP1Channel.Value
    var base: HTTP1Channel
    let certificates: TLSCertificates

    var responder: HTTPChannelHandler.Responder { base.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: certificates.current))
        }.flatMap {
            base.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
