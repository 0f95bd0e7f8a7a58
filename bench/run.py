#!/usr/bin/env python3
"""Side-by-side benchmark: Cognate (release build) and moto_server, same machine, same run.

For each operation it reports throughput, p50/p99 latency at peak, the server's CPU per
request, Cognate's p99 at half of its peak rate, and the Cognate/moto ratios, as a Markdown
table. Without options it also measures the HTTP floor (`http-floor`: Cognate's server stack
answering GetUser's number of bytes) and, as root, a throwaway durable PostgreSQL with one node
and then two, each node under a CPU quota (--target-node-cpus, 0.4 cores), and ends with the
targets table (bench/verdicts.py): each target, its ratio in this run, met or not met, and under
it the floor's own p99 at half of its peak and how steady the machine's cores were
(`cognate-load steadiness`), which that p99 target is read beside. Usage:

    python3 bench/run.py [--seconds 10] [--connections 16] [--database postgres://...] [--nodes 2]
                         [--node-cpus 0.4] [--users 1000000] [--only GetUser] [--pool-mfa]
    python3 bench/run.py --compare-users 1000000 [--rounds 3] [--only GetUser]
    python3 bench/run.py --only GetUser --no-moto --floor     # GetUser against the HTTP floor alone

Load: wrk (Debian's `wrk`) with one thread and --connections connections for the single-request
operations at peak; `cognate-load rate` (bench/Load) for a fixed rate (half of the peak, open
loop); `cognate-load srp` for full USER_SRP_AUTH sign-ins (client math on GMP, enough
connections to keep the server busy: 32). The machine has 2 cores: the load generator and the
server under test share them, and only one server is loaded at a time. --users adds that many
synthetic users to the pool first (`cognate users synthesize`), to measure a large pool.
--node-cpus gives each node a CPU quota of its own (a cgroup), as if each ran on a machine of its
own while the load generator and the database ran elsewhere: on 2 cores, the way to see whether
a second node adds throughput.
--compare-users N measures Cognate alone, twice over: a pool of the 32 users and one with N
synthetic users more, two servers side by side, each operation measured on one then the other,
--rounds times (the small pool first in every other round); it reports the medians and their
ratios (large pool over small), so that the pool's size is compared within minutes rather than
across runs the machine's speed moves between. Both pools' half-peak runs go at half of the small
pool's latest peak: their p99 figures are at the same load.
"""
import argparse
import json
import os
import pathlib
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
import urllib.request
import uuid

import boto3
from botocore.config import Config

import verdicts
from postgres import TemporaryPostgres

ROOT = pathlib.Path(__file__).resolve().parent.parent
HERE = pathlib.Path(__file__).resolve().parent
PASSWORD = "Bench-Passw0rd!"
TARGET = "AWSCognitoIdentityProviderService."
# Sign-ins are spread over this many users, as real traffic is: many users at once, not one
# user signing in 500 times a second (which every server serializes on that user).
USERS = 32


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(url, process, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{url}: server exited with {process.returncode}")
        try:
            urllib.request.urlopen(url, timeout=1)
            return
        except OSError as error:
            if getattr(error, "code", None):   # an HTTP error status still means it answers
                return
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not come up")


def cpu_seconds(pid):
    """User + system CPU time of a process so far."""
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def postgres_cpu_seconds():
    """CPU time of every PostgreSQL process on the machine so far: live backends, and the
    postmaster with the backends it has reaped (cutime, cstime)."""
    total, tick = 0, os.sysconf("SC_CLK_TCK")
    stats = {}
    for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        name, rest = text.split("(", 1)[1].rsplit(")", 1)
        if name == "postgres":
            stats[int(stat.parent.name)] = rest.split()
    for fields in stats.values():
        total += int(fields[11]) + int(fields[12])
        if int(fields[1]) not in stats:   # the postmaster: its parent is not a postgres process
            total += int(fields[13]) + int(fields[14])
    return total / tick


class Server:
    def __init__(self, name, endpoints, processes, database=None):
        self.name, self.endpoints, self.processes, self.database = name, endpoints, processes, database
        self.limits = []

    @property
    def endpoint(self):
        return self.endpoints[0]

    def client(self):
        return boto3.client("cognito-idp", endpoint_url=self.endpoint, region_name="us-east-1",
                            aws_access_key_id="bench", aws_secret_access_key="bench",
                            config=Config(retries={"max_attempts": 1}))

    def cpu(self):
        return sum(cpu_seconds(p.pid) for p in self.processes)

    def database_cpu(self):
        """PostgreSQL's CPU so far (0 for SQLite, which runs inside the server)."""
        return postgres_cpu_seconds() if self.database and self.database.startswith("postgres") else 0.0

    def stop(self):
        for p in self.processes:
            p.terminate()
        for p in self.processes:
            p.wait(timeout=30)
        for limit in self.limits:
            limit.remove()


class CPULimit:
    """A CPU budget for one process: a cgroup of its own with a CFS quota of `cpus` cores
    (cgroup v2's cpu.max, or v1's cpu controller), so that each node gets the share a machine of
    its own would give it while the load generator and PostgreSQL run beside it unconstrained.
    Needs root (writes under /sys/fs/cgroup)."""
    PERIOD_US = 100_000

    def __init__(self, pid, cpus):
        quota = int(cpus * self.PERIOD_US)
        v2 = pathlib.Path("/sys/fs/cgroup/cgroup.controllers")
        if v2.exists():
            self.path = pathlib.Path(f"/sys/fs/cgroup/cognate-bench-{pid}")
            self.path.mkdir()
            (self.path / "cpu.max").write_text(f"{quota} {self.PERIOD_US}")
        else:
            self.path = pathlib.Path(f"/sys/fs/cgroup/cpu/cognate-bench-{pid}")
            self.path.mkdir()
            (self.path / "cpu.cfs_period_us").write_text(str(self.PERIOD_US))
            (self.path / "cpu.cfs_quota_us").write_text(str(quota))
        (self.path / "cgroup.procs").write_text(str(pid))   # the process and every thread it starts

    def remove(self):
        try:
            self.path.rmdir()
        except OSError:
            pass


def start_cognate(binary, workdir, database, nodes, node_cpus=None):
    if database is None:
        database = str(pathlib.Path(workdir) / "bench.sqlite")
    processes, endpoints, limits = [], [], []
    log = open(pathlib.Path(workdir) / "cognate.log", "ab")
    ports = [free_port() for _ in range(nodes)]
    public_url = f"http://127.0.0.1:{ports[0]}"  # one issuer for every node, as behind a load balancer
    for port in ports:
        p = subprocess.Popen([binary, "serve", "--port", str(port), "--database", database, "--public-url", public_url,
                              # one load generator signs up thousands of users from one address
                              "--rate-limit-user-creation", "0", "--rate-limit-messages", "0"],
                             stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "LOG_LEVEL": "warning"})
        if node_cpus:
            limits.append(CPULimit(p.pid, node_cpus))
        wait_ready(f"http://127.0.0.1:{port}/health", p)
        processes.append(p)
        endpoints.append(f"http://127.0.0.1:{port}")
    server = Server("Cognate", endpoints, processes, database)
    server.limits = limits
    return server


def start_moto(workdir):
    port = free_port()
    log = open(pathlib.Path(workdir) / "moto.log", "ab")
    p = subprocess.Popen(["moto_server", "-p", str(port)], stdout=log, stderr=subprocess.STDOUT)
    wait_ready(f"http://127.0.0.1:{port}/moto-api/", p)
    return Server("moto", [f"http://127.0.0.1:{port}"], [p])


def prepare(server, mfa=False):
    """A pool, a client and USERS confirmed users (bench0, bench1 …); bench0 signed in. `mfa`: the
    pool has MFA optional (authenticator apps; no user sets one up, so sign-ins are unchanged, but
    GetUser also reads the user's MFA settings)."""
    idp = server.client()
    pool = idp.create_user_pool(PoolName="bench-" + uuid.uuid4().hex[:6], AutoVerifiedAttributes=["email"])["UserPool"]
    if mfa:
        idp.set_user_pool_mfa_config(UserPoolId=pool["Id"], SoftwareTokenMfaConfiguration={"Enabled": True},
                                     MfaConfiguration="OPTIONAL")
    client = idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="bench",
        ExplicitAuthFlows=["ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH", "ALLOW_USER_SRP_AUTH"])["UserPoolClient"]
    for index in range(USERS):
        idp.sign_up(ClientId=client["ClientId"], Username=f"bench{index}", Password=PASSWORD,
                    UserAttributes=[{"Name": "email", "Value": f"bench{index}@example.com"}])
        idp.admin_confirm_sign_up(UserPoolId=pool["Id"], Username=f"bench{index}")
    tokens = idp.initiate_auth(ClientId=client["ClientId"], AuthFlow="USER_PASSWORD_AUTH",
                               AuthParameters={"USERNAME": "bench0", "PASSWORD": PASSWORD})["AuthenticationResult"]
    return pool["Id"], client["ClientId"], tokens


def operations(client_id, tokens, run_id):
    return {
        "SignUp": ("SignUp", {"ClientId": client_id, "Username": f"u{run_id}w{{w}}x{{n}}", "Password": PASSWORD,
                              "UserAttributes": [{"Name": "email", "Value": f"u{run_id}w{{w}}x{{n}}@example.com"}]}),
        "InitiateAuth USER_PASSWORD_AUTH": ("InitiateAuth", {
            "ClientId": client_id, "AuthFlow": "USER_PASSWORD_AUTH",
            "AuthParameters": {"USERNAME": "bench{u}", "PASSWORD": PASSWORD}}),
        "InitiateAuth REFRESH_TOKEN_AUTH": ("InitiateAuth", {
            "ClientId": client_id, "AuthFlow": "REFRESH_TOKEN_AUTH",
            "AuthParameters": {"REFRESH_TOKEN": tokens["RefreshToken"]}}),
        "GetUser": ("GetUser", {"AccessToken": tokens["AccessToken"]}),
    }


def run_wrk(endpoints, operation, body, seconds, connections):
    """Runs one wrk per endpoint at once (several nodes) and sums them."""
    env = {**os.environ, "TARGET": TARGET + operation, "BODY": json.dumps(body), "USERS": str(USERS)}
    per_node = max(1, connections // len(endpoints))
    procs = [subprocess.Popen(["wrk", "-t1", f"-c{per_node}", f"-d{seconds}s", "--latency", "-s", str(HERE / "cognito.lua"),
                               endpoint + "/"], stdout=subprocess.PIPE, text=True, env={**env, "WORKER": str(worker)})
             for worker, endpoint in enumerate(endpoints)]
    results = []
    for p in procs:
        out, _ = p.communicate()
        results.append(json.loads([l for l in out.splitlines() if l.startswith("{")][-1]))
    total = sum(r["requests"] for r in results)
    return {
        "throughput": total / (max(r["duration_us"] for r in results) / 1e6),
        "p50_ms": max(r["p50_us"] for r in results) / 1000, "p99_ms": max(r["p99_us"] for r in results) / 1000,
        "max_ms": max(r.get("max_us", 0) for r in results) / 1000,
        "failures": sum(r["non2xx"] + r["socket_errors"] for r in results), "requests": total,
    }


def load_tool(binary):
    return str(pathlib.Path(binary).with_name("cognate-load"))


def run_per_node(commands, seconds):
    """Runs one `cognate-load` command per node at once; the JSON line each printed last."""
    procs = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True) for command in commands]
    results = []
    for command, p in zip(commands, procs):
        out, _ = p.communicate(timeout=seconds + 60)
        if p.returncode != 0:
            raise RuntimeError(f"cognate-load {command[1]} exited with {p.returncode}")
        results.append(json.loads(out.strip().splitlines()[-1]))
    return results


def run_srp(server, pool_id, client_id, seconds, binary, connections=32):
    """Full USER_SRP_AUTH sign-ins, one `cognate-load srp` per node at once, connections shared.
    32 connections: each sign-in waits for two durable commits, and with 8 the server sat idle
    during the fsyncs (SQLite: 405 sign-ins/s at 2.96 ms of CPU each, against 447 at 2.65 ms
    with 32, when the same run without fsyncs gave 466 at 2.61 ms)."""
    before, database_before = server.cpu(), server.database_cpu()
    nodes = len(server.endpoints)
    results = run_per_node([[load_tool(binary), "srp", endpoint, pool_id, client_id, "bench", PASSWORD, str(seconds),
                             str(max(1, connections // nodes)), str(USERS)] for endpoint in server.endpoints], seconds)
    cpu, database_cpu = server.cpu() - before, server.database_cpu() - database_before
    requests = sum(r["requests"] for r in results)
    return {"throughput": requests / max(r["seconds"] for r in results), "p50_ms": max(r["p50_us"] for r in results) / 1000,
            "p99_ms": max(r["p99_us"] for r in results) / 1000, "failures": sum(r["errors"] for r in results),
            "requests": requests, "cpu_ms": 1000 * cpu / max(requests, 1), "db_cpu_ms": 1000 * database_cpu / max(requests, 1)}


def run_rate(server, operation, body, rate, seconds, binary, connections=64):
    """`operation` at a fixed `rate` (open loop), shared evenly by the nodes (one load generator
    each, at once); returns the worst node's p50/p99 counted from when each request was due.
    `{w}` in the body becomes "h" and a node number, so names stay distinct from the peak run's."""
    nodes = len(server.endpoints)
    results = run_per_node([[load_tool(binary), "rate", endpoint, TARGET + operation, body.replace("{w}", f"h{index}"),
                             str(max(1, rate // nodes)), str(seconds), str(max(1, connections // nodes)), str(USERS)]
                            for index, endpoint in enumerate(server.endpoints)], seconds)
    return {"rate": rate, "p50_ms": max(r["p50_us"] for r in results) / 1000,
            "p99_ms": max(r["p99_us"] for r in results) / 1000, "failures": sum(r["errors"] for r in results)}


def synthesize(binary, database, pool_id, count):
    subprocess.run([binary, "users", "synthesize", "--database", database, "--pool", pool_id, "--count", str(count)],
                   check=True, stdout=subprocess.DEVNULL)


def machine_srp_limit(binary):
    """What a sign-in's cryptography costs on this machine, measured by the server's own code
    (`cognate crypto-cost`): the floor under the server's CPU per sign-in."""
    out = subprocess.run([binary, "crypto-cost", "--json"], capture_output=True, text=True, check=True).stdout
    result = json.loads(out)
    return {"modexp_ms": result["modexpMilliseconds"], "fixed_base_ms": result["fixedBaseModexpMilliseconds"],
            "rsa_sign_ms": result["rsaSignMilliseconds"], "srp_sign_in_ms": result["srpSignInMilliseconds"]}


def with_cryptography(binary, bracket, run):
    """`run()`'s result; with `bracket`, `cognate crypto-cost` measured just before and just after
    it and the two averaged under "crypto": the cryptography a sign-in's CPU is divided by,
    measured beside it. This machine kind's speed drifts by a quarter within minutes, so one
    measurement at the start of a run judged later operations by another machine's speed."""
    if not bracket:
        return run()
    before = machine_srp_limit(binary)
    result = run()
    after = machine_srp_limit(binary)
    result["crypto"] = {key: (before[key] + after[key]) / 2 for key in before}
    return result


def machine_steadiness(binary):
    """How steady this machine's CPUs are (`cognate-load steadiness`): the share of time in
    stretches where fixed arithmetic ran over 1.5 × slower than its fastest, how much slower,
    and the longest. A stretch overloads any server at half of its peak while it lasts."""
    out = subprocess.run([load_tool(binary), "steadiness", "10"], capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def table(results, limit, title, database_column=False):
    """The Markdown table; with `database_column`, PostgreSQL's own CPU per request beside the server's."""
    database_header = " PostgreSQL CPU per request (ms) |" if database_column else ""
    lines = [f"### {title}", "",
             "| operation | Cognate req/s | moto req/s | Cognate/moto | Cognate p50 / p99 (ms) | moto p50 / p99 (ms) "
             "| Cognate p99 at half peak (ms) | Cognate CPU per request (ms) |" + database_header + " moto CPU per request (ms) |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |" + (" ---: |" if database_column else "") + " ---: |"]
    for name, pair in results.items():
        c, m = pair["Cognate"], pair.get("moto")
        half = f"{c['half']['p99_ms']:.2f} (at {c['half']['rate']}/s)" if "half" in c else "—"
        ratio = f"{c['throughput'] / m['throughput']:.2f}" if m and m["throughput"] > 0 else "—"
        moto = f"{m['throughput']:.0f}" if m and m["throughput"] > 0 else ("fails" if m else "—")
        moto_latency = f"{m['p50_ms']:.2f} / {m['p99_ms']:.2f}" if m and m["throughput"] > 0 else "—"
        moto_cpu = f"{m['cpu_ms']:.2f}" if m and m["throughput"] > 0 else "—"
        database_cpu = f" {c['db_cpu_ms']:.2f} |" if database_column else ""
        lines.append(f"| {name} | {c['throughput']:.0f} | {moto} | {ratio} | {c['p50_ms']:.2f} / {c['p99_ms']:.2f} | "
                     f"{moto_latency} | {half} | {c['cpu_ms']:.2f} |{database_cpu} {moto_cpu} |")
    srp = results.get("USER_SRP_AUTH sign-in (2 requests)", {}).get("Cognate")
    limit = (srp or {}).get("crypto", limit)
    if srp and limit:
        lines += ["", f"Cognate's CPU per SRP sign-in: {srp['cpu_ms']:.2f} ms, "
                      f"{srp['cpu_ms'] / limit['srp_sign_in_ms']:.2f} × its cryptography alone "
                      f"(`cognate crypto-cost`): {limit['srp_sign_in_ms']:.2f} ms = {limit['fixed_base_ms']:.2f} ms g^b "
                      f"(precomputed powers of g) + 2 × {limit['modexp_ms']:.2f} ms constant-time 3072-bit modexp (GMP) "
                      f"+ 2 × {limit['rsa_sign_ms']:.2f} ms RS256 (OpenSSL)."]
    failures = {f"{n} ({s})": r["failures"] for n, pair in results.items() for s, r in pair.items() if r["failures"]}
    failures.update({f"{n} (half peak)": pair["Cognate"]["half"]["failures"] for n, pair in results.items()
                     if pair["Cognate"].get("half", {}).get("failures")})
    if failures:
        lines += ["", f"Failed requests: {failures}"]
    return "\n".join(lines)


def measure(server, operation, body, args, half_rate=None):
    """One operation at peak (wrk), then at `half_rate` (default: half of this peak)."""
    before, database_before = server.cpu(), server.database_cpu()
    result = run_wrk(server.endpoints, operation, body, args.seconds, args.connections)
    result["cpu_ms"] = 1000 * (server.cpu() - before) / max(result["requests"], 1)
    result["db_cpu_ms"] = 1000 * (server.database_cpu() - database_before) / max(result["requests"], 1)
    if server.name == "Cognate":
        rate = half_rate or max(1, int(result["throughput"] / 2))
        result["half"] = run_rate(server, operation, json.dumps(body), rate, args.seconds, args.binary)
    return result


def response_size(server, operation, body):
    """The bytes of one answer to `operation` (the HTTP floor answers as many)."""
    request = urllib.request.Request(server.endpoint + "/", data=json.dumps(body).encode(), headers={
        "Content-Type": "application/x-amz-json-1.1", "X-Amz-Target": TARGET + operation})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return len(answer.read())


def measure_floor(args, workdir, size):
    """The HTTP floor: `http-floor` (Cognate's server stack answering a fixed body of `size`
    bytes) under the same load as GetUser; its CPU per request, and its p99 at half of its peak."""
    port = free_port()
    log = open(pathlib.Path(workdir) / "floor.log", "ab")
    process = subprocess.Popen([str(pathlib.Path(args.binary).with_name("http-floor")), str(port), str(size)],
                               stdout=log, stderr=subprocess.STDOUT)
    floor = Server("HTTP floor", [f"http://127.0.0.1:{port}"], [process])
    try:
        wait_ready(f"http://127.0.0.1:{port}/health", process)
        before = floor.cpu()
        result = run_wrk(floor.endpoints, "GetUser", {"AccessToken": "x"}, args.seconds, args.connections)
        result["cpu_ms"] = 1000 * (floor.cpu() - before) / max(result["requests"], 1)
        result["half"] = run_rate(floor, "GetUser", json.dumps({"AccessToken": "x"}),
                                  max(1, int(result["throughput"] / 2)), args.seconds, args.binary)
        return result
    finally:
        floor.stop()


def measure_cognate(args, workdir, database, nodes, node_cpus):
    """Every operation on Cognate alone (peak, half peak, SRP) with `nodes` nodes on `database`."""
    results = {}
    server = start_cognate(args.binary, workdir, database, nodes, node_cpus)
    try:
        pool_id, client_id, tokens = prepare(server)
        for name, (operation, body) in operations(client_id, tokens, uuid.uuid4().hex[:6]).items():
            print(f"Cognate, PostgreSQL, {nodes} node(s): {name} ...", file=sys.stderr)
            results[name] = {"Cognate": measure(server, operation, body, args)}
        print(f"Cognate, PostgreSQL, {nodes} node(s): USER_SRP_AUTH ...", file=sys.stderr)
        results[verdicts.SRP] = {"Cognate": run_srp(server, pool_id, client_id, args.seconds, args.binary)}
    finally:
        server.stop()
    return results


def compare_pool_sizes(args, limit):
    """--compare-users: the same operations on a small and a large pool, alternately (see the
    module's doc)."""
    rounds = {}   # operation -> {"small": [results], "large": [results]}
    with tempfile.TemporaryDirectory(prefix="cognate-bench-") as workdir:
        servers = {}
        try:
            for size in ("small", "large"):
                directory = pathlib.Path(workdir) / size
                directory.mkdir()
                servers[size] = start_cognate(args.binary, str(directory), None, 1)
            prepared = {size: prepare(server) for size, server in servers.items()}
            print(f"Cognate: {args.compare_users} synthetic users ...", file=sys.stderr)
            synthesize(args.binary, servers["large"].database, prepared["large"][0], args.compare_users)
            run_id = uuid.uuid4().hex[:6]
            for round_index in range(args.rounds):
                # Small pool first in even rounds, large first in odd ones: neither gains from going first.
                for size in ("small", "large") if round_index % 2 == 0 else ("large", "small"):
                    server = servers[size]
                    pool_id, client_id, tokens = prepared[size]
                    # Names of this round's sign-ups: distinct per round and per pool.
                    for name, (operation, body) in operations(client_id, tokens, f"{run_id}{round_index}{size[0]}").items():
                        if args.only and not any(part in name for part in args.only):
                            continue
                        print(f"round {round_index + 1}, {size} pool: {name} ...", file=sys.stderr)
                        small = rounds.get(name, {}).get("small")
                        half_rate = small[-1]["half"]["rate"] if size == "large" and small else None
                        rounds.setdefault(name, {}).setdefault(size, []).append(
                            measure(server, operation, body, args, half_rate))
                    if args.only and not any(part in "USER_SRP_AUTH" for part in args.only):
                        continue
                    print(f"round {round_index + 1}, {size} pool: USER_SRP_AUTH ...", file=sys.stderr)
                    rounds.setdefault("USER_SRP_AUTH sign-in (2 requests)", {}).setdefault(size, []).append(
                        run_srp(server, pool_id, client_id, args.seconds, args.binary))
        finally:
            for server in servers.values():
                server.stop()
    print(json.dumps(rounds), file=sys.stderr)
    print(comparison_table(rounds, limit, args))


def comparison_table(rounds, limit, args):
    """Medians over the rounds of each pool, and large/small ratios."""
    def median(results, key, at_half=False):
        values = [(r["half"] if at_half else r)[key] for r in results if not at_half or "half" in r]
        return statistics.median(values) if values else None

    def pair(small, large, digits):
        if small is None or large is None:
            return ["—", "—", "—"]
        return [f"{small:.{digits}f}", f"{large:.{digits}f}", f"{large / small:.2f}" if small else "—"]

    large_label = f"{USERS + args.compare_users} users"
    lines = [f"### SQLite, 1 node, {args.connections} connections, {args.seconds} s per operation: {USERS} against "
             f"{large_label}, medians of {args.rounds} alternating rounds", "",
             f"| operation | req/s, {USERS} users | req/s, {large_label} | ratio | p99 (ms), {USERS} users | "
             f"p99 (ms), {large_label} | ratio | p99 at half peak (ms), {USERS} users | same, {large_label} | ratio "
             f"| CPU per request (ms), {USERS} users | same, {large_label} |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name, sizes in rounds.items():
        small, large = sizes.get("small", []), sizes.get("large", [])
        throughput = pair(median(small, "throughput"), median(large, "throughput"), 0)
        p99 = pair(median(small, "p99_ms"), median(large, "p99_ms"), 2)
        half = pair(median(small, "p99_ms", at_half=True), median(large, "p99_ms", at_half=True), 2)
        if half[0] != "—":
            half[0] += f" (at {median(small, 'rate', at_half=True):.0f}/s)"
        cpu = pair(median(small, "cpu_ms"), median(large, "cpu_ms"), 2)
        lines.append(f"| {name} | {' | '.join(throughput + p99 + half)} | {cpu[0]} | {cpu[1]} |")
    srp = rounds.get("USER_SRP_AUTH sign-in (2 requests)")
    if srp and limit:
        small, large = median(srp["small"], "cpu_ms"), median(srp["large"], "cpu_ms")
        lines += ["", f"CPU per SRP sign-in: {small:.2f} ms with {USERS} users, {large:.2f} ms with {large_label} "
                      f"({small / limit['srp_sign_in_ms']:.2f} and {large / limit['srp_sign_in_ms']:.2f} × its "
                      f"cryptography alone, {limit['srp_sign_in_ms']:.2f} ms)."]
    failures = {f"{name} ({size})": sum(r["failures"] + r.get("half", {}).get("failures", 0) for r in results)
                for name, sizes in rounds.items() for size, results in sizes.items()}
    failures = {key: count for key, count in failures.items() if count}
    if failures:
        lines += ["", f"Failed requests: {failures}"]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--database", help="postgres:// URL (default: a fresh SQLite file)")
    parser.add_argument("--nodes", type=int, default=1, help="Cognate nodes on the database (PostgreSQL only)")
    parser.add_argument("--node-cpus", type=float,
                        help="each Cognate node limited to this many cores (a cgroup CPU quota; needs root): "
                             "nodes as if on machines of their own, the load generator and PostgreSQL beside them")
    parser.add_argument("--no-moto", action="store_true", help="measure Cognate only")
    parser.add_argument("--users", type=int, default=0, help="synthetic users added to the pool first")
    parser.add_argument("--compare-users", type=int,
                        help="SQLite only, Cognate only: a 32-user pool against one with this many synthetic users "
                             "more, measured alternately")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds of --compare-users")
    parser.add_argument("--pool-mfa", action="store_true",
                        help="the pool has MFA optional: GetUser also reads the user's MFA settings")
    parser.add_argument("--only", action="append", default=[],
                        help="measure only operations whose name contains this (repeatable; 'SRP' for sign-ins)")
    parser.add_argument("--floor", action="store_true",
                        help="with other options (SQLite, GetUser measured): also the HTTP floor, and GetUser's CPU "
                             "against it")
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--no-targets", action="store_true",
                        help="without other options: skip the HTTP floor and the PostgreSQL runs of the targets table")
    parser.add_argument("--target-node-cpus", type=float, default=0.4,
                        help="the CPU quota of each node in the targets' PostgreSQL runs (default 0.4 cores)")
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "cognate"))
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is missing: apt-get install wrk")
    if args.node_cpus is not None and (args.node_cpus <= 0 or os.geteuid() != 0):
        sys.exit("--node-cpus takes a positive number of cores and root (it writes cgroups under /sys/fs/cgroup)")
    if args.nodes > 1 and not args.database:
        sys.exit("several nodes need a shared PostgreSQL database (--database postgres://...)")
    if not args.skip_build:
        for product in ("cognate", "cognate-load", "http-floor"):
            subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=ROOT, check=True)

    limit = machine_srp_limit(args.binary)   # first, on a quiet machine
    full = not (args.database or args.nodes > 1 or args.node_cpus or args.only or args.no_moto or args.users
                or args.pool_mfa or args.no_targets or args.compare_users)
    steadiness = machine_steadiness(args.binary) if full or args.floor else None
    if args.compare_users:
        if args.database or args.nodes > 1 or args.node_cpus or args.users:
            sys.exit("--compare-users measures two SQLite pools on one node; it takes none of --database, --nodes, "
                     "--node-cpus, --users")
        compare_pool_sizes(args, limit)
        return
    # Without options, the whole run: the targets need the HTTP floor and PostgreSQL beside SQLite.
    results, floor, pg_one, pg_two = {}, None, None, None
    with tempfile.TemporaryDirectory(prefix="cognate-bench-") as workdir:
        servers = [start_cognate(args.binary, workdir, args.database, args.nodes, args.node_cpus)]
        if not args.no_moto:
            servers.append(start_moto(workdir))
        try:
            run_id = uuid.uuid4().hex[:6]
            for server in servers:
                pool_id, client_id, tokens = prepare(server, mfa=args.pool_mfa)
                if server.name == "Cognate" and args.users:
                    print(f"Cognate: {args.users} synthetic users ...", file=sys.stderr)
                    synthesize(args.binary, server.database, pool_id, args.users)
                for name, (operation, body) in operations(client_id, tokens, run_id).items():
                    if args.only and not any(part in name for part in args.only):
                        continue
                    print(f"{server.name}: {name} ...", file=sys.stderr)
                    signs_in = server.name == "Cognate" and name in verdicts.SIGN_INS and not args.database
                    results.setdefault(name, {})[server.name] = with_cryptography(
                        args.binary, signs_in, lambda: measure(server, operation, body, args))
                if (full or args.floor) and server.name == "Cognate":
                    size = response_size(server, "GetUser", {"AccessToken": tokens["AccessToken"]})
                if args.only and not any(part in "USER_SRP_AUTH" for part in args.only):
                    continue
                print(f"{server.name}: USER_SRP_AUTH ...", file=sys.stderr)
                results.setdefault("USER_SRP_AUTH sign-in (2 requests)", {})[server.name] = with_cryptography(
                    args.binary, server.name == "Cognate" and not args.database,
                    lambda: run_srp(server, pool_id, client_id, args.seconds, args.binary))
        finally:
            for server in servers:
                server.stop()
        if full or args.floor:
            print(f"HTTP floor ({size} bytes) ...", file=sys.stderr)
            floor = measure_floor(args, workdir, size)
        if full:
            if os.geteuid() != 0:
                print("not root: no CPU quotas, so no PostgreSQL targets", file=sys.stderr)
            else:
                with TemporaryPostgres(workdir) as database:
                    pg_one = measure_cognate(args, workdir, database, 1, args.target_node_cpus)
                    pg_two = measure_cognate(args, workdir, database, 2, args.target_node_cpus)
    storage = "PostgreSQL" if args.database else "SQLite"
    each = " each" if args.nodes > 1 else ""
    limit_text = f" of {args.node_cpus:g} cores{each} (cgroup quota)" if args.node_cpus else ""
    title = (f"{storage}, {args.nodes} node{'s' if args.nodes > 1 else ''}{limit_text}, {args.connections} connections, "
             f"{args.seconds} s per operation, {USERS + args.users} users in the pool"
             + (", MFA optional in the pool" if args.pool_mfa else ""))
    print(json.dumps({"results": results, "floor": floor, "pg_one": pg_one, "pg_two": pg_two,
                      "steadiness": steadiness}), file=sys.stderr)
    print(table(results, limit, title, database_column=storage == "PostgreSQL"))
    if args.floor and not full and floor and "GetUser" in results:
        cpu = results["GetUser"]["Cognate"]["cpu_ms"]
        print(f"\nGetUser's CPU per request: {cpu:.3f} ms, {cpu / floor['cpu_ms']:.2f} × the HTTP floor's "
              f"{floor['cpu_ms']:.3f} ms (`http-floor`, {size} bytes, the same load).")
    if floor and not full:
        print(f"\n{verdicts.floor_latency(floor)}")
    if steadiness and not full:
        print(f"\n{verdicts.steadiness(steadiness)}")
    if full:
        for label, pg, nodes in (("one node", pg_one, 1), ("two nodes", pg_two, 2)):
            if pg:
                print()
                print(table(pg, limit, f"PostgreSQL (durable), {label} of {args.target_node_cpus:g} cores each "
                                       f"(cgroup quota), {args.connections} connections, {args.seconds} s per operation",
                            database_column=True))
        print()
        print(verdicts.table(limit, results, floor, pg_one, pg_two, args.target_node_cpus, steadiness))


if __name__ == "__main__":
    main()
