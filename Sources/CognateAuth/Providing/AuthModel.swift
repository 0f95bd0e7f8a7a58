#if canImport(Observation)
import Observation

/// The auth state for SwiftUI: an `@Observable` model on the main actor that mirrors an
/// ``AuthProviding``'s ``AuthProviding/stateStream()`` and runs the app's auth actions,
/// publishing whether one is under way and how the last one failed. (Apps not on SwiftUI, or
/// before iOS 17 / macOS 14, iterate the stream themselves.)
///
/// ```swift
/// @State private var model = AuthModel(auth: client)
/// var body: some View {
///     content.task { await model.observe() }      // follows the state while the view is shown
/// }
/// ```
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
@Observable
public final class AuthModel {
    /// The latest auth state; nil until the first one arrived (show a launch placeholder).
    public private(set) var state: AuthState?
    /// Whether an action started with ``perform(_:)`` is running (disable the form).
    public private(set) var isWorking = false
    /// How the last action failed; cleared when the next one starts. Cancellation is not a
    /// failure and leaves it nil.
    public private(set) var lastError: AuthError?
    /// The signed-in user, when there is one.
    public var user: AuthUser? {
        if case .signedIn(let user) = state { return user }
        return nil
    }

    @ObservationIgnored public let auth: any AuthProviding

    public init(auth: any AuthProviding) {
        self.auth = auth
    }

    /// Follows the auth state until the calling task is cancelled (SwiftUI's `.task` cancels it
    /// when the view goes away). Several calls may run at once; each follows the same state.
    public func observe() async {
        for await state in await auth.stateStream() { self.state = state }
    }

    /// Reads the store again (``AuthProviding/reloadState()``): call it when the app may read
    /// the Keychain again after ``AuthState/storageUnavailable``.
    public func reload() async {
        state = await auth.reloadState()
    }

    /// Runs an action against ``auth``: sets ``isWorking`` meanwhile and ``lastError`` when it
    /// fails with an ``AuthError``.
    /// - Returns: the action's result, or nil when it failed or was cancelled.
    @discardableResult
    public func perform<Result>(_ action: @MainActor (any AuthProviding) async throws -> Result) async -> Result? {
        isWorking = true
        lastError = nil
        defer { isWorking = false }
        do {
            return try await action(auth)
        } catch let error as AuthError {
            lastError = error
        } catch {
            // CancellationError: the screen went away; nothing to show.
        }
        return nil
    }
}
#endif
