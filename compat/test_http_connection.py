"""One HTTP/1.1 connection, as raw clients use it: pipelined requests answered in order whichever
route answers them, keep-alive, bodies that arrive in pieces, bodies past the limit, Connection:
close, a parse error behind good requests — on the server the compat suites run."""
import json
import socket
import threading
import time

import pytest

TARGET = "AWSCognitoIdentityProviderService."


def api_request(operation, body, close=False, raw_body=None):
    payload = raw_body if raw_body is not None else json.dumps(body).encode()
    head = (f"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.1\r\n"
            f"X-Amz-Target: {TARGET}{operation}\r\nContent-Length: {len(payload)}\r\n"
            + ("Connection: close\r\n" if close else "") + "\r\n")
    return head.encode() + payload


def get_request(path, close=False):
    return (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n" + ("Connection: close\r\n" if close else "") + "\r\n").encode()


class Reader:
    """Reads responses off a socket one at a time (Content-Length framed, as the server frames them)."""

    def __init__(self, connection):
        self.connection = connection
        self.buffer = b""

    def _fill(self):
        chunk = self.connection.recv(65536)
        if not chunk:
            raise EOFError("connection closed")
        self.buffer += chunk

    def response(self):
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode().split("\r\n")
        status = int(lines[0].split()[1])
        headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
        length = int(headers.get("content-length", "0"))
        while len(self.buffer) < length:
            self._fill()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return status, headers, body

    def closed(self):
        try:
            return self.connection.recv(1) == b""
        except ConnectionResetError:
            return True


def connect(server):
    return socket.create_connection(("127.0.0.1", server.port), timeout=20)


def test_pipelined_requests_are_answered_in_order_across_routes(server, idp):
    pool = idp.create_user_pool(PoolName="pipelined")["UserPool"]
    requests = [
        api_request("DescribeUserPool", {"UserPoolId": pool["Id"]}),
        get_request("/health"),
        api_request("DescribeUserPool", {}, raw_body=b"{not json"),
        get_request(f"/{pool['Id']}/.well-known/jwks.json"),
        get_request("/health"),
        api_request("ListUserPools", {"MaxResults": 60}),
        api_request("DescribeUserPool", {"UserPoolId": pool["Id"]}, close=True),
    ]
    with connect(server) as connection:
        connection.sendall(b"".join(requests))
        reader = Reader(connection)
        answers = [reader.response() for _ in requests]
        assert reader.closed()
    statuses = [status for status, _, _ in answers]
    assert statuses == [200, 200, 400, 200, 200, 200, 200]
    assert json.loads(answers[0][2])["UserPool"]["Id"] == pool["Id"]
    assert json.loads(answers[2][2])["__type"] == "SerializationException"
    assert "keys" in json.loads(answers[3][2])
    assert any(p["Id"] == pool["Id"] for p in json.loads(answers[5][2])["UserPools"])
    assert json.loads(answers[6][2])["UserPool"]["Id"] == pool["Id"]
    request_ids = [headers["x-amzn-requestid"] for _, headers, _ in answers]
    assert len(set(request_ids)) == len(request_ids)
    for _, headers, _ in answers:
        assert headers["server"] == "Cognate" and headers["date"].endswith(" GMT")


def test_one_connection_serves_many_requests_in_turn(server, idp):
    with connect(server) as connection:
        reader = Reader(connection)
        for i in range(40):
            if i % 3 == 2:
                connection.sendall(get_request("/health"))
                status, _, _ = reader.response()
            else:
                connection.sendall(api_request("ListUserPools", {"MaxResults": 1}))
                status, headers, body = reader.response()
                assert headers["content-type"] == "application/x-amz-json-1.1"
                assert "UserPools" in json.loads(body)
            assert status == 200


def test_a_body_that_arrives_in_pieces_is_read_whole(server, idp):
    pool = idp.create_user_pool(PoolName="in-pieces")["UserPool"]
    request = api_request("DescribeUserPool", {"UserPoolId": pool["Id"]})
    with connect(server) as connection:
        for i in range(0, len(request), 7):
            connection.sendall(request[i:i + 7])
            time.sleep(0.005)
        status, _, body = Reader(connection).response()
    assert status == 200 and json.loads(body)["UserPool"]["Id"] == pool["Id"]


def test_a_body_past_the_limit_is_refused_and_the_connection_goes_on(server):
    limit = 1 << 20
    oversize = api_request("ListUserPools", {}, raw_body=b'{"MaxResults": 1, "X": "' + b"z" * (limit + 10) + b'"}')
    with connect(server) as connection:
        connection.sendall(oversize + api_request("ListUserPools", {"MaxResults": 1}))
        reader = Reader(connection)
        status, _, body = reader.response()
        assert status == 400
        assert json.loads(body) == {"__type": "InvalidParameterException",
                                    "message": f"Request body exceeds the maximum size of {limit} bytes."}
        status, _, body = reader.response()
        assert status == 200 and "UserPools" in json.loads(body)


def test_a_parse_error_behind_good_requests_is_answered_after_them(server):
    with connect(server) as connection:
        connection.sendall(api_request("ListUserPools", {"MaxResults": 1}) + get_request("/health")
                           + b"NOT HTTP AT ALL\r\n\r\n")
        reader = Reader(connection)
        assert reader.response()[0] == 200
        assert reader.response()[0] == 200
        status, headers, _ = reader.response()
        assert status == 400 and headers.get("connection") == "close"
        assert reader.closed()


@pytest.mark.parametrize("chunks", [[b"{", b'"MaxResults"', b": 2}"], [b'{"MaxResults": 2}']])
def test_a_chunked_api_body_is_read_whole(server, chunks):
    body = b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in chunks) + b"0\r\n\r\n"
    request = (f"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.1\r\n"
               f"X-Amz-Target: {TARGET}ListUserPools\r\nTransfer-Encoding: chunked\r\n\r\n").encode() + body
    with connect(server) as connection:
        connection.sendall(request)
        status, _, answer = Reader(connection).response()
    assert status == 200 and "UserPools" in json.loads(answer)


def test_a_client_that_sends_without_reading_gets_every_answer_in_order(server):
    # Far more answers than the socket buffers hold: the server stops reading while it cannot
    # write, and resumes; nothing is lost or reordered.
    count = 6000
    requests = [api_request("DescribeUserPool", {"UserPoolId": f"us-east-1_flood{i}"}) for i in range(count)]
    with connect(server) as connection:
        sender = threading.Thread(target=connection.sendall, args=(b"".join(requests),))
        sender.start()
        time.sleep(1)   # the client reads nothing meanwhile
        reader = Reader(connection)
        for i in range(count):
            status, _, body = reader.response()
            assert status == 400
            assert json.loads(body)["message"] == f"User pool us-east-1_flood{i} does not exist."
        sender.join(timeout=20)
        assert not sender.is_alive()


def test_a_client_that_closes_its_side_after_sending_still_gets_every_answer(server, idp):
    pool = idp.create_user_pool(PoolName="half-closed")["UserPool"]
    with connect(server) as connection:
        connection.sendall(api_request("DescribeUserPool", {"UserPoolId": pool["Id"]}) + get_request("/health")
                           + api_request("ListUserPools", {"MaxResults": 60}))
        connection.shutdown(socket.SHUT_WR)
        reader = Reader(connection)
        status, _, body = reader.response()
        assert status == 200 and json.loads(body)["UserPool"]["Id"] == pool["Id"]
        assert reader.response()[0] == 200
        status, _, body = reader.response()
        assert status == 200 and any(p["Id"] == pool["Id"] for p in json.loads(body)["UserPools"])


def test_nothing_after_a_request_that_closes_the_connection_is_run(server, idp):
    with connect(server) as connection:
        connection.sendall(get_request("/health", close=True) + api_request("CreateUserPool", {"PoolName": "after-get-close"}))
        reader = Reader(connection)
        assert reader.response()[0] == 200
        assert reader.closed()
    with connect(server) as connection:
        connection.sendall(api_request("DescribeUserPool", {"UserPoolId": "us-east-1_x"}, close=True)
                           + api_request("CreateUserPool", {"PoolName": "after-api-close"}) + b"trailing bytes")
        reader = Reader(connection)
        status, _, body = reader.response()   # answered whole, though unread bytes follow
        assert status == 400 and json.loads(body)["__type"] == "ResourceNotFoundException"
        assert reader.closed()
    time.sleep(0.5)
    names = {p["Name"] for p in idp.list_user_pools(MaxResults=60)["UserPools"]}
    assert not names & {"after-get-close", "after-api-close"}
