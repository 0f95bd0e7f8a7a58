import CognateAuth
import Foundation
import Testing

/// Profiles on one device and the file store's guarantees.
struct TokenStoreTests {
    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("cognate-store-\(UUID().uuidString)")
    }

    @Test func twoProfilesOnOneFileStore() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let app = try await live.makeClient(pool: pool)
            let directory = Self.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = FileTokenStore(directory: directory)
            let alice = live.authClient(pool: pool, client: app, store: store, profile: "alice")
            let bob = AuthClient(configuration: alice.configuration.withProfile("bob"))
            try await live.confirmedUser(alice, username: "alice", email: uniqueEmail("alice"))
            try await live.confirmedUser(bob, username: "bob", email: uniqueEmail("bob"))
            #expect(try await alice.signIn(username: "alice", password: "Passw0rd1").isSignedIn)
            #expect(try await bob.signIn(username: "bob", password: "Passw0rd1").isSignedIn)
            #expect(try await store.profiles() == ["alice", "bob"])

            // A relaunch (new store and clients over the same file) finds both users.
            let reopened = FileTokenStore(directory: directory)
            let bobAgain = live.authClient(pool: pool, client: app, store: reopened, profile: "bob")
            #expect(try await bobAgain.currentSession().user.username == "bob")
            let aliceAgain = AuthClient(configuration: bobAgain.configuration.withProfile("alice"))
            #expect(try await aliceAgain.currentSession().user.username == "alice")

            // Signing one out leaves the other.
            try await aliceAgain.signOut().expectComplete()
            #expect(try await reopened.profiles() == ["bob"])
            #expect(try await bob.currentSession().user.username == "bob")
        }
    }

    @Test func fileIsPrivateAndWrittenAtomically() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileTokenStore(directory: directory, name: "tokens")
        let record = ProfileRecord(registration: RegistrationProgress(
            step: .confirmSignUp(username: "u", delivery: nil, previousCodeExpired: false), username: "u",
            learnedRequiredAttributes: []))
        for index in 0..<5 { try await store.save(record, profile: "p\(index)") }

        let path = store.fileURL.path
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let directoryMode = try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? NSNumber
        #expect(directoryMode?.intValue == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["tokens.json"])  // no temp files left
        #expect(try await store.load(profile: "p3") == record)
        try await store.remove(profile: "p3")
        try await store.remove(profile: "never-saved")
        #expect(try await store.profiles() == ["p0", "p1", "p2", "p4"])
        #expect(try await store.load(profile: "p3") == nil)

        // Concurrent writers within a process do not lose each other's profiles.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 10..<30 { group.addTask { try await store.save(record, profile: "c\(index)") } }
            try await group.waitForAll()
        }
        #expect(try await FileTokenStore(directory: directory, name: "tokens").profiles().count == 24)
    }

    /// A store file written before codes were kept as pending reads as before (no codes).
    @Test func readsFilesOfEarlierVersions() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let earlier = #"{"profiles":{"ada":{"registration":{"learnedRequiredAttributes":[],"#
            + #""step":{"signIn":{"username":"ada"}},"username":"ada"}}},"version":1}"#
        try Data(earlier.utf8).write(to: directory.appendingPathComponent("cognate-auth.json"))
        let record = try await FileTokenStore(directory: directory).load(profile: "ada")
        #expect(record == ProfileRecord(registration: RegistrationProgress(
            step: .signIn(username: "ada"), username: "ada", learnedRequiredAttributes: [])))
    }
}
