#!/usr/bin/env python3
"""Validates JSON bodies against schemas of the Iceberg REST OpenAPI document.

Usage: validate_openapi.py OPENAPI.yaml BODIES.jsonl

Each line of BODIES.jsonl is {"schema": "<name in components/schemas>", "body": <json>}.
Prints one line per invalid body and exits 1 when any is invalid, 0 when all are valid, 3 when
openapi-schema-validator is missing (the caller skips).
"""
import json
import sys

try:
    import yaml
    from openapi_schema_validator import OAS30Validator, OAS31Validator
except ImportError as missing:
    print(f"missing Python module: {missing}")
    sys.exit(3)


def main():
    with open(sys.argv[1]) as f:
        document = yaml.safe_load(f)
    components = document["components"]
    # The document says which dialect its schemas are written in (3.1 has JSON Schema's const).
    validator = OAS31Validator if str(document["openapi"]).startswith("3.1") else OAS30Validator
    invalid = 0
    count = 0
    with open(sys.argv[2]) as f:
        for line in f:
            if not line.strip():
                continue
            item = json.loads(line)
            name = item["schema"]
            if name not in components["schemas"]:
                print(f"{name}: no such schema")
                invalid += 1
                continue
            schema = {"$ref": f"#/components/schemas/{name}", "components": components}
            errors = list(validator(schema).iter_errors(item["body"]))
            count += 1
            for error in errors[:3]:
                path = "/".join(str(p) for p in error.absolute_path)
                print(f"{name} at /{path}: {error.message[:300]}")
            invalid += bool(errors)
    print(f"{count} bodies, {invalid} invalid")
    sys.exit(1 if invalid else 0)


if __name__ == "__main__":
    main()
