#!/usr/bin/env python3
"""How long the server takes to answer for a real user and for a name that is no user, with
PreventUserExistenceErrors ENABLED — the timing side of user-existence privacy
(docs/security.md). Not a test: timings are reported, never asserted.

    python3 bench/existence_timing.py [--binary .build/release/cognate] [--rounds 60]

For each kind of request it interleaves real and unknown names (each name used a few times,
so lockouts and limits hit both alike) and prints the median and p90 server round trip of
each, and their difference."""
import argparse
import os
import pathlib
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

import boto3
from botocore.config import Config
from pycognito.aws_srp import AWSSRP

ROOT = pathlib.Path(__file__).resolve().parent.parent
PASSWORD = "Passw0rd!"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def timed(call):
    start = time.perf_counter()
    try:
        call()
    except Exception as error:  # the answers are errors on both paths
        if not hasattr(error, "response"):
            raise
    return (time.perf_counter() - start) * 1000


def summary(label, real, unknown):
    def p90(values):
        return sorted(values)[int(len(values) * 0.9) - 1]
    r, u = statistics.median(real), statistics.median(unknown)
    print(f"| {label} | {r:.2f} / {p90(real):.2f} | {u:.2f} / {p90(unknown):.2f} | {u - r:+.2f} |")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "cognate"))
    parser.add_argument("--rounds", type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        port = free_port()
        server = subprocess.Popen(
            [args.binary, "serve", "--port", str(port), "--database", os.path.join(workdir, "db.sqlite"),
             "--rate-limit-user-creation", "0", "--rate-limit-account-recovery", "0", "--rate-limit-messages", "0"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "LOG_LEVEL": "warning"})
        try:
            endpoint = f"http://127.0.0.1:{port}"
            idp = boto3.client("cognito-idp", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="dev",
                               aws_secret_access_key="dev", config=Config(retries={"max_attempts": 1}))
            for _ in range(100):
                try:
                    idp.list_user_pools(MaxResults=1)
                    break
                except Exception:
                    time.sleep(0.1)
            pool = idp.create_user_pool(PoolName="timing", AutoVerifiedAttributes=["email"])["UserPool"]["Id"]
            client = idp.create_user_pool_client(
                UserPoolId=pool, ClientName="hiding", PreventUserExistenceErrors="ENABLED",
                ExplicitAuthFlows=["ALLOW_USER_PASSWORD_AUTH", "ALLOW_USER_SRP_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"],
            )["UserPoolClient"]["ClientId"]
            users = []
            for index in range(args.rounds // 3 + 1):
                name = f"real-{index}-{uuid.uuid4().hex[:6]}"
                idp.admin_create_user(UserPoolId=pool, Username=name, MessageAction="SUPPRESS", UserAttributes=[
                    {"Name": "email", "Value": f"{name}@example.com"}, {"Name": "email_verified", "Value": "true"}])
                idp.admin_set_user_password(UserPoolId=pool, Username=name, Password=PASSWORD, Permanent=True)
                users.append(name)
            nobodies = [f"nobody-{index}-{uuid.uuid4().hex[:6]}" for index in range(len(users))]

            def password(name):
                idp.initiate_auth(ClientId=client, AuthFlow="USER_PASSWORD_AUTH",
                                  AuthParameters={"USERNAME": name, "PASSWORD": "Wr0ng-password!"})

            def srp_second_step(name):
                srp = AWSSRP(username=name, password="Wr0ng-password!", pool_id=pool, client_id=client, client=idp)
                challenge = idp.initiate_auth(ClientId=client, AuthFlow="USER_SRP_AUTH",
                                              AuthParameters=srp.get_auth_params())
                answer = srp.process_challenge(challenge["ChallengeParameters"], srp.get_auth_params())
                return lambda: idp.respond_to_auth_challenge(ClientId=client, ChallengeName="PASSWORD_VERIFIER",
                                                             ChallengeResponses=answer)

            def forgot(name):
                idp.forgot_password(ClientId=client, Username=name)

            print(f"{args.rounds} requests each, interleaved; milliseconds, median / p90\n")
            print("| request | real user | no such user | difference of medians |")
            print("| --- | ---: | ---: | ---: |")
            for label, make in (
                ("USER_PASSWORD_AUTH, wrong password", lambda n: (lambda: password(n))),
                ("USER_SRP_AUTH second step, wrong password", srp_second_step),
                ("ForgotPassword", lambda n: (lambda: forgot(n))),
            ):
                real, unknown = [], []
                for index in range(args.rounds):
                    real.append(timed(make(users[index % len(users)])))
                    unknown.append(timed(make(nobodies[index % len(nobodies)])))
                summary(label, real, unknown)
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    sys.exit(main())
