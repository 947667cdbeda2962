"""A save in flight when `ofgui-mcp-host serve --http` is told to stop (SIGTERM).

Usage: py_http_stop.py --url URL --token TOKEN --project DIR --server-pid PID

The server runs with a save fault that pauses the commit for two seconds. The script
opens the project, applies one edit, starts the save, sends SIGTERM once the save has
staged its file (while the fault holds it), and requires the save to answer ok: a
stopping server finishes the calls in flight.
"""

from __future__ import annotations

import argparse
import json
import os
import signal

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


async def staged(project: str) -> None:
    """Returns once a save has staged a file in the project (within 60 s)."""
    with anyio.fail_after(60):
        while True:
            for _, _, files in os.walk(project):
                if any(".ofgui-staged-" in name for name in files):
                    return
            await anyio.sleep(0.02)


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

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(save)
            # The fault holds the commit for two seconds once the file is staged; stop the
            # server inside them. Waiting for the staged file, not a fixed time, keeps a
            # slow machine from stopping the server before the save has even arrived.
            await staged(args.project)
            os.kill(args.server_pid, signal.SIGTERM)
        if len(saved.get("writtenPaths", [])) != 1:
            fail(f"the save wrote {saved}")
        return {"writtenPaths": saved["writtenPaths"]}


def main() -> None:
    parser = argparse.ArgumentParser()
    for name in ("--url", "--token", "--project"):
        parser.add_argument(name, required=True)
    parser.add_argument("--server-pid", type=int, required=True)
    print(json.dumps(anyio.run(run, parser.parse_args())))


if __name__ == "__main__":
    main()
