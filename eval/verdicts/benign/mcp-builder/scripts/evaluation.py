#!/usr/bin/env python3
"""Ask Claude each evaluation question with the MCP server's tools attached and score the answers."""
import argparse
import asyncio
import os
import sys
import xml.etree.ElementTree as ET

from anthropic import Anthropic
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

MODEL = "claude-sonnet-4-5"


def load_questions(path: str) -> list[tuple[str, str]]:
    root = ET.parse(path).getroot()
    return [(qa.findtext("question", "").strip(), qa.findtext("answer", "").strip()) for qa in root.iter("qa_pair")]


async def ask(client: Anthropic, session: ClientSession, question: str) -> str:
    tools = [{"name": t.name, "description": t.description or "", "input_schema": t.inputSchema}
             for t in (await session.list_tools()).tools]
    messages = [{"role": "user", "content": question}]
    for _ in range(20):  # bounded agent loop
        resp = client.messages.create(model=MODEL, max_tokens=4096, tools=tools, messages=messages)
        messages.append({"role": "assistant", "content": resp.content})
        calls = [b for b in resp.content if b.type == "tool_use"]
        if not calls:
            return "".join(b.text for b in resp.content if b.type == "text")
        results = []
        for c in calls:
            r = await session.call_tool(c.name, c.input)
            results.append({"type": "tool_result", "tool_use_id": c.id,
                            "content": "".join(getattr(x, "text", "") for x in r.content)})
        messages.append({"role": "user", "content": results})
    return ""


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("-t", "--transport", choices=["stdio"], default="stdio")
    ap.add_argument("-c", "--command", required=True)
    ap.add_argument("-a", "--args", nargs="*", default=[])
    ap.add_argument("questions")
    a = ap.parse_args()
    if "ANTHROPIC_API_KEY" not in os.environ:
        sys.exit("set ANTHROPIC_API_KEY")
    client = Anthropic(api_key=os.environ["ANTHROPIC_API_KEY"], timeout=120)
    params = StdioServerParameters(command=a.command, args=a.args)
    correct = 0
    qs = load_questions(a.questions)
    async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
        await session.initialize()
        for q, expected in qs:
            got = await ask(client, session, q)
            ok = expected.lower() in got.lower()
            correct += ok
            print(f"{'PASS' if ok else 'FAIL'}  {q[:60]}")
    print(f"\n{correct}/{len(qs)} correct")


if __name__ == "__main__":
    asyncio.run(main())
