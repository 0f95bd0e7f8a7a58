import CognateAuth
import CognateProtocol
import Foundation
import RegistrationDemoKit
import Testing

/// Terminal input from a script; an answer may be computed when asked (the emailed code).
final class ScriptedIO: LineIO, @unchecked Sendable {
    enum Answer {
        case text(String)
        case computed(@Sendable () async throws -> String)
    }

    private let lock = NSLock()
    private var answers: [Answer]
    private var written = ""
    private var secrets = 0

    init(_ answers: [Answer]) { self.answers = answers }

    func readLine() async -> String? {
        let next: Answer? = lock.withLock { answers.isEmpty ? nil : answers.removeFirst() }
        switch next {
        case .text(let line)?: return line
        case .computed(let make)?: return try? await make()
        case nil: return nil
        }
    }

    /// A secret is read as a line, and counted (the demo must not echo passwords).
    func readSecret() async -> String? {
        lock.withLock { secrets += 1 }
        return await readLine()
    }

    func write(_ text: String) async { lock.withLock { written += text } }

    var output: String { lock.withLock { written } }
    var secretsRead: Int { lock.withLock { secrets } }
}

struct RegistrationDemoTests {
    @Test func scriptedRegistrationOfAHealthAppUser() async throws {
        try await LiveServer.with { live in
            let consents = ["accepted_tos", "accepted_privacy", "accepted_hipaa"].map {
                SchemaAttributeType(name: $0, attributeDataType: .string)
            }
            let pool = try await live.makePool(emailSignIn: true, schema: consents)
            let app = try await live.makeClient(pool: pool)
            let directory = Self.storeDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let configuration = try Self.configuration(live, pool: pool, app: app, store: directory)
            let email = uniqueEmail("patient")

            // First run: step 1, then the input ends at the code prompt (the app is closed).
            let firstIO = ScriptedIO([.text(email), .text("+15555550100"), .text("weak"),
                                      .text(email), .text("+15555550100"), .text("Passw0rd1")])
            let first = await RegistrationDemo(configuration: configuration.authConfiguration(), io: firstIO).run()
            #expect(first == .interrupted)
            #expect(firstIO.secretsRead == 2)  // both passwords, never echoed
            #expect(firstIO.output.contains("Choose another password: Password did not conform with policy"))
            #expect(firstIO.output.contains("Code sent to "))

            // Second run resumes at the code, then asks for the password (never stored) and the profile.
            let code: ScriptedIO.Answer = .computed { try await live.lastCode(to: email) }
            let secondIO = ScriptedIO([
                .text("000000x"), code, .text("Passw0rd1"),
                .text("Ada"), .text("Lovelace"), .text("1985-02-30"), .text("2090-01-01"), .text("1990-12-10"),
                .text("robot"), .text("female"),
                .text("yes"), .text("no"), .text("yes"), .text("yes"),
            ])
            let fixed = Date(timeIntervalSince1970: 1_800_000_000)
            let second = await RegistrationDemo(
                client: AuthClient(configuration: configuration.authConfiguration()), io: secondIO, now: { fixed }).run()
            #expect(second == .registered, "\(secondIO.output)")
            #expect(secondIO.output.hasPrefix("Resuming your registration."))
            #expect(secondIO.output.contains("That code is not right."))
            #expect(secondIO.output.contains("Registration needs this consent."))
            // An impossible or future date is refused at once, and asked again.
            #expect(secondIO.output.contains("1985-02-30 is not a date in the calendar."))
            #expect(secondIO.output.contains("A date of birth cannot be in the future."))
            #expect(secondIO.output.contains("Please answer one of: female, male, other."))
            #expect(secondIO.secretsRead == 1)
            #expect(secondIO.output.contains("Welcome, Ada Lovelace! You are registered and signed in."))

            let client = AuthClient(configuration: configuration.authConfiguration())
            guard case .signedIn = await client.state() else {
                Issue.record("expected a signed-in user after the demo")
                return
            }
            let attributes = try await client.fetchUserAttributes()
            #expect(attributes["phone_number"] == "+15555550100")
            #expect(attributes["birthdate"] == "1990-12-10" && attributes["gender"] == "female")
            for consent in ["custom:accepted_tos", "custom:accepted_privacy", "custom:accepted_hipaa"] {
                #expect(attributes[consent] == HealthProfile.consentTimestamp(fixed))
            }
        }
    }

    /// In a pool that offers PIN sign-in, the demo ends with an optional PIN (checked against
    /// the policy), and a later run of a signed-out profile signs in with it.
    @Test func scriptedPINStepAndPINSignIn() async throws {
        try await LiveServer.with { live in
            let consents = ["accepted_tos", "accepted_privacy", "accepted_hipaa"].map {
                SchemaAttributeType(name: $0, attributeDataType: .string)
            }
            let pool = try await live.makePool(
                emailSignIn: true, schema: consents,
                devices: DeviceConfigurationType(challengeRequiredOnNewDevice: true, deviceOnlyRememberedOnUserPrompt: false))
            _ = try await live.service.pools.setUserPoolPinPolicy(SetUserPoolPinPolicyRequest(userPoolId: pool, pinPolicy: PinPolicy()))
            let app = try await live.makeClient(pool: pool)
            let directory = Self.storeDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let configuration = try Self.configuration(live, pool: pool, app: app, store: directory)
            let email = uniqueEmail("pin-patient")
            let code: ScriptedIO.Answer = .computed { try await live.lastCode(to: email) }
            let io = ScriptedIO([
                .text(email), .text("+15555550100"), .text("Passw0rd1"), code,
                .text("Grace"), .text("Hopper"), .text("1986-12-09"), .text("female"), .text("yes"), .text("yes"), .text("yes"),
                .text("12345"), .text("24680"),
            ])
            let registered = await RegistrationDemo(configuration: configuration.authConfiguration(), io: io).run()
            #expect(registered == .registered, "\(io.output)")
            #expect(io.output.contains("Choose another PIN: not a run like 12345."))
            #expect(io.output.contains("PIN set: next time, sign in with it."))

            try await AuthClient(configuration: configuration.authConfiguration()).signOut()
            let later = ScriptedIO([.text("11223"), .text("24680")])
            let outcome = await RegistrationDemo(configuration: configuration.authConfiguration(), io: later).run()
            #expect(outcome == .registered, "\(later.output)")
            #expect(later.output.contains("Incorrect PIN. 2 attempts left."))
            #expect(later.output.contains("Welcome back, Grace! Signed in with your PIN."))
            #expect(later.secretsRead == 2)
        }
    }

    /// The health app's rule, enforced by the pool's PreSignUp function: a clinic's email is
    /// refused with the function's message, and the user can go on with another.
    @Test func scriptedRegistrationShowsTheClinicRejection() async throws {
        try await LiveServer.with { live in
            try await TestFunctions.with(live) { functions in
                let pool = try await live.makePool(emailSignIn: true, functions: functions)
                let app = try await live.makeClient(pool: pool)
                let directory = Self.storeDirectory()
                defer { try? FileManager.default.removeItem(at: directory) }
                let configuration = try Self.configuration(live, pool: pool, app: app, store: directory)
                let email = uniqueEmail("patient")
                let io = ScriptedIO([.text("ada@clinic.example"), .text("+15555550100"), .text("Passw0rd1"),
                                     .text(email), .text("+15555550100"), .text("Passw0rd1")])
                let outcome = await RegistrationDemo(configuration: configuration.authConfiguration(), io: io).run()
                #expect(outcome == .interrupted, "\(io.output)")
                #expect(io.output.contains("PreSignUp failed with error \(TestFunctions.clinicRefusal)."))
                #expect(io.output.contains("Code sent to "))
            }
        }
    }

    /// The passwordless path: the email only, its code signs the new user in, then the profile.
    /// Interrupted at the code and resumed, the code confirms and a sign-in code follows; a
    /// later run of the signed-out account signs in with a code. No secret is ever asked.
    @Test func scriptedPasswordlessRegistrationAndSignIn() async throws {
        try await LiveServer.with { live in
            let consents = ["accepted_tos", "accepted_privacy", "accepted_hipaa"].map {
                SchemaAttributeType(name: $0, attributeDataType: .string)
            }
            // A pool of usernames (the demo's are emails): where email is the username, the server
            // refuses the confirmation's sign-in (ChoiceSignInTests.autoSignInWhereEmailIsTheUsername).
            let pool = try await live.makePool(schema: consents, firstFactors: [.password, .emailOtp])
            let app = try await live.makeClient(pool: pool, userAuth: true)
            let directory = Self.storeDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let configuration = try Self.configuration(live, pool: pool, app: app, store: directory, passwordless: true)
            let profile: [ScriptedIO.Answer] = [
                .text("Ada"), .text("Lovelace"), .text("1990-12-10"), .text("female"), .text("yes"), .text("yes"), .text("yes"),
            ]

            // A new account: its confirmation code signs it in.
            let email = uniqueEmail("nopass")
            let code: ScriptedIO.Answer = .computed { try await live.lastCode(to: email) }
            let io = ScriptedIO([.text(email), .text("0000000x"), code] + profile)
            let outcome = await RegistrationDemo(
                configuration: configuration.authConfiguration(), io: io, passwordless: configuration.passwordless).run()
            #expect(outcome == .registered, "\(io.output)")
            #expect(io.output.contains("Step 1 of 3 — your email (no password: we send you codes)."))
            #expect(io.output.contains("That code is not right."))
            #expect(!io.output.contains("Sign-in code"))  // the confirmation signed in
            #expect(io.output.contains("Welcome, Ada Lovelace! You are registered and signed in."))
            #expect(io.secretsRead == 0)
            let client = AuthClient(configuration: configuration.authConfiguration())
            #expect(try await client.fetchAuthFactors() == [.emailOTP])

            // Signed out, the account signs in with a code.
            try await client.signOut()
            let later = ScriptedIO([.text(email), code])
            #expect(await RegistrationDemo(configuration: configuration.authConfiguration(), io: later, passwordless: true).run()
                == .registered, "\(later.output)")
            #expect(later.output.contains("This email already has an account: sign in with a code instead."))
            #expect(later.output.contains("Sign-in code sent to "))
            #expect(later.output.contains("Welcome, Ada Lovelace!"))
            try await client.signOut()

            // Interrupted at the code: the next run confirms, then signs in with a new code.
            let other = uniqueEmail("resumed")
            let otherCode: ScriptedIO.Answer = .computed { try await live.lastCode(to: other) }
            let first = ScriptedIO([.text(other)])
            #expect(await RegistrationDemo(configuration: configuration.authConfiguration(), io: first, passwordless: true).run()
                == .interrupted)
            let resumed = ScriptedIO([otherCode, otherCode] + profile)
            #expect(await RegistrationDemo(configuration: configuration.authConfiguration(), io: resumed, passwordless: true).run()
                == .registered, "\(resumed.output)")
            #expect(resumed.output.hasPrefix("Resuming your registration."))
            #expect(resumed.output.contains("Your email is confirmed."))
            #expect(resumed.output.contains("Sign-in code sent to "))
        }
    }

    /// A fresh directory for the demo's token store.
    static func storeDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("cognate-demo-\(UUID().uuidString)")
    }

    /// The demo's configuration from its flags, pointed at `live`.
    static func configuration(
        _ live: LiveServer, pool: String, app: LiveServer.AppClient, store: URL, passwordless: Bool = false
    ) throws -> DemoConfiguration {
        try DemoConfiguration.parse(
            arguments: ["--endpoint", live.endpoint.absoluteString, "--pool-id", pool, "--client-id", app.id,
                        "--store", store.path] + (passwordless ? ["--passwordless"] : []),
            environment: [:])
    }

    @Test func configurationFromFlagsAndEnvironment() throws {
        let configuration = try DemoConfiguration.parse(
            arguments: ["--client-id", "flag-client"],
            environment: ["COGNATE_POOL_ID": "us-east-1_Env", "COGNATE_CLIENT_ID": "env-client", "COGNATE_DEMO_STORE": "/tmp/x"])
        #expect(configuration.userPoolId == "us-east-1_Env" && configuration.clientId == "flag-client")
        #expect(configuration.endpoint.absoluteString == "http://127.0.0.1:9229")
        #expect(configuration.storeDirectory.path == "/tmp/x")
        #expect(!configuration.passwordless)
        #expect(try DemoConfiguration.parse(arguments: ["--passwordless"], environment: ["COGNATE_POOL_ID": "p", "COGNATE_CLIENT_ID": "c"])
            .passwordless)
        #expect(try DemoConfiguration.parse(
            arguments: [], environment: ["COGNATE_POOL_ID": "p", "COGNATE_CLIENT_ID": "c", "COGNATE_DEMO_PASSWORDLESS": "1"]
        ).passwordless)
        #expect(throws: DemoConfiguration.UsageError.self) { try DemoConfiguration.parse(arguments: [], environment: [:]) }
        #expect(throws: DemoConfiguration.UsageError.self) {
            try DemoConfiguration.parse(arguments: ["--bogus", "1"], environment: ["COGNATE_POOL_ID": "p", "COGNATE_CLIENT_ID": "c"])
        }
    }
}
