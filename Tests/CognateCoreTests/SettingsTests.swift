import CognateProtocol
import Foundation
import Testing

@testable import CognateCore

struct SettingsTests {
    @Test func clientDefaultsAsCognitoShowsThem() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            let client = try await env.service.clients.createUserPoolClient(CreateUserPoolClientRequest(userPoolId: pool.id!, clientName: "c")).userPoolClient!
            #expect(client.refreshTokenValidity == 30)
            #expect(client.accessTokenValidity == 60)
            #expect(client.tokenValidityUnits == TokenValidityUnitsType(accessToken: .minutes, idToken: .minutes, refreshToken: .days))
            #expect(client.preventUserExistenceErrors == .legacy)
            #expect(client.enableTokenRevocation == true)
            #expect(client.clientSecret == nil)
            #expect(client.clientId?.count == 26)
            #expect(ClientSettings.allowedFlows(client) == [.allowRefreshTokenAuth, .allowUserSrpAuth, .allowCustomAuth])
        }
    }

    @Test func validityWithoutUnitsIsHoursAndDays() {
        let validity = TokenValidity(client: UserPoolClientType(refreshTokenValidity: 2, accessTokenValidity: 1, idTokenValidity: 3))
        #expect(validity.accessToken == 3600)
        #expect(validity.idToken == 3 * 3600)
        #expect(validity.refreshToken == 2 * 86_400)
        #expect(TokenValidity(client: UserPoolClientType(refreshTokenValidity: 0)).refreshToken == 30 * 86_400)
    }

    @Test func refusesInconsistentClientSettings() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool()
            await expectCognitoError(.invalidParameter) {
                _ = try await env.service.clients.createUserPoolClient(CreateUserPoolClientRequest(
                    userPoolId: pool.id!, clientName: "c", explicitAuthFlows: [.userPasswordAuth, .allowUserSrpAuth]))
            }
            await expectCognitoError(.invalidParameter) {
                _ = try await env.service.clients.createUserPoolClient(CreateUserPoolClientRequest(
                    userPoolId: pool.id!, clientName: "c", accessTokenValidity: 2,
                    tokenValidityUnits: TokenValidityUnitsType(accessToken: .minutes)))
            }
            await expectCognitoError(.invalidParameter) {
                _ = try await env.service.clients.createUserPoolClient(CreateUserPoolClientRequest(
                    userPoolId: pool.id!, clientName: "c", readAttributes: ["custom:nope"]))
            }
            await expectCognitoError(.resourceNotFound) {
                _ = try await env.service.clients.createUserPoolClient(CreateUserPoolClientRequest(userPoolId: "us-east-1_nothere1", clientName: "c"))
            }
        }
    }

    @Test func poolSchemaAndPolicyDefaults() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool(CreateUserPoolRequest(
                poolName: "p", schema: [SchemaAttributeType(name: "email", required: true),
                                        SchemaAttributeType(name: "secret", attributeDataType: .string, developerOnlyAttribute: true)]))
            let names = pool.schemaAttributes!.map(\.name!)
            #expect(names.first == "sub")
            #expect(names.contains("dev:custom:secret"))
            #expect(pool.schemaAttributes!.first { $0.name == "email" }?.required == true)
            #expect(pool.policies?.passwordPolicy?.minimumLength == 8)
            #expect(pool.id!.hasPrefix("us-east-1_"))
            await expectCognitoError(.invalidParameter) {
                _ = try await env.pool(CreateUserPoolRequest(poolName: "bad", schema: [SchemaAttributeType(name: "x", required: true)]))
            }
            await expectCognitoError(.invalidParameter) {
                _ = try await env.pool(CreateUserPoolRequest(poolName: "bad", aliasAttributes: [.email], usernameAttributes: [.email]))
            }
        }
    }

    @Test func updateReplacesMutableSettingsAndDeletionProtectionHolds() async throws {
        try await TestEnvironment.with { env in
            let pool = try await env.pool(CreateUserPoolRequest(poolName: "p", deletionProtection: .active, autoVerifiedAttributes: [.email]))
            _ = try await env.service.pools.updateUserPool(UpdateUserPoolRequest(userPoolId: pool.id!, deletionProtection: .active))
            let described = try await env.service.pools.describeUserPool(DescribeUserPoolRequest(userPoolId: pool.id!)).userPool!
            #expect(described.autoVerifiedAttributes == nil)  // omitted → reverted
            await expectCognitoError(.invalidParameter) { _ = try await env.service.pools.deleteUserPool(DeleteUserPoolRequest(userPoolId: pool.id!)) }
            _ = try await env.service.pools.updateUserPool(UpdateUserPoolRequest(userPoolId: pool.id!))
            _ = try await env.service.pools.deleteUserPool(DeleteUserPoolRequest(userPoolId: pool.id!))
            await expectCognitoError(.resourceNotFound) { _ = try await env.service.pools.describeUserPool(DescribeUserPoolRequest(userPoolId: pool.id!)) }
        }
    }
}
