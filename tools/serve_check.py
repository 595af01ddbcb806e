#!/usr/bin/env python3
"""End-to-end check of `swift-yolo serve` (the real binary on loopback), for CI:

- /v1/detect and /v2/models/NAME/infer give `swift-yolo detect --json`'s detections for bus.jpg;
- the health, metadata and metrics routes answer;
- each worker's pass gets its share of --max-memory: with 2 workers and 200 MB, a request for a
  1280-pixel input (about 111 MB of activations for bus.jpg) is refused, a 960-pixel one answered
  (one pass could take the whole limit, so every worker at once could take twice it);
- 64 requests at concurrency 32 get only 200s and deliberate 503s (with Retry-After);
- SIGTERM during load exits 0, and every request the server read was answered: its last line counts
  them ("stopped after N requests, every one answered"), and N is the number of answers the clients
  got. A connection the server has not read when it stops (in the kernel's listen queue, or just
  accepted) is reset; the client cannot tell that from a dropped request, so the server's count
  decides, not the resets.

Usage: tools/serve_check.py SWIFT_YOLO MODEL IMAGE
"""
import base64
import collections
import http.client
import json
import signal
import subprocess
import sys
import threading
import time


def request(port, method, path, body=None, headers=None, timeout=60):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers={"Connection": "close", **(headers or {})})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def start(binary, model, *options):
    server = subprocess.Popen([binary, "serve", "--model", model, "--port", "0", *options],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    if "listening on http://127.0.0.1:" not in line:
        server.kill()
        sys.exit(f"serve-check: the server did not start: {line!r} {server.stderr.read()!r}")
    return server, int(line.split("127.0.0.1:")[1].split()[0])


def without_timings(result):
    return {key: value for key, value in result.items() if key not in ("image", "timing_ms")}


def main():
    binary, model, image_path = sys.argv[1:4]
    image = open(image_path, "rb").read()
    cli = json.loads(subprocess.run([binary, "detect", "--json", "--model", model, image_path],
                                    check=True, capture_output=True, text=True).stdout)
    name = model.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    failures = []

    def check(condition, message):
        if not condition:
            failures.append(message)

    server, port = start(binary, model, "--workers", "2", "--max-queue", "2", "--max-memory", "200M")
    try:
        status, _, body = request(port, "POST", "/v1/detect", image, {"Content-Type": "image/jpeg"})
        answer = json.loads(body)
        check(status == 200 and answer["image"] is None and without_timings(answer) == without_timings(cli),
              f"/v1/detect differs from detect --json: {status} {body[:300]!r}")

        infer = {"id": "1", "inputs": [{"name": "image", "shape": [1], "datatype": "BYTES",
                                        "data": [base64.b64encode(image).decode()]}]}
        status, _, body = request(port, "POST", f"/v2/models/{name}/infer", json.dumps(infer), {"Content-Type": "application/json"})
        output = json.loads(body)["outputs"][0]
        rows = [output["data"][i:i + 6] for i in range(0, len(output["data"]), 6)]
        expected = [d["box"] + [d["confidence"], d["class"]] for d in cli["detections"]]
        check(status == 200 and output["shape"] == [len(expected), 6] and rows == expected,
              f"/v2/models/{name}/infer differs from detect --json: {status} {body[:300]!r}")
        check(json.loads(output["parameters"]["labels"]) == [d["label"] for d in cli["detections"]], "the labels parameter differs")

        for path in ("/v2/health/live", "/v2/health/ready", f"/v2/models/{name}", "/metrics"):
            status, _, _ = request(port, "GET", path)
            check(status == 200, f"GET {path}: {status}")
        _, _, metrics = request(port, "GET", "/metrics")
        check(b'swiftyolo_http_requests_total{route="/v1/detect",status="200"} 1' in metrics, "the metrics miss /v1/detect's request")

        status, _, body = request(port, "POST", "/v1/detect?imgsz=1280", image, {"Content-Type": "image/jpeg"})
        check(status == 400 and b"over the memory limit of 100.0 MB" in body, f"imgsz=1280 past a worker's share: {status} {body[:300]!r}")
        status, _, body = request(port, "POST", "/v1/detect?imgsz=960", image, {"Content-Type": "image/jpeg"})
        check(status == 200, f"imgsz=960 within a worker's share: {status} {body[:300]!r}")

        # Concurrency 32 against 2 workers and 2 places in the queue: 200s and deliberate 503s only.
        statuses, retry_after = [], set()
        lock = threading.Lock()

        def client():
            for _ in range(2):
                try:
                    status, headers, _ = request(port, "POST", "/v1/detect", image, {"Content-Type": "image/jpeg"})
                except OSError as error:
                    status, headers = f"error {error}", {}
                with lock:
                    statuses.append(status)
                    if status == 503:
                        retry_after.add(headers.get("Retry-After"))

        threads = [threading.Thread(target=client) for _ in range(32)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        counts = dict(collections.Counter(statuses))
        check(set(statuses) <= {200, 503} and 200 in statuses and 503 in statuses and retry_after == {"1"},
              f"concurrency 32: statuses {counts}, Retry-After {retry_after}")
    finally:
        server.kill()
        server.wait()

    # SIGTERM under load: every request sent whole is answered; the server exits 0.
    server, port = start(binary, model, "--workers", "2", "--max-queue", "8")
    answered, reset, refused = [], [], []
    stop = threading.Event()

    def loader():
        while not stop.is_set():
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            try:
                connection.connect()
            except OSError:
                refused.append(1)
                time.sleep(0.05)
                continue
            try:
                connection.request("POST", "/v1/detect", body=image, headers={"Content-Type": "image/jpeg", "Connection": "close"})
            except OSError:
                refused.append(1)  # closed before the request was read: not accepted
                connection.close()
                continue
            try:
                response = connection.getresponse()
                response.read()
                answered.append(response.status)
            except OSError as error:
                reset.append(str(error))  # unread (the listen queue at the stop) or dropped: the server's count tells
            finally:
                connection.close()

    threads = [threading.Thread(target=loader) for _ in range(8)]
    for thread in threads:
        thread.start()
    time.sleep(2)
    server.send_signal(signal.SIGTERM)
    try:
        code = server.wait(timeout=60)
    except subprocess.TimeoutExpired:
        server.kill()
        code = "did not exit within 60 s"
    stop.set()
    for thread in threads:
        thread.join()
    check(code == 0, f"SIGTERM during load: exit status {code}")
    last = (server.stdout.read().strip().splitlines() or [""])[-1]
    check(last == f"swift-yolo serve: stopped after {len(answered)} requests, every one answered"
          and answered and set(answered) <= {200, 503},
          f"SIGTERM during load: the clients got {len(answered)} answers ({set(answered)}) and {len(reset)} resets "
          f"{reset[:3]}; the server's last line: {last!r}")

    if failures:
        print("serve-check: FAILED\n  " + "\n  ".join(failures))
        sys.exit(1)
    print(f"serve-check: /v1/detect and KServe infer equal detect --json ({len(cli['detections'])} detections); "
          f"concurrency 32: {counts}; SIGTERM under load: exit 0, {len(answered)} requests read and answered, none dropped"
          f"{f' ({len(reset)} reset unread at the stop)' if reset else ''}")


if __name__ == "__main__":
    main()
