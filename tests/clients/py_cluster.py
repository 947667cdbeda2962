"""Agents editing through a load balancer in front of two nodes, with the official Python
SDK (PyPI `mcp`), while the test kills a node and starts it again.

Usage: py_cluster.py --url URL --edits N --modern DIR... --legacy DIR...

Each `--modern` project gets an agent speaking MCP 2026-07-28 (no protocol session), each
`--legacy` one an agent with the initialize handshake (an `Mcp-Session-Id`). Every agent
opens its project, then moves the first display node of the first component to x = 1, 2,
... N, one apply at a time with its expected revision, saving after every third, and saves
at the end. The test drives the nodes: when every agent has applied a third of its edits
this prints `KILL` and waits for a line on stdin; at two thirds `RESTART`, likewise.
The agents go on through the kill; the last third waits for the restart. At the end it prints one JSON line: per agent its session
id, the revisions its applies were answered with, and every error it saw (none is the
pass).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

PREFIX = "openfairygui_backend_"


class Progress:
    """How far the slowest agent got, for the kill and the restart to fall mid-run."""

    def __init__(self, agents: int) -> None:
        self.done = [0] * agents
        self.changed = anyio.Condition()
        # Set once the restarted node serves again: the last third of the edits waits for
        # it, so requests reach the node that came back.
        self.rejoined = anyio.Event()

    async def applied(self, agent: int) -> None:
        async with self.changed:
            self.done[agent] += 1
            self.changed.notify_all()

    async def all_reached(self, count: int) -> None:
        async with self.changed:
            while min(self.done) < count:
                await self.changed.wait()


async def call(client: Client, short: str, arguments: dict[str, Any]) -> dict[str, Any]:
    try:
        with anyio.fail_after(60):
            result = await client.call_tool(PREFIX + short, arguments)
    except TimeoutError:
        raise RuntimeError(f"{short} had no answer in 60 s") from None
    envelope = (result.structured_content or {}).get("backendResult") or {}
    if result.is_error or not envelope.get("ok"):
        raise RuntimeError(f"{short}: {json.dumps(envelope)[:600]}")
    return envelope["data"]


def first_node(outline: dict[str, Any]) -> dict[str, str]:
    for package in outline["packages"]:
        for resource in package["resources"]:
            nodes = (resource.get("component") or {}).get("displayList") or []
            if nodes:
                return {
                    "packageId": package["id"],
                    "componentResourceId": resource["id"],
                    "displayNodeId": nodes[0]["id"],
                }
    raise RuntimeError("no display node")


async def agent(index: int, url: str, project: str, mode: str, edits: int, progress: Progress) -> dict[str, Any]:
    seen: dict[str, Any] = {"project": project, "mode": mode, "revisions": [], "errors": []}
    http = httpx2.AsyncClient(timeout=120)
    try:
        async with Client(streamable_http_client(url, http_client=http), mode=mode) as client:
            seen["protocol"] = client.protocol_version
            opened = await call(client, "open_session", {"projectPath": project})
            sid = opened["sessionId"]
            seen["sessionId"] = sid
            outline = await call(client, "get_project_outline", {"sessionId": sid})
            selector = first_node(outline)
            revision = opened["revision"]
            for x in range(1, edits + 1):
                if x == 2 * edits // 3 + 1:
                    await progress.rejoined.wait()
                applied = await call(
                    client,
                    "apply_transaction",
                    {
                        "sessionId": sid,
                        "expectedRevision": revision,
                        "operations": [
                            {"kind": "setDisplayNodeProps", "selector": selector, "props": {"position": {"x": x, "y": 7}}}
                        ],
                    },
                )
                revision = applied["revision"]
                seen["revisions"].append(revision)
                if x % 3 == 0:
                    await call(client, "save_session", {"sessionId": sid, "expectedRevision": revision})
                await progress.applied(index)
            await call(client, "save_session", {"sessionId": sid, "expectedRevision": revision})
            state = await call(client, "get_session", {"sessionId": sid})
            seen["finalRevision"] = state["revision"]
            seen["dirty"] = state.get("dirty")
            await call(client, "close_session", {"sessionId": sid})
    except BaseException as error:  # noqa: BLE001 - every failure is reported, none hidden
        seen["errors"].extend(describe(error))
        # The others must not wait for an agent that stopped.
        for _ in range(edits):
            await progress.applied(index)
    finally:
        await http.aclose()
    return seen


def describe(error: BaseException) -> list[str]:
    """An error in plain words; a task group's, each of the errors it gathered."""
    if isinstance(error, BaseExceptionGroup):
        return [line for inner in error.exceptions for line in describe(inner)]
    return [f"{type(error).__name__}: {error}"[:2000]]


async def control(progress: Progress, edits: int) -> None:
    for step, at in (("KILL", edits // 3), ("RESTART", 2 * edits // 3)):
        await progress.all_reached(at)
        print(step, flush=True)
        await anyio.to_thread.run_sync(sys.stdin.readline)
    progress.rejoined.set()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--edits", type=int, required=True)
    parser.add_argument("--modern", nargs="*", default=[])
    parser.add_argument("--legacy", nargs="*", default=[])
    args = parser.parse_args()
    plan = [(project, "auto") for project in args.modern] + [(project, "legacy") for project in args.legacy]
    progress = Progress(len(plan))
    results: list[Any] = [None] * len(plan)

    async def run(index: int, project: str, mode: str) -> None:
        results[index] = await agent(index, args.url, project, mode, args.edits, progress)

    async with anyio.create_task_group() as group:
        group.start_soon(control, progress, args.edits)
        for index, (project, mode) in enumerate(plan):
            group.start_soon(run, index, project, mode)
    print(json.dumps(results), flush=True)


if __name__ == "__main__":
    anyio.run(main)
