"""Tenants of `ofgui-mcp-host serve --http` through the official Python SDK (PyPI `mcp`).

Usage: py_http.py --url URL --full TOKEN --read-only TOKEN --narrow TOKEN
                  --project-a DIR --project-b DIR --project-c DIR

The server must hold three tokens: `full` (every root), `read-only` (read-only) and
`narrow` (roots= the directory of project C only). Checks, exiting non-zero at the first
failure: requests without a valid token get 401 and no detail; a browser Origin the server
does not allow is refused; each token's sessions work over Streamable HTTP; a read-only
token cannot apply; a narrow token cannot open outside its roots; and no token reaches
another's session.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

PREFIX = "openfairygui_backend_"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "py_http", "version": "0"},
    },
}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def fail(message: str) -> None:
    raise SystemExit(f"py_http: {message}")


async def raw_checks(url: str, token: str) -> None:
    async with httpx2.AsyncClient() as http:
        for headers in ({}, {"Authorization": "Bearer not-a-token-of-this-server"}, {"Authorization": token}):
            response = await http.post(url, json=INITIALIZE, headers={**HEADERS, **headers})
            if response.status_code != 401 or response.content:
                fail(f"{headers} got {response.status_code} {response.content[:200]!r}, not a bare 401")
            if response.headers.get("www-authenticate") != "Bearer":
                fail("a 401 does not say WWW-Authenticate: Bearer")
        evil = {**HEADERS, "Authorization": f"Bearer {token}", "Origin": "http://evil.example"}
        response = await http.post(url, json=INITIALIZE, headers=evil)
        if response.status_code != 403:
            fail(f"a foreign Origin got {response.status_code}, not 403")
        base = url.rsplit("/mcp", 1)[0]
        for path in ("/healthz", "/readyz"):
            response = await http.get(base + path)
            if response.status_code != 200:
                fail(f"{path} answered {response.status_code}")


class Tenant:
    def __init__(self, client: Client) -> None:
        self.client = client

    async def call(self, short: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = await self.client.call_tool(PREFIX + short, arguments)
        structured = result.structured_content or {}
        envelope = structured.get("backendResult")
        if not isinstance(envelope, dict):
            fail(f"{short} has no backendResult: {structured}")
        if bool(result.is_error) == bool(envelope.get("ok")):
            fail(f"{short}: isError={result.is_error} but ok={envelope.get('ok')}")
        return envelope

    async def ok(self, short: str, arguments: dict[str, Any]) -> Any:
        envelope = await self.call(short, arguments)
        if not envelope["ok"]:
            fail(f"{short} failed: {json.dumps(envelope)[:1000]}")
        return envelope["data"]

    async def refused(self, short: str, arguments: dict[str, Any], code: str) -> dict[str, Any]:
        envelope = await self.call(short, arguments)
        if envelope["ok"] or envelope["error"]["code"] != code:
            fail(f"{short} should have failed with {code}: {json.dumps(envelope)[:1000]}")
        return envelope["error"]


def connect(url: str, token: str) -> Client:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60)
    return Client(streamable_http_client(url, http_client=http), mode="legacy")


MOVE = [{"kind": "setDisplayNodeProps",
         "selector": {"packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "n1_view"},
         "props": {"position": {"x": 1, "y": 2}}}]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    await raw_checks(args.url, args.full)
    # An edit left unsaved by a client that disconnects is there when it connects again.
    async with connect(args.url, args.full) as first:
        full = Tenant(first)
        session = (await full.ok("open_session", {"projectPath": args.project_a}))["sessionId"]
        outline = await full.ok("get_project_outline", {"sessionId": session})
        if not outline["packages"]:
            fail("the outline lists no package")
        await full.ok("apply_transaction", {"sessionId": session, "expectedRevision": 0, "operations": MOVE})
    async with connect(args.url, args.full) as full_client, connect(args.url, args.read_only) as ro_client, connect(
        args.url, args.narrow
    ) as narrow_client:
        full, read_only, narrow = Tenant(full_client), Tenant(ro_client), Tenant(narrow_client)
        again = await full.ok("get_session", {"sessionId": session})
        if again["revision"] != 1 or again["dirty"] is not True:
            fail(f"the session lost its unsaved edit across a reconnect: {again}")
        move = MOVE

        # Another token sees none of it. A read-only token opens the project beside the
        # writer without its lock, and never locks a writer out.
        beside = await read_only.ok("open_session", {"projectPath": args.project_a})
        if beside["lockHeld"] is not False:
            fail(f"a read-only session took the writers' lock: {beside}")
        await read_only.ok("close_session", {"sessionId": beside["sessionId"]})
        for other in (read_only, narrow):
            await other.refused("get_session", {"sessionId": session}, "session_not_found")
            await other.refused("close_session", {"sessionId": session}, "session_not_found")

        # Read-only: reads work, writes are refused before the backend; a writer opens the
        # same project meanwhile.
        ro = (await read_only.ok("open_session", {"projectPath": args.project_b}))["sessionId"]
        writer = (await full.ok("open_session", {"projectPath": args.project_b}))["sessionId"]
        await full.ok("close_session", {"sessionId": writer})
        await read_only.ok("validate_session", {"sessionId": ro})
        error = await read_only.refused(
            "apply_transaction", {"sessionId": ro, "expectedRevision": 0, "operations": move}, "read_only_token"
        )
        await read_only.refused("save_session", {"sessionId": ro}, "read_only_token")

        # Narrow roots: project C opens, project A is outside.
        await narrow.refused("open_session", {"projectPath": args.project_a}, "project_root_not_allowed")
        mine = (await narrow.ok("open_session", {"projectPath": args.project_c}))["sessionId"]
        await narrow.ok("get_session", {"sessionId": mine})
        await full.refused("get_session", {"sessionId": mine}, "session_not_found")
        # Two writers of one server: the second is told so, in words true for tenants and
        # without a process id.
        conflict = await full.refused("open_session", {"projectPath": args.project_c}, "lock_conflict")
        words = conflict["message"]
        if "another token of this server" not in words or "process" in words:
            fail(f"lock_conflict between tenants says: {words}")

        await full.ok("close_session", {"sessionId": session})
        return {"readOnlyMessage": error["message"], "ok": True}


def main() -> None:
    parser = argparse.ArgumentParser()
    for name in ("--url", "--full", "--read-only", "--narrow", "--project-a", "--project-b", "--project-c"):
        parser.add_argument(name, required=True)
    args = parser.parse_args()
    print(json.dumps(anyio.run(run, args)))


if __name__ == "__main__":
    main()
