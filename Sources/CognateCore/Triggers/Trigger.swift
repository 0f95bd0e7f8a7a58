import CognateProtocol

/// The Lambda triggers of a user pool (LambdaConfig), by the name Cognito's messages use.
enum Trigger: String, Sendable {
    case preSignUp = "PreSignUp"
    case postConfirmation = "PostConfirmation"
    case preAuthentication = "PreAuthentication"
    case postAuthentication = "PostAuthentication"
    case preTokenGeneration = "PreTokenGeneration"
    case customMessage = "CustomMessage"
    case userMigration = "UserMigration"
    case defineAuthChallenge = "DefineAuthChallenge"
    case createAuthChallenge = "CreateAuthChallenge"
    case verifyAuthChallengeResponse = "VerifyAuthChallengeResponse"
    case customEmailSender = "CustomEmailSender"
    case customSMSSender = "CustomSMSSender"
    /// Cognate's own: the function of SetUserPoolCustomRegistration, kept beside LambdaConfig.
    case customRegistration = "CustomRegistration"

    /// The function ARN `pool` assigns to this trigger, if any.
    func arn(in pool: PoolRecord) -> String? {
        guard self == .customRegistration else { return arn(in: pool.settings.lambdaConfig) }
        return pool.customRegistration.flatMap { $0.lambdaArn.isEmpty ? nil : $0.lambdaArn }
    }

    /// The function ARN `config` assigns to this trigger, if any. PreTokenGeneration's
    /// versioned configuration wins over the plain ARN, as in Cognito.
    func arn(in config: LambdaConfigType?) -> String? {
        guard let config else { return nil }
        let arn: String? = switch self {
        case .preSignUp: config.preSignUp
        case .postConfirmation: config.postConfirmation
        case .preAuthentication: config.preAuthentication
        case .postAuthentication: config.postAuthentication
        case .preTokenGeneration: config.preTokenGenerationConfig?.lambdaArn ?? config.preTokenGeneration
        case .customMessage: config.customMessage
        case .userMigration: config.userMigration
        case .defineAuthChallenge: config.defineAuthChallenge
        case .createAuthChallenge: config.createAuthChallenge
        case .verifyAuthChallengeResponse: config.verifyAuthChallengeResponse
        case .customEmailSender: config.customEmailSender?.lambdaArn
        case .customSMSSender: config.customSMSSender?.lambdaArn
        case .customRegistration: nil
        }
        return arn.flatMap { $0.isEmpty ? nil : $0 }
    }
}
