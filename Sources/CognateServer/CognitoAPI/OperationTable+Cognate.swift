import CognateCore
import CognateIdentityProtocol
import CognateProtocol

extension OperationTable {
    /// Every operation Cognate serves. Keep README's "Supported operations" in step (a test
    /// compares them). An operation that computes a password verifier, an SRP step, a token's
    /// signature or a key is `.cryptographic`.
    static let cognate: OperationTable = {
        var table = OperationTable()
        // User pools
        table.register(CognitoAPI.CreateUserPool.self, { try await $0.pools.createUserPool($1) }, work: .cryptographic)
        table.register(CognitoAPI.DescribeUserPool.self, { try await $0.pools.describeUserPool($1) })
        table.register(CognitoAPI.UpdateUserPool.self, { try await $0.pools.updateUserPool($1) })
        table.register(CognitoAPI.DeleteUserPool.self, { try await $0.pools.deleteUserPool($1) })
        table.register(CognitoAPI.ListUserPools.self, { try await $0.pools.listUserPools($1) })
        table.register(CognitoAPI.AddCustomAttributes.self, { try await $0.pools.addCustomAttributes($1) })
        table.register(CognitoAPI.TagResource.self, { try await $0.pools.tagResource($1) })
        table.register(CognitoAPI.UntagResource.self, { try await $0.pools.untagResource($1) })
        table.register(CognitoAPI.ListTagsForResource.self, { try await $0.pools.listTagsForResource($1) })
        // App clients
        table.register(CognitoAPI.CreateUserPoolClient.self, { try await $0.clients.createUserPoolClient($1) })
        table.register(CognitoAPI.DescribeUserPoolClient.self, { try await $0.clients.describeUserPoolClient($1) })
        table.register(CognitoAPI.UpdateUserPoolClient.self, { try await $0.clients.updateUserPoolClient($1) })
        table.register(CognitoAPI.DeleteUserPoolClient.self, { try await $0.clients.deleteUserPoolClient($1) })
        table.register(CognitoAPI.ListUserPoolClients.self, { try await $0.clients.listUserPoolClients($1) })
        table.register(CognitoAPI.AddUserPoolClientSecret.self, { try await $0.clients.addUserPoolClientSecret($1) })
        table.register(CognitoAPI.ListUserPoolClientSecrets.self, { try await $0.clients.listUserPoolClientSecrets($1) })
        table.register(CognitoAPI.DeleteUserPoolClientSecret.self, { try await $0.clients.deleteUserPoolClientSecret($1) })
        // Sign-up and confirmation
        table.register(CognitoAPI.SignUp.self, { try await $0.registration.signUp($1) }, work: .cryptographic)
        table.register(CognitoAPI.ConfirmSignUp.self, { try await $0.registration.confirmSignUp($1) })
        table.register(CognitoAPI.ResendConfirmationCode.self, { try await $0.registration.resendConfirmationCode($1) })
        table.register(CognitoAPI.AdminConfirmSignUp.self, { try await $0.registration.adminConfirmSignUp($1) })
        // Sign-in
        table.register(CognitoAPI.InitiateAuth.self, { try await $0.signIn.initiateAuth($1) }) { .of($0.authFlow) }
        table.register(CognitoAPI.AdminInitiateAuth.self, { try await $0.signIn.adminInitiateAuth($1) }) { .of($0.authFlow) }
        table.register(
            CognitoAPI.RespondToAuthChallenge.self, { try await $0.signIn.respondToAuthChallenge($1) }, work: .cryptographic)
        table.register(
            CognitoAPI.AdminRespondToAuthChallenge.self,
            { try await $0.signIn.adminRespondToAuthChallenge($1) }, work: .cryptographic)
        // MFA
        table.register(CognitoAPI.SetUserPoolMfaConfig.self, { try await $0.pools.setUserPoolMfaConfig($1) })
        table.register(CognitoAPI.GetUserPoolMfaConfig.self, { try await $0.pools.getUserPoolMfaConfig($1) })
        table.register(CognitoAPI.AssociateSoftwareToken.self, { try await $0.mfa.associateSoftwareToken($1) })
        table.register(CognitoAPI.VerifySoftwareToken.self, { try await $0.mfa.verifySoftwareToken($1) })
        table.register(CognitoAPI.SetUserMFAPreference.self, { try await $0.mfa.setUserMFAPreference($1) })
        table.register(CognitoAPI.AdminSetUserMFAPreference.self, { try await $0.mfa.adminSetUserMFAPreference($1) })
        table.register(CognitoAPI.GetUserAuthFactors.self, { try await $0.mfa.getUserAuthFactors($1) })
        table.register(CognitoAPI.AdminGetUserAuthFactors.self, { try await $0.mfa.adminGetUserAuthFactors($1) })
        table.register(CognitoAPI.AdminDeleteSoftwareToken.self, { try await $0.mfa.adminDeleteSoftwareToken($1) })
        // Disaster recovery (answered for what it is in a self-hosted deployment)
        table.register(
            CognitoAPI.InitiatePointInTimeRecovery.self, { try await $0.disasterRecovery.initiatePointInTimeRecovery($1) })
        table.register(CognitoAPI.StartPointInTimeRecovery.self, { try await $0.disasterRecovery.startPointInTimeRecovery($1) })
        table.register(CognitoAPI.CancelPointInTimeRecovery.self, { try await $0.disasterRecovery.cancelPointInTimeRecovery($1) })
        table.register(
            CognitoAPI.DescribePointInTimeRecovery.self, { try await $0.disasterRecovery.describePointInTimeRecovery($1) })
        table.register(CognitoAPI.ListPointInTimeRecoveries.self, { try await $0.disasterRecovery.listPointInTimeRecoveries($1) })
        table.register(CognitoAPI.CreateUserPoolReplica.self, { try await $0.disasterRecovery.createUserPoolReplica($1) })
        table.register(CognitoAPI.DeleteUserPoolReplica.self, { try await $0.disasterRecovery.deleteUserPoolReplica($1) })
        table.register(CognitoAPI.ListUserPoolReplicas.self, { try await $0.disasterRecovery.listUserPoolReplicas($1) })
        table.register(CognitoAPI.UpdateUserPoolReplica.self, { try await $0.disasterRecovery.updateUserPoolReplica($1) })
        // User sessions
        table.register(CognitoAPI.GetClientToken.self, { try await $0.clientTokens.getClientToken($1) }, work: .cryptographic,
                       authorization: .unsigned)
        table.register(CognitoAPI.GetDerivedToken.self, { try await $0.tokenExchange.getDerivedToken($1) }, work: .cryptographic,
                       authorization: .unsigned)
        table.register(CognitoAPI.ListUserSessions.self, { try await $0.userSessions.listUserSessions($1) })
        table.register(CognitoAPI.RevokeUserSession.self, { try await $0.userSessions.revokeUserSession($1) })
        table.register(CognitoAPI.AdminListUserSessions.self, { try await $0.userSessions.adminListUserSessions($1) })
        table.register(CognitoAPI.AdminRevokeUserSession.self, { try await $0.userSessions.adminRevokeUserSession($1) })
        table.register(
            CognitoAPI.GetUserPoolSessionConfiguration.self, { try await $0.userSessions.getUserPoolSessionConfiguration($1) })
        table.register(
            CognitoAPI.SetUserPoolSessionConfiguration.self, { try await $0.userSessions.setUserPoolSessionConfiguration($1) })
        table.register(
            CognitoAPI.GetUserPoolClientSessionConfiguration.self,
            { try await $0.userSessions.getUserPoolClientSessionConfiguration($1) })
        table.register(
            CognitoAPI.SetUserPoolClientSessionConfiguration.self,
            { try await $0.userSessions.setUserPoolClientSessionConfiguration($1) })
        // Client ID metadata documents
        table.register(CognitoAPI.CreateCIMDPolicy.self, { try await $0.clientMetadataDocuments.createCIMDPolicy($1) })
        table.register(CognitoAPI.DescribeCIMDPolicy.self, { try await $0.clientMetadataDocuments.describeCIMDPolicy($1) })
        table.register(CognitoAPI.UpdateCIMDPolicy.self, { try await $0.clientMetadataDocuments.updateCIMDPolicy($1) })
        table.register(CognitoAPI.DeleteCIMDPolicy.self, { try await $0.clientMetadataDocuments.deleteCIMDPolicy($1) })
        table.register(CognitoAPI.ListCIMDPolicies.self, { try await $0.clientMetadataDocuments.listCIMDPolicies($1) })
        table.register(
            CognitoAPI.ListClientMetadataURLs.self, { try await $0.clientMetadataDocuments.listClientMetadataURLs($1) })
        table.register(
            CognitoAPI.UpdateClientMetadataURLState.self,
            { try await $0.clientMetadataDocuments.updateClientMetadataURLState($1) })
        // Passkeys
        table.register(CognitoAPI.StartWebAuthnRegistration.self, { try await $0.passkeys.startWebAuthnRegistration($1) })
        table.register(
            CognitoAPI.CompleteWebAuthnRegistration.self,
            { try await $0.passkeys.completeWebAuthnRegistration($1) }, work: .cryptographic)
        table.register(CognitoAPI.ListWebAuthnCredentials.self, { try await $0.passkeys.listWebAuthnCredentials($1) })
        table.register(CognitoAPI.DeleteWebAuthnCredential.self, { try await $0.passkeys.deleteWebAuthnCredential($1) })
        table.register(CognitoAPI.SetUserSettings.self, { try await $0.mfa.setUserSettings($1) })
        table.register(CognitoAPI.AdminSetUserSettings.self, { try await $0.mfa.adminSetUserSettings($1) })
        // Devices
        table.register(CognitoAPI.ConfirmDevice.self, { try await $0.devices.confirmDevice($1) })
        table.register(CognitoAPI.GetDevice.self, { try await $0.devices.getDevice($1) })
        table.register(CognitoAPI.ListDevices.self, { try await $0.devices.listDevices($1) })
        table.register(CognitoAPI.UpdateDeviceStatus.self, { try await $0.devices.updateDeviceStatus($1) })
        table.register(CognitoAPI.ForgetDevice.self, { try await $0.devices.forgetDevice($1) })
        table.register(CognitoAPI.AdminGetDevice.self, { try await $0.devices.adminGetDevice($1) })
        table.register(CognitoAPI.AdminListDevices.self, { try await $0.devices.adminListDevices($1) })
        table.register(CognitoAPI.AdminUpdateDeviceStatus.self, { try await $0.devices.adminUpdateDeviceStatus($1) })
        table.register(CognitoAPI.AdminForgetDevice.self, { try await $0.devices.adminForgetDevice($1) })
        // OAuth 2.0: domains and resource servers
        table.register(CognitoAPI.CreateUserPoolDomain.self, { try await $0.managedLogin.createUserPoolDomain($1) })
        table.register(CognitoAPI.DescribeUserPoolDomain.self, { try await $0.managedLogin.describeUserPoolDomain($1) })
        table.register(CognitoAPI.UpdateUserPoolDomain.self, { try await $0.managedLogin.updateUserPoolDomain($1) })
        table.register(CognitoAPI.DeleteUserPoolDomain.self, { try await $0.managedLogin.deleteUserPoolDomain($1) })
        table.register(CognitoAPI.CreateResourceServer.self, { try await $0.managedLogin.createResourceServer($1) })
        table.register(CognitoAPI.DescribeResourceServer.self, { try await $0.managedLogin.describeResourceServer($1) })
        table.register(CognitoAPI.UpdateResourceServer.self, { try await $0.managedLogin.updateResourceServer($1) })
        table.register(CognitoAPI.DeleteResourceServer.self, { try await $0.managedLogin.deleteResourceServer($1) })
        table.register(CognitoAPI.ListResourceServers.self, { try await $0.managedLogin.listResourceServers($1) })
        table.register(CognitoAPI.SetUICustomization.self, { try await $0.managedLogin.setUICustomization($1) })
        table.register(CognitoAPI.CreateTerms.self, { try await $0.managedLogin.createTerms($1) })
        table.register(CognitoAPI.DescribeTerms.self, { try await $0.managedLogin.describeTerms($1) })
        table.register(CognitoAPI.DescribeTermsByClient.self, { try await $0.managedLogin.describeTermsByClient($1) })
        table.register(CognitoAPI.UpdateTerms.self, { try await $0.managedLogin.updateTerms($1) })
        table.register(CognitoAPI.DeleteTerms.self, { try await $0.managedLogin.deleteTerms($1) })
        table.register(CognitoAPI.ListTerms.self, { try await $0.managedLogin.listTerms($1) })
        table.register(CognitoAPI.GetUICustomization.self, { try await $0.managedLogin.getUICustomization($1) })
        // Federation
        table.register(CognitoAPI.CreateIdentityProvider.self, { try await $0.federation.createIdentityProvider($1) })
        table.register(CognitoAPI.DescribeIdentityProvider.self, { try await $0.federation.describeIdentityProvider($1) })
        table.register(CognitoAPI.UpdateIdentityProvider.self, { try await $0.federation.updateIdentityProvider($1) })
        table.register(CognitoAPI.DeleteIdentityProvider.self, { try await $0.federation.deleteIdentityProvider($1) })
        table.register(CognitoAPI.ListIdentityProviders.self, { try await $0.federation.listIdentityProviders($1) })
        table.register(
            CognitoAPI.GetIdentityProviderByIdentifier.self, { try await $0.federation.getIdentityProviderByIdentifier($1) })
        table.register(CognitoAPI.AdminLinkProviderForUser.self, { try await $0.federation.adminLinkProviderForUser($1) })
        table.register(CognitoAPI.AdminDisableProviderForUser.self, { try await $0.federation.adminDisableProviderForUser($1) })
        // PIN sign-in (Cognate's own operations)
        table.register(CognitoAPI.SetUserPoolPinPolicy.self, { try await $0.pools.setUserPoolPinPolicy($1) })
        table.register(CognitoAPI.GetPinPolicy.self, { try await $0.pools.getPinPolicy($1) })
        table.register(CognitoAPI.RegisterDevicePin.self, { try await $0.devices.registerDevicePin($1) }, work: .cryptographic)
        // Custom registration (Cognate's own operations)
        table.register(
            CognitoAPI.SetUserPoolCustomRegistration.self, { try await $0.customRegistration.setUserPoolCustomRegistration($1) })
        table.register(
            CognitoAPI.GetUserPoolCustomRegistration.self, { try await $0.customRegistration.getUserPoolCustomRegistration($1) })
        table.register(
            CognitoAPI.StartCustomRegistration.self,
            { try await $0.customRegistration.startCustomRegistration($1) }, work: .cryptographic)
        table.register(
            CognitoAPI.RespondToCustomRegistration.self, { try await $0.customRegistration.respondToCustomRegistration($1) },
            work: .cryptographic)
        // Recovery and sign-out
        table.register(CognitoAPI.ForgotPassword.self, { try await $0.registration.forgotPassword($1) })
        table.register(
            CognitoAPI.ConfirmForgotPassword.self, { try await $0.registration.confirmForgotPassword($1) }, work: .cryptographic)
        table.register(CognitoAPI.ChangePassword.self, { try await $0.account.changePassword($1) }, work: .cryptographic)
        table.register(CognitoAPI.GlobalSignOut.self, { try await $0.sessions.globalSignOut($1) })
        table.register(CognitoAPI.RevokeToken.self, { try await $0.sessions.revokeToken($1) })
        table.register(CognitoAPI.GetTokensFromRefreshToken.self, { try await $0.sessions.getTokensFromRefreshToken($1) })
        // The signed-in user
        table.register(CognitoAPI.GetUser.self, { try await $0.account.getUser($1) })
        table.register(CognitoAPI.UpdateUserAttributes.self, { try await $0.account.updateUserAttributes($1) })
        table.register(CognitoAPI.DeleteUserAttributes.self, { try await $0.account.deleteUserAttributes($1) })
        table.register(
            CognitoAPI.GetUserAttributeVerificationCode.self, { try await $0.account.getUserAttributeVerificationCode($1) })
        table.register(CognitoAPI.VerifyUserAttribute.self, { try await $0.account.verifyUserAttribute($1) })
        table.register(CognitoAPI.DeleteUser.self, { try await $0.account.deleteUser($1) })
        // Users (admin)
        table.register(CognitoAPI.AdminGetUser.self, { try await $0.userAdministration.adminGetUser($1) })
        table.register(CognitoAPI.AdminDeleteUser.self, { try await $0.userAdministration.adminDeleteUser($1) })
        table.register(CognitoAPI.ListUsers.self, { try await $0.userAdministration.listUsers($1) })
        // User import
        table.register(CognitoAPI.GetCSVHeader.self, { try await $0.pools.getCSVHeader($1) })
        table.register(
            CognitoAPI.GetSigningCertificate.self, { try await $0.pools.getSigningCertificate($1) }, work: .cryptographic)
        // Managed login branding (applied to the hosted pages)
        table.register(CognitoAPI.CreateManagedLoginBranding.self, { try await $0.managedLogin.createManagedLoginBranding($1) })
        table.register(
            CognitoAPI.DescribeManagedLoginBranding.self, { try await $0.managedLogin.describeManagedLoginBranding($1) })
        table.register(
            CognitoAPI.DescribeManagedLoginBrandingByClient.self,
            { try await $0.managedLogin.describeManagedLoginBrandingByClient($1) })
        table.register(CognitoAPI.UpdateManagedLoginBranding.self, { try await $0.managedLogin.updateManagedLoginBranding($1) })
        table.register(CognitoAPI.DeleteManagedLoginBranding.self, { try await $0.managedLogin.deleteManagedLoginBranding($1) })
        // Threat protection: auth events, risk configuration, log delivery
        table.register(CognitoAPI.AdminListUserAuthEvents.self, { try await $0.threatProtection.adminListUserAuthEvents($1) })
        table.register(
            CognitoAPI.AdminUpdateAuthEventFeedback.self, { try await $0.threatProtection.adminUpdateAuthEventFeedback($1) })
        table.register(CognitoAPI.UpdateAuthEventFeedback.self, { try await $0.threatProtection.updateAuthEventFeedback($1) })
        table.register(CognitoAPI.DescribeRiskConfiguration.self, { try await $0.threatProtection.describeRiskConfiguration($1) })
        table.register(CognitoAPI.SetRiskConfiguration.self, { try await $0.threatProtection.setRiskConfiguration($1) })
        table.register(
            CognitoAPI.GetLogDeliveryConfiguration.self, { try await $0.threatProtection.getLogDeliveryConfiguration($1) })
        table.register(
            CognitoAPI.SetLogDeliveryConfiguration.self, { try await $0.threatProtection.setLogDeliveryConfiguration($1) })
        table.register(CognitoAPI.CreateUserImportJob.self, { try await $0.userImport.createUserImportJob($1) })
        table.register(CognitoAPI.StartUserImportJob.self, { try await $0.userImport.startUserImportJob($1) })
        table.register(CognitoAPI.StopUserImportJob.self, { try await $0.userImport.stopUserImportJob($1) })
        table.register(CognitoAPI.DescribeUserImportJob.self, { try await $0.userImport.describeUserImportJob($1) })
        table.register(CognitoAPI.ListUserImportJobs.self, { try await $0.userImport.listUserImportJobs($1) })
        // User administration
        table.register(
            CognitoAPI.AdminCreateUser.self, { try await $0.userAdministration.adminCreateUser($1) }, work: .cryptographic)
        table.register(
            CognitoAPI.AdminSetUserPassword.self,
            { try await $0.userAdministration.adminSetUserPassword($1) }, work: .cryptographic)
        table.register(CognitoAPI.AdminResetUserPassword.self, { try await $0.userAdministration.adminResetUserPassword($1) })
        table.register(
            CognitoAPI.AdminUpdateUserAttributes.self, { try await $0.userAdministration.adminUpdateUserAttributes($1) })
        table.register(
            CognitoAPI.AdminDeleteUserAttributes.self, { try await $0.userAdministration.adminDeleteUserAttributes($1) })
        table.register(CognitoAPI.AdminDisableUser.self, { try await $0.userAdministration.adminDisableUser($1) })
        table.register(CognitoAPI.AdminEnableUser.self, { try await $0.userAdministration.adminEnableUser($1) })
        table.register(CognitoAPI.AdminUserGlobalSignOut.self, { try await $0.userAdministration.adminUserGlobalSignOut($1) })
        // Groups
        table.register(CognitoAPI.CreateGroup.self, { try await $0.userAdministration.createGroup($1) })
        table.register(CognitoAPI.GetGroup.self, { try await $0.userAdministration.getGroup($1) })
        table.register(CognitoAPI.UpdateGroup.self, { try await $0.userAdministration.updateGroup($1) })
        table.register(CognitoAPI.DeleteGroup.self, { try await $0.userAdministration.deleteGroup($1) })
        table.register(CognitoAPI.ListGroups.self, { try await $0.userAdministration.listGroups($1) })
        table.register(CognitoAPI.AdminAddUserToGroup.self, { try await $0.userAdministration.adminAddUserToGroup($1) })
        table.register(CognitoAPI.AdminRemoveUserFromGroup.self, { try await $0.userAdministration.adminRemoveUserFromGroup($1) })
        table.register(CognitoAPI.AdminListGroupsForUser.self, { try await $0.userAdministration.adminListGroupsForUser($1) })
        table.register(CognitoAPI.ListUsersInGroup.self, { try await $0.userAdministration.listUsersInGroup($1) })
        registerIdentityOperations(&table)
        return table
    }()

    /// The identity-pool API (`cognito-identity`), on the same endpoint. GetId, GetOpenIdToken,
    /// GetCredentialsForIdentity and UnlinkIdentity are public (the model's `authtype: none`);
    /// the others are admin operations (SigV4 outside dev mode). Those that sign an OpenID token
    /// are `.cryptographic`.
    private static func registerIdentityOperations(_ table: inout OperationTable) {
        table.register(CognitoIdentityAPI.CreateIdentityPool.self, { try await $0.identityPools.createIdentityPool($1) })
        table.register(CognitoIdentityAPI.DescribeIdentityPool.self, { try await $0.identityPools.describeIdentityPool($1) })
        table.register(CognitoIdentityAPI.UpdateIdentityPool.self, { try await $0.identityPools.updateIdentityPool($1) })
        table.register(CognitoIdentityAPI.DeleteIdentityPool.self, { try await $0.identityPools.deleteIdentityPool($1) })
        table.register(CognitoIdentityAPI.ListIdentityPools.self, { try await $0.identityPools.listIdentityPools($1) })
        table.register(CognitoIdentityAPI.SetIdentityPoolRoles.self, { try await $0.identityPools.setIdentityPoolRoles($1) })
        table.register(CognitoIdentityAPI.GetIdentityPoolRoles.self, { try await $0.identityPools.getIdentityPoolRoles($1) })
        table.register(
            CognitoIdentityAPI.SetPrincipalTagAttributeMap.self, { try await $0.identityPools.setPrincipalTagAttributeMap($1) })
        table.register(
            CognitoIdentityAPI.GetPrincipalTagAttributeMap.self, { try await $0.identityPools.getPrincipalTagAttributeMap($1) })
        table.register(CognitoIdentityAPI.TagResource.self, { try await $0.identityPools.tagResource($1) })
        table.register(CognitoIdentityAPI.UntagResource.self, { try await $0.identityPools.untagResource($1) })
        table.register(CognitoIdentityAPI.ListTagsForResource.self, { try await $0.identityPools.listTagsForResource($1) })
        table.register(CognitoIdentityAPI.GetId.self, { try await $0.identities.getId($1) })
        table.register(
            CognitoIdentityAPI.GetOpenIdToken.self, { try await $0.identities.getOpenIdToken($1) }, work: .cryptographic)
        table.register(
            CognitoIdentityAPI.GetCredentialsForIdentity.self,
            { try await $0.identities.getCredentialsForIdentity($1) }, work: .cryptographic)
        table.register(CognitoIdentityAPI.DescribeIdentity.self, { try await $0.identities.describeIdentity($1) })
        table.register(CognitoIdentityAPI.ListIdentities.self, { try await $0.identities.listIdentities($1) })
        table.register(CognitoIdentityAPI.DeleteIdentities.self, { try await $0.identities.deleteIdentities($1) })
        table.register(CognitoIdentityAPI.UnlinkIdentity.self, { try await $0.identities.unlinkIdentity($1) })
        table.register(
            CognitoIdentityAPI.GetOpenIdTokenForDeveloperIdentity.self,
            { try await $0.identities.getOpenIdTokenForDeveloperIdentity($1) },
            work: .cryptographic)
        table.register(CognitoIdentityAPI.LookupDeveloperIdentity.self, { try await $0.identities.lookupDeveloperIdentity($1) })
        table.register(CognitoIdentityAPI.MergeDeveloperIdentities.self, { try await $0.identities.mergeDeveloperIdentities($1) })
        table.register(CognitoIdentityAPI.UnlinkDeveloperIdentity.self, { try await $0.identities.unlinkDeveloperIdentity($1) })
    }
}
