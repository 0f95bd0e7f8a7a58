import CognateProtocol
import Foundation

// Complete USER_SRP_AUTH sign-ins (InitiateAuth + RespondToAuthChallenge), as fast as the
// server answers, from CONNECTIONS keep-alive connections, each sign-in picking one of
// USERNAME0 … USERNAME<USERS-1>. The client math runs on GMP with the cheapest honest client
// (`SRPSignIn`), so a few connections keep the server busy on a shared 2-core machine.

/// `cognate-load srp ENDPOINT POOL_ID CLIENT_ID USERNAME PASSWORD SECONDS CONNECTIONS USERS`
struct SRPArguments {
    let host: String
    let port: Int
    let poolId, clientId, username, password: String
    let seconds: Double
    let connections: Int
    let users: Int

    init(_ values: [String]) {
        guard values.count == 8, let url = URLComponents(string: values[0]), let host = url.host, let port = url.port,
            let seconds = Double(values[5]), let connections = Int(values[6]), let users = Int(values[7])
        else {
            usage()
        }
        (self.host, self.port, self.poolId, self.clientId, self.username, self.password) =
            (host, port, values[1], values[2], values[3], values[4])
        (self.seconds, self.connections, self.users) = (seconds, connections, users)
    }
}

struct Challenge: Decodable {
    struct Parameters: Decodable {
        let SALT: String
        let SRP_B: String
        let SECRET_BLOCK: String
        let USER_ID_FOR_SRP: String
        let USERNAME: String
    }
    let ChallengeParameters: Parameters
}



/// Sign-ins on one connection until `deadline`.
func srpWorker(_ arguments: SRPArguments, deadline: Date) -> Outcome {
    var outcome = Outcome()
    let srp = SRPSignIn(poolId: arguments.poolId)
    var secrets: [String: SRPSignIn.UserSecret] = [:]
    let target = "AWSCognitoIdentityProviderService."
    let connection = HTTPConnection(host: arguments.host, port: arguments.port)
    while Date() < deadline {
        let username = "\(arguments.username)\(Int.random(in: 0..<max(arguments.users, 1)))"
        let started = DispatchTime.now().uptimeNanoseconds
        do {
            let first = try connection.post(target: target + "InitiateAuth", body: json([
                "AuthFlow": "USER_SRP_AUTH", "ClientId": arguments.clientId,
                "AuthParameters": ["USERNAME": username, "SRP_A": srp.publicValueHex],
            ]))
            guard first.status == 200, let challenge = try? JSONDecoder().decode(Challenge.self, from: Data(first.body)) else {
                outcome.errors += 1
                continue
            }
            let parameters = challenge.ChallengeParameters
            let secret = secrets[username] ?? srp.userSecret(
                salt: bytes(fromHex: parameters.SALT), userId: parameters.USER_ID_FOR_SRP, password: arguments.password)
            secrets[username] = secret
            let claim = srp.claim(
                serverPublic: bytes(fromHex: parameters.SRP_B), secret: secret, userId: parameters.USER_ID_FOR_SRP,
                secretBlock: parameters.SECRET_BLOCK, now: Date())
            let second = try connection.post(target: target + "RespondToAuthChallenge", body: json([
                "ClientId": arguments.clientId, "ChallengeName": "PASSWORD_VERIFIER",
                "ChallengeResponses": [
                    "USERNAME": parameters.USERNAME, "PASSWORD_CLAIM_SECRET_BLOCK": parameters.SECRET_BLOCK,
                    "TIMESTAMP": claim.timestamp, "PASSWORD_CLAIM_SIGNATURE": claim.signature,
                ],
            ]))
            if second.status == 200 {
                outcome.latencies.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1000)
            } else {
                outcome.errors += 1
            }
        } catch {
            outcome.errors += 1
        }
    }
    return outcome
}

func bytes(fromHex hex: String) -> [UInt8] { SRPEncoding.bytes(fromHex: hex) ?? [] }

func runSRP(_ values: [String]) -> Report {
    let arguments = SRPArguments(values)
    let started = Date()
    let deadline = started.addingTimeInterval(arguments.seconds)
    let outcomes = onThreads(arguments.connections) { _ in srpWorker(arguments, deadline: deadline) }
    return Report(outcomes, seconds: Date().timeIntervalSince(started))
}
