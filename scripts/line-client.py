#!/usr/bin/env python3
"""A line client for trying the examples by hand: what you type goes to the
server, what the server sends is printed. Python's standard library only, so
it works on a fresh Debian where `nc` is not installed.

    python3 scripts/line-client.py 127.0.0.1 7000

End with Ctrl-D (half-closes the connection, then waits for the server to
close) or Ctrl-C.
"""
import socket
import sys
import threading


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: line-client.py HOST PORT")
    host, port = sys.argv[1], int(sys.argv[2])
    try:
        connection = socket.create_connection((host, port))
    except OSError as error:
        sys.exit(f"line-client: cannot connect to {host}:{port}: {error}")

    def print_replies():
        while True:
            data = connection.recv(65536)
            if not data:
                break
            sys.stdout.write(data.decode("utf-8", "replace"))
            sys.stdout.flush()

    reader = threading.Thread(target=print_replies)
    reader.start()
    try:
        for line in sys.stdin:
            connection.sendall(line.encode())
        connection.shutdown(socket.SHUT_WR)
        reader.join()
    except KeyboardInterrupt:
        pass
    finally:
        connection.close()


if __name__ == "__main__":
    main()
