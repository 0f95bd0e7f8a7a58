"""Durability under load: with SQLite's group commit (many sign-ups share one fsync), every
sign-up the server acknowledged before a SIGKILL is still there after the restart."""
import concurrent.futures
import signal
import tempfile
import threading
import time

import pytest

from conftest import CognateServer
from helpers import new_client, unique

pytestmark = pytest.mark.sqlite_only   # SQLite's own group commit; PostgreSQL's durability is its own

PASSWORD = "Passw0rd!"


def test_no_acknowledged_sign_up_is_lost_when_the_server_is_killed_under_load():
    with tempfile.TemporaryDirectory(prefix="cognate-crash-") as workdir:
        server = CognateServer(workdir, extra_args=["--rate-limit-user-creation", "0", "--rate-limit-messages", "0"])
        server.start()
        idp = server.client()
        pool = idp.create_user_pool(PoolName="crash", AutoVerifiedAttributes=["email"])["UserPool"]
        client = new_client(idp, pool["Id"])
        acknowledged, lock, stop = [], threading.Lock(), threading.Event()

        def sign_up_until_stopped(worker):
            public = server.client()
            count = 0
            while not stop.is_set():
                name = f"crash-{worker}-{count}"
                count += 1
                try:
                    public.sign_up(ClientId=client["ClientId"], Username=name, Password=PASSWORD,
                                   UserAttributes=[{"Name": "email", "Value": f"{name}@example.com"}])
                except Exception:  # the kill cuts requests off: those were never acknowledged
                    continue
                with lock:
                    acknowledged.append(name)

        with concurrent.futures.ThreadPoolExecutor(8) as pool_of_workers:
            futures = [pool_of_workers.submit(sign_up_until_stopped, worker) for worker in range(8)]
            time.sleep(3)
            with lock:
                before_kill = len(acknowledged)
            server.stop(signal.SIGKILL)   # mid-load: sign-ups are in flight and batched
            stop.set()
            for future in futures:
                future.result()
        assert before_kill > 50, f"only {before_kill} sign-ups before the kill: not under load"

        server.start()
        idp = server.client()
        stored, token = set(), None
        while True:
            page = idp.list_users(UserPoolId=pool["Id"], Limit=60, **({"PaginationToken": token} if token else {}))
            stored.update(user["Username"] for user in page["Users"])
            token = page.get("PaginationToken")
            if not token:
                break
        lost = sorted(set(acknowledged) - stored)
        assert not lost, f"{len(lost)} acknowledged sign-ups lost, e.g. {lost[:5]}"
        server.stop()
