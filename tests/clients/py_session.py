"""A scripted agent session through the official Python SDK (PyPI `mcp`).

Usage: py_session.py --project DIR --server-log FILE [--mode legacy|auto] -- SERVER [ARGS...]

`--mode legacy` connects with the initialize handshake; `auto` (the SDK's default) probes
`server/discover` first and takes the 2026 protocol when the server offers it.

Does what an agent does with one project (list, read the docs, open, outline, search, query,
read, validate, preflight, apply, save, events, close) and exits non-zero on the first
failure. On the way it uses the MCP features beyond upstream: progress of the open, the
completion of a resource-template argument, and a subscription to its session resource
(`resources/subscribe` on the handshake protocol, `subscriptions/listen` on 2026-07-28) that
must report the apply. Every tool result is held to the tool's advertised output schema by the SDK itself
(`ClientSession.call_tool` validates successes; failures are validated explicitly here).
The SDK's own warnings go to stderr through `logging` and `warnings`; the caller treats any
stderr output as a failure, so nothing here silences them.
"""

from __future__ import annotations

import argparse
import base64
import json
import logging
import sys
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.subscriptions import ResourceUpdated
from mcp.shared.exceptions import MCPDeprecationWarning
from mcp.types import ResourceTemplateReference, ResourceUpdatedNotification

PREFIX = "openfairygui_backend_"


def fail(message: str) -> None:
    raise SystemExit(f"py_session: {message}")


class Session:
    def __init__(self, client: Client) -> None:
        self.client = client
        self.tools: dict[str, Any] = {}
        self.calls: list[str] = []

    async def list_tools(self) -> None:
        cursor = None
        while True:
            page = await self.client.list_tools(cursor=cursor)
            for tool in page.tools:
                self.tools[tool.name] = tool
            cursor = page.next_cursor
            if cursor is None:
                break
        for name, tool in self.tools.items():
            # Every backend tool's results are held to its output schema; the docs tool,
            # like upstream's, answers with text only.
            if name.startswith(PREFIX) and not tool.output_schema:
                fail(f"{name} advertises no outputSchema, so nothing would validate its results")
        if "openfairygui_docs_read" not in self.tools:
            fail("openfairygui_docs_read is not in tools/list")

    async def call(
        self, short: str, arguments: dict[str, Any], expect_ok: bool = True, progress: list[Any] | None = None
    ) -> Any:
        name = PREFIX + short
        if name not in self.tools:
            fail(f"{name} is not in tools/list")

        async def record(done: float, total: float | None, message: str | None) -> None:
            assert progress is not None
            progress.append((done, total, message))

        # Raises RuntimeError when a successful result does not match the output schema.
        result = await self.client.call_tool(
            name, arguments, progress_callback=record if progress is not None else None
        )
        if result.is_error:
            # The SDK skips failures; an agent still reads them, so hold them to the schema too.
            await self.client.session.validate_tool_result(name, result)
        structured = result.structured_content
        if structured is None:
            fail(f"{name} returned no structuredContent")
        envelope = structured.get("backendResult")
        if not isinstance(envelope, dict):
            fail(f"{name} structuredContent has no backendResult: {structured}")
        if bool(result.is_error) == bool(envelope.get("ok")):
            fail(f"{name}: isError={result.is_error} but ok={envelope.get('ok')}")
        if expect_ok and not envelope["ok"]:
            fail(f"{name} failed: {json.dumps(envelope)[:2000]}")
        self.calls.append(short)
        # What ofgui adds beyond upstream's result travels beside the envelope.
        self.additions = (result.meta or {}).get("ofgui/additions") or {}
        return envelope.get("data")


async def check_validator_rejects(client: Client, tool: str, sample: Any) -> None:
    """Proves the SDK's output-schema path is live: a result breaking the schema must raise."""
    broken = sample.model_copy(update={"structured_content": {"backendResult": {"ok": "yes"}}, "is_error": False})
    try:
        await client.session.validate_tool_result(tool, broken)
    except RuntimeError:
        return
    fail(f"the SDK accepted a result that breaks {tool}'s output schema; validation is not running")


MODERN = "2026-07-28"


class Updates:
    """`notifications/resources/updated` of the handshake protocol, from the message handler."""

    def __init__(self) -> None:
        self.uris: list[str] = []
        self.arrived = anyio.Event()

    async def handle(self, message: Any) -> None:
        if isinstance(message, ResourceUpdatedNotification):
            self.uris.append(message.params.uri)
            self.arrived.set()


@asynccontextmanager
async def watch(client: Client, updates: Updates, uri: str) -> AsyncIterator[Callable[[], Awaitable[None]]]:
    """Subscribes to `uri` the way the negotiated protocol offers; yields a wait for its update."""
    if client.protocol_version == MODERN:
        async with client.listen(resource_subscriptions=[uri]) as subscription:
            if subscription.honored.resource_subscriptions != [uri]:
                fail(f"the server did not honour the subscription to {uri}: {subscription.honored}")

            async def next_update() -> None:
                with anyio.fail_after(30):
                    event = await subscription.__anext__()
                if event != ResourceUpdated(uri=uri):
                    fail(f"expected an update of {uri}, got {event}")

            yield next_update
        return

    async def updated() -> None:
        with anyio.fail_after(30):
            await updates.arrived.wait()
        if updates.uris != [uri]:
            fail(f"expected one update of {uri}, got {updates.uris}")

    # resources/subscribe is the handshake protocol's way (the SDK flags it as superseded
    # by listen, which this protocol does not have).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        await client.subscribe_resource(uri)
    yield updated
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        await client.unsubscribe_resource(uri)


async def run(project: str, server: list[str], server_log: str, mode: str) -> dict[str, Any]:
    params = StdioServerParameters(command=server[0], args=server[1:], env={"OFGUI_LOG": "warn"})
    updates = Updates()
    with open(server_log, "w", encoding="utf-8") as errlog:
        # Apart from the mode and a handler for resource updates, the SDK's defaults, as an
        # agent host would use them.
        async with Client(stdio_client(params, errlog=errlog), mode=mode, message_handler=updates.handle) as client:
            if mode == "legacy" and client.protocol_version == MODERN:
                fail("legacy mode negotiated the 2026 protocol")
            s = Session(client)
            await s.list_tools()

            docs = await client.read_resource("openfairygui://docs/index")
            index = json.loads(docs.contents[0].text)
            if not index:
                fail("the docs index is empty")

            progress: list[Any] = []
            opened = await s.call("open_session", {"projectPath": project}, progress=progress)
            sid = opened["sessionId"]
            if [done for done, _, _ in progress] != [0, 1, 2] or {total for _, total, _ in progress} != {2}:
                fail(f"open_session progress should go 0, 1, 2 of 2: {progress}")

            template = ResourceTemplateReference(uri="openfairygui://backend/session/{sessionId}")
            completed = await client.complete(template, {"name": "sessionId", "value": sid[:4].upper()})
            if completed.completion.values != [sid] or completed.completion.total != 1:
                fail(f"completing sessionId from {sid[:4].upper()!r} gave {completed.completion}")
            outline = await s.call("get_project_outline", {"sessionId": sid})
            light = await s.call("get_project_outline", {"sessionId": sid, "detail": "packages"})
            if not light["packages"]:
                fail("the outline lists no packages")

            found = await s.call(
                "search_project",
                # The editor names display nodes n0, n1, ... unless renamed; every project has some.
                {"sessionId": sid, "query": {"name": "n", "entities": "nodes"}, "page": {"limit": 5}},
            )
            nodes = [m for m in found["matches"] if m["target"]["kind"] == "displayNode"]
            if not nodes:
                fail(f"search found no display node: {found}")
            target = nodes[0]["target"]
            await s.call("query_entity", {"sessionId": sid, "target": target})

            session = await s.call("get_session", {"sessionId": sid})
            revision = session["revision"]
            package = target["selector"]["packageId"]
            await s.call(
                "read_session_state",
                {"sessionId": sid, "expectedRevision": revision, "scope": {"packageIds": [package]}},
            )
            await s.call("validate_session", {"sessionId": sid})
            image = next(
                (
                    (p["id"], r["id"])
                    for p in outline["packages"]
                    for r in p["resources"]
                    if r["kind"] == "image"
                ),
                None,
            )
            if image is None:
                fail("the outline lists no image")
            read = await s.call(
                "read_resource_bytes",
                {
                    "sessionId": sid,
                    "expectedRevision": revision,
                    "selector": {"packageId": image[0], "resourceId": image[1]},
                },
            )
            if not read["sourceBytes"]:
                fail(f"read_resource_bytes gave no bytes for {image}")

            batch = {
                "sessionId": sid,
                "expectedRevision": revision,
                "operations": [
                    {
                        "kind": "setDisplayNodeProps",
                        "selector": target["selector"],
                        "props": {"position": {"x": 12, "y": 34}},
                    }
                ],
            }
            await s.call("preflight_transaction", batch)
            async with watch(client, updates, f"openfairygui://backend/session/{sid}") as updated:
                applied = await s.call("apply_transaction", batch)
                await updated()
            after = applied["revision"]
            if after != revision + 1:
                fail(f"apply_transaction moved the revision from {revision} to {after}")
            await s.call("save_session", {"sessionId": sid, "expectedRevision": after})
            saved = s.additions.get("saved") or {}
            if not saved.get("writtenPaths") or saved.get("writeVerified") is not True:
                fail(f"save_session wrote nothing or did not verify: {s.additions}")
            events = await s.call("get_events", {"sessionId": sid})
            if not events["events"]:
                fail("get_events returned no events after open, apply and save")
            await s.call("get_cache_snapshot", {"sessionId": sid})
            refreshed = await s.call("refresh_cache", {"sessionId": sid, "reason": "manual"})
            if not refreshed["entries"] or not refreshed["entries"][0]["valid"]:
                fail(f"refresh_cache gave no valid entry: {refreshed}")
            await s.call("get_capabilities", {})
            await read_every_resource(client, sid)
            await get_every_prompt(client)
            await read_docs(client)
            await document_session(s, sid, light["packages"], project)
            # A failure is part of a session too: it must fit the same schema.
            await s.call("get_session", {"sessionId": "no-such-session"}, expect_ok=False)
            await s.call("close_session", {"sessionId": sid})

            sample = await client.call_tool(PREFIX + "get_capabilities", {})
            await check_validator_rejects(client, PREFIX + "get_capabilities", sample)
            missing = sorted(
                name[len(PREFIX) :] for name in s.tools if name.startswith(PREFIX) and name[len(PREFIX) :] not in s.calls
            )
            if missing:
                fail(f"the session never called {missing}")
            return {
                "client": "python mcp",
                "protocolVersion": client.protocol_version,
                "tools": len(s.tools),
                "calls": s.calls,
                "subscription": "subscriptions/listen" if client.protocol_version == MODERN else "resources/subscribe",
            }


async def read_every_resource(client: Client, sid: str) -> None:
    """Every listed resource, and one of every template kind, reads as what it says."""
    listed = await client.list_resources()
    if len(listed.resources) < 8:
        fail(f"resources/list has {len(listed.resources)} resources")
    for resource in listed.resources:
        read = await client.read_resource(resource.uri)
        if not read.contents or not read.contents[0].text:
            fail(f"{resource.uri} reads empty")
    templates = await client.list_resource_templates()
    examples = {
        "openfairygui://docs/methods/{method}": "openfairygui://docs/methods/saveSession",
        "openfairygui://docs/cli/{command}": "openfairygui://docs/cli/apply",
        "openfairygui://docs/diagnostics/{code}": "openfairygui://docs/diagnostics/stale_write",
        "openfairygui://contracts/operations/{kind}": "openfairygui://contracts/operations/addResource",
        "openfairygui://backend/session/{sessionId}": f"openfairygui://backend/session/{sid}",
        "openfairygui://backend/session/{sessionId}/outline": f"openfairygui://backend/session/{sid}/outline",
        "openfairygui://backend/cache/{sessionId}": f"openfairygui://backend/cache/{sid}",
    }
    preview = "openfairygui://backend/session/{sessionId}/preview/{packageId}/{componentResourceId}"
    offered = [template.uri_template for template in templates.resource_templates]
    if sorted(offered) != sorted([*examples, preview]):
        fail(f"resource templates changed: {offered}")
    for template, uri in examples.items():
        read = await client.read_resource(uri)
        value = json.loads(read.contents[0].text)
        if template.startswith("openfairygui://backend/") and value.get("ok") is not True:
            fail(f"{uri} is not an ok envelope: {read.contents[0].text[:300]}")
    # A preview is a PNG blob of a component the outline lists.
    outline = json.loads((await client.read_resource(examples["openfairygui://backend/session/{sessionId}/outline"])).contents[0].text)
    package, component = next(
        (package["id"], resource["id"])
        for package in outline["data"]["packages"]
        for resource in package["resources"]
        if resource["kind"] == "component"
    )
    read = await client.read_resource(f"openfairygui://backend/session/{sid}/preview/{package}/{component}")
    contents = read.contents[0]
    if contents.mime_type != "image/png" or not base64.b64decode(contents.blob).startswith(b"\x89PNG"):
        fail(f"the preview of {package}/{component} is not a PNG: {str(contents)[:300]}")


async def get_every_prompt(client: Client) -> None:
    prompts = await client.list_prompts()
    if len(prompts.prompts) != 6:
        fail(f"prompts/list has {len(prompts.prompts)} prompts")
    for prompt in prompts.prompts:
        got = await client.get_prompt(prompt.name)
        text = got.messages[0].content.text
        if PREFIX not in text:
            fail(f"prompt {prompt.name} names no tool")


async def read_docs(client: Client) -> None:
    """openfairygui_docs_read: the index, then a document by its id."""
    index = await client.call_tool("openfairygui_docs_read", {})
    if index.is_error:
        fail("openfairygui_docs_read failed on the index")
    ids = [document["id"] for document in json.loads(index.content[0].text)["documents"]]
    workflow = await client.call_tool("openfairygui_docs_read", {"id": "workflow"})
    if workflow.is_error or "workflow" not in ids:
        fail("openfairygui_docs_read did not read the workflow")
    unknown = await client.call_tool("openfairygui_docs_read", {"id": "../secret"})
    if not unknown.is_error:
        fail("openfairygui_docs_read read an id the index does not list")


async def document_session(s: Session, sid: str, packages: list[dict[str, Any]], project: str) -> None:
    """A session over one package of the project given as a document, with its files' bytes:
    it cannot be saved until it is materialized into a new directory, which then holds it."""
    for package in sorted(packages, key=lambda p: p["resourceCount"])[:5]:
        state = await s.call(
            "read_session_state", {"sessionId": sid, "scope": {"packageIds": [package["id"]]}}
        )
        document = state["project"]
        revision = state["revision"]
        complete = True
        for resource in document["packages"][0]["resources"]:
            if resource["kind"] == "component":
                continue
            read = await s.client.call_tool(
                PREFIX + "read_resource_bytes",
                {
                    "sessionId": sid,
                    "expectedRevision": revision,
                    "selector": {"packageId": package["id"], "resourceId": resource["id"]},
                },
            )
            if read.is_error:
                complete = False
                break
            resource["sourceBytes"] = read.structured_content["backendResult"]["data"]["sourceBytes"]
            s.calls.append("read_resource_bytes")
        if not complete:
            continue
        opened = await s.call("open_project_session", {"project": document})
        memory = opened["sessionId"]
        report = await s.call("validate_session", {"sessionId": memory})
        if report["status"] != "valid":
            await s.call("close_session", {"sessionId": memory})
            continue
        refused = await s.call("save_session", {"sessionId": memory, "expectedRevision": 0}, expect_ok=False)
        if refused is not None:
            fail("a document session saved without a directory")
        target = project + "-materialized"
        written = await s.call(
            "materialize_session", {"sessionId": memory, "expectedRevision": 0, "targetPath": target}
        )
        if not written["writtenPaths"] or written["lockHeld"] is not True:
            fail(f"materialize_session wrote nothing or holds no lock: {written}")
        await s.call("close_session", {"sessionId": memory})
        return
    fail("no small package of the project could be given as a document and materialized")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--project", required=True)
    parser.add_argument("--server-log", required=True)
    parser.add_argument("--mode", choices=["legacy", "auto"], default="auto")
    parser.add_argument("server", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    server = args.server[1:] if args.server[:1] == ["--"] else args.server
    if not server:
        parser.error("missing the server command after --")
    # Warnings must reach stderr, where the caller counts them: every category, every time.
    warnings.simplefilter("default")
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    summary = anyio.run(run, args.project, server, args.server_log, args.mode)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
