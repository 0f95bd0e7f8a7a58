import Foundation

#if canImport(AuthenticationServices) && !os(watchOS)
import AuthenticationServices
#endif

/// Shows the pool's hosted sign-in to the user and brings back where it redirected.
public protocol WebUIPresenter: Sendable {
    /// Shows `url`; returns the address the hosted pages sent the browser to (it starts with
    /// `callbackURL`).
    func present(_ url: URL, callbackURL: URL) async throws -> URL
}

/// For Linux and command-line tools: listens on the callback URL's loopback port (it must be
/// `http://127.0.0.1:<port>/<path>` or `http://localhost:<port>/<path>`, registered in the
/// client's CallbackURLs), hands the sign-in URL to `open` (by default it is printed, for the
/// user to open in a browser), and returns the redirect the browser brings back.
public struct LoopbackBrowserPresenter: WebUIPresenter {
    public var open: @Sendable (URL) async throws -> Void
    public var timeout: TimeInterval

    public init(timeout: TimeInterval = 300, open: @escaping @Sendable (URL) async throws -> Void = { url in
        print("Open this address in a browser to sign in:\n\(url.absoluteString)")
    }) {
        self.open = open
        self.timeout = timeout
    }

    public func present(_ url: URL, callbackURL: URL) async throws -> URL {
        guard ["127.0.0.1", "localhost"].contains(callbackURL.host ?? ""), let port = callbackURL.port,
            let listenPort = UInt16(exactly: port)
        else { throw AuthError.invalidState("The callback URL must be http://127.0.0.1:<port>/… for a loopback sign-in.") }
        let listener = try LoopbackListener(port: listenPort)
        async let target = listener.awaitRequest(path: callbackURL.path.isEmpty ? "/" : callbackURL.path, timeout: timeout)
        try await open(url)
        guard let redirected = URL(string: "http://\(callbackURL.host ?? "127.0.0.1"):\(port)" + (try await target)) else {
            throw AuthError.invalidResponse("The browser came back to an unreadable address.")
        }
        return redirected
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
