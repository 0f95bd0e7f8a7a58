import CognateCore
import Foundation
import HTTPTypes
import Hummingbird

/// The SAML 2.0 service provider's endpoints (docs/oauth.md, "SAML"): the assertion consumer
/// `/saml2/idpresponse` and the single logout `/saml2/logout`.
enum SAMLRoutes {
    /// A POSTed SAMLResponse (Cognito takes up to 100,000 characters) and its RelayState.
    static let maxResponseBytes = 160 * 1024

    static func add(to router: Router<CognateRequestContext>, service: IdentityService, secureCookies: Bool,
                    placement: WorkPlacement) {
        // The provider's POST comes from its site: no SameSite=Lax cookie comes with it, so the
        // browser is unknown here. A response to a request of ours is verified and kept, and the
        // browser sent on with a same-site GET (303) that finishes the sign-in only in the browser
        // that began it; an unsolicited one (IdP-initiated) signs in at once.
        router.post("/saml2/idpresponse") { request, _ -> Response in
            do {
                guard let form = try? await OAuthRoutes.formBody(request, limit: maxResponseBytes) else {
                    throw AuthorizationPageError(message: "The identity provider's answer is not a form of at most 160 KiB.")
                }
                switch try await placement.run({ try await service.federation.receiveSAMLResponse(form) }) {
                case .continueInBrowser(let flow):
                    var response = HostedPages.redirect("/saml2/idpresponse?" + OAuth.formEncoded([("state", flow)]))
                    response.status = .seeOther
                    return response
                case .signedIn(let step):
                    return await OAuthRoutes.respond(
                        with: step, browser: BrowserBinding.new(), service: service, secureCookies: secureCookies)
                }
            } catch {
                return await OAuthRoutes.authorizeFailure(error, request, service: service)
            }
        }
        router.get("/saml2/idpresponse") { request, _ -> Response in
            do {
                guard let flow = OAuthRoutes.queryDictionary(request)["state"],
                    let browser = HostedPages.knownBrowser(of: request, secure: secureCookies)
                else {
                    throw AuthorizationPageError(
                        message: "This sign-in was started in another browser. Go back to the app and start again.",
                        reason: .otherBrowser)
                }
                let step = try await placement.run { try await service.federation.completeSAMLSignIn(flow, browser: browser) }
                return await OAuthRoutes.respond(with: step, browser: browser, service: service, secureCookies: secureCookies)
            } catch {
                return await OAuthRoutes.authorizeFailure(error, request, service: service)
            }
        }
        // The provider's LogoutResponse (POST binding, as Cognito takes it).
        router.post("/saml2/logout") { request, _ -> Response in
            do {
                guard let form = try? await OAuthRoutes.formBody(request, limit: maxResponseBytes) else {
                    throw AuthorizationPageError(message: "The identity provider's sign-out answer is not a form.")
                }
                return HostedPages.redirect(try await service.federation.finishSAMLLogout(form))
            } catch {
                return await OAuthRoutes.authorizeFailure(error, request, service: service)
            }
        }
    }
}
