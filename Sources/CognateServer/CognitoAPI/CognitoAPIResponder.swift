import CognateCore
import CognateProtocol
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// `POST /`: the Cognito User Pools API and the Cognito Identity (identity pools) API (AWS JSON
/// 1.1, operation in `X-Amz-Target`: `AWSCognitoIdentityProviderService.*` or
/// `AWSCognitoIdentityService.*`).
///
/// Contract: every request gets a JSON answer with `x-amzn-RequestId`; every failure is a
/// Cognito-shaped error (`__type`, `message`) with 400 for the client's mistakes and 500 only
/// for the server's own faults, which are logged. It names the operation and its outcome to
/// ``RequestObservation`` (metrics, access log) and writes the operation's audit line.
struct CognitoAPIResponder: Sendable {
    let service: IdentityService
    let table: OperationTable
    let verifier: SigV4Verifier?   // nil in dev mode: any credentials are accepted
    /// Browsers may read the answers of public operations only (never of admin ones).
    let cors: CORSPolicy
    let maxBodyBytes: Int
    /// Where cryptographic operations run.
    let placement: WorkPlacement
    let logger: Logger
    /// Where audited calls are written; nil: no audit log.
    var auditLog: AuditLog? = nil

    /// `readBody`: the request's body when it was read already (``WholeRequests``); nil: read
    /// from the request.
    func respond(to request: Request, body readBody: ByteBuffer? = nil) async -> Response {
        let target = request.headers[HTTPField.Name("x-amz-target")!]
        let handler = table.handler(forTarget: target)
        let name = handler?.name
        let (response, body, verifiedKey) = await answer(request, readBody: readBody, target: target, handler: handler)
        let operation = name ?? "unknown"
        let outcome = response.status == .ok ? "ok" : response.headers[Self.errorTypeHeader] ?? "error"
        ObservedRequest.current?.name(operation: operation, outcome: outcome, audited: auditLog != nil)
        if let auditLog, let handler, let name {
            let written = auditLog.record(AuditLog.Call(
                requestId: response.headers[Self.requestIdHeader] ?? "", operation: name,
                isAdmin: handler.authorization == .sigV4, outcome: outcome, status: Int(response.status.code),
                clientAddress: RequestOrigin.clientAddress,
                accessKeyId: verifiedKey,
                verifiedUser: RequestOrigin.verifiedCaller?.user, body: body))
            if !written { logger.error("Cannot write the audit log \(auditLog.path).") }
        }
        guard let handler, handler.authorization != .sigV4 else { return response }
        return response.allowing(cors, for: request)
    }

    /// The response, the body when it could be read, and the access key whose signature was
    /// verified (for the audit log: an admin call that fails its signature check names no key).
    private func answer(_ request: Request, readBody: ByteBuffer?, target: String?, handler: OperationTable.Handler?) async
        -> (Response, Data?, String?)
    {
        let requestId = ObservedRequest.current?.id ?? RequestIdentifiers.shared.next()
        let body: Data
        do {
            if let readBody {
                guard readBody.readableBytes <= maxBodyBytes else { throw WireFault.bodyTooLarge(limit: maxBodyBytes) }
                body = Data(readBody.readableBytesView)
            } else {
                body = try await Self.collect(request.body, limit: maxBodyBytes)
            }
        } catch {
            return (failure(error, requestId: requestId), nil, nil)
        }
        var verifiedKey: String?
        do {
            guard let handler else { throw WireFault.unknownOperation(target) }
            if handler.authorization == .sigV4, let verifier {
                try verifier.verify(
                    method: request.method.rawValue, path: request.uri.path, query: request.uri.query ?? "",
                    authority: request.head.authority, headers: request.headers, body: body, now: Date())
                verifiedKey = request.headers[.authorization].flatMap { try? SigV4Verifier.parse($0).accessKeyId }
            } else if handler.authorization == .sigV4 {
                // Dev mode checks no signature: the key is the one the caller named.
                verifiedKey = request.headers[.authorization]
                    .flatMap { try? SigV4Verifier.parse($0).accessKeyId }.map { "\($0) (dev mode, not verified)" }
            }
            let output = try await handler.invoke(body, service, placement)
            return (Self.response(status: .ok, body: output, requestId: requestId), body, verifiedKey)
        } catch {
            return (failure(error, requestId: requestId), body, verifiedKey)
        }
    }

    /// The Cognito-shaped answer to a failure; the server's own faults are logged.
    private func failure(_ error: any Error, requestId: String) -> Response {
        let wire = WireError(error)
        if wire.isServerFault {
            let text = wire.isUnexpected ? "Unexpected error: \(String(reflecting: error))" : "\(error)"
            logger.error("\(text)", metadata: ["request_id": .string(requestId)])
        }
        return Self.error(type: wire.type, message: wire.message, status: wire.status, requestId: requestId)
    }

    /// The whole body, at most `limit` bytes. A body the HTTP layer cannot read (broken chunked
    /// framing, a connection cut mid-body) is the client's fault: SerializationException, 400.
    static func collect(_ body: RequestBody, limit: Int) async throws -> Data {
        var data = Data()
        do {
            for try await buffer in body {
                guard data.count + buffer.readableBytes <= limit else { throw WireFault.bodyTooLarge(limit: limit) }
                data.append(contentsOf: buffer.readableBytesView)
            }
        } catch let fault as WireFault {
            throw fault
        } catch {
            throw WireFault.serialization("The request body could not be read: \(error)")
        }
        return data
    }

    static func response(status: HTTPResponse.Status, body: Data, requestId: String, extra: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.contentType: WireCoding.contentType]
        headers[requestIdHeader] = requestId
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    static let requestIdHeader = HTTPField.Name("x-amzn-RequestId")!

    /// The error type of a failed answer (AWS's `x-amzn-ErrorType`), read back for metrics.
    static let errorTypeHeader = HTTPField.Name("x-amzn-ErrorType")!

    static func error(type: String, message: String, status: Int, requestId: String) -> Response {
        let body = (try? WireJSONEncoder.encode(WireErrorBody(type: type, message: message))) ?? Data()
        return response(
            status: HTTPResponse.Status(code: status), body: body, requestId: requestId,
            extra: [HTTPField.Name("x-amzn-ErrorType")!: type])
    }
}
