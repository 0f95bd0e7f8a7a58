import CognateProtocol
import Foundation

/// The one object an app talks to for sign-up, sign-in, sessions and the user's account.
///
/// Create one per profile (usually one for the app's lifetime) and share it: it is an actor, so
/// every method is safe to call from anywhere. Every failure is an ``AuthError``; a cancelled
/// task throws `CancellationError`. Code that should not depend on this type (view models,
/// their tests) can hold an ``AuthProviding`` instead.
///
/// The client keeps nothing important in memory: tokens, registration progress and pending
/// codes live in the configured ``TokenStore`` under ``profile``, so a client created after a
/// relaunch continues where the last one stopped. Only the answer to a pending sign-in
/// challenge (valid for minutes) and the sessions that sign a new user in after sign-up
/// (``autoSignIn(clientMetadata:)``) are held in memory.
public actor AuthClient {
    public nonisolated let configuration: AuthConfiguration
    /// The profile of the store this client reads and writes: ``AuthConfiguration/profile``,
    /// unless a sign-in found the same account (by `sub`) stored under another profile — then
    /// the client moved its data there, removed its own profile and continues in that one (one
    /// account, one profile).
    public internal(set) var profile: String
    let channel: CognitoChannel
    /// The identity pool's identities and AWS credentials (nil without an identity pool).
    let identityPool: IdentityPoolCredentials?
    var broadcaster = StateBroadcaster()
    /// The refreshes in flight, by profile; concurrent callers of ``currentSession()`` for the
    /// same profile await the one in flight (never another profile's, should the client have
    /// switched profiles meanwhile).
    var refreshTasks: [String: Task<AuthTokens, any Error>] = [:]
    /// The server refused `REFRESH_TOKEN_AUTH` and `GetTokensFromRefreshToken` worked: the app
    /// client rotates refresh tokens, and refreshes go the second way from then on.
    var refreshesByRotation = false
    /// The challenge a `confirmSignIn` call would answer.
    var pendingChallenge: ChallengeSession?
    /// The `RegistrationSession` of a custom registration's pending challenge (in memory only).
    var pendingRegistration: String?
    /// SignUp's sessions by the name signed up: ConfirmSignUp sends one with the code, to get
    /// a session that signs the user in (valid as long as the code).
    var signUpSessions: [String: String] = [:]
    /// The sign-in session of a sign-up just confirmed, for ``autoSignIn(clientMetadata:)``
    /// (valid for minutes, used once).
    var confirmedSignUp: (username: String, session: String)?

    public init(configuration: AuthConfiguration) {
        self.configuration = configuration
        self.profile = configuration.profile
        self.channel = CognitoChannel(endpoint: configuration.endpoint, transport: configuration.transport)
        self.identityPool = IdentityPoolCredentials(configuration: configuration)
    }

    deinit { broadcaster.finishAll() }

    // MARK: - Auth state

    /// The current state. The store is read the first time, and again every time while it
    /// cannot be read (``AuthState/storageUnavailable``).
    public func state() async -> AuthState {
        if let current = broadcaster.current, current != .storageUnavailable { return current }
        return await reloadState()
    }

    /// Reads the store again and announces the state it implies (`sessionExpired` stays until a
    /// sign-in). For when the store may have become readable — on iOS, after
    /// `protectedDataDidBecomeAvailableNotification` — or was changed by another process.
    @discardableResult
    public func reloadState() async -> AuthState {
        if let record = try? await loadRecord() { publishDerived(from: record) }
        return broadcaster.current ?? .storageUnavailable
    }

    /// A stream of auth states: the current one first, then every change, for as long as the
    /// subscriber iterates (any number of subscribers may listen at once).
    public func stateStream() async -> AsyncStream<AuthState> {
        _ = await state()
        return broadcaster.subscribe { [weak self] id in
            Task { await self?.unsubscribe(id) }
        }
    }

    private func unsubscribe(_ id: Int) { broadcaster.unsubscribe(id) }

    /// The state a stored record implies. `sessionExpired` is never derived: it is announced
    /// when a refresh is refused.
    static func derivedState(of record: ProfileRecord) -> AuthState {
        if let registration = record.registration, registration.step != .complete { return .registrationIncomplete }
        if let tokens = record.tokens { return .signedIn(tokens.user) }
        return .signedOut
    }

    /// Announces the state `record` implies, except that `sessionExpired` stays until a
    /// sign-in (or an explicit sign-out) replaces it.
    func publishDerived(from record: ProfileRecord) {
        let derived = Self.derivedState(of: record)
        if broadcaster.current == .sessionExpired && derived == .signedOut { return }
        broadcaster.publish(derived)
    }

    // MARK: - The profile's record

    /// The profile's record (empty when none is stored). While the state is not known yet, a
    /// successful read announces it and a failed one announces `storageUnavailable`.
    func loadRecord() async throws -> ProfileRecord {
        let record: ProfileRecord
        do {
            record = try await configuration.tokenStore.load(profile: profile) ?? ProfileRecord()
        } catch {
            if broadcaster.current == nil { broadcaster.publish(.storageUnavailable) }
            throw AuthError.storage(error)
        }
        if broadcaster.current == nil || broadcaster.current == .storageUnavailable { publishDerived(from: record) }
        return record
    }

    /// Reads the record, applies `change`, writes it back (removing the profile when nothing
    /// is left) and, unless told otherwise, announces the resulting state.
    @discardableResult
    func updateRecord(publish: Bool = true, _ change: (inout ProfileRecord) -> Void) async throws -> ProfileRecord {
        var record = try await loadRecord()
        change(&record)
        try await write(record, to: profile)
        if publish { publishDerived(from: record) }
        return record
    }

    /// Writes a record under a profile, or removes the profile when the record is empty.
    func write(_ record: ProfileRecord, to name: String) async throws {
        let store = configuration.tokenStore
        do {
            if record.isEmpty {
                try await store.remove(profile: name)
            } else {
                try await store.save(record, profile: name)
            }
        } catch {
            throw AuthError.storage(error)
        }
    }

    /// Forgets everything this profile stored and announces `signedOut`.
    /// Removes the profile's tokens, registration progress, codes and identity-pool identity
    /// (and the AWS credentials in memory); `keepingDevice` keeps its registered device (a
    /// sign-out does: the next sign-in proves the same device).
    func clearProfile(keepingDevice: Bool = false) async throws {
        pendingChallenge = nil
        pendingRegistration = nil
        confirmedSignUp = nil
        await identityPool?.forget()
        do {
            // Read before removing: a record that cannot be read is not removed, or the device
            // (and its PIN) to keep would be lost with it.
            let device = keepingDevice ? try await configuration.tokenStore.load(profile: profile)?.device : nil
            if let device {
                try await configuration.tokenStore.save(ProfileRecord(device: device), profile: profile)
            } else {
                try await configuration.tokenStore.remove(profile: profile)
            }
        } catch {
            throw AuthError.storage(error)
        }
        broadcaster.publish(.signedOut)
    }

    /// `SECRET_HASH` added to a parameter map when the client has a secret.
    func withSecretHash(_ parameters: [String: String], username: String) -> [String: String] {
        guard let hash = configuration.secretHash(for: username) else { return parameters }
        return parameters.merging(["SECRET_HASH": hash]) { $1 }
    }
}

extension AuthClient {
    /// The ``RegistrationFlow`` progress stored for this profile.
    func registrationProgress() async throws -> RegistrationProgress? { try await loadRecord().registration }

    /// Stores (or, with nil, removes) registration progress and announces the resulting state.
    func saveRegistration(_ progress: RegistrationProgress?) async throws {
        try await updateRecord { $0.registration = progress }
    }

    /// Whether this profile holds tokens (possibly expired).
    func hasTokens() async throws -> Bool { try await loadRecord().tokens != nil }
}
