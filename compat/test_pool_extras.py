"""The rest of the pool API (issue 14, first operations): AddCustomAttributes (existing users keep
working), GetCSVHeader, and tags on pools (TagResource, UntagResource, ListTagsForResource,
shown in DescribeUserPool), through boto3 and the AWS CLI."""
import json
import os
import subprocess

from helpers import PASSWORD, cognito_error, confirmed_user, new_client, sign_in, unique


def test_custom_attributes_grow_the_schema_and_users_keep_working(server, idp):
    pool = idp.create_user_pool(PoolName=unique("extras"), AutoVerifiedAttributes=["email"],
                                Schema=[{"Name": "tier", "AttributeDataType": "String"}])["UserPool"]
    client = new_client(idp, pool["Id"])
    username, _, _ = confirmed_user(server, idp, pool, client, attributes=[("custom:tier", "gold")])
    idp.add_custom_attributes(UserPoolId=pool["Id"], CustomAttributes=[
        {"Name": "clinic", "AttributeDataType": "String", "Mutable": True},
        {"Name": "visits", "AttributeDataType": "Number", "NumberAttributeConstraints": {"MinValue": "0"}}])
    names = [a["Name"] for a in idp.describe_user_pool(UserPoolId=pool["Id"])["UserPool"]["SchemaAttributes"]]
    assert {"custom:tier", "custom:clinic", "custom:visits"} <= set(names)
    access = sign_in(idp, client, username)["AccessToken"]                  # the existing user still signs in
    idp.update_user_attributes(AccessToken=access, UserAttributes=[{"Name": "custom:clinic", "Value": "North"}])
    attributes = {a["Name"]: a["Value"] for a in idp.get_user(AccessToken=access)["UserAttributes"]}
    assert attributes["custom:tier"] == "gold" and attributes["custom:clinic"] == "North"
    with cognito_error("InvalidParameterException", "Existing attribute already has name custom:tier."):
        idp.add_custom_attributes(UserPoolId=pool["Id"], CustomAttributes=[{"Name": "tier", "AttributeDataType": "String"}])
    with cognito_error("InvalidParameterException", contains="length less than or equal to 20"):
        idp.add_custom_attributes(UserPoolId=pool["Id"], CustomAttributes=[{"Name": "x" * 21, "AttributeDataType": "String"}])
    with cognito_error("ResourceNotFoundException"):
        idp.add_custom_attributes(UserPoolId="us-east-1_nope", CustomAttributes=[{"Name": "a", "AttributeDataType": "String"}])

    header = idp.get_csv_header(UserPoolId=pool["Id"])
    assert header["UserPoolId"] == pool["Id"]
    assert header["CSVHeader"][:3] == ["name", "given_name", "family_name"] and "cognito:username" in header["CSVHeader"]
    assert header["CSVHeader"][-3:] == ["custom:tier", "custom:clinic", "custom:visits"]


def test_tags_on_pools(server, idp):
    pool = idp.create_user_pool(PoolName=unique("tags"), UserPoolTags={"team": "identity"})["UserPool"]
    arn = pool["Arn"]
    idp.tag_resource(ResourceArn=arn, Tags={"env": "test", "team": "auth"})
    assert idp.list_tags_for_resource(ResourceArn=arn)["Tags"] == {"team": "auth", "env": "test"}
    idp.untag_resource(ResourceArn=arn, TagKeys=["team", "absent"])
    assert idp.describe_user_pool(UserPoolId=pool["Id"])["UserPool"]["UserPoolTags"] == {"env": "test"}
    with cognito_error("InvalidParameterException"):
        idp.list_tags_for_resource(ResourceArn="arn:aws:s3:::my-bucket-name")
    with cognito_error("ResourceNotFoundException"):
        idp.tag_resource(ResourceArn=arn.rsplit("/", 1)[0] + "/us-east-1_nope", Tags={"a": "b"})
    with cognito_error("InvalidParameterException", contains="at most 50 tags"):
        idp.tag_resource(ResourceArn=arn, Tags={f"k{i}": "v" for i in range(50)})

    # The AWS CLI, as operators use it.
    env = {**os.environ, "AWS_ACCESS_KEY_ID": "dev", "AWS_SECRET_ACCESS_KEY": "dev", "AWS_DEFAULT_REGION": "us-east-1"}
    listed = subprocess.run(["aws", "cognito-idp", "list-tags-for-resource", "--endpoint-url", server.endpoint,
                             "--resource-arn", arn, "--output", "json"], capture_output=True, text=True, env=env, timeout=60)
    assert listed.returncode == 0, listed.stderr
    assert json.loads(listed.stdout)["Tags"] == {"env": "test"}
