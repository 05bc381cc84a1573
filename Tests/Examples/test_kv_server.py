"""kv-server as a process, driven by the clients people use with Redis:
redis-cli and the Python redis package, over TCP and a Unix socket."""

import os
import random
import signal
import socket
import subprocess
import tempfile
import threading
import time
import unittest
import urllib.request

import redis

from prometheus_client.parser import text_string_to_metric_families

from resp import RespConnection, encode, parse_all
from support import Example, tls_certificates


def prometheus_families(port):
    """The metric families of http://127.0.0.1:PORT/metrics, by name."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as reply:
        return {family.name: family for family in text_string_to_metric_families(reply.read().decode())}


class KVServerClientTests(unittest.TestCase):
    def start(self, *args):
        server = Example("kv-server", "--port", 0, *args)
        self.addCleanup(server.stop)
        port = server.listening_port()
        server.expect_line(r"^kv-server: ready$")
        return server, port

    def test_metrics_port_serves_prometheus_text(self):
        """--metrics-port: /metrics has every command counted (swift-metrics
        to both INFO commandstats and a Prometheus registry) and the server's
        connections, in a form prometheus_client's parser reads; /healthz
        answers ok."""
        server = Example("kv-server", "--port", 0, "--metrics-port", 0)
        self.addCleanup(server.stop)
        server.expect_line(r"^kv-server: ready$")
        port = int(server.printed(r"^kv-server: listening on 127\.0\.0\.1:(\d+)$").group(1))
        metrics_port = int(server.printed(r"^kv-server: metrics on 127\.0\.0\.1:(\d+)$").group(1))
        for args in (["SET", "k", "v"], ["GET", "k"], ["GET", "k"]):
            subprocess.run(["redis-cli", "-p", str(port), *args], check=True, capture_output=True, timeout=30)
        families = prometheus_families(metrics_port)
        calls = {s.labels["command"]: s.value for s in families["kv_commands"].samples if s.name == "kv_commands_total"}
        self.assertEqual((calls["set"], calls["get"]), (1, 2))
        accepted = {s.labels["server"]: s.value for s in families["rxuv_server_connections_accepted"].samples}
        self.assertEqual(accepted[f"127.0.0.1:{port}"], 3)
        with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/healthz", timeout=10) as reply:
            self.assertEqual(reply.read(), b"ok\n")
        info = subprocess.run(["redis-cli", "-p", str(port), "INFO", "commandstats"], check=True, capture_output=True, text=True, timeout=30).stdout
        self.assertIn("cmdstat_get:calls=2,", info)
        # The loops' health, recorded every second by the group's watchdog.
        time.sleep(1.3)
        families = prometheus_families(metrics_port)
        utilization = [s.value for s in families["rxuv_loop_utilization"].samples]
        self.assertTrue(utilization and all(0 <= value <= 1 for value in utilization), utilization)
        self.assertIn("rxuv_loop_iterations", families)
        server.send_signal(signal.SIGTERM)
        self.assertEqual(server.wait(10)[0], 0)

    def test_redis_cli_commands_and_pipe_mode(self):
        _, port = self.start()

        def cli(*args, stdin=None):
            result = subprocess.run(["redis-cli", "-h", "127.0.0.1", "-p", str(port), *args], input=stdin,
                                    capture_output=True, timeout=30)
            self.assertEqual(result.returncode, 0, result.stderr)
            return result.stdout.decode()

        self.assertEqual(cli("PING"), "PONG\n")
        self.assertEqual(cli("SET", "greeting", "hello world"), "OK\n")
        self.assertEqual(cli("GET", "greeting"), "hello world\n")
        self.assertEqual(cli("--no-raw", "INCRBY", "n", "41"), "(integer) 41\n")
        self.assertEqual(cli("--no-raw", "GET", "missing"), "(nil)\n")
        self.assertEqual(cli("--no-raw", "NOPE"), "(error) ERR unknown command 'NOPE', with args beginning with: \n")
        self.assertIn("redis_version:", cli("INFO", "server"))
        self.assertIn("connected_clients:1", cli("INFO", "clients"))
        self.assertEqual(int(cli("COMMAND", "COUNT")), 65)  # README.md lists them
        # Mass insertion, as the Redis manual does it: the pipe mode ends with an ECHO.
        commands = b"".join(encode("SET", f"bulk:{i}", i) for i in range(5000))
        output = cli("--pipe", stdin=commands)
        self.assertIn("errors: 0, replies: 5000", output)
        self.assertEqual(cli("DBSIZE"), "5002\n")
        # The interactive start: redis-cli asks COMMAND DOCS for its hints.
        interactive = subprocess.run(["redis-cli", "-p", str(port)], input=b"GET greeting\n", capture_output=True, timeout=30)
        self.assertEqual(interactive.returncode, 0, interactive.stderr)
        self.assertIn(b"hello world", interactive.stdout)

    def test_python_redis_client(self):
        _, port = self.start()
        client = redis.Redis(host="127.0.0.1", port=port, protocol=2)
        self.addCleanup(client.close)
        self.assertTrue(client.ping())
        self.assertTrue(client.set("k", b"\x00binary\xff"))
        self.assertEqual(client.get("k"), b"\x00binary\xff")
        self.assertIsNone(client.set("k", "other", nx=True))
        self.assertEqual(client.set("k", "new", get=True), b"\x00binary\xff")
        self.assertEqual(client.incr("counter", 5), 5)
        self.assertEqual(client.decr("counter"), 4)
        self.assertEqual(client.mget("k", "counter", "missing"), [b"new", b"4", None])
        self.assertTrue(client.set("short", "lived", px=100))
        self.assertGreater(client.pttl("short"), 0)
        time.sleep(0.25)
        self.assertIsNone(client.get("short"))
        self.assertEqual(sorted(client.keys("*")), [b"counter", b"k"])
        with self.assertRaisesRegex(redis.ResponseError, "value is not an integer or out of range"):
            client.incr("k")
        # 10,000 pipelined commands, replies in order.
        pipe = client.pipeline(transaction=False)
        for index in range(10_000):
            pipe.incr("pipelined")
        self.assertEqual(pipe.execute(), list(range(1, 10_001)))
        # Pub/sub with a pattern.
        pubsub = client.pubsub()
        pubsub.subscribe("events")
        pubsub.psubscribe("ev*")
        for _ in range(2):
            self.assertIn(pubsub.get_message(timeout=2)["type"], ("subscribe", "psubscribe"))
        self.assertEqual(client.publish("events", "hello"), 2)
        got = [pubsub.get_message(timeout=2) for _ in range(2)]
        self.assertEqual([(m["type"], m["data"]) for m in got], [("message", b"hello"), ("pmessage", b"hello")])
        pubsub.close()

    def test_unix_socket(self):
        directory = tempfile.mkdtemp()
        path = os.path.join(directory, "kv.sock")
        _, port = self.start("--unixsocket", path)
        client = redis.Redis(unix_socket_path=path, protocol=2)
        self.addCleanup(client.close)
        self.assertTrue(client.set("over", "unix"))
        self.assertEqual(redis.Redis(host="127.0.0.1", port=port, protocol=2).get("over"), b"unix", "one keyspace for both")
        pipe = client.pipeline(transaction=False)
        for index in range(1000):
            pipe.set(f"u:{index}", index)
        self.assertEqual(len(pipe.execute()), 1000)
        raw = RespConnection(path)
        raw.send(encode("GET", "over") + encode("QUIT") + encode("PING"))
        self.assertEqual(raw.rest_until_eof(), b"$4\r\nunix\r\n+OK\r\n")
        raw.close()

    def test_maxclients_refuses_with_redis_error(self):
        _, port = self.start("--maxclients", 2)
        first, second = RespConnection(port), RespConnection(port)
        self.assertEqual(first.command("PING"), b"+PONG\r\n")
        self.assertEqual(second.command("PING"), b"+PONG\r\n")
        third = RespConnection(port)
        self.assertEqual(third.rest_until_eof(), b"-ERR max number of clients reached\r\n")
        first.close()
        time.sleep(0.1)
        fourth = RespConnection(port)
        self.assertEqual(fourth.command("PING"), b"+PONG\r\n")
        for connection in (second, third, fourth):
            connection.close()

    def test_a_subscriber_that_does_not_read_is_cut_off(self):
        server, port = self.start("--pubsub-output-limit", 1 << 20)
        slow = RespConnection(port)
        slow.sock.setsockopt(__import__("socket").SOL_SOCKET, __import__("socket").SO_RCVBUF, 4096)
        self.assertEqual(slow.command("SUBSCRIBE", "firehose")[-4:], b":1\r\n")
        publisher = RespConnection(port)
        rss_before = server.rss_kib()
        payload = "x" * 65536
        deliveries = []
        for _ in range(400):  # 25 MiB for a subscriber that reads nothing
            deliveries.append(publisher.command("PUBLISH", "firehose", payload))
        self.assertEqual(deliveries[0], b":1\r\n")
        self.assertEqual(deliveries[-1], b":0\r\n", "the slow subscriber was disconnected")
        self.assertLess(server.rss_kib() - rss_before, 16 * 1024, "memory stays bounded by the limit")
        self.assertEqual(publisher.command("PING"), b"+PONG\r\n")
        self.assertTrue(any("not reading" in line for line in server.stderr), server.stderr)
        slow.close()
        publisher.close()

    def test_threads_share_one_keyspace(self):
        _, port = self.start("--threads", 2)
        errors = []

        def work():
            try:
                client = redis.Redis(host="127.0.0.1", port=port, protocol=2)
                for _ in range(500):
                    client.incr("shared")
                client.close()
            except Exception as error:  # reported below
                errors.append(error)

        workers = [threading.Thread(target=work) for _ in range(8)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=60)
        self.assertEqual(errors, [])
        client = redis.Redis(host="127.0.0.1", port=port, protocol=2)
        self.assertEqual(client.get("shared"), b"4000")
        # Pub/sub across loops: subscribers land on both loops.
        pubsubs = [client.pubsub() for _ in range(4)]
        for pubsub in pubsubs:
            pubsub.subscribe("x")
            self.assertEqual(pubsub.get_message(timeout=2)["type"], "subscribe")
        self.assertEqual(client.publish("x", "across"), 4)
        for pubsub in pubsubs:
            self.assertEqual(pubsub.get_message(timeout=2)["data"], b"across")
            pubsub.close()
        client.close()

    def test_keys_over_many_keys_leaves_the_other_loop_answering(self):
        """KEYS with a costly pattern over 30,000 keys keeps its own loop
        busy for a while; with `--threads 2` a client on the other loop is
        answered meanwhile, its GETs and SETs each in a fraction of that
        time (KEYS holds the keyspace's lock only to copy keys, 4,096
        buckets at a time), and KEYS still lists exactly the matching keys."""
        _, port = self.start("--threads", 2)
        loader = RespConnection(port)
        name = "a" * 40 + ":{}"
        for start in range(0, 30_000, 2_000):
            loader.send(encode("MSET", *[part for index in range(start, start + 2_000) for part in (name.format(index), "v")]))
            loader.reply()
        loader.close()
        # Each key costs the matcher about 30 × 10 steps: the run of 10 a's
        # is tried at every start before the `:` fits.
        pattern = "*" + "a" * 10 + ":*0*"
        keys_client = RespConnection(port, timeout=120)
        others = [RespConnection(port, timeout=120) for _ in range(3)]  # round robin: at least one on the other loop
        done = threading.Event()
        latencies = [[] for _ in others]

        def poke(index, connection):
            # A client on KEYS's own loop waits for it (and may time out):
            # only the fastest client's slowest round trip is judged.
            try:
                while not done.is_set():
                    started = time.monotonic()
                    replies = connection.command("SET", f"probe:{index}", "1") + connection.command("GET", name.format(7))
                    latencies[index].append(time.monotonic() - started if replies == b"+OK\r\n$1\r\nv\r\n" else 999)
            except OSError:
                latencies[index].append(999)

        pokers = [threading.Thread(target=poke, args=(index, connection)) for index, connection in enumerate(others)]
        for poker in pokers:
            poker.start()
        time.sleep(0.2)
        started = time.monotonic()
        matched = parse_all(keys_client.command("KEYS", pattern))[0]
        took = time.monotonic() - started
        done.set()
        for poker in pokers:
            poker.join(timeout=30)
        self.assertEqual(len(matched), len({key for key in matched}))
        self.assertEqual(sorted(matched), sorted(name.format(index).encode() for index in range(30_000) if "0" in str(index)))
        self.assertGreater(took, 0.2, "the pattern was meant to keep KEYS busy")
        answered_meanwhile = [max(times) for times in latencies if times]
        self.assertLess(min(answered_meanwhile), took / 4, f"KEYS took {took:.2f}s; slowest GET per client: {answered_meanwhile}")
        for connection in [keys_client, *others]:
            connection.close()
        print(f"\nKEYS over 30,000 keys took {took:.2f}s; the other loop's slowest SET+GET: {min(answered_meanwhile) * 1000:.1f} ms")

    def test_sigterm_drains_and_exits(self):
        server, port = self.start()
        busy = RespConnection(port)
        busy.send(b"".join(encode("INCR", "n") for _ in range(2000)))
        replies = [busy.reply() for _ in range(2000)]
        self.assertEqual(replies[-1], b":2000\r\n")
        subscriber = RespConnection(port)
        subscriber.command("SUBSCRIBE", "news")
        partial = RespConnection(port)
        partial.send(b"*2\r\n$3\r\nGET\r\n")  # half a command
        time.sleep(0.1)
        server.send_signal(signal.SIGTERM)
        server.expect_line(r"shutting down, 3 clients connected")
        for connection in (busy, subscriber, partial):
            self.assertEqual(connection.rest_until_eof(), b"")
            connection.close()
        server.expect_line(r"stopped; 3 connections served")
        code, waited = server.wait(5)
        self.assertEqual(code, 0, server.stderr)
        self.assertLess(waited, 3)

    def test_a_second_sigterm_ends_the_drain_at_once(self):
        """A client that asked for 256 MiB of replies and reads none holds
        the drain for its 2-second deadline; a second SIGTERM ends it at
        once, and the server exits 0."""
        server, port = self.start()
        setup = RespConnection(port)
        self.assertEqual(setup.command("SET", "big", "x" * (1 << 20)), b"+OK\r\n")
        setup.close()
        stuck = socket.create_connection(("127.0.0.1", port))
        self.addCleanup(stuck.close)
        stuck.sendall(b"".join(encode("GET", "big") for _ in range(256)))
        time.sleep(0.2)   # the replies fill the socket buffers; the rest waits in the server
        server.send_signal(signal.SIGTERM)
        server.expect_line(r"shutting down, 1 client connected")
        time.sleep(0.2)
        started = time.monotonic()
        server.send_signal(signal.SIGTERM)
        code, _ = server.wait(5)
        self.assertEqual(code, 0, server.stderr)
        self.assertLess(time.monotonic() - started, 1.0, "the second signal did not end the drain at once")
        server.expect_line(r"stopped; 2 connections served")

    def test_random_input_never_crashes_or_hangs_the_server(self):
        """500 seeded inputs, each on its own connection: valid commands,
        random bytes, lengths from 0 to 2^64, frames cut anywhere. Each gets
        well-formed replies (or none) and then the end of its connection
        once it half-closes; the server keeps answering another client."""
        server, port = self.start()
        rng = random.Random(20261124)
        words = [b"GET", b"SET", b"INCR", b"MGET", b"SUBSCRIBE", b"PING", b"ECHO", b"EXPIRE", b"KEYS", b"QUIT", b"x", b""]
        numbers = [b"0", b"1", b"-1", b"3", b"65536", b"1073741824", b"9223372036854775807", b"18446744073709551616", b"abc", b""]

        def piece():
            kind = rng.randrange(6)
            if kind == 0:
                return encode(*(rng.choice(words) for _ in range(rng.randrange(1, 5))))
            if kind == 1:
                return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
            if kind == 2:
                return b"*" + rng.choice(numbers) + b"\r\n"
            if kind == 3:
                return b"$" + rng.choice(numbers) + b"\r\n" + rng.choice(words) + b"\r\n"
            if kind == 4:
                return b" ".join(rng.choice(words) for _ in range(rng.randrange(1, 4))) + rng.choice([b"\r\n", b"\n", b"", b'"', b"'"])
            whole = encode(*(rng.choice(words) for _ in range(3)))
            return whole[:rng.randrange(len(whole))]

        healthy = RespConnection(port)
        for index in range(500):
            data = b"".join(piece() for _ in range(rng.randrange(1, 6)))
            client = RespConnection(port, timeout=5)
            client.send(data)
            client.sock.shutdown(socket.SHUT_WR)
            try:
                received = client.rest_until_eof(timeout=5)
            except ConnectionResetError:
                received = None  # closed with replies unread: a reset is an end too
            finally:
                client.close()
            if received:
                parse_all(received)  # raises on anything that is not whole RESP replies
            if index % 50 == 0:
                self.assertEqual(healthy.command("PING"), b"+PONG\r\n", f"after input {index}: {data!r}")
        self.assertEqual(healthy.command("PING"), b"+PONG\r\n")
        healthy.close()
        self.assertIsNone(server.process.poll(), server.stderr)

    def test_help_and_bad_flags(self):
        from support import BIN_PATH
        path = os.path.join(BIN_PATH, "kv-server")
        help = subprocess.run([path, "--help"], capture_output=True, text=True, timeout=10)
        self.assertEqual(help.returncode, 0)
        self.assertIn("--unixsocket", help.stdout)
        bad = subprocess.run([path, "--threads", "0"], capture_output=True, text=True, timeout=10)
        self.assertEqual(bad.returncode, 64)
        taken = Example("kv-server", "--port", 0)
        self.addCleanup(taken.stop)
        port = taken.listening_port()
        second = Example("kv-server", "--port", port)
        self.addCleanup(second.stop)
        code, _ = second.wait(5)
        self.assertEqual(code, 1)
        self.assertTrue(any("EADDRINUSE" in line for line in second.stderr), second.stderr)


if __name__ == "__main__":
    unittest.main()


class KVServerTLSTests(unittest.TestCase):
    """kv-server's TLS port, with Redis's own flags, driven by redis-cli --tls
    and the Python redis client with ssl=True."""

    def start(self, *args):
        self.folder = tls_certificates()
        server = Example("kv-server", "--port", 0, "--tls-port", 0,
                         "--tls-cert-file", f"{self.folder}/server.pem", "--tls-key-file", f"{self.folder}/server.key",
                         "--tls-ca-cert-file", f"{self.folder}/ca.pem", *args)
        self.addCleanup(server.stop)
        server.expect_line(r"^kv-server: ready$")
        return server, int(server.printed(r"listening for TLS on 127\.0\.0\.1:(\d+)$").group(1))

    def cli(self, port, *args, client_certificate=True):
        certificate = ["--cert", f"{self.folder}/client.pem", "--key", f"{self.folder}/client.key"] if client_certificate else []
        return subprocess.run(
            ["redis-cli", "--tls", "--cacert", f"{self.folder}/ca.pem", "--sni", "localhost", *certificate,
             "-h", "127.0.0.1", "-p", str(port), *args], capture_output=True, timeout=30)

    def test_redis_cli_with_a_client_certificate(self):
        _, port = self.start()
        self.assertEqual(self.cli(port, "SET", "secret", "over tls").stdout, b"OK\n")
        self.assertEqual(self.cli(port, "GET", "secret").stdout, b"over tls\n")
        commands = b"".join(encode("SET", f"bulk:{i}", i) for i in range(2000))
        piped = subprocess.run(
            ["redis-cli", "--tls", "--cacert", f"{self.folder}/ca.pem", "--cert", f"{self.folder}/client.pem",
             "--key", f"{self.folder}/client.key", "-p", str(port), "--pipe"], input=commands, capture_output=True, timeout=30)
        self.assertIn(b"errors: 0, replies: 2000", piped.stdout)

    def test_a_client_without_a_certificate_is_refused_by_default(self):
        server, port = self.start()
        refused = self.cli(port, "PING", client_certificate=False)
        self.assertNotEqual(refused.stdout, b"PONG\n")
        self.assertEqual(self.cli(port, "PING").stdout, b"PONG\n", "the next client is served")

    def test_python_redis_with_ssl_and_optional_client_certificates(self):
        _, port = self.start("--tls-auth-clients", "optional")
        client = redis.Redis(host="127.0.0.1", port=port, protocol=2, ssl=True,
                             ssl_ca_certs=f"{self.folder}/ca.pem", ssl_check_hostname=True)
        self.addCleanup(client.close)
        self.assertTrue(client.ping())
        client.set("k", b"\x00\xff binary")
        self.assertEqual(client.get("k"), b"\x00\xff binary")
        pubsub = client.pubsub()
        pubsub.subscribe("news")
        self.assertEqual(pubsub.get_message(timeout=5)["type"], "subscribe")
        self.assertEqual(client.publish("news", "hello"), 1)
        self.assertEqual(pubsub.get_message(timeout=5)["data"], b"hello")
        pubsub.close()

    def test_the_plain_port_and_the_tls_port_share_one_keyspace(self):
        server, port = self.start("--tls-auth-clients", "no")
        plain = redis.Redis(host="127.0.0.1", port=int(server.printed(r"listening on 127\.0\.0\.1:(\d+)$").group(1)), protocol=2)
        self.addCleanup(plain.close)
        plain.set("shared", "yes")
        secure = redis.Redis(host="127.0.0.1", port=port, protocol=2, ssl=True, ssl_ca_certs=f"{self.folder}/ca.pem")
        self.addCleanup(secure.close)
        self.assertEqual(secure.get("shared"), b"yes")

    def test_tls_flags_are_checked(self):
        for args, message in [
            (["--tls-port", 0], "--tls-port needs --tls-cert-file and --tls-key-file"),
            (["--tls-port", 0, "--tls-cert-file", "c.pem", "--tls-key-file", "k.pem"], "--tls-auth-clients yes needs --tls-ca-cert-file"),
            (["--tls-auth-clients", "maybe"], "--tls-auth-clients"),
        ]:
            example = Example("kv-server", *args)
            self.addCleanup(example.stop)
            code, _ = example.wait(10)
            self.assertEqual(code, 64, args)
            self.assertIn(message, "\n".join(example.stderr))
