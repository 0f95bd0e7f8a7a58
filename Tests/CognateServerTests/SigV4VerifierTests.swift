import Foundation
import HTTPTypes
import Testing

import CognateProtocol

@testable import CognateServer

/// AWS's published SigV4 test suite vector "get-vanilla" (service `service`, signing only host
/// and date), then the scope and signed-header policy Cognate adds.
struct SigV4VerifierTests {
    let verifier = SigV4Verifier(
        credentials: ["AKIDEXAMPLE": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"], region: "us-east-1", service: "service",
        requiredSignedHeaders: ["host", "x-amz-date"])
    let now = SigV4Verifier.parseAmzDate("20150830T123600Z")!

    /// As an HTTP/1 server sees them: the Host header has become the request's authority.
    let authority = "example.amazonaws.com"

    func headers(signature: String, key: String = "AKIDEXAMPLE") -> HTTPFields {
        [
            HTTPField.Name("x-amz-date")!: "20150830T123600Z",
            .authorization: "AWS4-HMAC-SHA256 Credential=\(key)/20150830/us-east-1/service/aws4_request, "
                + "SignedHeaders=host;x-amz-date, Signature=\(signature)",
        ]
    }

    @Test func acceptsTheReferenceSignature() throws {
        try verifier.verify(
            method: "GET", path: "/", query: "", authority: authority,
            headers: headers(signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
            body: Data(), now: now)
    }

    @Test func refusesWrongSignatureUnknownKeySkewAndMissingHeader() {
        let good = "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"
        #expect(throws: WireFault.self) {
            try verifier.verify(method: "GET", path: "/", query: "", authority: authority, headers: headers(signature: String(good.reversed())), body: Data(), now: now)
        }
        #expect(throws: WireFault.self) {
            try verifier.verify(method: "GET", path: "/", query: "", authority: authority, headers: headers(signature: good, key: "OTHER"), body: Data(), now: now)
        }
        #expect(throws: WireFault.self) {
            try verifier.verify(method: "GET", path: "/", query: "", authority: authority, headers: headers(signature: good), body: Data(),
                                now: now.addingTimeInterval(16 * 60))
        }
        #expect(throws: WireFault.self) {
            try verifier.verify(method: "POST", path: "/", query: "", authority: authority, headers: headers(signature: good), body: Data("x".utf8), now: now)
        }
        #expect(throws: WireFault.self) {
            try verifier.verify(method: "GET", path: "/", query: "", authority: authority, headers: [:], body: Data(), now: now)
        }
    }

    @Test func refusesAnotherRegionServiceOrTooFewSignedHeaders() {
        let good = "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"
        func refusal(_ verifier: SigV4Verifier) -> String? {
            do {
                try verifier.verify(method: "GET", path: "/", query: "", authority: authority, headers: headers(signature: good),
                                    body: Data(), now: now)
                return nil
            } catch let fault as WireFault {
                return fault.message
            } catch {
                return "\(error)"
            }
        }
        let otherRegion = SigV4Verifier(credentials: verifier.credentials, region: "eu-west-1", service: "service",
                                    requiredSignedHeaders: verifier.requiredSignedHeaders)
        #expect(refusal(otherRegion)?.contains("region") == true)
        var cognito = verifier
        cognito.service = "cognito-idp"
        #expect(refusal(cognito)?.contains("service") == true)
        var strict = verifier
        strict.requiredSignedHeaders.append("x-amz-target")
        #expect(refusal(strict) == "The x-amz-target header must be signed.")
        #expect(refusal(verifier) == nil)
    }

    /// What `SigV4Signer` (the `cognate` CLI's signer) produces, the verifier accepts under the
    /// production policy (cognito-idp, host, x-amz-date, x-amz-target and content-type signed);
    /// another secret or a changed body is refused.
    @Test func acceptsWhatTheSignerSigns() throws {
        let production = SigV4Verifier(credentials: ["AKIACLI": "cli/secret+key"], region: "eu-west-1")
        let body = Data(#"{"MaxResults":10}"#.utf8)
        let sent = ["Content-Type": "application/x-amz-json-1.1", "X-Amz-Target": "AWSCognitoIdentityProviderService.ListUserPools"]
        func request(secret: String) -> HTTPFields {
            let signer = SigV4Signer(accessKeyId: "AKIACLI", secretAccessKey: secret, region: "eu-west-1")
            var fields = HTTPFields()
            for (name, value) in sent.merging(
                signer.sign(method: "POST", url: URL(string: "http://127.0.0.1:9229/")!, headers: sent, body: body, date: now),
                uniquingKeysWith: { $1 })
            { fields[HTTPField.Name(name)!] = value }
            return fields
        }
        try production.verify(method: "POST", path: "/", query: "", authority: "127.0.0.1:9229",
                              headers: request(secret: "cli/secret+key"), body: body, now: now)
        #expect(throws: WireFault.self) {
            try production.verify(method: "POST", path: "/", query: "", authority: "127.0.0.1:9229",
                                  headers: request(secret: "wrong"), body: body, now: now)
        }
        #expect(throws: WireFault.self) {
            try production.verify(method: "POST", path: "/", query: "", authority: "127.0.0.1:9229",
                                  headers: request(secret: "cli/secret+key"), body: Data("{}".utf8), now: now)
        }
    }
}
