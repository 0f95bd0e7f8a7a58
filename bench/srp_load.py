"""USER_SRP_AUTH load generator: complete sign-ins (InitiateAuth + RespondToAuthChallenge).

The client half of SRP-6a runs on GMP (gmpy2), so one client process costs about a
millisecond per sign-in and does not hide the server's cost. Usage (from bench/run.py):

    python3 srp_load.py ENDPOINT POOL_ID CLIENT_ID USERNAME PASSWORD SECONDS PROCESSES [USERS]

With USERS, each sign-in picks one of USERNAME0 … USERNAME<USERS-1> at random.

prints one JSON line: sign-ins, seconds, errors, p50/p99 latency of a full sign-in (µs).
"""
import base64
import datetime
import hashlib
import hmac
import json
import multiprocessing
import os
import sys
import time

import gmpy2
import requests

N = gmpy2.mpz(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
    "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
    "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
    "15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7"
    "ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C"
    "BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF", 16)
G = gmpy2.mpz(2)
K = gmpy2.mpz("538282c4354742d7cbbde2359fcf67f9f5b3a6b08791e5011b43b8a5b66d9ee6", 16)
TARGET = "AWSCognitoIdentityProviderService."


def pad(n):
    """Java BigInteger.toByteArray() of a non-negative integer."""
    h = format(int(n), "x")
    if len(h) % 2:
        h = "0" + h
    if h[0] in "89abcdef":
        h = "00" + h
    return bytes.fromhex(h)


def sha(data):
    return hashlib.sha256(data).digest()


def timestamp():
    now = datetime.datetime.now(datetime.timezone.utc)
    return now.strftime("%a %b ") + str(now.day) + now.strftime(" %H:%M:%S UTC %Y")


def sign_in(session, endpoint, pool_id, client_id, username, password):
    a = gmpy2.mpz(int.from_bytes(os.urandom(32), "big"))
    big_a = gmpy2.powmod(G, a, N)
    headers = {"Content-Type": "application/x-amz-json-1.1"}
    r = session.post(endpoint, headers={**headers, "X-Amz-Target": TARGET + "InitiateAuth"}, json={
        "AuthFlow": "USER_SRP_AUTH", "ClientId": client_id,
        "AuthParameters": {"USERNAME": username, "SRP_A": format(int(big_a), "x")}})
    r.raise_for_status()
    p = r.json()["ChallengeParameters"]
    user_id, salt, big_b = p["USER_ID_FOR_SRP"], gmpy2.mpz(p["SALT"], 16), gmpy2.mpz(p["SRP_B"], 16)
    u = gmpy2.mpz(sha(pad(big_a) + pad(big_b)).hex(), 16)
    pool_name = pool_id.split("_", 1)[1]
    x = gmpy2.mpz(sha(pad(salt) + sha(f"{pool_name}{user_id}:{password}".encode())).hex(), 16)
    s = gmpy2.powmod((big_b - K * gmpy2.powmod(G, x, N)) % N, a + u * x, N)
    prk = hmac.new(pad(u), pad(s), hashlib.sha256).digest()
    key = hmac.new(prk, b"Caldera Derived Key\x01", hashlib.sha256).digest()[:16]
    ts = timestamp()
    block = p["SECRET_BLOCK"]
    signature = hmac.new(key, pool_name.encode() + user_id.encode() + base64.b64decode(block) + ts.encode(),
                         hashlib.sha256).digest()
    r = session.post(endpoint, headers={**headers, "X-Amz-Target": TARGET + "RespondToAuthChallenge"}, json={
        "ClientId": client_id, "ChallengeName": "PASSWORD_VERIFIER", "ChallengeResponses": {
            "USERNAME": p["USERNAME"], "PASSWORD_CLAIM_SECRET_BLOCK": block, "TIMESTAMP": ts,
            "PASSWORD_CLAIM_SIGNATURE": base64.b64encode(signature).decode()}})
    r.raise_for_status()
    assert "AuthenticationResult" in r.json()


def worker(args):
    endpoint, pool_id, client_id, prefix, password, seconds, users = args
    session = requests.Session()
    latencies, errors = [], 0
    deadline = time.time() + seconds
    while time.time() < deadline:
        username = f"{prefix}{int.from_bytes(os.urandom(2), 'big') % users}" if users else prefix
        start = time.perf_counter()
        try:
            sign_in(session, endpoint, pool_id, client_id, username, password)
            latencies.append(time.perf_counter() - start)
        except Exception:  # counted, reported
            errors += 1
    return latencies, errors


def main():
    endpoint, pool_id, client_id, username, password, seconds, processes = sys.argv[1:8]
    users = int(sys.argv[8]) if len(sys.argv) > 8 else 0
    with multiprocessing.Pool(int(processes)) as pool:
        started = time.perf_counter()
        results = pool.map(worker, [(endpoint, pool_id, client_id, username, password, float(seconds), users)]
                           * int(processes))
        elapsed = time.perf_counter() - started
    latencies = sorted(l for ls, _ in results for l in ls)
    errors = sum(e for _, e in results)
    pick = lambda q: int(latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1e6) if latencies else 0
    print(json.dumps({"requests": len(latencies), "seconds": elapsed, "errors": errors,
                      "p50_us": pick(0.50), "p99_us": pick(0.99)}))


if __name__ == "__main__":
    main()
