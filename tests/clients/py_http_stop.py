"""A save in flight when `ofgui-mcp-host serve --http` is told to stop (SIGTERM).

Usage: py_http_stop.py --url URL --token TOKEN --project DIR

The server runs with a save fault that pauses the commit for two seconds, and the test
sends it SIGTERM when its log shows the save reached the pause. The script opens the
project, applies one edit, saves, and requires the save to answer ok: a stopping server
finishes the calls in flight.
"""

from __future__ import annotations

import argparse
import json

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

PREFIX = "openfairygui_backend_"


def fail(message: str) -> None:
    raise SystemExit(f"py_http_stop: {message}")


async def call(client: Client, short: str, arguments: dict, additions: bool = False) -> dict:
    result = await client.call_tool(PREFIX + short, arguments)
    envelope = (result.structured_content or {}).get("backendResult") or {}
    if not envelope.get("ok"):
        fail(f"{short} failed: {json.dumps(envelope)[:1000]}")
    if additions:
        # What ofgui adds beyond upstream's result travels beside the envelope.
        return (result.meta or {}).get("ofgui/additions") or {}
    return envelope["data"]


async def run(args: argparse.Namespace) -> dict:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {args.token}"}, timeout=60)
    async with Client(streamable_http_client(args.url, http_client=http), mode="legacy") as client:
        session = (await call(client, "open_session", {"projectPath": args.project}))["sessionId"]
        move = [{"kind": "setDisplayNodeProps",
                 "selector": {"packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "n1_view"},
                 "props": {"position": {"x": 77, "y": 88}}}]
        await call(client, "apply_transaction", {"sessionId": session, "expectedRevision": 0, "operations": move})
        saved: dict = {}

        async def save() -> None:
            added = await call(client, "save_session", {"sessionId": session, "expectedRevision": 1}, additions=True)
            saved.update(added.get("saved") or {})

        await save()
        if len(saved.get("writtenPaths", [])) != 1:
            fail(f"the save wrote {saved}")
        return {"writtenPaths": saved["writtenPaths"]}


def main() -> None:
    parser = argparse.ArgumentParser()
    for name in ("--url", "--token", "--project"):
        parser.add_argument(name, required=True)
    print(json.dumps(anyio.run(run, parser.parse_args())))


if __name__ == "__main__":
    main()
