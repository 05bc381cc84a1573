"""statsd-agg as a process, fed by python's statsd client (PyPI `statsd`) and
raw UDP sockets over 127.0.0.1; its flushes read as JSON lines on stdout and
as Graphite plaintext on a python TCP listener."""

import json
import signal
import socket
import threading
import time
import unittest
import urllib.request
from unittest import mock

import statsd
from prometheus_client.parser import text_string_to_metric_families

from support import Example, free_port, udp_drops


def next_flush(example, timeout=5.0):
    """The next flush on stdout: {"timestamp": …, "metrics": {name: value}}."""
    return json.loads(example.expect_line(r"^\{", timeout=timeout).string)


def counters(name, count, interval):
    """What statsd reports for the counter `name` that reached `count`."""
    return {f"stats.counters.{name}.count": count, f"stats.counters.{name}.rate": count / interval}


class GraphiteListener:
    """A Graphite stand-in on 127.0.0.1: accepts connections and keeps what
    each sent, until it closed."""

    def __init__(self):
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.listener.settimeout(0.2)
        self.port = self.listener.getsockname()[1]
        self.batches = []
        self.running = True
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while self.running:
            try:
                connection, _ = self.listener.accept()
            except (socket.timeout, TimeoutError):
                continue
            connection.settimeout(5)
            data = b""
            with connection:
                while chunk := connection.recv(65536):
                    data += chunk
            self.batches.append(data.decode())

    def wait_for_batches(self, count, timeout=5.0):
        deadline = time.monotonic() + timeout
        while len(self.batches) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        return list(self.batches)

    def close(self):
        self.running = False
        self.thread.join(timeout=2)
        self.listener.close()


def parse_graphite(text):
    """{name: value} and the set of timestamps of a plaintext batch."""
    metrics, timestamps = {}, set()
    for line in text.splitlines():
        name, value, timestamp = line.split(" ")
        metrics[name] = float(value)
        timestamps.add(int(timestamp))
    return metrics, timestamps


class StatsdAggTests(unittest.TestCase):
    def start(self, *args):
        example = Example("statsd-agg", "--port", 0, *args)
        self.addCleanup(example.stop)
        port = int(example.expect_stderr(r"listening on 127\.0\.0\.1:(\d+)$").group(1))
        return example, port

    def stop_cleanly(self, example, signum=signal.SIGTERM):
        example.send_signal(signum)
        code, waited = example.wait(5)
        self.assertEqual(code, 0, example.stderr)
        self.assertLess(waited, 3)

    def test_help_describes_the_flags(self):
        example = Example("statsd-agg", "--help")
        self.addCleanup(example.stop)
        code, _ = example.wait(10)
        self.assertEqual(code, 0)
        text = "\n".join(example.stdout)
        for flag in ("--host", "--port", "--flush-interval", "--graphite", "--stdout", "--percentiles"):
            self.assertIn(flag, text)

    def test_bad_flags_are_usage_errors(self):
        for args in (["--stdout", "--percentiles", "90,abc"], ["--stdout", "--flush-interval", "soon"], ["--port", "0"], ["--graphite", "nohost"]):
            example = Example("statsd-agg", *args)
            self.addCleanup(example.stop)
            code, _ = example.wait(10)
            self.assertEqual(code, 64, f"{args}: {example.stderr}")

    def test_a_port_in_use_exits_1(self):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as taken:
            taken.bind(("127.0.0.1", 0))
            example = Example("statsd-agg", "--port", taken.getsockname()[1], "--stdout")
            self.addCleanup(example.stop)
            code, _ = example.wait(10)
        self.assertEqual(code, 1)
        self.assertIn("EADDRINUSE", "\n".join(example.stderr))

    def test_metrics_port_serves_its_own_counters(self):
        """--metrics-port: statsd-agg's own packet and line counters (which
        also go to its flushes) in Prometheus's text format. Every line
        counts as received, the bad one too, as in the flushes."""
        example, port = self.start("--stdout", "--flush-interval", "1s", "--metrics-port", 0)
        metrics_port = int(example.expect_line(r"^statsd-agg: metrics on 127\.0\.0\.1:(\d+)$", timeout=10).group(1))
        client = statsd.StatsClient("127.0.0.1", port)
        self.addCleanup(client.close)
        client.incr("a")
        client.incr("b")
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.addCleanup(sock.close)
        sock.sendto(b"not a metric", ("127.0.0.1", port))
        deadline = time.monotonic() + 10
        while True:
            with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=10) as reply:
                families = {family.name: family for family in text_string_to_metric_families(reply.read().decode())}
            values = {name: sum(s.value for s in families[name].samples if s.name.endswith("_total")) for name in families if name.startswith("statsd_")}
            if values.get("statsd_packets_received") == 3 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        self.assertEqual(values, {"statsd_packets_received": 3, "statsd_metrics_received": 3, "statsd_bad_lines_seen": 1})
        self.stop_cleanly(example)

    def test_a_known_mix_over_three_flushes(self):
        """Counters with sample rates, gauges with deltas, timers with
        percentiles, sets, several metrics per datagram (a pipeline): each
        flush holds exactly statsd's aggregates, then resets as statsd does."""
        interval = 1.0
        example, port = self.start("--stdout", "--flush-interval", "1s", "--percentiles", "50,90,99")
        client = statsd.StatsClient("127.0.0.1", port)
        self.addCleanup(client.close)
        first = next_flush(example)  # nothing received yet
        self.assertEqual(first["metrics"]["stats.counters.statsd.packets_received.count"], 0)

        # Right after a flush, so the whole batch lands in the next interval.
        # The client drops sampled metrics at random; random() == 0 keeps them all.
        with mock.patch("random.random", return_value=0.0):
            for _ in range(3):
                client.incr("requests")                       # 3
            client.incr("requests", 7)                        # 10
            client.decr("requests", 2)                        # 8
            for _ in range(4):
                client.incr("sampled", rate=0.5)              # 4 × 2 = 8
            client.gauge("temperature", 20)
            client.gauge("temperature", 5, delta=True)        # 25
            client.gauge("temperature", -7, delta=True)       # 18
            client.gauge("depth", -4)                         # 0|g then -4|g: -4
            with client.pipeline() as pipe:                   # one datagram, lines joined by \n
                for value in range(1, 11):
                    pipe.timing("latency", value)             # 1 … 10 ms
                pipe.timing("sampled_latency", 40, rate=0.25)  # count 4
                pipe.set("users", "ann")
                pipe.set("users", "bob")
                pipe.set("users", "ann")                      # 2 distinct
        sent_packets = 3 + 1 + 1 + 4 + 3 + 1 + 1  # depth: 2 lines, 1 datagram
        sent_lines = 3 + 1 + 1 + 4 + 3 + 2 + 14

        second = next_flush(example)
        self.assertGreater(second["timestamp"], 0)
        expected = {
            **counters("requests", 8, interval),
            **counters("sampled", 8, interval),
            **counters("statsd.bad_lines_seen", 0, interval),
            **counters("statsd.packets_received", sent_packets, interval),
            **counters("statsd.metrics_received", sent_lines, interval),
            "stats.gauges.temperature": 18,
            "stats.gauges.depth": -4,
            "stats.sets.users.count": 2,
            # 1 … 10: p50 is the lowest 5, p90 the lowest 9, p99 rounds to all 10.
            "stats.timers.latency.count_50": 5, "stats.timers.latency.mean_50": 3, "stats.timers.latency.upper_50": 5,
            "stats.timers.latency.sum_50": 15, "stats.timers.latency.sum_squares_50": 55,
            "stats.timers.latency.count_90": 9, "stats.timers.latency.mean_90": 5, "stats.timers.latency.upper_90": 9,
            "stats.timers.latency.sum_90": 45, "stats.timers.latency.sum_squares_90": 285,
            "stats.timers.latency.count_99": 10, "stats.timers.latency.mean_99": 5.5, "stats.timers.latency.upper_99": 10,
            "stats.timers.latency.sum_99": 55, "stats.timers.latency.sum_squares_99": 385,
            "stats.timers.latency.std": 8.25 ** 0.5, "stats.timers.latency.upper": 10, "stats.timers.latency.lower": 1,
            "stats.timers.latency.count": 10, "stats.timers.latency.count_ps": 10 / interval,
            "stats.timers.latency.sum": 55, "stats.timers.latency.sum_squares": 385,
            "stats.timers.latency.mean": 5.5, "stats.timers.latency.median": 5.5,
            # One timing of 40 ms sampled at 1/4: counted as 4.
            **{f"stats.timers.sampled_latency.{key}": 40 for key in (
                "mean_50", "upper_50", "sum_50", "mean_90", "upper_90", "sum_90", "mean_99", "upper_99", "sum_99",
                "upper", "lower", "sum", "mean", "median")},
            **{f"stats.timers.sampled_latency.{key}": 1600 for key in ("sum_squares_50", "sum_squares_90", "sum_squares_99", "sum_squares")},
            **{f"stats.timers.sampled_latency.count_{pct}": 1 for pct in (50, 90, 99)},
            "stats.timers.sampled_latency.std": 0,
            "stats.timers.sampled_latency.count": 4, "stats.timers.sampled_latency.count_ps": 4 / interval,
            "stats.statsd.numStats": 10,
        }
        self.assertEqual(second["metrics"], expected)

        # A second batch: counters start from 0, gauges from their value.
        client.incr("requests", 2)
        client.gauge("temperature", 2, delta=True)
        client.set("users", "cy")
        third = next_flush(example)
        self.assertGreater(third["timestamp"], second["timestamp"] - 1)
        self.assertEqual(third["metrics"]["stats.counters.requests.count"], 2)
        self.assertEqual(third["metrics"]["stats.counters.sampled.count"], 0)
        self.assertEqual(third["metrics"]["stats.gauges.temperature"], 20)
        self.assertEqual(third["metrics"]["stats.gauges.depth"], -4)
        self.assertEqual(third["metrics"]["stats.sets.users.count"], 1)
        self.assertEqual(third["metrics"]["stats.timers.latency.count"], 0)
        self.assertNotIn("stats.timers.latency.mean", third["metrics"])

        # Nothing sent: zeros, and the gauges kept.
        fourth = next_flush(example)
        self.assertEqual(
            fourth["metrics"],
            {
                **{name: 0 for name in expected if name.startswith("stats.counters.")},
                "stats.gauges.temperature": 20, "stats.gauges.depth": -4, "stats.sets.users.count": 0,
                "stats.timers.latency.count": 0, "stats.timers.latency.count_ps": 0,
                "stats.timers.sampled_latency.count": 0, "stats.timers.sampled_latency.count_ps": 0,
                "stats.statsd.numStats": 10,
            },
        )
        self.stop_cleanly(example)

    def test_malformed_lines_are_counted_and_skipped(self):
        example, port = self.start("--stdout", "--flush-interval", "1s")
        next_flush(example)
        bad = [b"no_colon", b"x:1", b"x:abc|c", b"x:1|zz", b"x:1|c|0.5", b"x:1|c|@-1", b"x:1|c|@0", b":1|c",
               b"x:nan|g", b"x:1|c|@0.5|extra", b"\xff\xfe:1|c"]
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender:
            sender.sendto(b"\n".join(bad), ("127.0.0.1", port))
            # Good and bad in one datagram, CRLF and an empty line too; two
            # samples for one name on one line (statsd's `name:1|c:2|c`).
            sender.sendto(b"good:1|c\r\nbroken\n\ngood:2|c:3|c:oops|c\nweird name/x:1|c", ("127.0.0.1", port))
            sender.sendto(b"", ("127.0.0.1", port))  # an empty datagram is a packet with no lines
        metrics = next_flush(example)["metrics"]
        self.assertEqual(metrics["stats.counters.statsd.bad_lines_seen.count"], len(bad) + 2)
        self.assertEqual(metrics["stats.counters.statsd.packets_received.count"], 3)
        self.assertEqual(metrics["stats.counters.statsd.metrics_received.count"], len(bad) + 4)
        self.assertEqual(metrics["stats.counters.good.count"], 6)
        self.assertEqual(metrics["stats.counters.weird_name-x.count"], 1)
        self.assertEqual(sorted(name for name in metrics if name.startswith("stats.counters.") and name.endswith(".count")), [
            "stats.counters.good.count", "stats.counters.statsd.bad_lines_seen.count",
            "stats.counters.statsd.metrics_received.count", "stats.counters.statsd.packets_received.count",
            "stats.counters.weird_name-x.count"])
        self.assertIsNone(example.process.poll())
        self.stop_cleanly(example, signal.SIGINT)
        self.assertRegex(example.stderr[-1], r"^statsd-agg: stopped; received 3 packets, \d+ metrics, 13 bad lines, dropped 0 samples of new names$")

    def test_max_names_caps_the_names_kept(self):
        """--max-names 6: statsd's three own counters and the first three
        new names are kept; samples of later new names are dropped, logged
        once per flush; kept names still take samples."""
        example, port = self.start("--stdout", "--flush-interval", "1s", "--max-names", "6")
        next_flush(example)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender:
            sender.sendto(b"\n".join(b"name%d:1|c" % index for index in range(10)), ("127.0.0.1", port))
            sender.sendto(b"name0:5|c\nname9:1|g\nname1:2|c", ("127.0.0.1", port))
        metrics = next_flush(example)["metrics"]
        self.assertEqual(sorted(name for name in metrics if name.startswith("stats.counters.name") and name.endswith(".count")),
                         ["stats.counters.name0.count", "stats.counters.name1.count", "stats.counters.name2.count"])
        self.assertEqual(metrics["stats.counters.name0.count"], 6)
        self.assertEqual(metrics["stats.counters.name1.count"], 3)
        self.assertEqual(metrics["stats.statsd.numStats"], 6)
        example.expect_stderr(r"dropped 8 samples of new names: 6 names are kept already \(--max-names\)$")
        self.stop_cleanly(example)
        self.assertRegex(example.stderr[-1], r", dropped 8 samples of new names$")

    def test_graphite_gets_plaintext_and_the_last_flush_on_sigterm(self):
        graphite = GraphiteListener()
        self.addCleanup(graphite.close)
        example, port = self.start("--graphite", f"127.0.0.1:{graphite.port}", "--flush-interval", "30s")
        client = statsd.StatsClient("127.0.0.1", port)
        self.addCleanup(client.close)
        client.incr("jobs", 3)
        client.timing("render", 12)
        client.gauge("queue", 7)
        time.sleep(0.3)
        started = time.time()
        self.stop_cleanly(example)  # no flush before: the last flush is the one on SIGTERM
        batches = graphite.wait_for_batches(1)
        self.assertEqual(len(batches), 1, batches)
        metrics, timestamps = parse_graphite(batches[0])
        self.assertEqual(len(timestamps), 1)
        self.assertLessEqual(abs(timestamps.pop() - started), 5)
        self.assertEqual(metrics["stats.counters.jobs.count"], 3)
        self.assertEqual(metrics["stats.counters.jobs.rate"], 0.1)
        self.assertEqual(metrics["stats.timers.render.upper_90"], 12)
        self.assertEqual(metrics["stats.timers.render.mean"], 12)
        self.assertEqual(metrics["stats.gauges.queue"], 7)
        self.assertEqual(metrics["stats.counters.statsd.packets_received.count"], 3)
        self.assertEqual(example.stdout, [])

    def test_graphite_down_is_reported_and_not_fatal(self):
        example, port = self.start("--graphite", f"127.0.0.1:{free_port()}", "--stdout", "--flush-interval", "200ms")
        example.expect_stderr(r"cannot send to graphite 127\.0\.0\.1:\d+: ECONNREFUSED")
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender:
            sender.sendto(b"after:5|c", ("127.0.0.1", port))
        for _ in range(10):
            metrics = next_flush(example)["metrics"]
            if metrics.get("stats.counters.after.count") == 5:
                break
        else:
            self.fail("the counter sent after graphite failed never showed up")
        self.stop_cleanly(example, signal.SIGINT)

    def test_load_100000_datagrams_a_second_loses_only_what_the_kernel_dropped(self):
        """~100,000 datagrams a second for 2 s: every datagram is either
        counted by statsd-agg or in the kernel's drop count for its socket."""
        example, port = self.start("--stdout", "--flush-interval", "250ms")
        received = 0
        hits = 0

        def take(flush):
            nonlocal received, hits
            received += flush["metrics"]["stats.counters.statsd.packets_received.count"]
            hits += flush["metrics"].get("stats.counters.load.hits.count", 0)
            return flush["metrics"]["stats.counters.statsd.packets_received.count"]

        take(next_flush(example))
        drops_before = udp_drops(port)
        sent = 0
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender:
            sender.connect(("127.0.0.1", port))
            payload = b"load.hits:1|c"
            started = time.monotonic()
            while True:
                elapsed = time.monotonic() - started
                if elapsed >= 2.0:
                    break
                due = int(elapsed * 100_000) + 1000 - sent
                for _ in range(max(0, due)):
                    sender.send(payload)
                sent += max(0, due)
                if due <= 0:
                    time.sleep(0.001)
            duration = time.monotonic() - started
        # Drained: a flush with nothing new, twice in a row.
        quiet = 0
        for _ in range(40):
            quiet = quiet + 1 if take(next_flush(example)) == 0 else 0
            if quiet == 2:
                break
        drops = udp_drops(port) - drops_before
        example.send_signal(signal.SIGTERM)
        take(next_flush(example))  # the last flush
        code, _ = example.wait(5)
        self.assertEqual(code, 0)
        print(f"  sent {sent} in {duration:.2f}s ({sent / duration:,.0f}/s): received {received:.0f}, kernel dropped {drops}", flush=True)
        self.assertGreater(sent / duration, 50_000)
        self.assertGreater(received, 0)
        self.assertEqual(received + drops, sent)
        self.assertEqual(hits, received)


if __name__ == "__main__":
    unittest.main()
