import CognateProtocol
import Crypto
import Foundation

/// Where a pool's exported logs go (SetLogDeliveryConfiguration). Cognate has no CloudWatch,
/// S3 or Firehose: each configured destination is a JSON-lines file in the operator's
/// `log_delivery.directory`, named after the last part of its ARN (the log group, bucket or
/// stream name), so log shippers can pick the files up.
struct LogDeliveryFiles: Sendable {
    let directory: String?
    /// Hears about lines that could not be written (the file and the system's reason).
    var log: @Sendable (String) -> Void = { _ in }

    /// Names longer than this (in bytes) are shortened: file systems take 255 at most.
    static let longestName = 200

    /// The file a destination ARN maps to; nil without a directory or for an unusable name. A
    /// name too long for a file keeps its first part and gains a hash of the whole, so that two
    /// long names sharing their beginning stay two files.
    func path(forARN arn: String) -> String? {
        guard let directory else { return nil }
        let last = arn.split(separator: ":", omittingEmptySubsequences: true).last { $0 != "*" } ?? ""
        var name = String(last.split(separator: "/").last ?? "").filter { $0.isLetter || $0.isNumber || "-_.".contains($0) }
        guard !name.isEmpty, name != ".", name != ".." else { return nil }
        if name.utf8.count > Self.longestName {
            let digest = SRPEncoding.hexString(SHA256.hash(data: Data(name.utf8))).prefix(16)
            var kept = ""
            for character in name where kept.utf8.count + character.utf8.count <= Self.longestName - 17 { kept.append(character) }
            name = kept + "-" + digest
        }
        return (directory as NSString).appendingPathComponent(name + ".jsonl")
    }

    /// Writes `entry` to the pool's destination for `source`, if it has one and its level takes
    /// the entry (INFO takes everything, ERROR only `isError` entries).
    func deliver(_ entry: [String: Any], source: EventSourceName, isError: Bool, pool: PoolRecord) {
        guard let configuration = pool.logDelivery?.first(where: { $0.eventSource == source }),
            configuration.logLevel == .info || isError,
            let arn = configuration.cloudWatchLogsConfiguration?.logGroupArn ?? configuration.s3Configuration?.bucketArn
                ?? configuration.firehoseConfiguration?.streamArn,
            let path = path(forARN: arn)
        else { return }
        var entry = entry
        entry["eventSource"] = source.rawValue
        entry["logLevel"] = isError ? "ERROR" : "INFO"
        entry["userPoolId"] = pool.id
        guard let line = try? JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys]) else { return }
        append(line, to: path)
    }

    /// A failed delivery of an email or SMS to the pool's `userNotification` destination (the
    /// address masked, never the text or code).
    func deliverNotificationFailure(_ message: OutboundMessage, failure: DeliveryFailure, gaveUp: Bool, pool: PoolRecord,
                                    at now: Date) {
        deliver([
            "eventTimestamp": Int64(now.timeIntervalSince1970 * 1000), "username": message.username,
            "deliveryMedium": message.medium.rawValue, "destination": message.maskedDestination,
            "purpose": message.purpose, "error": failure.reason, "willRetry": !gaveUp,
        ], source: .userNotification, isError: true, pool: pool)
    }

    /// Appends one line (a single write, so concurrent lines never interleave).
    private func append(_ line: Data, to path: String) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o640)
        guard descriptor >= 0 else { return log("Could not open the log delivery file \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var data = line
        data.append(0x0A)
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written != data.count { log("Could not write to the log delivery file \(path): \(String(cString: strerror(errno)))") }
    }
}
