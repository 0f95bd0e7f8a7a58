"""Built-in TLS (issue 14): `--tls-certificate`/`--tls-key`, a self-signed certificate verified by
the client (boto3 with the CA file, Python's ssl), and the certificate reloaded on SIGHUP without
a restart."""
import datetime
import ipaddress
import signal
import socket
import ssl
import tempfile
import time
from pathlib import Path

import requests
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from conftest import CognateServer
from helpers import unique


def write_certificate(directory, name):
    """A self-signed certificate for 127.0.0.1 (its own CA); returns (certificate path, key path)."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
                   .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
                   .not_valid_after(now + datetime.timedelta(days=1))
                   .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
                   .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
                   .sign(key, hashes.SHA256()))
    cert_path, key_path = Path(directory) / "cert.pem", Path(directory) / "key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path, certificate


def served_certificate(port):
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
        with context.wrap_socket(raw) as wrapped:
            return x509.load_der_x509_certificate(wrapped.getpeercert(binary_form=True))


def test_https_with_a_verified_certificate_reloaded_on_sighup():
    with tempfile.TemporaryDirectory(prefix="cognate-tls-") as workdir:
        cert_path, key_path, first = write_certificate(workdir, "first")
        ca = Path(workdir) / "ca-first.pem"
        ca.write_bytes(cert_path.read_bytes())
        server = CognateServer(workdir, extra_args=("--tls-certificate", str(cert_path), "--tls-key", str(key_path)),
                               ca_file=str(ca)).start()
        try:
            idp = server.client()
            pool = idp.create_user_pool(PoolName=unique("tls"))["UserPool"]
            assert idp.describe_user_pool(UserPoolId=pool["Id"])["UserPool"]["Name"] == pool["Name"]
            # Tokens are issued for the https address.
            document = requests.get(f"{server.endpoint}/{pool['Id']}/.well-known/openid-configuration", verify=str(ca),
                                    timeout=10).json()
            assert document["issuer"] == f"https://127.0.0.1:{server.port}/{pool['Id']}"
            assert served_certificate(server.port).serial_number == first.serial_number
            # Plain HTTP on the TLS port is not served.
            try:
                plain = requests.get(f"http://127.0.0.1:{server.port}/health", timeout=5)
                assert plain.status_code != 200
            except requests.exceptions.ConnectionError:
                pass

            # A renewed certificate, then SIGHUP: new connections get it, without a restart.
            _, _, second = write_certificate(workdir, "second")
            server.process.send_signal(signal.SIGHUP)
            deadline = time.time() + 10
            while served_certificate(server.port).serial_number != second.serial_number and time.time() < deadline:
                time.sleep(0.1)
            assert served_certificate(server.port).serial_number == second.serial_number
            assert server.process.poll() is None
        finally:
            server.stop()
