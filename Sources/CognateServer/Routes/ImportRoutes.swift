import CognateCore
import CognateProtocol
import Foundation
import Hummingbird

/// `PUT /import/<job>?token=…`: the pre-signed upload URL of a user import job
/// (CreateUserImportJob's `PreSignedUrl`), as Cognito's is an S3 URL: the CSV as the body
/// (`curl -T users.csv "$URL"`). 200 when stored; 403 for a wrong token; 400 once the job started.
enum ImportRoutes {
    static func add(to router: Router<CognateRequestContext>, service: IdentityService) {
        router.put("/import/:job") { request, context -> Response in
            guard let job = context.parameters.get("job"), let token = request.uri.queryParameters["token"].map(String.init)
            else { return JSONResponse.status(.badRequest, ["message": "The upload URL is incomplete."]) }
            do {
                let body = try await CognitoAPIResponder.collect(request.body, limit: IdentityService.maximumImportBytes)
                try await service.uploadImportFile(jobId: job, token: token, csv: body)
                return Response(status: .ok)
            } catch let error as CognitoError {
                return JSONResponse.status(error.code == .notAuthorized ? .forbidden : .badRequest, ["message": error.message])
            } catch {
                return JSONResponse.status(.badRequest, ["message": "The file could not be read."])
            }
        }
    }

    /// The job id and token of an upload URL (`…/import/<job>?token=…`), or nil.
    static func job(from url: URL) -> (job: String, token: String)? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        let path = components.path.split(separator: "/")
        guard path.count >= 2, path[path.count - 2] == "import",
              let token = components.queryItems?.first(where: { $0.name == "token" })?.value
        else { return nil }
        return (String(path[path.count - 1]), token)
    }
}
