import CognateProtocol
import Foundation
import Testing

@testable import CognateAuth

/// What the SDK sends besides the essentials: clientMetadata and validationData where Cognito
/// takes them, and nothing of the kind when the app gives none; challenge sessions kept out of
/// sight.
struct RequestOptionsTests {
    @Test func clientMetadataAndValidationDataAreSent() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let counting = CountingTransport()
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool), transport: counting)
            let email = uniqueEmail()
            let metadata = ["app_version": "4.2"]
            _ = try await client.signUp(
                username: "meta", password: "Passw0rd1", attributes: ["email": email],
                validationData: ["invite": "X1"], clientMetadata: metadata)
            try await client.confirmSignUp(username: "meta", code: try await live.lastCode(to: email), clientMetadata: metadata)
            #expect(try await client.signIn(username: "meta", password: "Passw0rd1", clientMetadata: metadata).isSignedIn)
            _ = try await client.forgotPassword(username: "meta", clientMetadata: metadata)

            let signUp = try #require(counting.sentBodies("SignUp").first)
            #expect(signUp["ValidationData"] as? [[String: String]] == [["Name": "invite", "Value": "X1"]])
            for operation in ["SignUp", "ConfirmSignUp", "InitiateAuth", "RespondToAuthChallenge", "ForgotPassword"] {
                #expect(counting.sentBodies(operation).first?["ClientMetadata"] as? [String: String] == metadata, "\(operation)")
            }

            _ = try await client.signIn(username: "meta", password: "Passw0rd1")
            #expect(counting.sentBodies("InitiateAuth").last?["ClientMetadata"] == nil)
        }
    }

    @Test func challengeSessionTokensStayOutOfDescriptions() async throws {
        try await LiveServer.with { live in
            let pool = try await live.makePool()
            let client = live.authClient(pool: pool, client: try await live.makeClient(pool: pool))
            _ = try await live.service.userAdministration.adminCreateUser(AdminCreateUserRequest(
                userPoolId: pool, username: "invitee",
                userAttributes: [AttributeType(name: "email", value: uniqueEmail())],
                temporaryPassword: "Temp0rary1", messageAction: .suppress))
            let step = try await client.signIn(username: "invitee", password: "Temp0rary1")
            guard case .newPasswordRequired(_, let challenge) = step else {
                Issue.record("expected newPasswordRequired, got \(step)")
                return
            }
            let token = try #require(challenge.session)
            var dumped = ""
            dump(step, to: &dumped)
            for text in [String(describing: step), String(reflecting: step), dumped, "\(challenge)"] {
                #expect(!text.contains(token))
            }
            #expect(Mirror(reflecting: challenge).children.map(\.label) == ["challengeName", "username", "currentAttributes"])
        }
    }
}
