"""The files of deploy/ work as docs/DEPLOY.md says: the systemd units pass systemd's own check, and nginx with
deploy/nginx-racko.conf (Debian's nginx, a self-signed certificate) serves racko over TLS, WebSockets included, with
the page's https origin accepted and a foreign one refused.  HAProxy's configuration is run by test_ops_cluster."""

from __future__ import annotations

import json
import os
import re
import shutil
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from racko.tools.bench.processes import HOST, ServeProcess, free_port

DEPLOY = Path(__file__).resolve().parents[3] / "deploy"


def _program(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin:/sbin:/bin")
    assert found, f"{name} is not installed: the README's test command installs it"
    return found


@pytest.mark.parametrize("unit", ["racko.service", "racko@.service"])
def test_the_systemd_units_pass_systemds_check(unit: str, tmp_path: Path) -> None:
    # The units name /opt/racko/bin/racko, where DEPLOY.md installs racko; here it is the suite's own racko.
    racko = Path(sys.executable).with_name("racko")
    text = (DEPLOY / unit).read_text().replace("/opt/racko/bin/racko", str(racko))
    name = unit.replace("@.", "@8001.")
    (tmp_path / name).write_text(text)
    done = subprocess.run(
        [_program("systemd-analyze"), "verify", "--man=no", str(tmp_path / name)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    complaints = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert done.returncode == 0 and not complaints, complaints


@pytest.fixture
def behind_nginx(tmp_path: Path) -> Iterator[tuple[str, ServeProcess]]:
    """racko serve behind nginx configured with deploy/nginx-racko.conf (its ports, paths and certificate made
    local); yields nginx's https address."""
    server = ServeProcess(tmp_path, str(tmp_path / "tables.sqlite3"), "behind-nginx", "--pace", "0")
    server.start()
    certificate, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [_program("openssl"), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", f"/CN={HOST}",
         "-keyout", str(key), "-out", str(certificate)],
        check=True,
        capture_output=True,
        timeout=60,
    )  # fmt: skip
    https, http = free_port(), free_port()
    site = (DEPLOY / "nginx-racko.conf").read_text()
    site = "\n".join(line for line in site.splitlines() if "[::]" not in line)  # no IPv6 on every test machine
    site = site.replace("listen 80;", f"listen {HOST}:{http};").replace(
        "listen 443 ssl http2;", f"listen {HOST}:{https} ssl http2;"
    )
    site = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {certificate};", site)
    site = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", site)
    site = site.replace("server 127.0.0.1:8000;", f"server {HOST}:{server.port};")
    temporary = tmp_path / "nginx"
    temporary.mkdir()
    main = f"""
{"user root;" if os.geteuid() == 0 else ""}
daemon off;
pid {temporary}/nginx.pid;
error_log {temporary}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {temporary}/body;
    proxy_temp_path {temporary}/proxy;
    fastcgi_temp_path {temporary}/fastcgi;
    uwsgi_temp_path {temporary}/uwsgi;
    scgi_temp_path {temporary}/scgi;
{site}
}}
"""
    (temporary / "nginx.conf").write_text(main)
    nginx = subprocess.Popen(
        [_program("nginx"), "-c", str(temporary / "nginx.conf"), "-p", str(temporary)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"https://{HOST}:{https}"
    try:
        assert _healthy_over_tls(url, nginx), (temporary / "error.log").read_text()
        yield url, server
    finally:
        nginx.terminate()
        nginx.wait(timeout=30)
        server.stop(10)


def _healthy_over_tls(url: str, nginx: subprocess.Popen[bytes]) -> bool:
    for _ in range(200):
        if nginx.poll() is not None:
            return False
        try:
            if httpx.get(url + "/healthz", verify=False, trust_env=False, timeout=5).status_code == 200:
                return True
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    return False


def test_nginx_serves_racko_over_tls_with_its_websocket_and_the_page_s_origin(
    behind_nginx: tuple[str, ServeProcess],
) -> None:
    url, _ = behind_nginx
    page = httpx.get(url + "/", verify=False, trust_env=False, timeout=30)
    assert page.status_code == 200 and "Rack-O" in page.text and page.headers["Strict-Transport-Security"]
    assert httpx.get(url + "/metrics", verify=False, trust_env=False, timeout=30).status_code == 404
    made = httpx.post(
        url + "/api/tables",
        json={"variant": "classic", "players": 2, "seats": ["me", "easy"], "names": ["Ann"]},
        headers={"Origin": url},  # as the start page sends it
        verify=False,
        trust_env=False,
        timeout=30,
    )
    assert made.status_code == 200, made.text
    table = made.json()
    insecure = ssl.create_default_context()
    insecure.check_hostname = False
    insecure.verify_mode = ssl.CERT_NONE
    socket_url = url.replace("https", "wss") + f"/ws/{table['table']}"
    with connect(socket_url, ssl=insecure, proxy=None, additional_headers={"Origin": url}) as ws:
        ws.send(json.dumps({"type": "hello", "token": table["seats"][0]["token"], "version": 0}))
        frames = [json.loads(ws.recv(timeout=30)) for _ in range(2)]
        assert [frame["type"] for frame in frames] == ["welcome", "state"]
        assert len(frames[1]["view"]["rack"]) == 10  # this seat sees its own rack, over wss through nginx
    with pytest.raises(InvalidStatus) as refused:
        connect(socket_url, ssl=insecure, proxy=None, additional_headers={"Origin": "https://evil.example"})
    assert refused.value.response.status_code == 403
