import CognateAuth
import Foundation

/// The terminal registration of a health app, in three steps — (1) email, phone and password,
/// (2) the emailed code, (3) name, birth date, gender and the terms / privacy / HIPAA consents —
/// then signed in. Everything goes through CognateAuth's ``RegistrationFlow``; the demo only
/// asks questions and shows answers.
///
/// `passwordless`: step 1 asks for the email only. The confirmation code signs the new user in
/// (``AuthClient/autoSignIn(clientMetadata:)``); an existing account, or one confirmed after a
/// restart, signs in with a code sent by email (choice-based sign-in). The pool must allow
/// `EMAIL_OTP` as a first factor and the app client `ALLOW_USER_AUTH`.
///
/// Killed or ended (end of input) halfway, it continues where it stopped on the next run.
public struct RegistrationDemo: Sendable {
    public enum Outcome: Int32, Sendable {
        case registered = 0
        case failed = 1
        /// Input ended before registration finished; progress is kept for the next run.
        case interrupted = 2
    }

    let client: AuthClient
    let io: any LineIO
    let now: @Sendable () -> Date
    let passwordless: Bool

    public init(
        client: AuthClient, io: any LineIO, passwordless: Bool = false, now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.client = client
        self.io = io
        self.passwordless = passwordless
        self.now = now
    }

    public init(configuration: AuthConfiguration, io: any LineIO, passwordless: Bool = false) {
        self.init(client: AuthClient(configuration: configuration), io: io, passwordless: passwordless)
    }

    struct EndOfInput: Error {}

    /// The account cannot go the passwordless way (no emailed sign-in code for it).
    struct NoEmailCode: Error, CustomStringConvertible {
        var description: String { "This account cannot sign in with an emailed code." }
    }

    public func run() async -> Outcome {
        let flow = RegistrationFlow(client: client, requiredAttributes: HealthProfile.requiredAttributes)
        do {
            if await client.state() == .signedOut, (try? await client.currentDevice())?.hasPIN == true {
                return try await signInWithPIN()
            }
            if passwordless, await client.state() == .signedOut { try await signInWithoutPassword() }
            if await client.state() == .registrationIncomplete { await say("Resuming your registration.") }
            var step = try await flow.resume()
            while true {
                do {
                    if case .complete = step { break }
                    step = try await advance(flow, from: step)
                } catch let error as AuthError {
                    guard await explain(error) else { return .failed }
                }
            }
            let attributes = try await client.fetchUserAttributes()
            let name = [attributes["given_name"], attributes["family_name"]].compactMap { $0 }.joined(separator: " ")
            await say("Welcome, \(name)! You are registered and signed in.")
            try await offerPIN()
            return .registered
        } catch is EndOfInput {
            await say("\nStopped. Run the demo again to continue where you left off.")
            return .interrupted
        } catch {
            await say("Error: \(error)")
            return .failed
        }
    }

    /// Asks what `step` needs and hands it to the flow.
    private func advance(_ flow: RegistrationFlow, from step: RegistrationStep) async throws -> RegistrationStep {
        switch step {
        case .signUp(let missing):
            await say("Step 1 of 3 — create your account.")
            let email = try await ask("Email")
            let phone = try await ask("Mobile phone (e.g. +15555550100)")
            let password = try await ask("Password", secret: true)
            var attributes = ["email": email, "phone_number": phone]
            for name in missing where attributes[name] == nil { attributes[name] = try await ask(name) }
            return try await flow.signUp(username: email, password: password, attributes: attributes)
        case .confirmSignUp(_, let delivery, let expired):
            let destination = delivery?.destination ?? "your email"
            if expired { await say("That code had expired; a new one was sent to \(destination).") }
            await say("Step 2 of 3 — confirm your email.")
            let answer = try await ask("Code sent to \(destination) (or \"resend\")")
            if answer.lowercased() == "resend" { return try await flow.resendCode() }
            return try await flow.confirm(code: answer)
        case .signIn(let username):
            return try await flow.signIn(password: try await ask("Password for \(username)", secret: true))
        case .forgotPassword:
            await say("This email already has an account with another password.")
            let answer = try await ask("Password (or \"reset\" to choose a new one)", secret: true)
            if answer.lowercased() == "reset" { return try await flow.requestPasswordReset() }
            return try await flow.signIn(password: answer)
        case .resetPassword(_, let delivery):
            guard let delivery else { return try await flow.requestPasswordReset() }
            let code = try await ask("Reset code sent to \(delivery.destination)")
            return try await flow.confirmPasswordReset(code: code, newPassword: try await ask("New password", secret: true))
        case .newPasswordRequired(_, let required):
            let password = try await ask("Choose your password", secret: true)
            var attributes: [String: String] = [:]
            for name in required { attributes[name] = try await answer(HealthProfile.field(for: name)) }
            return try await flow.setNewPassword(password, attributes: attributes)
        case .secondFactor(_, let challenge):
            switch challenge {
            case .code(let sent):
                return try await flow.confirmSecondFactor(
                    code: try await ask("Sign-in code" + (sent.destination.map { " sent to \($0)" } ?? " from your authenticator app")))
            case .choice(let kinds):
                let choice = try await ask("Second factor (\(kinds.map(\.rawValue).joined(separator: ", ")))")
                return try await flow.chooseSecondFactor(MFACodeChallenge.Kind(rawValue: choice) ?? kinds[0])
            case .setUpChoice(let kinds):
                if kinds.contains(.email) {
                    return try await flow.setUpSecondFactor(.email, email: try await ask("Email address for sign-in codes"))
                }
                return try await flow.setUpSecondFactor(.totp)
            case .totpSetup(let secret):
                await say("Add this key to your authenticator app: \(secret)")
                return try await flow.confirmSecondFactor(code: try await ask("Code from the app"))
            }
        case .customChallenge(let data):
            return try await flow.answerCustomChallenge(try await ask(data ?? "Answer"))
        case .needsProfile(let missing):
            await say("Step 3 of 3 — your profile.")
            var attributes: [String: String] = [:]
            for name in missing { attributes[name] = try await answer(HealthProfile.field(for: name)) }
            return try await flow.completeProfile(attributes)
        case .complete:
            return .complete
        }
    }

    /// Steps 1 and 2 without a password: the email, then the emailed code, and the user is
    /// signed in. A code still pending from an earlier run is asked for again.
    private func signInWithoutPassword() async throws {
        var email = "", delivery: CodeDelivery?
        if let pending = try await client.pendingCodes().first(where: { if case .signUp = $0.purpose { true } else { false } }),
            case .signUp(let username) = pending.purpose
        {
            await say("Resuming your registration.")
            (email, delivery) = (username, pending.delivery)
        } else {
            await say("Step 1 of 3 — your email (no password: we send you codes).")
            while email.isEmpty {
                let typed = try await ask("Email")
                do {
                    switch try await client.signUp(username: typed, attributes: ["email": typed]).nextStep {
                    case .confirmSignUp(let sent): (email, delivery) = (typed, sent)
                    case .completeAutoSignIn: return try await signInAfterConfirmation(typed)
                    case .done: return try await signInWithCode(typed)
                    }
                } catch AuthError.usernameExists {
                    await say("This email already has an account: sign in with a code instead.")
                    return try await signInWithCode(typed)
                } catch let error as AuthError {
                    guard await explain(error) else { throw error }
                }
            }
        }
        await say("Step 2 of 3 — confirm your email.")
        while true {
            let answer = try await ask("Code sent to \(delivery?.destination ?? "your email") (or \"resend\")")
            do {
                if answer.lowercased() == "resend" {
                    delivery = try await client.resendSignUpCode(username: email)
                    continue
                }
                switch try await client.confirmSignUp(username: email, code: answer) {
                case .completeAutoSignIn: return try await signInAfterConfirmation(email)
                case .done, .confirmSignUp:  // confirmed, without a session that signs in (a restart lost it)
                    await say("Your email is confirmed.")
                    return try await signInWithCode(email)
                }
            } catch let error as AuthError {
                guard await explain(error) else { throw error }
            }
        }
    }

    /// The sign-in a confirmed sign-up's session gives; should the server refuse it (the
    /// session lasts minutes), a sign-in code instead.
    private func signInAfterConfirmation(_ email: String) async throws {
        do {
            return try await expectSignedIn(try await client.autoSignIn())
        } catch AuthError.notAuthorized {
            await say("Your email is confirmed.")
        }
        try await signInWithCode(email)
    }

    /// Choice-based sign-in with a code sent by email.
    private func signInWithCode(_ email: String) async throws {
        var step = try await client.signIn(username: email, preferred: .emailOTP)
        while case .otpCode(let delivery) = step {
            do {
                step = try await client.confirmSignIn(otpCode: try await ask("Sign-in code sent to \(delivery.destination)"))
            } catch AuthError.codeMismatch {
                await say("That code is not right. Try again.")
            }
        }
        try await expectSignedIn(step)
    }

    private func expectSignedIn(_ step: SignInStep) async throws {
        guard case .signedIn = step else { throw NoEmailCode() }
    }

    /// The optional last step, when the pool offers PIN sign-in and this device is registered:
    /// a PIN for signing in here next time, asked again until the pool's policy accepts it.
    private func offerPIN() async throws {
        guard let device = try? await client.currentDevice(), !device.hasPIN, let policy = try? await client.pinPolicy()
        else { return }
        await say("Optional — sign in on this device with a PIN of \(policy.minimumLength) to \(policy.maximumLength) digits.")
        while true {
            let pin = try await ask("Choose a PIN (or press Enter to skip)", secret: true)
            if pin.isEmpty { return }
            do {
                try await client.registerPIN(pin)
                await say("PIN set: next time, sign in with it.")
                return
            } catch AuthError.pinPolicyViolation(let broken) {
                await say("Choose another PIN: " + broken.map(Self.describe).joined(separator: "; ") + ".")
            }
        }
    }

    /// A signed-out profile with a PIN signs in with it (the password is not asked).
    private func signInWithPIN() async throws -> Outcome {
        while true {
            do {
                _ = try await client.signIn(withPIN: try await ask("PIN", secret: true))
                let attributes = try await client.fetchUserAttributes()
                await say("Welcome back, \(attributes["given_name"] ?? "")! Signed in with your PIN.")
                return .registered
            } catch AuthError.incorrectPIN(let left) {
                await say("Incorrect PIN. \(left) attempt\(left == 1 ? "" : "s") left.")
            } catch AuthError.pinAttemptsExhausted {
                await say("Too many incorrect PINs: this device was forgotten. Run the demo again to sign in with your password.")
                return .failed
            } catch let error as AuthError {
                await say("Something went wrong: \(error.description)")
                return .failed
            }
        }
    }

    static func describe(_ violation: PinPolicyViolation) -> String {
        switch violation {
        case .notDigits: "digits only"
        case .tooShort(let minimum): "at least \(minimum) digits"
        case .tooLong(let maximum): "at most \(maximum) digits"
        case .sequence: "not a run like 12345"
        case .tooManySimilarDigits(let maximum): "no digit more than \(maximum) times"
        case .blockListed: "that PIN is too common"
        }
    }

    /// One profile field's value, asked again at once until it is valid (the user does not
    /// find out at the end of the step); consents are asked until accepted.
    private func answer(_ field: HealthProfile.Field) async throws -> String {
        switch field.kind {
        case .text:
            return try await ask(field.prompt)
        case .date:
            while true {
                let reply = try await ask(field.prompt)
                guard let problem = HealthProfile.problem(withDate: reply, today: now()) else { return reply }
                await say(problem)
            }
        case .choice(let options):
            while true {
                let reply = try await ask("\(field.prompt) (\(options.joined(separator: "/")))").lowercased()
                if options.contains(reply) { return reply }
                await say("Please answer one of: \(options.joined(separator: ", ")).")
            }
        case .consent:
            while true {
                let reply = try await ask("\(field.prompt) (yes/no)").lowercased()
                if reply == "yes" || reply == "y" { return HealthProfile.consentTimestamp(now()) }
                await say("Registration needs this consent.")
            }
        }
    }

    /// Shows an error the user can act on; returns false when the demo cannot go on.
    private func explain(_ error: AuthError) async -> Bool {
        switch error {
        case .notAuthorized:
            await say("Incorrect password for this email.")
        case .invalidPassword(let policy):
            await say("Choose another password: \(policy)")
        case .codeMismatch:
            await say("That code is not right. Try again, or type \"resend\".")
        case .userLambdaValidation(let message):
            await say(message)
        case .usernameExists, .aliasExists:
            await say("An account with this email already exists.")
        case .invalidParameter(let message), .limitExceeded(let message), .expiredCode(let message):
            await say(message)
        case .network:
            await say("The server cannot be reached: \(error.message)")
            return false
        default:
            await say("Something went wrong: \(error.description)")
        }
        return true
    }

    /// Asks a question; a `secret` answer is not shown while typed.
    private func ask(_ prompt: String, secret: Bool = false) async throws -> String {
        await io.write("\(prompt): ")
        guard let line = secret ? await io.readSecret() : await io.readLine() else { throw EndOfInput() }
        return secret ? line : line.trimmingCharacters(in: .whitespaces)
    }

    private func say(_ line: String) async { await io.write(line + "\n") }
}
