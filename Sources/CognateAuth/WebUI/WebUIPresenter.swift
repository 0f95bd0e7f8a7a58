import Foundation

#if canImport(AuthenticationServices) && !os(watchOS)
import AuthenticationServices
#endif

/// Shows the pool's hosted sign-in to the user and brings back where it redirected.
public protocol WebUIPresenter: Sendable {
    /// Shows `url`; returns the address the hosted pages sent the browser to (it starts with
    /// `callbackURL`).
    func present(_ url: URL, callbackURL: URL) async throws -> URL

    /// Shows the hosted sign-out `url` and returns once the browser was sent on to
    /// `logoutURL`. The default presents it as a sign-in (``present(_:callbackURL:)``).
    func presentSignOut(_ url: URL, logoutURL: URL) async throws
}

extension WebUIPresenter {
    public func presentSignOut(_ url: URL, logoutURL: URL) async throws {
        _ = try await present(url, callbackURL: logoutURL)
    }
}

/// For Linux and command-line tools: listens on the callback URL's loopback port (it must be
/// `http://127.0.0.1:<port>/<path>` or `http://[::1]:<port>/<path>`, registered in the
/// client's CallbackURLs — a literal address, not `localhost`, which a browser may resolve to
/// the other address family, where another process could be listening), hands the sign-in URL
/// to `open` (by default it is written to standard error, for the user to open in a browser:
/// it carries the sign-in's `state`, which does not belong in standard output and the logs
/// that collect it), and returns the redirect the browser brings back.
///
/// Any local process can reach a loopback port, so only a request that carries this sign-in's
/// `state` and a `code` or an `error` ends the wait; others are answered `400` and ignored, and
/// a connection that sends nothing is closed after two seconds. Cancelling the task ends the
/// wait.
public struct LoopbackBrowserPresenter: WebUIPresenter {
    public var open: @Sendable (URL) async throws -> Void
    public var timeout: TimeInterval

    public init(timeout: TimeInterval = 300, open: @escaping @Sendable (URL) async throws -> Void = { url in
        FileHandle.standardError.write(Data("Open this address in a browser to sign in:\n\(url.absoluteString)\n".utf8))
    }) {
        self.open = open
        self.timeout = timeout
    }

    public func present(_ url: URL, callbackURL: URL) async throws -> URL {
        let (address, port, listenPort) = try Self.loopback(callbackURL)
        guard let state = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
            .first(where: { $0.name == "state" })?.value, !state.isEmpty
        else { throw AuthError.invalidState("The sign-in address carries no state to recognise the browser's return by.") }
        let listener = try LoopbackListener(address: address, port: listenPort)
        async let target = listener.awaitRequest(path: callbackURL.path.isEmpty ? "/" : callbackURL.path, timeout: timeout) {
            $0["state"] == state && ($0["code"] != nil || $0["error"] != nil)
        }
        try await open(url)
        guard let redirected = URL(string: "http://\(address.urlHost):\(port)" + (try await target)) else {
            throw AuthError.invalidResponse("The browser came back to an unreadable address.")
        }
        return redirected
    }

    /// The hosted sign-out: waits for the browser's return to `logoutURL` (a loopback address
    /// as for sign-in). The pool's `/logout` sends no `state` back, so any request to that
    /// path ends the wait: a local process could end it early, which would make the SDK think
    /// the browser signed out.
    public func presentSignOut(_ url: URL, logoutURL: URL) async throws {
        let (address, _, listenPort) = try Self.loopback(logoutURL)
        let listener = try LoopbackListener(address: address, port: listenPort)
        async let returned = listener.awaitRequest(
            path: logoutURL.path.isEmpty ? "/" : logoutURL.path, timeout: timeout, done: "Signed out") { _ in true }
        try await open(url)
        _ = try await returned
    }

    private static func loopback(_ callbackURL: URL) throws -> (LoopbackListener.Address, Int, UInt16) {
        guard callbackURL.scheme == "http", let address = callbackURL.host.flatMap(LoopbackListener.Address.init(literal:)),
            let port = callbackURL.port, let listenPort = UInt16(exactly: port)
        else {
            throw AuthError.invalidState(
                "The callback URL must be http://127.0.0.1:<port>/… or http://[::1]:<port>/… for a loopback sign-in.")
        }
        return (address, port, listenPort)
    }
}

#if canImport(AuthenticationServices) && !os(watchOS) && !os(tvOS)
/// Apple platforms: `ASWebAuthenticationSession` (its own browser sheet, sharing Safari's
/// cookies unless `ephemeral`). The callback URL's scheme (e.g. `myapp://callback`) ends it.
@MainActor
public final class WebAuthenticationSessionPresenter: NSObject, WebUIPresenter, ASWebAuthenticationPresentationContextProviding {
    private let anchor: ASPresentationAnchor
    private let ephemeral: Bool

    public init(anchor: ASPresentationAnchor, ephemeral: Bool = false) {
        self.anchor = anchor
        self.ephemeral = ephemeral
    }

    public nonisolated func present(_ url: URL, callbackURL: URL) async throws -> URL {
        try await run(url, scheme: callbackURL.scheme)
    }

    private func run(_ url: URL, scheme: String?) async throws -> URL {
        try await withCheckedThrowingContinuation { continuation in
            let session = ASWebAuthenticationSession(url: url, callbackURLScheme: scheme) { redirected, error in
                if let redirected { continuation.resume(returning: redirected) }
                else { continuation.resume(throwing: error ?? AuthError.invalidState("The web sign-in ended without an answer.")) }
            }
            session.presentationContextProvider = self
            session.prefersEphemeralWebBrowserSession = ephemeral
            session.start()
        }
    }

    public nonisolated func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
        MainActor.assumeIsolated { anchor }
    }
}
#endif
