#!/usr/bin/env python3
"""Detection over a folder of images with Ray Data and `swift-yolo serve`.

Ray reads the images (`ray.data.read_binary_files`, so the nodes need no shared file system) and
hands batches to a pool of actors; each actor keeps one `swift-yolo serve` process on its node
(loopback, a free port) and POSTs its batch's images to `/v1/detect`. The results, one row per
image with the object `swift-yolo detect --json` prints, are written as Parquet and JSON Lines.

On one machine:
    python3 detect_with_ray.py --binary dist/swift-yolo --model Weights/yolo11n.swyolo IMAGES OUT

On a cluster: `ray start --head` on one node, `ray start --address HEAD:6379` on the others, the
binary (`make static`: dist/swift-yolo) and the weight file at the same path on every node, then
the same command with `--address HEAD:6379` (or `auto` on a node of the cluster).
"""
import argparse
import http.client
import json
import os
import subprocess
import uuid

import ray


class SwiftYOLOActor:
    """One `swift-yolo serve` process for the actor's life; detects in a batch of encoded images."""

    def __init__(self, binary, model, threads):
        self.server = subprocess.Popen(
            [binary, "serve", "--model", model, "--port", "0", "--workers", "1", "--threads", str(threads)],
            stdout=subprocess.PIPE, text=True)
        line = self.server.stdout.readline()
        if "listening on http://127.0.0.1:" not in line:
            raise RuntimeError(f"swift-yolo serve did not start: {line!r}")
        self.port = int(line.split("127.0.0.1:")[1].split()[0])

    def __call__(self, batch):
        results = []
        for path, data in zip(batch["path"], batch["bytes"]):
            results.append(json.dumps(self.detect(os.path.basename(path), data)))
        return {"path": list(batch["path"]), "result": results}

    def detect(self, name, data):
        boundary = uuid.uuid4().hex
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"image\"; filename=\"{name}\"\r\n"
                f"Content-Type: application/octet-stream\r\n\r\n").encode() + bytes(data) + f"\r\n--{boundary}--\r\n".encode()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        try:
            connection.request("POST", "/v1/detect", body=body,
                               headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
            response = connection.getresponse()
            return json.loads(response.read())
        finally:
            connection.close()

    def __del__(self):
        if getattr(self, "server", None) is not None:
            self.server.terminate()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("images", help="a folder of JPEG and PNG images")
    parser.add_argument("out", help="the output folder: OUT/parquet and OUT/jsonl")
    parser.add_argument("--binary", default="dist/swift-yolo", help="swift-yolo (the same path on every node)")
    parser.add_argument("--model", default="Weights/yolo11n.swyolo", help="the weight file (the same path on every node)")
    parser.add_argument("--address", default=None, help="a Ray cluster (HEAD:6379 or auto); default: a local instance")
    parser.add_argument("--actors", type=int, default=2, help="actors, each with one swift-yolo serve")
    parser.add_argument("--threads", type=int, default=1, help="threads of each actor's detections")
    parser.add_argument("--batch-size", type=int, default=8)
    arguments = parser.parse_args()

    binary, model = os.path.abspath(arguments.binary), os.path.abspath(arguments.model)
    if arguments.address:
        ray.init(address=arguments.address)
    else:
        # One CPU more than the actors hold, for the tasks that read the files.
        ray.init(num_cpus=arguments.actors * arguments.threads + 1, include_dashboard=False, log_to_driver=False)
    images = ray.data.read_binary_files(os.path.abspath(arguments.images), include_paths=True,
                                        file_extensions=["jpg", "jpeg", "png"])
    results = images.map_batches(
        SwiftYOLOActor, fn_constructor_args=(binary, model, arguments.threads), batch_size=arguments.batch_size,
        concurrency=arguments.actors, num_cpus=arguments.threads, batch_format="numpy")
    results = results.materialize()
    results.write_parquet(os.path.join(arguments.out, "parquet"))
    results.write_json(os.path.join(arguments.out, "jsonl"))
    print(f"ray: {results.count()} images, results in {arguments.out}/parquet and {arguments.out}/jsonl")


if __name__ == "__main__":
    main()
