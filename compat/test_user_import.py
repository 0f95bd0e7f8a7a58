"""User import (issue 14): GetCSVHeader, CreateUserImportJob, the CSV uploaded to the job's
pre-signed URL, StartUserImportJob, progress through DescribeUserImportJob / ListUserImportJobs,
a bad row counted as failed while the rest come in as RESET_REQUIRED users; end to end with 1000
users, then the AWS CLI's import commands."""
import csv
import io
import json
import os
import subprocess
import time

import requests

from helpers import cognito_error, new_client, unique

ROLE = "arn:aws:iam::123456789012:role/CognitoImport"


def wait_for(idp, pool_id, job_id, seconds=120):
    deadline = time.time() + seconds
    while time.time() < deadline:
        job = idp.describe_user_import_job(UserPoolId=pool_id, JobId=job_id)["UserImportJob"]
        if job["Status"] in ("Succeeded", "Failed", "Stopped"):
            return job
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} still {job['Status']}")


def csv_file(header, rows):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def test_a_thousand_users_and_a_bad_row(server, idp):
    pool = idp.create_user_pool(PoolName=unique("import"), Schema=[{"Name": "clinic", "AttributeDataType": "String"}])[
        "UserPool"]
    header = idp.get_csv_header(UserPoolId=pool["Id"])["CSVHeader"]
    prefix = unique("imp")
    rows = []
    for i in range(1000):
        values = {"cognito:username": f"{prefix}-{i}", "email": f"{prefix}-{i}@example.com", "email_verified": "true",
                  "given_name": "Ada, \"the\" first" if i == 0 else f"User {i}", "custom:clinic": "North",
                  "cognito:mfa_enabled": "false", "phone_number_verified": "false"}
        rows.append([values.get(column, "") for column in header])
    bad = {"cognito:username": f"{prefix}-bad", "email": "not-an-email", "cognito:mfa_enabled": "false"}
    rows.insert(500, [bad.get(column, "") for column in header])
    job = idp.create_user_import_job(JobName="migration", UserPoolId=pool["Id"], CloudWatchLogsRoleArn=ROLE)["UserImportJob"]
    assert job["Status"] == "Created" and job["PreSignedUrl"].startswith(server.endpoint + "/import/")
    with cognito_error("InvalidParameterException", contains="No file"):
        idp.start_user_import_job(UserPoolId=pool["Id"], JobId=job["JobId"])
    assert requests.put(job["PreSignedUrl"] + "x", data=b"x", timeout=10).status_code == 403
    upload = requests.put(job["PreSignedUrl"], data=csv_file(header, rows).encode(),
                          headers={"x-amz-server-side-encryption": "aws:kms"}, timeout=30)
    assert upload.status_code == 200, upload.text

    started = idp.start_user_import_job(UserPoolId=pool["Id"], JobId=job["JobId"])["UserImportJob"]
    assert started["Status"] in ("Pending", "InProgress", "Succeeded")
    done = wait_for(idp, pool["Id"], job["JobId"])
    assert done["Status"] == "Succeeded", done
    assert done["ImportedUsers"] == 1000 and done["FailedUsers"] == 1 and done["SkippedUsers"] == 0
    assert "line 502" in done["CompletionMessage"] and "Import Job Completed Successfully." in done["CompletionMessage"]
    assert requests.put(job["PreSignedUrl"], data=b"again", timeout=10).status_code == 400   # a job takes one file

    first = idp.admin_get_user(UserPoolId=pool["Id"], Username=f"{prefix}-0")
    attributes = {a["Name"]: a["Value"] for a in first["UserAttributes"]}
    assert first["UserStatus"] == "RESET_REQUIRED" and attributes["given_name"] == 'Ada, "the" first'
    assert attributes["custom:clinic"] == "North" and attributes["email_verified"] == "true"
    client = new_client(idp, pool["Id"])
    with cognito_error("PasswordResetRequiredException"):
        idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="USER_PASSWORD_AUTH",
                          AuthParameters={"USERNAME": f"{prefix}-999", "PASSWORD": "Anything-1"})
    listed = idp.list_user_import_jobs(UserPoolId=pool["Id"], MaxResults=10)["UserImportJobs"]
    assert [j["JobId"] for j in listed] == [job["JobId"]]


def test_a_file_with_an_unknown_column_fails_the_job_and_stops(server, idp):
    pool = idp.create_user_pool(PoolName=unique("import"))["UserPool"]
    job = idp.create_user_import_job(JobName="bad", UserPoolId=pool["Id"], CloudWatchLogsRoleArn=ROLE)["UserImportJob"]
    requests.put(job["PreSignedUrl"], data=b"cognito:username,favourite_colour\r\nann,blue\r\n", timeout=10)
    idp.start_user_import_job(UserPoolId=pool["Id"], JobId=job["JobId"])
    failed = wait_for(idp, pool["Id"], job["JobId"])
    assert failed["Status"] == "Failed" and "favourite_colour" in failed["CompletionMessage"]
    with cognito_error("InvalidParameterException", contains="cannot start"):
        idp.start_user_import_job(UserPoolId=pool["Id"], JobId=job["JobId"])
    with cognito_error("ResourceNotFoundException"):
        idp.describe_user_import_job(UserPoolId=pool["Id"], JobId="import-nope")


def test_the_aws_cli_imports_users(server, idp):
    pool = idp.create_user_pool(PoolName=unique("import"))["UserPool"]
    env = {**os.environ, "AWS_ACCESS_KEY_ID": "dev", "AWS_SECRET_ACCESS_KEY": "dev", "AWS_DEFAULT_REGION": "us-east-1"}

    def cli(*args):
        result = subprocess.run(["aws", "cognito-idp", *args, "--endpoint-url", server.endpoint, "--output", "json"],
                                capture_output=True, text=True, env=env, timeout=60)
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout) if result.stdout.strip() else {}

    header = cli("get-csv-header", "--user-pool-id", pool["Id"])["CSVHeader"]
    job = cli("create-user-import-job", "--job-name", "cli", "--user-pool-id", pool["Id"],
              "--cloud-watch-logs-role-arn", ROLE)["UserImportJob"]
    name = unique("cli")
    rows = [[{"cognito:username": name, "email": f"{name}@example.com", "cognito:mfa_enabled": "false"}.get(c, "")
             for c in header]]
    subprocess.run(["curl", "-sf", "-T", "-", job["PreSignedUrl"]], input=csv_file(header, rows), text=True, check=True,
                   timeout=30)
    cli("start-user-import-job", "--user-pool-id", pool["Id"], "--job-id", job["JobId"])
    assert wait_for(idp, pool["Id"], job["JobId"])["ImportedUsers"] == 1
