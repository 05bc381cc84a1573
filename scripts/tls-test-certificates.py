#!/usr/bin/env python3
"""Makes the certificates RxUV's TLS tests use, with the openssl command line,
in a folder given as the only argument (created if missing):

  ca.pem / ca.key                  the test CA ("RxUV Test CA")
  server.pem / server.key          localhost, 127.0.0.1 and ::1, signed by the CA
  chain.pem                        server.pem followed by ca.pem
  other.pem / other.key            other.example only, signed by the CA
  expired.pem / expired.key        localhost, valid in 2020 only
  future.pem / future.key          localhost, valid from 2090 on
  selfsigned.pem / selfsigned.key  localhost, signed by itself
  rogue-ca.pem, rogue.pem / .key   localhost, signed by a CA nobody trusts
  client.pem / client.key          a client certificate (CN=rxuv-client), signed by the CA

P-256 keys throughout, so the set takes a fraction of a second. Nothing here is
committed: every run makes new keys.
"""
import os
import subprocess
import sys

CA_CONFIG = """
[ ca ]
default_ca = test
[ test ]
dir = {dir}
database = {dir}/index.txt
new_certs_dir = {dir}/issued
serial = {dir}/serial
default_md = sha256
policy = anything
copy_extensions = none
unique_subject = no
[ anything ]
commonName = supplied
"""


def run(*arguments, cwd):
    subprocess.run(["openssl", *arguments], cwd=cwd, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def key_and_request(name, subject, cwd):
    run("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
        "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", subject, cwd=cwd)


def make_ca(name, subject, cwd):
    run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
        "-keyout", f"{name}.key", "-out", f"{name}.pem", "-subj", subject, "-days", "3650",
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        cwd=cwd)
    state = os.path.join(cwd, f"{name}-state")
    os.makedirs(os.path.join(state, "issued"), exist_ok=True)
    open(os.path.join(state, "index.txt"), "w").close()
    with open(os.path.join(state, "serial"), "w") as serial:
        serial.write("1000\n")
    with open(os.path.join(state, "ca.conf"), "w") as config:
        config.write(CA_CONFIG.format(dir=state))


def sign(name, ca, extensions, cwd, start=None, end=None):
    with open(os.path.join(cwd, f"{name}.ext"), "w") as ext:
        ext.write(extensions + "\n")
    dates = ["-startdate", start, "-enddate", end] if start else ["-days", "825"]
    run("ca", "-batch", "-notext", "-config", f"{ca}-state/ca.conf", "-cert", f"{ca}.pem", "-keyfile", f"{ca}.key",
        "-in", f"{name}.csr", "-out", f"{name}.pem", "-extfile", f"{name}.ext", *dates, cwd=cwd)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: tls-test-certificates.py FOLDER")
    folder = os.path.abspath(sys.argv[1])
    os.makedirs(folder, exist_ok=True)
    server_ext = "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE"
    make_ca("ca", "/CN=RxUV Test CA", folder)
    make_ca("rogue-ca", "/CN=RxUV Rogue CA", folder)
    for name in ("server", "expired", "future", "rogue"):
        key_and_request(name, "/CN=localhost", folder)
    key_and_request("other", "/CN=other.example", folder)
    key_and_request("client", "/CN=rxuv-client", folder)
    sign("server", "ca", server_ext, folder)
    sign("other", "ca", "subjectAltName=DNS:other.example\nextendedKeyUsage=serverAuth", folder)
    sign("expired", "ca", server_ext, folder, "20200101000000Z", "20200102000000Z")
    sign("future", "ca", server_ext, folder, "20900101000000Z", "20910101000000Z")
    sign("rogue", "rogue-ca", server_ext, folder)
    sign("client", "ca", "extendedKeyUsage=clientAuth\nbasicConstraints=CA:FALSE", folder)
    run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
        "-keyout", "selfsigned.key", "-out", "selfsigned.pem", "-subj", "/CN=localhost", "-days", "825",
        "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", cwd=folder)
    with open(os.path.join(folder, "chain.pem"), "w") as chain:
        for part in ("server.pem", "ca.pem"):
            with open(os.path.join(folder, part)) as pem:
                chain.write(pem.read())


if __name__ == "__main__":
    main()
