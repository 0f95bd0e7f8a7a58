#!/usr/bin/env python3
"""A real SMTP server (aiosmtpd) for the CognateSMTP tests.

Listens on 127.0.0.1 on a free port, writes that port to --ready-file once it accepts
connections, and appends one JSON object a line to --events for everything the tests check:
connections, STARTTLS, AUTH attempts, MAIL FROM, and each received message (raw bytes in base64
plus the fields Python's own email parser decodes from them). Exits when its standard input
closes, so it never outlives the test that started it.

Modes:
  smtp    aiosmtpd, optionally with STARTTLS or implicit TLS, AUTH, and scripted failures
  silent  accepts connections and never answers
  flood   answers with an endless reply line that never ends (a hostile server)
"""

import argparse
import asyncio
import base64
import email
import email.policy
import json
import os
import ssl
import sys

try:
    from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword
except ImportError:
    sys.stderr.write(
        "aiosmtpd is not installed: the CognateSMTP tests need it as their SMTP server.\n"
        "Install it with: python3 -m pip install -r compat/requirements.txt\n"
    )
    sys.exit(3)


class EventLog:
    def __init__(self, path):
        self.file = open(path, "a", encoding="utf-8")

    def write(self, event, **fields):
        self.file.write(json.dumps({"event": event, **fields}) + "\n")
        self.file.flush()


def parse_message(raw):
    """The fields of a received message as a reader's mail program decodes them."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    defects = [type(d).__name__ for d in message.defects]
    for part in message.walk():
        defects += [type(d).__name__ for d in part.defects]

    def body(subtype):
        part = message.get_body(preferencelist=(subtype,))
        return None if part is None or part.get_content_subtype() != subtype else part.get_content()

    def mailboxes(header):
        value = message[header]
        if value is None:
            return []
        return [{"name": a.display_name, "address": a.addr_spec} for a in value.addresses]

    return {
        "subject": message["Subject"],
        "from": mailboxes("From"),
        "to": mailboxes("To"),
        "date": str(message["Date"]) if message["Date"] is not None else None,
        "date_valid": message["Date"] is not None and message["Date"].datetime is not None,
        "message_id": message["Message-ID"],
        "mime_version": message["MIME-Version"],
        "content_type": message.get_content_type(),
        "text": body("plain"),
        "html": body("html"),
        "headers": [[name, str(value)] for name, value in message.items()],
        "defects": defects,
    }


class Handler:
    def __init__(self, options, log):
        self.options = options
        self.log = log

    def handle_STARTTLS(self, server, session, envelope):
        # aiosmtpd calls this hook without awaiting it, once the TLS handshake is done.
        self.log.write("starttls")
        return True

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        self.log.write("mail", sender=address, options=mail_options, tls=is_tls(server))
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.options.reject_recipient:
            return "550 5.1.1 <%s>: Recipient address rejected: User unknown" % address
        if address in self.options.defer_recipient:
            return "451 4.3.0 <%s>: Temporary lookup failure, try again later" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.options.hang_on_data:
            await asyncio.Event().wait()
        raw = envelope.original_content
        self.log.write(
            "message",
            sender=envelope.mail_from,
            recipients=envelope.rcpt_tos,
            mail_options=envelope.mail_options,
            tls=is_tls(server),
            authenticated=session.authenticated is True,
            raw=base64.b64encode(raw).decode("ascii"),
            parsed=parse_message(raw),
        )
        return QUEUED


QUEUED = "250 2.0.0 Ok: queued"


def is_tls(server):
    """Whether the session is encrypted: implicit TLS, or after STARTTLS."""
    return server.transport is not None and server.transport.get_extra_info("ssl_object") is not None


class CountingSMTP(SMTP):
    def __init__(self, log, drop_after_message, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.log = log
        self.drop_after_message = drop_after_message

    async def push(self, status):
        await super().push(status)
        if self.drop_after_message and status == QUEUED:
            # Answer first, then hang up, like a server that ends sessions after each message.
            self.transport.close()

    def connection_lost(self, error):
        self.log.write("disconnect")
        super().connection_lost(error)


def make_authenticator(options, log):
    def authenticate(server, session, envelope, mechanism, auth_data):
        ok = (
            isinstance(auth_data, LoginPassword)
            and auth_data.login == options.auth_user.encode()
            and auth_data.password == options.auth_password.encode()
        )
        login = auth_data.login.decode(errors="replace") if isinstance(auth_data, LoginPassword) else None
        log.write("auth", mechanism=mechanism, login=login, success=ok)
        # handled=False: aiosmtpd itself answers 535 to a failed attempt.
        return AuthResult(success=ok, handled=False)

    return authenticate


def tls_context(options):
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(options.cert, options.key)
    return context


def smtp_factory(options, log):
    def make():
        log.write("connect")
        kwargs = {"hostname": "test.cognate.invalid", "timeout": 60, "data_size_limit": options.size_limit}
        if options.tls == "starttls":
            kwargs["tls_context"] = tls_context(options)
            kwargs["require_starttls"] = True
        if options.auth_user is not None:
            kwargs["authenticator"] = make_authenticator(options, log)
            kwargs["auth_required"] = True
            # Implicit TLS is TLS too, though aiosmtpd only counts STARTTLS as such.
            kwargs["auth_require_tls"] = options.tls == "starttls"
            all_mechanisms = {"PLAIN", "LOGIN"}
            kwargs["auth_exclude_mechanism"] = sorted(all_mechanisms - set(options.auth_mechanisms))
        return CountingSMTP(log, options.drop_after_message, Handler(options, log), **kwargs)

    return make


async def silent(reader, writer, log):
    log.write("connect")
    while await reader.read(4096):
        pass
    log.write("disconnect")


async def flood(reader, writer, log):
    log.write("connect")
    try:
        writer.write(b"220 ")
        chunk = b"x" * 65536
        for _ in range(1024):  # 64 MiB at most, then give up
            writer.write(chunk)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    log.write("disconnect")
    writer.close()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ready-file", required=True)
    parser.add_argument("--events", required=True)
    parser.add_argument("--mode", choices=["smtp", "silent", "flood"], default="smtp")
    parser.add_argument("--tls", choices=["none", "starttls", "implicit"], default="none")
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--auth-user")
    parser.add_argument("--auth-password")
    parser.add_argument("--auth-mechanisms", type=lambda s: [m for m in s.split(",") if m], default=["PLAIN", "LOGIN"])
    parser.add_argument("--reject-recipient", action="append", default=[])
    parser.add_argument("--defer-recipient", action="append", default=[])
    parser.add_argument("--drop-after-message", action="store_true")
    parser.add_argument("--hang-on-data", action="store_true")
    parser.add_argument("--size-limit", type=int, default=1024 * 1024)
    options = parser.parse_args()

    log = EventLog(options.events)
    loop = asyncio.get_running_loop()
    if options.mode == "silent":
        server = await asyncio.start_server(lambda r, w: silent(r, w, log), "127.0.0.1", 0)
    elif options.mode == "flood":
        server = await asyncio.start_server(lambda r, w: flood(r, w, log), "127.0.0.1", 0)
    else:
        ssl_context = tls_context(options) if options.tls == "implicit" else None
        server = await loop.create_server(smtp_factory(options, log), "127.0.0.1", 0, ssl=ssl_context)

    port = server.sockets[0].getsockname()[1]
    with open(options.ready_file + ".tmp", "w") as ready:
        ready.write(str(port))
    os.replace(options.ready_file + ".tmp", options.ready_file)

    # Serve until the test closes our standard input (or dies).
    stdin_closed = loop.create_future()

    def on_stdin():
        if not os.read(sys.stdin.fileno(), 4096):
            loop.remove_reader(sys.stdin.fileno())
            if not stdin_closed.done():
                stdin_closed.set_result(None)

    loop.add_reader(sys.stdin.fileno(), on_stdin)
    await stdin_closed
    server.close()


if __name__ == "__main__":
    asyncio.run(main())
