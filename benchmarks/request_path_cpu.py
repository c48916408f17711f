"""The client's CPU per request on the pooled path, each of its steps on and off, in one process.

One thread sends ``DELETE`` requests with a JSON body and a bearer token (a delete's request) to
the bare FastAPI app of ``request_floor.py`` (uvicorn's answer head, as the emulator's), through
the pooled client's transport, in three variants that take turns in short blocks so that the
rest of the machine falls on all alike:

* ``http.client head, httpx send``: the answer's head read by ``http.client`` (``email.parser``)
  and the request sent through ``httpx.Client.send``: the path before either step;
* ``own head, httpx send``: the head read by ``_keepalive._Response``;
* ``own head, pooled send``: and sent through ``PooledClient.send``: the pooled client today.

Prints the median CPU per request of each, in microseconds, with the load::

    .venv/bin/python benchmarks/request_path_cpu.py [--rounds 15] [--block 500]
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import time
from collections.abc import Callable

import httpx
from request_floor import answering_server

from apinizer_pulumi.client._auth import BearerTokenAuth
from apinizer_pulumi.client._keepalive import KeepAliveTransport, _Response
from apinizer_pulumi.client._transport_pool import PooledClient, build_request, lean_cookies

HEADERS = (("Accept", "application/json"), ("Content-Type", "application/json"))
BODY = b'{"name":"/pets/{id}","httpMethod":"GET"}'


def sender(client: httpx.Client, url: httpx.URL,
           head: type[http.client.HTTPResponse]) -> Callable[[int], None]:
    auth = BearerTokenAuth("t" * 40)
    transport = client._transport
    assert isinstance(transport, KeepAliveTransport)

    def send(count: int) -> None:
        transport.response_class = head
        for _ in range(count):
            request = build_request(client, "DELETE", url, content=BODY, headers=HEADERS, timeout=30.0)
            client.send(request, auth=auth).raise_for_status()
    return send


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--block", type=int, default=500)
    args = parser.parse_args()
    with answering_server("fastapi") as (_, base):
        url = httpx.URL(f"{base}/apiops/projects/Demo/apiProxies/PetStore/endpoints/")
        plain = lean_cookies(httpx.Client(transport=KeepAliveTransport(), follow_redirects=False))
        pooled = lean_cookies(PooledClient(transport=KeepAliveTransport(), follow_redirects=False))
        variants = {"http.client head, httpx send": sender(plain, url, http.client.HTTPResponse),
                    "own head, httpx send": sender(plain, url, _Response),
                    "own head, pooled send": sender(pooled, url, _Response)}
        spent: dict[str, list[float]] = {name: [] for name in variants}
        loads = []
        try:
            for send in variants.values():
                send(50)  # connections open, caches warm
            names = list(variants)
            for round_ in range(args.rounds):
                for name in names[round_ % len(names):] + names[:round_ % len(names)]:
                    before = time.process_time()
                    variants[name](args.block)
                    spent[name].append((time.process_time() - before) / args.block * 1e6)
                loads.append(os.getloadavg()[0])
        finally:
            plain.close()
            pooled.close()
    print(f"CPU per request, median of {args.rounds} blocks of {args.block} (one thread; "
          f"load {min(loads):.1f}-{max(loads):.1f}):")
    for name, figures in spent.items():
        print(f"  {name:32} {statistics.median(figures):6.1f} us  (quartiles "
              f"{' '.join(f'{q:.1f}' for q in statistics.quantiles(figures, n=4))})")


if __name__ == "__main__":
    main()
