import CognateCore
import CognateProtocol

extension OperationTable {
    /// Every operation Cognate serves. Keep README's "Supported operations" in step (a test
    /// compares them).
    static let cognate: OperationTable = {
        var table = OperationTable()
        // User pools
        table.register(CognitoAPI.CreateUserPool.self, IdentityService.createUserPool)
        table.register(CognitoAPI.DescribeUserPool.self, IdentityService.describeUserPool)
        table.register(CognitoAPI.UpdateUserPool.self, IdentityService.updateUserPool)
        table.register(CognitoAPI.DeleteUserPool.self, IdentityService.deleteUserPool)
        table.register(CognitoAPI.ListUserPools.self, IdentityService.listUserPools)
        // App clients
        table.register(CognitoAPI.CreateUserPoolClient.self, IdentityService.createUserPoolClient)
        table.register(CognitoAPI.DescribeUserPoolClient.self, IdentityService.describeUserPoolClient)
        table.register(CognitoAPI.UpdateUserPoolClient.self, IdentityService.updateUserPoolClient)
        table.register(CognitoAPI.DeleteUserPoolClient.self, IdentityService.deleteUserPoolClient)
        table.register(CognitoAPI.ListUserPoolClients.self, IdentityService.listUserPoolClients)
        // Sign-up and confirmation
        table.register(CognitoAPI.SignUp.self, IdentityService.signUp)
        table.register(CognitoAPI.ConfirmSignUp.self, IdentityService.confirmSignUp)
        table.register(CognitoAPI.ResendConfirmationCode.self, IdentityService.resendConfirmationCode)
        table.register(CognitoAPI.AdminConfirmSignUp.self, IdentityService.adminConfirmSignUp)
        // Sign-in
        table.register(CognitoAPI.InitiateAuth.self, IdentityService.initiateAuth)
        table.register(CognitoAPI.AdminInitiateAuth.self, IdentityService.adminInitiateAuth)
        // Users
        table.register(CognitoAPI.GetUser.self, IdentityService.getUser)
        table.register(CognitoAPI.DeleteUser.self, IdentityService.deleteUser)
        table.register(CognitoAPI.AdminGetUser.self, IdentityService.adminGetUser)
        table.register(CognitoAPI.AdminDeleteUser.self, IdentityService.adminDeleteUser)
        return table
    }()
}
