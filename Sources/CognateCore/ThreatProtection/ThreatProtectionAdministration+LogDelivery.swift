import CognateProtocol
import Crypto
import Foundation

extension ThreatProtectionAdministration {
    public func getLogDeliveryConfiguration(_ request: GetLogDeliveryConfigurationRequest) async throws
        -> GetLogDeliveryConfigurationResponse
    {
        let pool = try await directory.requirePool(request.userPoolId)
        return GetLogDeliveryConfigurationResponse(logDeliveryConfiguration: LogDeliveryConfigurationType(
            userPoolId: pool.id, logConfigurations: pool.logDelivery ?? []))
    }

    /// Replaces the pool's log delivery: at most one configuration per event source, each
    /// with exactly one destination; `userNotification` logs at ERROR level only.
    public func setLogDeliveryConfiguration(_ request: SetLogDeliveryConfigurationRequest) async throws
        -> SetLogDeliveryConfigurationResponse
    {
        let sources = request.logConfigurations.map(\.eventSource)
        guard Set(sources).count == sources.count else {
            throw CognitoError.invalidParameter("Only one log configuration per event source is allowed.")
        }
        for configuration in request.logConfigurations {
            guard configuration.eventSource == .userNotification || configuration.eventSource == .userAuthEvents else {
                throw CognitoError.invalidParameter("Unsupported event source: \(configuration.eventSource.rawValue)")
            }
            let destinations = [
                configuration.cloudWatchLogsConfiguration?.logGroupArn, configuration.s3Configuration?.bucketArn,
                configuration.firehoseConfiguration?.streamArn,
            ].compactMap { $0 }
            guard destinations.count == 1 else {
                throw CognitoError.invalidParameter("Each log configuration needs exactly one destination.")
            }
            if configuration.eventSource == .userNotification && configuration.logLevel != .error {
                throw CognitoError.invalidParameter("The userNotification event source supports only the ERROR log level.")
            }
        }
        let stored = try await directory.editPool(request.userPoolId) { pool in
            pool.logDelivery = request.logConfigurations.isEmpty ? nil : request.logConfigurations
        }
        return SetLogDeliveryConfigurationResponse(logDeliveryConfiguration: LogDeliveryConfigurationType(
            userPoolId: stored.id, logConfigurations: stored.logDelivery ?? []))
    }
}
