#!/usr/bin/env python3
"""Summarize a `terraform show -json` plan and flag risky resource changes."""
import json
import sys
from collections import Counter

STATEFUL = ("aws_db_instance", "aws_rds_cluster", "aws_s3_bucket", "aws_ebs_volume", "aws_dynamodb_table",
            "google_sql_database_instance", "azurerm_storage_account", "aws_route53_zone")


def risky(rc: dict) -> list[str]:
    actions, after = rc["change"]["actions"], rc["change"].get("after") or {}
    notes = []
    if "delete" in actions and rc["type"].startswith(STATEFUL):
        notes.append("stateful resource deleted or replaced")
    text = json.dumps(after)
    if "0.0.0.0/0" in text:
        notes.append("open to the internet (0.0.0.0/0)")
    if '"Action": "*"' in text or '"Resource": "*"' in text:
        notes.append("IAM wildcard")
    if after.get("force_destroy") or after.get("skip_final_snapshot"):
        notes.append("data-loss flag set")
    return notes


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: plan_summary.py plan.json")
    with open(sys.argv[1]) as f:
        plan = json.load(f)
    changes = [rc for rc in plan.get("resource_changes", []) if rc["change"]["actions"] != ["no-op"]]
    counts = Counter("/".join(rc["change"]["actions"]) for rc in changes)
    print("changes:", ", ".join(f"{k}={v}" for k, v in sorted(counts.items())) or "none")
    for rc in changes:
        notes = risky(rc)
        if notes or "delete" in rc["change"]["actions"]:
            print(f"! {rc['address']}: {'/'.join(rc['change']['actions'])} - {'; '.join(notes) or 'destroy'}")


if __name__ == "__main__":
    main()
