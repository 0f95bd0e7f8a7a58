import CognateServer
import Foundation
import Hummingbird

/// The HTTP floor of bench/run.py: the server stack Cognate runs on (Hummingbird with Cognate's
/// event-loop-bound HTTP/1.1 channel), answering every POST with a fixed JSON body after reading
/// the request's — what a request costs before Cognate does anything.
///
/// Usage: http-floor PORT BODY_BYTES
let arguments = CommandLine.arguments
guard arguments.count == 3, let port = Int(arguments[1]), let size = Int(arguments[2]), size >= 16 else {
    FileHandle.standardError.write(Data("usage: http-floor PORT BODY_BYTES\n".utf8))
    exit(2)
}
let body = Array(#"{"Padding":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: size - 15) + Array(#""}"#.utf8)
let router = Router()
router.post("/") { request, _ -> Response in
    _ = try await request.body.collect(upTo: 1 << 20)
    return Response(
        status: .ok, headers: [.contentType: "application/x-amz-json-1.1"],
        body: .init(byteBuffer: ByteBuffer(bytes: body)))
}
router.get("/health") { _, _ in "ok" }
let app = Application(
    router: router, server: .eventLoopBoundHTTP1(),
    configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "Cognate"))
try await app.runService()
