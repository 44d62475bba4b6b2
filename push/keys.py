"""The VAPID key pair that identifies this site to the browsers' push services.

In production both keys come from the environment (VAPID_PRIVATE_KEY as base64url of the
raw 32-byte P-256 private key, VAPID_PUBLIC_KEY as base64url of the uncompressed public
point). Without them, `make run` and the tests generate a pair once into var/vapid.json,
so push works with no set-up.
"""

import base64
import json
import time
from functools import cache
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _generate() -> dict:
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(serialization.Encoding.X962,
                                           serialization.PublicFormat.UncompressedPoint)
    return {"private": _b64(private), "public": _b64(public)}


@cache
def vapid() -> dict:
    """{"private": ..., "public": ...}: from the settings, else var/vapid.json (made once)."""
    if settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY:
        return {"private": settings.VAPID_PRIVATE_KEY, "public": settings.VAPID_PUBLIC_KEY}
    path = Path(settings.VAR_DIR) / "vapid.json"
    path.parent.mkdir(exist_ok=True)
    try:
        # Exclusive creation: of several processes starting at once, one writes the pair
        # and the others read it.
        with open(path, "x") as made:
            made.write(json.dumps(_generate()))
        path.chmod(0o600)
    except FileExistsError:
        pass
    for _attempt in range(50):
        text = path.read_text()
        if text:
            return json.loads(text)
        time.sleep(0.01)  # another process is writing it this instant
    raise RuntimeError(f"{path} stays empty")


def public_key() -> str:
    return vapid()["public"]
