import CognateCore
import CognateProtocol
import Foundation
import Hummingbird
import Logging
import Testing

/// Lambda trigger functions for SDK tests, served over HTTP as Cognate calls them (the webhook
/// contract of docs/triggers.md):
/// - PreSignUp refuses emails of `@clinic.example` with "This email belongs to a patient of
///   another clinic." (the health app's rule);
/// - the CUSTOM_AUTH functions ask a security question whose answer is "blue", after an
///   optional SRP password step; three wrong answers fail the sign-in;
/// - the CustomRegistration function (``withCustomRegistration(_:_:)``) is a bank's activation:
///   the app sends `{"contract": …, "email": …}`; a contract starting "C-" is asked for its
///   card's last digits ("4242"); the right answer creates the user `contract-<contract>` with
///   the email verified and returns `{"welcome": "<contract>"}`; contract "C-0000" is
///   refused with "Unknown contract."; three wrong answers fail the registration.
enum TestFunctions {
    static let names = ["pre-sign-up", "define", "create", "verify", "custom-registration"]
    static let clinicRefusal = "This email belongs to a patient of another clinic."

    /// A function's refusal (Lambda's error shape, `errorMessage`).
    struct Refusal: Error {
        var message: String
    }

    /// Serves the functions on a free port and binds ARNs to them in `live`'s database; runs
    /// `body` with the pool's `LambdaConfig`, then stops serving.
    static func with(_ live: LiveServer, _ body: (LambdaConfigType) async throws -> Void) async throws {
        try await serve(live) { arns in
            try await body(LambdaConfigType(
                preSignUp: arns["pre-sign-up"], defineAuthChallenge: arns["define"], createAuthChallenge: arns["create"],
                verifyAuthChallengeResponse: arns["verify"]))
        }
    }

    /// Serves the functions as ``with(_:_:)`` does; runs `body` with the CustomRegistration
    /// function's ARN.
    static func withCustomRegistration(_ live: LiveServer, _ body: (String) async throws -> Void) async throws {
        try await serve(live) { arns in try await body(arns["custom-registration"] ?? "") }
    }

    private static func serve(_ live: LiveServer, _ body: ([String: String]) async throws -> Void) async throws {
        let router = Router()
        router.post("/:name") { request, context -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            let name = context.parameters.get("name") ?? ""
            let status: HTTPResponse.Status, answered: [UInt8]
            do {
                (status, answered) = (.ok, try answer(name, event: Data(buffer: body)))
            } catch let refusal as Refusal {
                (status, answered) = (.badRequest, Array(try JSONSerialization.data(withJSONObject: ["errorMessage": refusal.message])))
            }
            return Response(
                status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: answered)))
        }
        let (ports, found) = AsyncStream.makeStream(of: Int.self)
        var quiet = Logger(label: "challenge-functions")
        quiet.logLevel = .critical  // stopping the server at the end logs errors
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { found.yield($0.localAddress?.port ?? 0) }, logger: quiet)
        let serving = Task { try await app.runService() }
        defer { serving.cancel() }
        var port = 0
        for await value in ports {
            port = value
            break
        }
        var arns: [String: String] = [:]
        for name in names {
            let arn = "arn:aws:lambda:us-east-1:123456789012:function:\(name)-\(UUID().uuidString.prefix(6))"
            try await FunctionBindings.put(arn: arn, url: "http://127.0.0.1:\(port)/\(name)", in: live.server.store)
            arns[name] = arn
        }
        try await body(arns)
    }

    /// The handler `name` applied to a Cognito event: the event back with `response` filled in.
    private static func answer(_ name: String, event data: Data) throws -> [UInt8] {
        guard var event = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let request = event["request"] as? [String: Any]
        else { throw HTTPError(.badRequest) }
        let session = request["session"] as? [[String: Any]] ?? []
        var response: [String: Any] = [:]
        switch name {
        case "pre-sign-up":
            let email = (request["userAttributes"] as? [String: String])?["email"] ?? ""
            if email.lowercased().hasSuffix("@clinic.example") { throw Refusal(message: clinicRefusal) }
        case "define":
            let last = session.last
            let questions = session.filter { $0["challengeName"] as? String == "CUSTOM_CHALLENGE" }
            if last?["challengeName"] as? String == "SRP_A" {
                response = ["challengeName": "PASSWORD_VERIFIER", "issueTokens": false, "failAuthentication": false]
            } else if last?["challengeName"] as? String == "CUSTOM_CHALLENGE", last?["challengeResult"] as? Bool == true {
                response = ["issueTokens": true, "failAuthentication": false]
            } else if questions.count >= 3 {
                response = ["issueTokens": false, "failAuthentication": true]
            } else {
                response = ["challengeName": "CUSTOM_CHALLENGE", "issueTokens": false, "failAuthentication": false]
            }
        case "create":
            response = [
                "publicChallengeParameters": ["question": "What is your favourite colour?"],
                "privateChallengeParameters": ["answer": "blue"], "challengeMetadata": "COLOUR",
            ]
        case "verify":
            let expected = (request["privateChallengeParameters"] as? [String: String])?["answer"]
            response = ["answerCorrect": (request["challengeAnswer"] as? String)?.lowercased() == expected]
        case "custom-registration":
            response = try customRegistration(event["triggerSource"] as? String ?? "", request)
        default:
            throw HTTPError(.notFound)
        }
        event["response"] = response
        return Array(try JSONSerialization.data(withJSONObject: event))
    }

    private static func customRegistration(_ source: String, _ request: [String: Any]) throws -> [String: Any] {
        let rounds = request["session"] as? [[String: Any]] ?? []
        let keep = request["privateChallengeParameters"] as? [String: String] ?? [:]
        if source == "CustomRegistration_Start" {
            guard let data = (request["data"] as? String).flatMap({ $0.data(using: .utf8) }),
                let fields = (try? JSONSerialization.jsonObject(with: data)) as? [String: String],
                let contract = fields["contract"], contract.hasPrefix("C-"), let email = fields["email"]
            else { return ["failRegistration": true] }
            if contract == "C-0000" { throw Refusal(message: "Unknown contract.") }
            return [
                "challengeData": #"{"question":"The last four digits of your card"}"#,
                "privateChallengeParameters": ["contract": contract, "email": email, "digits": "4242"],
            ]
        }
        guard let contract = keep["contract"], let email = keep["email"] else { return ["failRegistration": true] }
        if request["data"] as? String == keep["digits"] {
            return [
                "createUser": true, "username": "contract-\(contract)",
                "userAttributes": ["email": email, "email_verified": "true"],
                "customInformation": #"{"welcome":"\#(contract)"}"#,
            ]
        }
        if rounds.count >= 3 { return ["failRegistration": true] }
        return ["challengeData": #"{"question":"The last four digits of your card","retry":true}"#,
                "privateChallengeParameters": keep]
    }
}
