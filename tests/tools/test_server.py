"""The server harness that the load benchmark and the multi-process test share."""

import http.client

from tools import server as harness


def test_the_harness_serves_the_site_until_the_block_ends():
    with harness.serve(harness.environment(DEBUG="1"), workers=1, asgi=False) as web:
        conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=10)
        conn.request("GET", "/health/", headers={"Host": "127.0.0.1"})
        assert conn.getresponse().status == 200
        conn.close()
        assert web.worker_pids(), "gunicorn's workers are not seen"
        process = web.process
    assert process.poll() is not None, "the server still runs after the block"
