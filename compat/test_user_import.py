"""User import (issue 14): GetCSVHeader, CreateUserImportJob, the CSV uploaded to the job's
pre-signed URL, StartUserImportJob, progress through DescribeUserImportJob / ListUserImportJobs,
a bad row counted as failed while the rest come in as RESET_REQUIRED users; end to end with 1000
users, then the AWS CLI's import commands."""
import csv
import io
import json
import os
import socket
import sqlite3
import subprocess
import threading
import time
import urllib.parse

import requests

from conftest import POSTGRES_URL, CognateServer
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


# --- the pre-signed URL: checked before the body, streamed to disk, expiring ----------------------

def new_job(idp):
    pool = idp.create_user_pool(PoolName=unique("import"))["UserPool"]
    job = idp.create_user_import_job(JobName="job", UserPoolId=pool["Id"], CloudWatchLogsRoleArn=ROLE)["UserImportJob"]
    return pool, job


def peak_rss_mib(server):
    """The server process's peak resident memory so far (VmHWM), in MiB."""
    with open(f"/proc/{server.process.pid}/status") as status:
        line = next(line for line in status if line.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


def put_head(url, length):
    """A socket that has sent a PUT's head to `url` announcing `length` bytes of body, and none of them."""
    parts = urllib.parse.urlsplit(url)
    connection = socket.create_connection((parts.hostname, parts.port), timeout=5)
    connection.sendall(f"PUT {parts.path}?{parts.query} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
                       f"Content-Length: {length}\r\n\r\n".encode())
    return connection


def answer_status(connection):
    """The status code of the answer read from `connection` (within its timeout)."""
    received = b""
    while b"\r\n" not in received:
        chunk = connection.recv(4096)
        assert chunk, "the server closed the connection without an answer"
        received += chunk
    return int(received.split(b" ", 2)[1])


def age(server, job_id, seconds):
    """Moves a job's creation `seconds` into the past, in the server's own database."""
    statement = f"UPDATE user_import_jobs SET created_at = created_at - {seconds} WHERE job_id = '{job_id}'"
    if POSTGRES_URL:
        subprocess.run(["psql", server.database, "-qc", statement], check=True)
    else:
        with sqlite3.connect(server.database) as db:
            db.execute(statement)


def test_a_bogus_upload_is_refused_before_its_body_is_sent(server, idp):
    """A wrong token, an unknown job, or a body announced over 100 MB: the answer comes at once,
    while the client has sent nothing but the head (the server used to read 100 MB first)."""
    _, job = new_job(idp)
    for url, status in [(job["PreSignedUrl"] + "x", 403),
                        (job["PreSignedUrl"].replace(job["JobId"], "import-doesnotexist"), 403),
                        (job["PreSignedUrl"], 413)]:
        connection = put_head(url, 100 * 1024 * 1024 + (1 if status == 413 else 0))
        try:
            assert answer_status(connection) == status
        finally:
            connection.close()
    upload = requests.put(job["PreSignedUrl"], data=b"cognito:username\r\nann\r\n", timeout=10)
    assert upload.status_code == 200, upload.text


def test_bogus_uploads_do_not_grow_the_servers_memory(tmp_path):
    """Four 64 MB uploads with wrong tokens at once: refused, their bodies drained, not kept
    (peak resident memory grew by about 480 MB when bodies were read before the token)."""
    server = CognateServer(tmp_path).start()
    try:
        _, job = new_job(server.client())
        before = peak_rss_mib(server)
        body = b"x" * (64 * 1024 * 1024)
        statuses = []

        def bogus(n):
            statuses.append(requests.put(f"{job['PreSignedUrl']}-{n}", data=body, timeout=120).status_code)
        threads = [threading.Thread(target=bogus, args=(n,)) for n in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert statuses == [403] * 4
        assert peak_rss_mib(server) - before < 48, (before, peak_rss_mib(server))
    finally:
        server.stop()


def test_an_upload_goes_to_a_private_temporary_file_and_stops_at_100_mb(tmp_path):
    """A chunked upload (no Content-Length) of 101 MB with the right token is cut off with 413;
    nothing is left in the temporary directory, by a refused upload or a stored one; a second
    upload to a job while one is under way is refused (409)."""
    spool = tmp_path / "tmp"
    spool.mkdir()
    server = CognateServer(tmp_path, env={"TMPDIR": str(spool)}).start()
    try:
        idp = server.client()
        pool, job = new_job(idp)

        def chunks():
            piece = b"cognito:username\r\n" + b"a" * (1024 * 1024 - 18)
            for _ in range(101):
                yield piece
        assert requests.put(job["PreSignedUrl"], data=chunks(), timeout=120).status_code == 413
        assert list(spool.iterdir()) == []

        held = put_head(job["PreSignedUrl"], 23)
        try:
            held.sendall(b"cognito:username\r\n")
            time.sleep(0.5)
            assert [p.stat().st_mode & 0o777 for p in spool.iterdir()] == [0o600]   # the body so far, private
            assert requests.put(job["PreSignedUrl"], data=b"cognito:username\r\nbob\r\n", timeout=10).status_code == 409
            held.sendall(b"ann\r\n")
            assert answer_status(held) == 200
        finally:
            held.close()
        assert list(spool.iterdir()) == []
        idp.start_user_import_job(UserPoolId=pool["Id"], JobId=job["JobId"])
        assert wait_for(idp, pool["Id"], job["JobId"])["ImportedUsers"] == 1
        assert idp.admin_get_user(UserPoolId=pool["Id"], Username="ann")["UserStatus"] == "RESET_REQUIRED"
    finally:
        server.stop()


def test_a_pre_signed_url_expires_after_15_minutes(server, idp):
    """As Cognito's: DescribeUserImportJob and ListUserImportJobs still show the URL, and an
    upload to it is refused once the job is 15 minutes old."""
    pool, job = new_job(idp)
    age(server, job["JobId"], 14 * 60)
    assert requests.put(job["PreSignedUrl"], data=b"cognito:username\r\nann\r\n", timeout=10).status_code == 200
    _, late = new_job(idp)
    age(server, late["JobId"], 15 * 60 + 1)
    refused = requests.put(late["PreSignedUrl"], data=b"cognito:username\r\nann\r\n", timeout=10)
    assert refused.status_code == 403 and "expired" in refused.json()["message"]
    connection = put_head(late["PreSignedUrl"], 50 * 1024 * 1024)   # refused before its body, too
    try:
        assert answer_status(connection) == 403
    finally:
        connection.close()
    described = idp.describe_user_import_job(UserPoolId=pool["Id"], JobId=job["JobId"])["UserImportJob"]
    assert described["PreSignedUrl"] == job["PreSignedUrl"]
