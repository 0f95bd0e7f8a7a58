import CognateCore
import CognateProtocol
import Foundation
import Hummingbird

/// `PUT /import/<job>?token=…`: the pre-signed upload URL of a user import job
/// (CreateUserImportJob's `PreSignedUrl`), as Cognito's is an S3 URL: the CSV as the body
/// (`curl -T users.csv "$URL"`).
///
/// Contract: job, token and expiry are checked before a byte of the body is read, so a bogus
/// upload costs neither memory nor disk: 403 for an unknown job, a wrong token or an expired
/// URL, 400 once the job started, 413 for a declared `Content-Length` over the limit. A
/// good upload goes to a temporary file as it arrives (`SpooledUpload`), stopped at 100 MB
/// (413); one upload per job at a time on a node (409 for another meanwhile). 200 when stored.
enum ImportRoutes {
    static func add(to router: Router<CognateRequestContext>, service: IdentityService) {
        let uploading = UploadsInProgress()
        let limit = UserImport.maximumImportBytes
        router.put("/import/:job") { request, context -> Response in
            guard let job = context.parameters.get("job"), let token = request.uri.queryParameters["token"].map(String.init)
            else { return JSONResponse.status(.badRequest, ["message": "The upload URL is incomplete."]) }
            do {
                try await service.userImport.authorizeImportUpload(jobId: job, token: token)
            } catch {
                return refusal(error)
            }
            if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
                return tooLarge
            }
            guard uploading.begin(job) else {
                return JSONResponse.status(.conflict, ["message": "Another upload to this job is under way."])
            }
            defer { uploading.end(job) }
            let upload: SpooledUpload
            do {
                upload = try await SpooledUpload.receive(request.body, limit: limit)
            } catch is SpooledUpload.TooLarge {
                return tooLarge
            } catch {
                return JSONResponse.status(.badRequest, ["message": "The file could not be read."])
            }
            defer { upload.discard() }
            do {
                // Off the event loop: decoding and storing up to 100 MB would hold up its other connections.
                try await withTaskExecutorPreference(globalConcurrentExecutor) {
                    try await service.userImport.uploadImportFile(jobId: job, token: token, csv: try upload.contents())
                }
                return Response(status: .ok)
            } catch {
                return refusal(error)
            }
        }
    }

    static var tooLarge: Response { JSONResponse.status(.contentTooLarge, ["message": "The file is over 100 MB."]) }

    /// 403 when the URL does not admit the upload, 400 for the rest.
    static func refusal(_ error: any Error) -> Response {
        guard let error = error as? CognitoError else {
            return JSONResponse.status(.badRequest, ["message": "The file could not be read."])
        }
        return JSONResponse.status(error.code == .notAuthorized ? .forbidden : .badRequest, ["message": error.message])
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
