"""Prints the SigV4 Authorization header botocore computes for a request floe sent.

Usage: sigv4_botocore.py REQUEST.json, where the JSON object holds method, url, headers (the
signed ones, x-amz-date among them), body, access_key, secret_key, region and service. The
signing time is the request's own x-amz-date, so the result is comparable to what floe sent.
"""

import json
import sys

from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        spec = json.load(f)
    request = AWSRequest(method=spec["method"], url=spec["url"],
                         data=spec["body"].encode(), headers=spec["headers"])
    request.context["timestamp"] = spec["headers"]["x-amz-date"]
    auth = SigV4Auth(Credentials(spec["access_key"], spec["secret_key"]),
                     spec["service"], spec["region"])
    canonical = auth.canonical_request(request)
    signature = auth.signature(auth.string_to_sign(request, canonical), request)
    signed = auth.signed_headers(auth.headers_to_sign(request))
    print(f"AWS4-HMAC-SHA256 Credential={auth.scope(request)}, "
          f"SignedHeaders={signed}, Signature={signature}")


if __name__ == "__main__":
    main()
