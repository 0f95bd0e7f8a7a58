"""The server process as an operator runs it: signals a service manager sends, and a port
chosen by the system."""
import re
import signal
import subprocess
import time

import boto3
import jwt
import requests

from conftest import BINARY, CognateServer
from helpers import PASSWORD, admin_user, sign_in


def test_sighup_without_built_in_tls_is_logged_and_the_server_keeps_serving(tmp_path):
    """`systemctl reload` (the unit's ExecReload) and log rotation hooks send SIGHUP: with TLS
    it reloads the certificate; without, there is nothing to reload, and it must not end the
    process (its default action), which systemd would not restart."""
    server = CognateServer(tmp_path).start()
    try:
        server.process.send_signal(signal.SIGHUP)
        time.sleep(0.5)
        assert server.process.poll() is None, "SIGHUP ended the server"
        assert server.client().list_user_pools(MaxResults=5)["UserPools"] == []
    finally:
        assert server.stop() == 0
    assert "nothing to reload" in server.log_path.read_text()


def test_port_zero_serves_and_names_the_port_it_got(tmp_path):
    """The issuer, the discovery document and the banner name the port the system chose."""
    process = subprocess.Popen([str(BINARY), "serve", "--port", "0", "--database", str(tmp_path / "db.sqlite")],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        port = None
        for line in process.stdout:
            match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
            if match:
                port = int(match.group(1))
                break
        assert port, "no banner"
        endpoint = f"http://127.0.0.1:{port}"
        idp = boto3.client("cognito-idp", endpoint_url=endpoint, region_name="us-east-1",
                           aws_access_key_id="dev", aws_secret_access_key="dev")
        pool = idp.create_user_pool(PoolName="port-zero")["UserPool"]
        client = idp.create_user_pool_client(UserPoolId=pool["Id"], ClientName="c",
                                             ExplicitAuthFlows=["ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"])
        issuer = f"{endpoint}/{pool['Id']}"
        assert requests.get(f"{issuer}/.well-known/openid-configuration", timeout=5).json()["issuer"] == issuer
        name = admin_user(idp, pool["Id"])
        token = sign_in(idp, client["UserPoolClient"], name, PASSWORD)["IdToken"]
        assert jwt.decode(token, options={"verify_signature": False})["iss"] == issuer
    finally:
        process.terminate()
        process.wait(timeout=20)
