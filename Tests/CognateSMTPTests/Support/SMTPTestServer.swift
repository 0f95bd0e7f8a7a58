import CognateTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real SMTP server for one test: `smtp_test_server.py` (aiosmtpd) in a child process on a free
/// loopback port, with the events it logs (connections, AUTH, MAIL FROM, received messages).
///
/// A missing Python or aiosmtpd fails the test with the helper's own explanation; nothing is
/// skipped.
final class SMTPTestServer: Sendable {
    struct Options: Sendable {
        enum Mode: String, Sendable { case smtp, silent, flood }
        enum TLS: String, Sendable { case none, starttls, implicit }
        enum Certificate: Sendable { case forLocalhost, forAnotherName }

        var mode: Mode = .smtp
        var tls: TLS = .none
        /// The server certificate (both are signed by ``TestCertificates/caFile``).
        var certificate: Certificate = .forLocalhost
        /// When set, AUTH is required with this user name and password.
        var authentication: (user: String, password: String)?
        var authenticationMechanisms = ["PLAIN", "LOGIN"]
        /// Recipients answered with 550 5.1.1.
        var rejectedRecipients: [String] = []
        /// Recipients answered with 451 4.3.0.
        var deferredRecipients: [String] = []
        /// Close the connection right after accepting each message.
        var dropsConnectionAfterMessage = false
        /// Never answer the end of DATA.
        var hangsOnData = false
        /// The message size announced in EHLO (SIZE) and enforced.
        var sizeLimit = 1024 * 1024
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let port: Int
    private let process: SpawnedProcess
    /// The write end of the helper's standard input (it exits when it closes).
    private let stdin: Int32
    private let directory: URL
    private var eventsFile: URL { directory.appendingPathComponent("events.jsonl") }

    private init(port: Int, process: SpawnedProcess, stdin: Int32, directory: URL) {
        self.port = port
        self.process = process
        self.stdin = stdin
        self.directory = directory
    }

    /// Starts a server, runs `body` with it and stops it, whether `body` throws or not.
    static func with<T>(_ options: Options = Options(), _ body: (SMTPTestServer) async throws -> T) async throws -> T {
        let server = try await start(options)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    static func start(_ options: Options) async throws -> SMTPTestServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cognate-smtp-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let readyFile = directory.appendingPathComponent("ready")
        let stderrFile = directory.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: stderrFile.path, contents: nil)

        let arguments = [ProcessInfo.processInfo.environment["COGNATE_TEST_PYTHON"] ?? "python3", scriptPath]
            + (try await arguments(options, readyFile: readyFile, eventsFile: directory.appendingPathComponent("events.jsonl")))
        var stdinEnds: [Int32] = [0, 0]
        guard pipe(&stdinEnds) == 0 else { throw Failure(description: "cannot make a pipe: errno \(errno)") }
        for end in stdinEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let stderr = open(stderrFile.path, O_WRONLY | O_CLOEXEC)
        defer { close(stdinEnds[0]); if stderr >= 0 { close(stderr) } }
        let process: SpawnedProcess
        do {
            process = try SpawnedProcess.spawn(arguments, stdin: stdinEnds[0], output: stderr)
        } catch {
            close(stdinEnds[1])
            throw error
        }
        let stdin = stdinEnds[1]
        let server = SMTPTestServer(port: 0, process: process, stdin: stdin, directory: directory)

        // Wait for the port, but give up when the helper dies or takes unreasonably long.
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if let text = try? String(contentsOf: readyFile, encoding: .utf8), let port = Int(text) {
                return SMTPTestServer(port: port, process: process, stdin: stdin, directory: directory)
            }
            if !process.isRunning {
                let stderr = (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? ""
                throw Failure(description: "the aiosmtpd test server exited with status \(process.status ?? -1):\n\(stderr)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        await server.stop()
        throw Failure(description: "the aiosmtpd test server did not start within 30 s")
    }

    private static var scriptPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("smtp_test_server.py").path
    }

    private static func arguments(_ options: Options, readyFile: URL, eventsFile: URL) async throws -> [String] {
        var arguments = ["--ready-file", readyFile.path, "--events", eventsFile.path, "--mode", options.mode.rawValue, "--tls", options.tls.rawValue]
        if options.tls != .none {
            let certificates = try await TestCertificates.shared()
            let certificateFile = switch options.certificate {
            case .forLocalhost: certificates.serverCertificateFile
            case .forAnotherName: certificates.otherNameCertificateFile
            }
            arguments += ["--cert", certificateFile, "--key", certificates.serverKeyFile]
        }
        if let (user, password) = options.authentication {
            arguments += ["--auth-user", user, "--auth-password", password, "--auth-mechanisms", options.authenticationMechanisms.joined(separator: ",")]
        }
        arguments += options.rejectedRecipients.flatMap { ["--reject-recipient", $0] }
        arguments += options.deferredRecipients.flatMap { ["--defer-recipient", $0] }
        if options.dropsConnectionAfterMessage { arguments.append("--drop-after-message") }
        if options.hangsOnData { arguments.append("--hang-on-data") }
        arguments += ["--size-limit", String(options.sizeLimit)]
        return arguments
    }

    /// Closes the helper's standard input (it exits on that), and kills it if it lingers.
    func stop() async {
        close(stdin)
        let deadline = ContinuousClock.now + .seconds(5)
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Everything the server logged so far, in order.
    func events() throws -> [ServerEvent] {
        guard let data = try? Data(contentsOf: eventsFile) else { return [] }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try data.split(separator: UInt8(ascii: "\n")).map { try decoder.decode(ServerEvent.self, from: Data($0)) }
    }

    func events(named name: String) throws -> [ServerEvent] { try events().filter { $0.event == name } }

    /// The messages the server accepted, in order.
    func messages() throws -> [ServerEvent] { try events(named: "message") }

    /// Waits until the server has logged `count` events named `name`; fails after 10 s. Only
    /// bounds a wait for something that must happen, never measures time.
    func waitForEvents(named name: String, count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while try events(named: name).count < count {
            guard ContinuousClock.now < deadline else {
                throw Failure(description: "the server logged fewer than \(count) '\(name)' events within 10 s: \(try events().map(\.event))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// One line of the server's event log.
struct ServerEvent: Decodable, Sendable {
    let event: String
    let mechanism: String?
    let login: String?
    let success: Bool?
    let sender: String?
    let options: [String]?
    let recipients: [String]?
    let mailOptions: [String]?
    let tls: Bool?
    let authenticated: Bool?
    /// The message's bytes as received (base64), after the server removed dot-stuffing.
    let raw: String?
    let parsed: ParsedMessage?

    var rawBytes: [UInt8] { raw.flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) } ?? [] }
}

/// A received message as Python's `email` package (policy `default`) decodes it.
struct ParsedMessage: Decodable, Sendable {
    struct Mailbox: Decodable, Sendable, Equatable {
        let name: String
        let address: String
    }

    let subject: String?
    let from: [Mailbox]
    let to: [Mailbox]
    let date: String?
    let dateValid: Bool
    let messageId: String?
    let mimeVersion: String?
    let contentType: String
    let text: String?
    let html: String?
    let headers: [[String]]
    let defects: [String]

    func header(_ name: String) -> [String] {
        headers.filter { $0.first?.lowercased() == name.lowercased() }.compactMap { $0.last }
    }
}
