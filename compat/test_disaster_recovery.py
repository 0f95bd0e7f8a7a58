"""Point-in-time recovery and replica operations, through boto3 (the pinned AWS CLI v1 does not
know them yet): the ones that
would start a recovery or a replica say what to set up (OperationNotEnabledException, pointing
at docs/deploy.md), the ones that read answer what is — the deployment as the pool's primary,
and no recoveries."""
import datetime

from helpers import cognito_error


def test_recovery_and_replicas_say_what_to_set_up(server, idp, pool):
    pool_id = pool["Id"]
    with cognito_error("OperationNotEnabledException", contains="docs/deploy.md"):
        idp.initiate_point_in_time_recovery(
            UserPoolId=pool_id, RestoreTimestamp=datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=1))
    assert idp.list_point_in_time_recoveries(UserPoolId=pool_id)["Restorations"] == []
    for call in (idp.start_point_in_time_recovery, idp.cancel_point_in_time_recovery, idp.describe_point_in_time_recovery):
        with cognito_error("ResourceNotFoundException", contains="does not exist"):
            call(UserPoolId=pool_id, RestoreId="00000000-0000-4000-8000-000000000000")

    replicas = idp.list_user_pool_replicas(UserPoolId=pool_id)["UserPoolReplicas"]
    assert replicas == [{"RegionName": "us-east-1", "Status": "ACTIVE", "Role": "PRIMARY",
                         "UserPoolArn": pool["Arn"]}]
    with cognito_error("OperationNotEnabledException", contains="PostgreSQL standbys"):
        idp.create_user_pool_replica(UserPoolId=pool_id, RegionName="eu-west-1")
    with cognito_error("ResourceNotFoundException", "The user pool has no replica in eu-west-1."):
        idp.delete_user_pool_replica(UserPoolId=pool_id, RegionName="eu-west-1")
    with cognito_error("OperationNotEnabledException", contains="Failing over from the primary"):
        idp.update_user_pool_replica(UserPoolId=pool_id, RegionName="us-east-1", Status="INACTIVE")
    with cognito_error("ResourceNotFoundException"):
        idp.list_user_pool_replicas(UserPoolId="us-east-1_Nope")

