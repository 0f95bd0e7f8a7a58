import CognateCore
import CognateProtocol
import Foundation
import Logging

/// Cognito operations called in this process on the database itself: how the operator CLI works
/// when no server runs (`cognate users list --pool … --database …`).
///
/// Contract: the same operation table, strict decoding and use cases as the server's `POST /`,
/// so every rule holds as it does over HTTP; there is no signature check (whoever can open the
/// database needs none). What a server would finish later stays durable in the database:
/// messages wait in the delivery queue and go out when a server runs again, and running servers
/// (other nodes) learn of changed pools, clients and keys through the change feed, as they do
/// from each other. Failures are thrown as ``OperationFailure`` with the type and message the
/// HTTP API would answer.
public struct DirectOperations: Sendable {
    let server: CognateServer

    /// The operations of a server the composition root prepared without a listener.
    public init(server: CognateServer) { self.server = server }

    /// Calls `operation` with its input document `body`; returns the output document.
    public func call(_ operation: String, body: Data) async throws -> Data {
        do {
            guard let handler = OperationTable.cognate.handler(forTarget: WireCoding.targetPrefix + operation) else {
                throw WireFault.unknownOperation(WireCoding.targetPrefix + operation)
            }
            return try await handler.invoke(body, server.service, server.placement)
        } catch {
            let wire = WireError(error)
            if wire.isUnexpected { server.logger.error("Unexpected error in \(operation): \(String(reflecting: error))") }
            throw OperationFailure(type: wire.type, message: wire.message)
        }
    }

    /// Stores an import job's CSV as a PUT to its pre-signed `url` (CreateUserImportJob's
    /// `PreSignedUrl`) would.
    public func upload(importFile csv: Data, to url: URL) async throws {
        guard let (job, token) = ImportRoutes.job(from: url) else {
            throw OperationFailure(type: "InvalidParameterException", message: "\(url) is not an import job's upload URL.")
        }
        do {
            try await server.service.userImport.uploadImportFile(jobId: job, token: token, csv: csv)
        } catch {
            let wire = WireError(error)
            throw OperationFailure(type: wire.type, message: wire.message)
        }
    }

    /// Closes the database (every committed transaction is already durable).
    public func close() async { await server.close() }

    /// A failed operation: Cognito's error type and message.
    public struct OperationFailure: Error, CustomStringConvertible {
        public let type: String
        public let message: String
        public var description: String { "\(type): \(message)" }
    }
}
