#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
import AuthenticationServices
import Foundation

/// Apple platforms: passkeys in iCloud Keychain (or on a nearby phone), through
/// `ASAuthorizationPlatformPublicKeyCredentialProvider`. The pool's relying party ID
/// (WebAuthnConfiguration `RelyingPartyId`) must be a domain of the app's Associated Domains
/// entitlement (`webcredentials:example.com`).
///
/// Only the system calls are here: the options are read by ``PasskeyCreationOptions`` and
/// ``PasskeyRequestOptions`` and the answers written by ``PasskeyRegistration`` and
/// ``PasskeyAssertion``, the same code on every platform. The system's errors
/// (`ASAuthorizationError.canceled` when the user dismisses the sheet) are thrown as they are.
@MainActor
public final class PlatformPasskeyAuthenticator: PasskeyAuthenticator {
    private let anchor: ASPresentationAnchor

    /// - Parameter anchor: the window the system's passkey sheet is shown over.
    public init(anchor: ASPresentationAnchor) {
        self.anchor = anchor
    }

    public nonisolated func createPasskey(optionsJSON: String) async throws -> String {
        try await register(try PasskeyCreationOptions(json: optionsJSON)).json
    }

    public nonisolated func assertPasskey(optionsJSON: String) async throws -> String {
        try await assert(try PasskeyRequestOptions(json: optionsJSON)).json
    }

    private func register(_ options: PasskeyCreationOptions) async throws -> PasskeyRegistration {
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: options.relyingPartyId)
        let request = provider.createCredentialRegistrationRequest(
            challenge: options.challenge, name: options.userName, userID: options.userId)
        request.userVerificationPreference = ASAuthorizationPublicKeyCredentialUserVerificationPreference(
            rawValue: options.userVerification.rawValue)
        guard case .registration(let registration) = try await AuthorizationCeremony(request: request, anchor: anchor).run()
        else { throw PasskeyJSONError("The system answered a registration with an assertion.") }
        return registration
    }

    private func assert(_ options: PasskeyRequestOptions) async throws -> PasskeyAssertion {
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: options.relyingPartyId)
        let request = provider.createCredentialAssertionRequest(challenge: options.challenge)
        request.allowedCredentials = options.allowedCredentialIds.map {
            ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
        }
        request.userVerificationPreference = ASAuthorizationPublicKeyCredentialUserVerificationPreference(
            rawValue: options.userVerification.rawValue)
        guard case .assertion(let assertion) = try await AuthorizationCeremony(request: request, anchor: anchor).run()
        else { throw PasskeyJSONError("The system answered a sign-in with a registration.") }
        return assertion
    }
}

/// What the system returned, as bytes.
private enum PlatformCredential: Sendable {
    case registration(PasskeyRegistration)
    case assertion(PasskeyAssertion)

    init(_ credential: ASAuthorizationCredential) throws {
        if let registration = credential as? ASAuthorizationPlatformPublicKeyCredentialRegistration {
            guard let attestation = registration.rawAttestationObject else {
                throw PasskeyJSONError("The new passkey came without an attestation object.")
            }
            self = .registration(PasskeyRegistration(
                credentialId: registration.credentialID, clientDataJSON: registration.rawClientDataJSON,
                attestationObject: attestation, transports: ["internal", "hybrid"], attachment: "platform"))
        } else if let assertion = credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion {
            self = .assertion(PasskeyAssertion(
                credentialId: assertion.credentialID, clientDataJSON: assertion.rawClientDataJSON,
                authenticatorData: assertion.rawAuthenticatorData, signature: assertion.signature,
                userHandle: assertion.userID, attachment: "platform"))
        } else {
            throw PasskeyJSONError("The system returned a credential that is not a passkey.")
        }
    }
}

/// One `ASAuthorizationController` request, as an async call. The ceremony owns its controller
/// and is alive while ``run()`` is awaited, so the controller's (weak) delegate outlives it.
@MainActor
private final class AuthorizationCeremony: NSObject, ASAuthorizationControllerDelegate,
    ASAuthorizationControllerPresentationContextProviding
{
    private let controller: ASAuthorizationController
    private let anchor: ASPresentationAnchor
    private var continuation: CheckedContinuation<PlatformCredential, any Error>?

    init(request: ASAuthorizationRequest, anchor: ASPresentationAnchor) {
        self.controller = ASAuthorizationController(authorizationRequests: [request])
        self.anchor = anchor
        super.init()
    }

    func run() async throws -> PlatformCredential {
        try await withCheckedThrowingContinuation { continuation in
            self.continuation = continuation
            controller.delegate = self
            controller.presentationContextProvider = self
            controller.performRequests()
        }
    }

    private func finish(_ outcome: Result<PlatformCredential, any Error>) {
        continuation?.resume(with: outcome)
        continuation = nil
    }

    // The system calls these on the main thread.
    nonisolated func authorizationController(
        controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
    ) {
        let outcome = Result { try PlatformCredential(authorization.credential) }
        MainActor.assumeIsolated { finish(outcome) }
    }

    nonisolated func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        MainActor.assumeIsolated { finish(.failure(error)) }
    }

    nonisolated func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
        MainActor.assumeIsolated { anchor }
    }
}
#endif
