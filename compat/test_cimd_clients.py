"""Client ID metadata documents at the OAuth endpoints: an MCP-style client names itself by the
https URL of its metadata document; a CIMD policy admits the URL and maps it to an app client.
Cognate fetches the document (over TLS, from a document host of the test's own, trusted through
--client-metadata-ca-file and reachable on loopback only through
--client-metadata-private-networks), checks it, caches it (ListClientMetadataURLs), and the
client signs in through the hosted page as a public client with PKCE, driven by authlib. A
server without the private-network exception refuses the same URL (loopback is not public);
redirects, oversized and mismatched documents are refused too."""
import datetime
import http.server
import json
import secrets
import ssl
import tempfile
import threading
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlparse

import pytest
import requests
from authlib.integrations.requests_client import OAuth2Session
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from conftest import CognateServer
from helpers import confirmed_user, unique, verify_token
from test_oauth import hosted_sign_in

CALLBACK = "http://127.0.0.1:33418/callback"      # the MCP client's own loopback callback


def certificates(directory):
    """A CA and a certificate for `localhost` it signed; returns (CA path, certificate path, key path)."""
    now = datetime.datetime.now(datetime.timezone.utc)

    def build(subject, issuer, public_key, signing_key, ca, names=()):
        builder = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(public_key)
                   .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
                   .not_valid_after(now + datetime.timedelta(days=1))
                   .add_extension(x509.BasicConstraints(ca=ca, path_length=None), True))
        if names:
            builder = builder.add_extension(x509.SubjectAlternativeName([x509.DNSName(n) for n in names]), False)
        return builder.sign(signing_key, hashes.SHA256())

    ca_key, leaf_key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Test documents CA")])
    ca = build(ca_name, ca_name, ca_key.public_key(), ca_key, True)
    leaf = build(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]), ca_name, leaf_key.public_key(),
                 ca_key, False, names=["localhost"])
    paths = [Path(directory) / name for name in ("ca.pem", "cert.pem", "key.pem")]
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(leaf_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                serialization.NoEncryption()))
    return paths


class DocumentHost:
    """An HTTPS server on 127.0.0.1 serving metadata documents by path; counts fetches."""

    def __init__(self, cert, key):
        self.documents = {}      # path → (status, headers, body)
        self.fetches = []
        host = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                host.fetches.append(self.path)
                status, headers, body = host.documents.get(self.path, (404, {}, b"{}"))
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(str(cert), str(key))
        self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        self.httpd.daemon_threads = True
        self.base = f"https://localhost:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def serve(self, path, document=None, status=200, headers=None, body=None):
        url = self.base + path
        if document is None:
            document = {"client_id": url, "client_name": "Test MCP client", "redirect_uris": [CALLBACK],
                        "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
                        "token_endpoint_auth_method": "none"}
        data = body if body is not None else json.dumps(document).encode()
        self.documents[path] = (status, {"Content-Type": "application/json", **(headers or {})}, data)
        return url


@pytest.fixture(scope="module")
def setup():
    with tempfile.TemporaryDirectory(prefix="cognate-cimd-") as workdir:
        ca, cert, key = certificates(workdir)
        host = DocumentHost(cert, key)
        admitting = CognateServer(Path(workdir) / "a", env={
            "COGNATE_CLIENT_METADATA_CA_FILE": str(ca),
            "COGNATE_CLIENT_METADATA_PRIVATE_NETWORKS": "127.0.0.0/8,::1/128"})
        strict = CognateServer(Path(workdir) / "b", env={"COGNATE_CLIENT_METADATA_CA_FILE": str(ca)})
        for server in (admitting, strict):
            server.workdir.mkdir()
            server.start()
        yield admitting, strict, host
        for server in (admitting, strict):
            server.stop()
            assert not server.faults(), "cognate logged server faults:\n" + "\n".join(server.faults()[:20])
        host.httpd.shutdown()


def mcp_pool(server, host, secret=False):
    """A pool with an app client for OAuth (code flow) and a CIMD policy admitting the host's documents."""
    idp = server.client()
    pool = idp.create_user_pool(PoolName=unique("cimd"), AutoVerifiedAttributes=["email"])["UserPool"]
    client = idp.create_user_pool_client(
        UserPoolId=pool["Id"], ClientName="mcp", GenerateSecret=secret, CallbackURLs=["https://app.example/cb"],
        AllowedOAuthFlows=["code"], AllowedOAuthScopes=["openid", "email", "profile"],
        AllowedOAuthFlowsUserPoolClient=True, SupportedIdentityProviders=["COGNITO"],
        ExplicitAuthFlows=["ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"])["UserPoolClient"]
    policy = idp.create_cimd_policy(UserPoolId=pool["Id"], ClientId=client["ClientId"], PolicyName="mcp",
                                    URLPatterns=[host.base + f"/{pool['Id']}/*"])["CIMDPolicy"]
    return idp, pool, client, policy


def authorize_url(server, client_id, verifier=None, **extra):
    query = {"client_id": client_id, "response_type": "code", "redirect_uri": CALLBACK, "scope": "openid email",
             "state": "s1"}
    if verifier:
        session = OAuth2Session(client_id, None, code_challenge_method="S256")
        redirect = extra.pop("redirect_uri", CALLBACK)
        uri, _ = session.create_authorization_url(server.endpoint + "/oauth2/authorize", code_verifier=verifier,
                                                  redirect_uri=redirect, scope="openid email", state="s1", **extra)
        return uri
    return server.endpoint + "/oauth2/authorize?" + urlencode({**query, **extra})


def test_a_client_named_by_its_document_signs_in_with_pkce_and_refreshes(setup):
    server, _, host = setup
    idp, pool, client, policy = mcp_pool(server, host)
    url = host.serve(f"/{pool['Id']}/client.json", headers={"Cache-Control": "max-age=172800"})
    username, email, sub = confirmed_user(server, idp, pool, client)
    verifier = secrets.token_urlsafe(48)
    browser = requests.Session()
    answer = hosted_sign_in(server, browser, authorize_url(server, url, verifier), username)
    assert answer.status_code == 302, answer.text
    location = answer.headers["Location"]
    assert location.startswith(CALLBACK + "?code=")
    # The browser's single sign-on session does not sign a URL client in again without the user:
    # the page is shown, and prompt=none gets login_required.
    again = browser.get(authorize_url(server, url, secrets.token_urlsafe(48)), allow_redirects=False, timeout=10)
    assert again.status_code == 302 and "/login?" in again.headers["Location"]
    silent = browser.get(authorize_url(server, url, secrets.token_urlsafe(48), prompt="none"), allow_redirects=False,
                         timeout=10)
    silent = browser.get(server.endpoint + silent.headers["Location"], allow_redirects=False, timeout=10)
    assert silent.headers["Location"].startswith(CALLBACK) and "error=login_required" in silent.headers["Location"]
    # One fetch served the authorize request and the hosted page: the document is cached.
    assert host.fetches.count(f"/{pool['Id']}/client.json") == 1

    app = OAuth2Session(url, None, redirect_uri=CALLBACK, code_challenge_method="S256", scope="openid email")
    token = app.fetch_token(server.endpoint + "/oauth2/token", authorization_response=location, code_verifier=verifier)
    claims = verify_token(server, pool["Id"], token["id_token"], "id", client["ClientId"])
    assert claims["sub"] == sub and claims["email"] == email
    assert verify_token(server, pool["Id"], token["access_token"], "access", client["ClientId"])["scope"] == "openid email"
    renewed = app.refresh_token(server.endpoint + "/oauth2/token")
    assert verify_token(server, pool["Id"], renewed["access_token"], "access", client["ClientId"])["sub"] == sub

    listed = idp.list_client_metadata_urls(UserPoolId=pool["Id"], CIMDPolicyId=policy["CIMDPolicyId"])
    [recorded] = listed["ClientMetadataURLs"]
    assert recorded["URL"] == url
    # max-age two days lies between a day and a year: it sets the expiry.
    assert (recorded["ExpirationDate"] - recorded["CachedDate"]).total_seconds() == pytest.approx(172800, abs=2)
    # REFRESH makes the next use fetch it again.
    idp.update_client_metadata_url_state(UserPoolId=pool["Id"], CIMDPolicyId=policy["CIMDPolicyId"], URL=url,
                                         Action="REFRESH")
    assert requests.get(authorize_url(server, url, secrets.token_urlsafe(48)), allow_redirects=False,
                        timeout=10).status_code == 302
    assert host.fetches.count(f"/{pool['Id']}/client.json") == 2


def test_the_code_is_bound_to_the_name_pkce_is_required_and_the_app_clients_code_stays_its_own(setup):
    server, _, host = setup
    idp, pool, client, _ = mcp_pool(server, host)
    url = host.serve(f"/{pool['Id']}/client.json")
    username, _, _ = confirmed_user(server, idp, pool, client)
    # Without PKCE the request goes back to the document's redirect URI with an error.
    plain = requests.get(authorize_url(server, url), allow_redirects=False, timeout=10)
    assert plain.status_code == 302 and "error=invalid_request" in plain.headers["Location"]
    assert plain.headers["Location"].startswith(CALLBACK)
    # A redirect URI of the app client (not of the document) gets an error page, no redirect.
    foreign = requests.get(authorize_url(server, url, secrets.token_urlsafe(48)).replace(
        "redirect_uri=http%3A%2F%2F127.0.0.1%3A33418%2Fcallback", "redirect_uri=https%3A%2F%2Fapp.example%2Fcb"),
        allow_redirects=False, timeout=10)
    assert foreign.status_code == 400 and "Location" not in foreign.headers
    # A code issued to the URL client is not redeemed by the app client's ID, nor with a secret.
    verifier = secrets.token_urlsafe(48)
    location = hosted_sign_in(server, requests.Session(), authorize_url(server, url, verifier), username).headers["Location"]
    code = parse_qs(urlparse(location).query)["code"][0]
    stolen = requests.post(server.endpoint + "/oauth2/token", data={
        "grant_type": "authorization_code", "client_id": client["ClientId"], "code": code, "redirect_uri": CALLBACK,
        "code_verifier": verifier}, timeout=10)
    assert stolen.status_code == 400 and stolen.json()["error"] == "invalid_grant"
    with_secret = requests.post(server.endpoint + "/oauth2/token", auth=(url, "guess"), data={
        "grant_type": "client_credentials"}, timeout=10)
    assert with_secret.status_code in (400, 401) and with_secret.json()["error"] == "invalid_client"


def test_a_document_without_the_refresh_grant_gets_no_refresh_token(setup):
    server, _, host = setup
    idp, pool, client, _ = mcp_pool(server, host)
    url = host.serve(f"/{pool['Id']}/client.json", document={
        "client_id": host.base + f"/{pool['Id']}/client.json", "redirect_uris": [CALLBACK],
        "token_endpoint_auth_method": "none"})
    username, _, _ = confirmed_user(server, idp, pool, client)
    verifier = secrets.token_urlsafe(48)
    location = hosted_sign_in(server, requests.Session(), authorize_url(server, url, verifier), username).headers["Location"]
    token = requests.post(server.endpoint + "/oauth2/token", data={
        "grant_type": "authorization_code", "client_id": url, "code": parse_qs(urlparse(location).query)["code"][0],
        "redirect_uri": CALLBACK, "code_verifier": verifier}, timeout=10).json()
    assert token["access_token"] and "refresh_token" not in token


@pytest.mark.parametrize("case", ["redirect", "too-large", "other-client-id", "secret-client", "not-found", "unadmitted",
                                  "plain-http-redirect-uri", "upper-case-host"])
def test_documents_that_are_not_acceptable_are_refused_with_an_error_page(setup, case):
    server, _, host = setup
    idp, pool, client, policy = mcp_pool(server, host)
    path = f"/{pool['Id']}/client.json"
    if case == "redirect":
        url = host.serve(path, status=302, headers={"Location": host.base + "/elsewhere.json"}, body=b"")
    elif case == "too-large":
        url = host.serve(path, body=json.dumps({"client_id": host.base + path, "padding": "x" * 6000}).encode())
    elif case == "other-client-id":
        url = host.serve(path, document={"client_id": host.base + "/other.json", "redirect_uris": [CALLBACK],
                                         "token_endpoint_auth_method": "none"})
    elif case == "secret-client":
        url = host.serve(path, document={"client_id": host.base + path, "redirect_uris": [CALLBACK],
                                         "token_endpoint_auth_method": "client_secret_basic"})
    elif case == "not-found":
        url = host.base + path
    elif case == "plain-http-redirect-uri":
        url = host.serve(path, document={"client_id": host.base + path, "redirect_uris": ["http://evil.example/cb"],
                                         "token_endpoint_auth_method": "none"})
    elif case == "upper-case-host":
        url = host.serve(path).replace("localhost", "LocalHost")
    else:
        url = host.serve("/not-admitted/client.json")
    redirect = "http://evil.example/cb" if case == "plain-http-redirect-uri" else None
    answer = requests.get(authorize_url(server, url, secrets.token_urlsafe(48), **(
        {"redirect_uri": redirect} if redirect else {})), allow_redirects=False, timeout=10)
    assert answer.status_code == 400 and "Location" not in answer.headers, (answer.status_code, answer.text)
    assert "names no client" in answer.text
    assert idp.list_client_metadata_urls(UserPoolId=pool["Id"], CIMDPolicyId=policy["CIMDPolicyId"])[
        "ClientMetadataURLs"] == []


def test_a_server_without_the_exception_never_connects_to_loopback(setup):
    _, strict, host = setup
    _, pool, _, _ = mcp_pool(strict, host)
    url = host.serve(f"/{pool['Id']}/client.json")
    before = len(host.fetches)
    answer = requests.get(authorize_url(strict, url, secrets.token_urlsafe(48)), allow_redirects=False, timeout=10)
    assert answer.status_code == 400 and "names no client" in answer.text
    assert len(host.fetches) == before
    assert "which is not a public address" in strict.log_path.read_text()
